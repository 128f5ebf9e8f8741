/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-link-retry-trailer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaLinkRetryTrailer);

TypeId
RdmaLinkRetryTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLinkRetryTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaLinkRetryTrailer>();
    return tid;
}

TypeId
RdmaLinkRetryTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RdmaLinkRetryTrailer::SetSequence(uint16_t sequence)
{
    m_sequence = sequence;
}

uint16_t
RdmaLinkRetryTrailer::GetSequence() const
{
    return m_sequence;
}

void
RdmaLinkRetryTrailer::Print(std::ostream& os) const
{
    os << "llr-seq=" << m_sequence;
}

uint32_t
RdmaLinkRetryTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaLinkRetryTrailer::Serialize(Buffer::Iterator end) const
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    i.WriteHtonU16(m_sequence);
}

uint32_t
RdmaLinkRetryTrailer::Deserialize(Buffer::Iterator end)
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    m_sequence = i.ReadNtohU16();
    return SIZE;
}

} // namespace ns3
