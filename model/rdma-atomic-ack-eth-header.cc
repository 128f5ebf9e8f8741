/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-atomic-ack-eth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAtomicAckEthHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaAtomicAckEthHeader);

TypeId
RdmaAtomicAckEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAtomicAckEthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAtomicAckEthHeader>();
    return tid;
}

TypeId
RdmaAtomicAckEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaAtomicAckEthHeader::RdmaAtomicAckEthHeader()
    : m_originalRemoteData(0)
{
}

void
RdmaAtomicAckEthHeader::SetOriginalRemoteData(uint64_t data)
{
    m_originalRemoteData = data;
}

uint64_t
RdmaAtomicAckEthHeader::GetOriginalRemoteData() const
{
    return m_originalRemoteData;
}

void
RdmaAtomicAckEthHeader::Print(std::ostream& os) const
{
    os << "AtomicAckETH original=" << m_originalRemoteData;
}

uint32_t
RdmaAtomicAckEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaAtomicAckEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_originalRemoteData);
}

uint32_t
RdmaAtomicAckEthHeader::Deserialize(Buffer::Iterator start)
{
    m_originalRemoteData = start.ReadNtohU64();
    return SIZE;
}

} // namespace ns3
