/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-placement-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPlacementHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaPlacementHeader);

TypeId
RdmaPlacementHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPlacementHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaPlacementHeader>();
    return tid;
}

TypeId
RdmaPlacementHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaPlacementHeader::RdmaPlacementHeader()
    : m_msn(0),
      m_offset(0)
{
}

void
RdmaPlacementHeader::SetMessageSequence(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > 0xFFFFFF,
                    "RdmaPlacementHeader: message sequence number " << msn << " exceeds 24 bits");
    m_msn = msn;
}

uint32_t
RdmaPlacementHeader::GetMessageSequence() const
{
    return m_msn;
}

void
RdmaPlacementHeader::SetOffset(uint32_t offset)
{
    m_offset = offset;
}

uint32_t
RdmaPlacementHeader::GetOffset() const
{
    return m_offset;
}

void
RdmaPlacementHeader::Print(std::ostream& os) const
{
    os << "Placement msn=" << m_msn << " offset=" << m_offset;
}

uint32_t
RdmaPlacementHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaPlacementHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU32(m_msn & 0xFFFFFF);
    i.WriteHtonU32(m_offset);
}

uint32_t
RdmaPlacementHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_msn = i.ReadNtohU32() & 0xFFFFFF;
    m_offset = i.ReadNtohU32();
    return SIZE;
}

} // namespace ns3
