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
            if (!d)
            {
                continue;
            }
            if (!sw)
            {
                m_hostDevices.push_back(d);
                d->TraceConnectWithoutContext("MacTx",
                                              MakeCallback(&RdmaConservationMonitor::HostTx, this));
                d->TraceConnectWithoutContext("MacRx",
                                              MakeCallback(&RdmaConservationMonitor::HostRx, this));
            }
            d->TraceConnectWithoutContext("PhyTxBegin",
                                          MakeCallback(&RdmaConservationMonitor::WireTx, this));
            d->TraceConnectWithoutContext("PhyRxEnd",
                                          MakeCallback(&RdmaConservationMonitor::WireRx, this));
            d->TraceConnectWithoutContext("PhyRxDrop",
                                          MakeCallback(&RdmaConservationMonitor::LinkDrop, this));
        }
    }
}

uint64_t
RdmaConservationMonitor::Ipv4Bytes(Ptr<const Packet> frame)
{
    uint8_t eth[RdmaNetDevice::ETHERNET_HEADER_BYTES];
    if (frame->CopyData(eth, sizeof(eth)) < sizeof(eth))
    {
        return 0;
    }
    const uint16_t etherType = static_cast<uint16_t>((eth[12] << 8) | eth[13]);
    if (etherType != RdmaNetDevice::ETHERTYPE_IPV4)
    {
        return 0;
    }
    return frame->GetSize() - RdmaNetDevice::ETHERNET_HEADER_BYTES;
}

void
RdmaConservationMonitor::HostTx(Ptr<const Packet> packet)
{
    m_sent += packet->GetSize();
}

void
RdmaConservationMonitor::HostRx(Ptr<const Packet> packet)
{
    m_delivered += packet->GetSize();
}

void
RdmaConservationMonitor::WireTx(Ptr<const Packet> frame)
{
    m_wireTx += Ipv4Bytes(frame);
}

void
RdmaConservationMonitor::WireRx(Ptr<const Packet> frame)
{
    m_wireRx += Ipv4Bytes(frame);
}

void
RdmaConservationMonitor::LinkDrop(Ptr<const Packet> frame)
{
    // A frame the receive error model corrupted never reached PhyRxEnd: it left the wire
    // here. (A frame dropped after PhyRxEnd, a runt or another EtherType, is not IPv4.)
    const uint64_t bytes = Ipv4Bytes(frame);
    m_linkDrops += bytes;
    m_wireRx += bytes;
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
    for (const auto& d : m_hostDevices)
    {
        for (uint8_t c = 0; c < RdmaNetDevice::NUM_CLASSES; ++c)
        {
            queued += d->GetQueueBytes(c);
        }
    }
    return queued;
}

uint64_t
RdmaConservationMonitor::GetSent() const
{
    return m_sent;
}

uint64_t
RdmaConservationMonitor::GetDelivered() const
{
    return m_delivered;
}

std::map<std::string, uint64_t>
RdmaConservationMonitor::GetSwitchDrops() const
{
    return m_switchDrops;
}

uint64_t
RdmaConservationMonitor::GetLinkDrops() const
{
    return m_linkDrops;
}

uint64_t
RdmaConservationMonitor::GetDropped() const
{
    uint64_t dropped = m_linkDrops;
    for (const auto& [reason, bytes] : m_switchDrops)
    {
        dropped += bytes;
    }
    return dropped;
}

uint64_t
RdmaConservationMonitor::GetInFlight() const
{
    return SwitchHeld() + DeviceQueued() + (m_wireTx - m_wireRx);
}

int64_t
RdmaConservationMonitor::GetImbalance() const
{
    return static_cast<int64_t>(m_sent) -
           static_cast<int64_t>(m_delivered + GetDropped() + GetInFlight());
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
    os << "conservation: sent " << m_sent << " B = delivered " << m_delivered << " + dropped "
       << GetDropped() << " (";
    for (const auto& [reason, bytes] : m_switchDrops)
    {
        os << reason << " " << bytes << ", ";
    }
    os << "link " << m_linkDrops << ") + in flight " << GetInFlight() << " (switch buffers "
       << SwitchHeld() << ", host queues " << DeviceQueued() << ", on wire " << m_wireTx - m_wireRx
       << "): ";
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
