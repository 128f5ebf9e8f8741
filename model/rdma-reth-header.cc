/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-reth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRethHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaRethHeader);

TypeId
RdmaRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRethHeader>();
    return tid;
}

TypeId
RdmaRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaRethHeader::RdmaRethHeader()
    : m_virtualAddress(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

void
RdmaRethHeader::SetVirtualAddress(uint64_t va)
{
    m_virtualAddress = va;
}

uint64_t
RdmaRethHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
RdmaRethHeader::SetRKey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RdmaRethHeader::GetRKey() const
{
    return m_rkey;
}

void
RdmaRethHeader::SetDmaLength(uint32_t length)
{
    m_dmaLength = length;
}

uint32_t
RdmaRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

void
RdmaRethHeader::Print(std::ostream& os) const
{
    os << "RETH va=0x" << std::hex << m_virtualAddress << " rkey=0x" << m_rkey << std::dec
       << " len=" << m_dmaLength;
}

uint32_t
RdmaRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaRethHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU64(m_virtualAddress);
    i.WriteHtonU32(m_rkey);
    i.WriteHtonU32(m_dmaLength);
}

uint32_t
RdmaRethHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_virtualAddress = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return SIZE;
}

} // namespace ns3
