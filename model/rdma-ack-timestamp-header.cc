/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-ack-timestamp-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAckTimestampHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaAckTimestampHeader);

TypeId
RdmaAckTimestampHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAckTimestampHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAckTimestampHeader>();
    return tid;
}

TypeId
RdmaAckTimestampHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaAckTimestampHeader::RdmaAckTimestampHeader()
    : m_t2Ns(0),
      m_t3Ns(0),
      m_hops(0)
{
}

void
RdmaAckTimestampHeader::SetReceiveTime(Time t)
{
    m_t2Ns = static_cast<uint32_t>(static_cast<uint64_t>(t.GetNanoSeconds()));
}

uint32_t
RdmaAckTimestampHeader::GetReceiveTimeNs() const
{
    return m_t2Ns;
}

void
RdmaAckTimestampHeader::SetTransmitTime(Time t)
{
    m_t3Ns = static_cast<uint32_t>(static_cast<uint64_t>(t.GetNanoSeconds()));
}

uint32_t
RdmaAckTimestampHeader::GetTransmitTimeNs() const
{
    return m_t3Ns;
}

Time
RdmaAckTimestampHeader::GetResponderDelay() const
{
    return NanoSeconds(static_cast<uint32_t>(m_t3Ns - m_t2Ns)); // modulo 2^32
}

void
RdmaAckTimestampHeader::SetHops(uint8_t hops)
{
    m_hops = hops;
}

uint8_t
RdmaAckTimestampHeader::GetHops() const
{
    return m_hops;
}

uint32_t
RdmaAckTimestampHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaAckTimestampHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_t2Ns);
    start.WriteHtonU32(m_t3Ns);
    start.WriteU8(m_hops);
    start.WriteU8(0);
    start.WriteU16(0);
}

uint32_t
RdmaAckTimestampHeader::Deserialize(Buffer::Iterator start)
{
    m_t2Ns = start.ReadNtohU32();
    m_t3Ns = start.ReadNtohU32();
    m_hops = start.ReadU8();
    start.Next(3);
    return SIZE;
}

void
RdmaAckTimestampHeader::Print(std::ostream& os) const
{
    os << "t2=" << m_t2Ns << "ns t3=" << m_t3Ns << "ns hops=" << +m_hops;
}

} // namespace ns3
