/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-conservation-monitor.h"

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-switch-mmu.h"
#include "ns3/rdma-switch.h"

namespace ns3
{

RdmaConservationMonitor::RdmaConservationMonitor()
{
}

void
RdmaConservationMonitor::Install(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<Node> node = *it;
        Ptr<RdmaSwitch> sw = node->GetObject<RdmaSwitch>();
        if (sw)
        {
            m_switches.push_back(sw);
            sw->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&RdmaConservationMonitor::SwitchDrop, this));
        }
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(node->GetDevice(i));
            if (d)
            {
                m_devices.push_back(d);
                m_baseline.push_back(Read(d));
                m_isHost.push_back(!sw);
            }
        }
    }
}

RdmaConservationMonitor::DeviceCounters
RdmaConservationMonitor::Read(const Ptr<RdmaNetDevice>& device)
{
    DeviceCounters c;
    c.macTx = device->GetMacTxBytes();
    c.ipv4Tx = device->GetIpv4TxBytes();
    c.ipv4Rx = device->GetIpv4RxBytes();
    c.corrupted = device->GetIpv4CorruptedBytes();
    return c;
}

RdmaConservationMonitor::DeviceCounters
RdmaConservationMonitor::Sum(bool hostsOnly) const
{
    DeviceCounters sum;
    for (size_t i = 0; i < m_devices.size(); ++i)
    {
        if (hostsOnly && !m_isHost[i])
        {
            continue;
        }
        const DeviceCounters now = Read(m_devices[i]);
        sum.macTx += now.macTx - m_baseline[i].macTx;
        sum.ipv4Tx += now.ipv4Tx - m_baseline[i].ipv4Tx;
        sum.ipv4Rx += now.ipv4Rx - m_baseline[i].ipv4Rx;
        sum.corrupted += now.corrupted - m_baseline[i].corrupted;
    }
    return sum;
}

void
RdmaConservationMonitor::SwitchDrop(Ptr<const Packet> packet,
                                    const char* reason,
                                    uint32_t /* port */,
                                    uint8_t /* cls */)
{
    m_switchDrops[reason] += packet->GetSize();
}

uint64_t
RdmaConservationMonitor::SwitchHeld() const
{
    uint64_t held = 0;
    for (const auto& sw : m_switches)
    {
        held += sw->GetMmu()->GetTotalUsed();
    }
    return held;
}

uint64_t
RdmaConservationMonitor::DeviceQueued() const
{
    uint64_t queued = 0;
    // A switch port's queue is part of the switch's buffer (SwitchHeld): hosts only.
    for (size_t i = 0; i < m_devices.size(); ++i)
    {
        for (uint8_t c = 0; m_isHost[i] && c < RdmaNetDevice::NUM_CLASSES; ++c)
        {
            queued += m_devices[i]->GetQueueBytes(c);
        }
    }
    return queued;
}

uint64_t
RdmaConservationMonitor::GetSent() const
{
    return Sum(true).macTx;
}

uint64_t
RdmaConservationMonitor::GetDelivered() const
{
    return Sum(true).ipv4Rx;
}

std::map<std::string, uint64_t>
RdmaConservationMonitor::GetSwitchDrops() const
{
    return m_switchDrops;
}

uint64_t
RdmaConservationMonitor::GetLinkDrops() const
{
    return Sum(false).corrupted;
}

uint64_t
RdmaConservationMonitor::GetDropped() const
{
    uint64_t dropped = GetLinkDrops();
    for (const auto& [reason, bytes] : m_switchDrops)
    {
        dropped += bytes;
    }
    return dropped;
}

uint64_t
RdmaConservationMonitor::GetInFlight() const
{
    const DeviceCounters all = Sum(false);
    return SwitchHeld() + DeviceQueued() + (all.ipv4Tx - all.ipv4Rx - all.corrupted);
}

int64_t
RdmaConservationMonitor::GetImbalance() const
{
    return static_cast<int64_t>(GetSent()) -
           static_cast<int64_t>(GetDelivered() + GetDropped() + GetInFlight());
}

void
RdmaConservationMonitor::Print(std::ostream& os,
                               uint64_t postedBytes,
                               uint64_t completedBytes) const
{
    os << "posted " << postedBytes << " B, completed " << completedBytes << " B; ";
    Print(os);
}

void
RdmaConservationMonitor::Print(std::ostream& os) const
{
    const DeviceCounters all = Sum(false);
    os << "conservation: sent " << GetSent() << " B = delivered " << GetDelivered() << " + dropped "
       << GetDropped() << " (";
    for (const auto& [reason, bytes] : m_switchDrops)
    {
        os << reason << " " << bytes << ", ";
    }
    os << "link " << all.corrupted << ") + in flight " << GetInFlight() << " (switch buffers "
       << SwitchHeld() << ", host queues " << DeviceQueued() << ", on wire "
       << all.ipv4Tx - all.ipv4Rx - all.corrupted << "): ";
    const int64_t imbalance = GetImbalance();
    if (imbalance == 0)
    {
        os << "balanced\n";
    }
    else
    {
        os << "IMBALANCE " << imbalance << " B\n";
    }
}

} // namespace ns3
