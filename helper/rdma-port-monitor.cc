/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-port-monitor.h"

#include "rdma-output-helper.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

RdmaPortMonitor::RdmaPortMonitor(const std::string& csvPath, Time period, Time stop)
    : m_period(period),
      m_stop(stop)
{
    NS_ABORT_MSG_IF(!period.IsStrictlyPositive(),
                    "RdmaPortMonitor: period " << period << " is invalid; valid: > 0");
    RdmaOutputHelper::CreateParentDirectories(csvPath);
    m_csv = std::make_unique<std::ofstream>(csvPath);
    NS_ABORT_MSG_IF(!*m_csv, "RdmaPortMonitor: cannot write '" << csvPath << "'");
    *m_csv << "time_us,node,port,utilisation,queue_bytes,paused_us\n";
}

RdmaPortMonitor::~RdmaPortMonitor()
{
    m_next.Cancel();
}

void
RdmaPortMonitor::Install(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>((*it)->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            auto p = std::make_unique<Port>();
            p->device = dev;
            p->node = (*it)->GetId();
            p->index = d;
            p->txWireBytes = dev->GetTxWireBytes();
            dev->TraceConnectWithoutContext(
                "PfcRx",
                MakeBoundCallback(&RdmaPortMonitor::PfcReceived, p.get()));
            m_ports.push_back(std::move(p));
        }
    }
    if (!m_next.IsRunning() && Simulator::Now() + m_period <= m_stop)
    {
        m_next = Simulator::Schedule(m_period, &RdmaPortMonitor::Sample, this);
    }
}

void
RdmaPortMonitor::Stop()
{
    m_next.Cancel();
    m_csv->flush();
}

uint64_t
RdmaPortMonitor::GetSamples() const
{
    return m_samples;
}

void
RdmaPortMonitor::PfcReceived(Port* p, uint8_t cls, uint16_t quanta)
{
    const Time now = Simulator::Now();
    // Count the pause in force so far (it may have expired before this frame).
    const Time end = std::min(now, p->pausedUntil[cls]);
    if (end > p->countedFrom[cls])
    {
        p->pausedInPeriod[cls] += end - p->countedFrom[cls];
    }
    p->countedFrom[cls] = now;
    // A resume ends the pause now; a pause holds the class for quanta x 512 bit times.
    p->pausedUntil[cls] = quanta == 0 ? now : now + p->device->GetQuantumTime() * quanta;
}

void
RdmaPortMonitor::Sample()
{
    const Time now = Simulator::Now();
    const double period = m_period.GetSeconds();
    for (const auto& p : m_ports)
    {
        const uint64_t wire = p->device->GetTxWireBytes();
        const double utilisation =
            (wire - p->txWireBytes) * 8.0 /
            (static_cast<double>(p->device->GetDataRate().GetBitRate()) * period);
        p->txWireBytes = wire;
        uint64_t queue = 0;
        Time paused(0);
        for (uint8_t c = 0; c < 8; ++c)
        {
            queue += p->device->GetQueueBytes(c);
            const Time end = std::min(now, p->pausedUntil[c]);
            if (end > p->countedFrom[c])
            {
                p->pausedInPeriod[c] += end - p->countedFrom[c];
            }
            p->countedFrom[c] = now;
            paused = std::max(paused, p->pausedInPeriod[c]);
            p->pausedInPeriod[c] = Time(0);
        }
        *m_csv << now.GetSeconds() * 1e6 << ',' << p->node << ',' << p->index << ',' << utilisation
               << ',' << queue << ',' << paused.GetSeconds() * 1e6 << '\n';
        ++m_samples;
    }
    if (now + m_period <= m_stop)
    {
        m_next = Simulator::Schedule(m_period, &RdmaPortMonitor::Sample, this);
    }
    else
    {
        m_csv->flush();
    }
}

} // namespace ns3
