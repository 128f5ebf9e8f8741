/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-atomic-eth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAtomicEthHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaAtomicEthHeader);

TypeId
RdmaAtomicEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAtomicEthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAtomicEthHeader>();
    return tid;
}

TypeId
RdmaAtomicEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaAtomicEthHeader::RdmaAtomicEthHeader()
    : m_virtualAddress(0),
      m_rkey(0),
      m_swapAddData(0),
      m_compareData(0)
{
}

void
RdmaAtomicEthHeader::SetVirtualAddress(uint64_t va)
{
    m_virtualAddress = va;
}

uint64_t
RdmaAtomicEthHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
RdmaAtomicEthHeader::SetRKey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RdmaAtomicEthHeader::GetRKey() const
{
    return m_rkey;
}

void
RdmaAtomicEthHeader::SetSwapAddData(uint64_t data)
{
    m_swapAddData = data;
}

uint64_t
RdmaAtomicEthHeader::GetSwapAddData() const
{
    return m_swapAddData;
}

void
RdmaAtomicEthHeader::SetCompareData(uint64_t data)
{
    m_compareData = data;
}

uint64_t
RdmaAtomicEthHeader::GetCompareData() const
{
    return m_compareData;
}

void
RdmaAtomicEthHeader::Print(std::ostream& os) const
{
    os << "AtomicETH va=0x" << std::hex << m_virtualAddress << " rkey=0x" << m_rkey << std::dec
       << " swapAdd=" << m_swapAddData << " compare=" << m_compareData;
}

uint32_t
RdmaAtomicEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaAtomicEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_virtualAddress);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU64(m_swapAddData);
    start.WriteHtonU64(m_compareData);
}

uint32_t
RdmaAtomicEthHeader::Deserialize(Buffer::Iterator start)
{
    m_virtualAddress = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
    m_swapAddData = start.ReadNtohU64();
    m_compareData = start.ReadNtohU64();
    return SIZE;
}

} // namespace ns3
