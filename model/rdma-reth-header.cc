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
RdmaRethHeader::Write(uint8_t* b) const
{
    for (int k = 0; k < 8; ++k)
    {
        b[k] = static_cast<uint8_t>(m_virtualAddress >> (56 - 8 * k));
    }
    for (int k = 0; k < 4; ++k)
    {
        b[8 + k] = static_cast<uint8_t>(m_rkey >> (24 - 8 * k));
        b[12 + k] = static_cast<uint8_t>(m_dmaLength >> (24 - 8 * k));
    }
}

void
RdmaRethHeader::Read(const uint8_t* b)
{
    m_virtualAddress = 0;
    m_rkey = 0;
    m_dmaLength = 0;
    for (int k = 0; k < 8; ++k)
    {
        m_virtualAddress = (m_virtualAddress << 8) | b[k];
    }
    for (int k = 0; k < 4; ++k)
    {
        m_rkey = (m_rkey << 8) | b[8 + k];
        m_dmaLength = (m_dmaLength << 8) | b[12 + k];
    }
}

void
RdmaRethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RdmaRethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
