/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-int-trailer.h"

#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaIntTrailer);

TypeId
RdmaIntTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaIntTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaIntTrailer>();
    return tid;
}

TypeId
RdmaIntTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaIntTrailer::RdmaIntTrailer()
{
    std::memset(m_bytes, 0, SIZE);
}

void
RdmaIntTrailer::SetArea(const RdmaIntHeader& area)
{
    area.Write(m_bytes);
    std::memset(m_bytes + RdmaIntHeader::SIZE, 0, RdmaIcrcTrailer::SIZE);
}

RdmaIntHeader
RdmaIntTrailer::GetArea() const
{
    RdmaIntHeader area;
    area.Read(m_bytes);
    return area;
}

uint8_t*
RdmaIntTrailer::GetAreaBytes()
{
    return m_bytes;
}

const uint8_t*
RdmaIntTrailer::GetAreaBytes() const
{
    return m_bytes;
}

void
RdmaIntTrailer::Print(std::ostream& os) const
{
    GetArea().Print(os);
    os << " ICRC";
}

uint32_t
RdmaIntTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaIntTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(SIZE);
    end.Write(m_bytes, SIZE);
}

uint32_t
RdmaIntTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    end.Read(m_bytes, SIZE);
    return SIZE;
}

} // namespace ns3
