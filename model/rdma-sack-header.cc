/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-sack-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSackHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaSackHeader);

TypeId
RdmaSackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaSackHeader>();
    return tid;
}

TypeId
RdmaSackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaSackHeader::RdmaSackHeader()
    : m_triggerPsn(0),
      m_duplicate(false)
{
}

void
RdmaSackHeader::SetDuplicate(bool duplicate)
{
    m_duplicate = duplicate;
}

bool
RdmaSackHeader::GetDuplicate() const
{
    return m_duplicate;
}

void
RdmaSackHeader::SetTriggerPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > 0xFFFFFF, "RdmaSackHeader: trigger PSN " << psn << " exceeds 24 bits");
    m_triggerPsn = psn;
}

uint32_t
RdmaSackHeader::GetTriggerPsn() const
{
    return m_triggerPsn;
}

void
RdmaSackHeader::SetReceived(uint32_t offset)
{
    NS_ABORT_MSG_IF(offset >= MAX_BITS,
                    "RdmaSackHeader: PSN offset " << offset << " beyond the largest bitmap ("
                                                  << MAX_BITS << " PSNs)");
    const uint32_t word = offset / 32;
    if (word >= m_words.size())
    {
        m_words.resize(word + 1, 0);
    }
    m_words[word] |= 0x80000000u >> (offset % 32);
}

bool
RdmaSackHeader::IsReceived(uint32_t offset) const
{
    const uint32_t word = offset / 32;
    return word < m_words.size() && (m_words[word] & (0x80000000u >> (offset % 32))) != 0;
}

uint32_t
RdmaSackHeader::GetBitmapBits() const
{
    return 32 * static_cast<uint32_t>(m_words.size());
}

const std::vector<uint32_t>&
RdmaSackHeader::GetWords() const
{
    return m_words;
}

void
RdmaSackHeader::ClearBitmap()
{
    m_words.clear();
}

void
RdmaSackHeader::Print(std::ostream& os) const
{
    os << "SACK D=" << m_duplicate << " trigger=" << m_triggerPsn << " received=[";
    // Ranges of received offsets, relative to the first missing PSN + 1.
    const uint32_t bits = GetBitmapBits();
    bool first = true;
    for (uint32_t i = 0; i < bits;)
    {
        if (!IsReceived(i))
        {
            ++i;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < bits && IsReceived(j + 1))
        {
            ++j;
        }
        os << (first ? "" : ",") << "+" << i + 1;
        if (j > i)
        {
            os << "..+" << j + 1;
        }
        first = false;
        i = j + 1;
    }
    os << "]";
}

uint32_t
RdmaSackHeader::GetSerializedSize() const
{
    return FIXED_SIZE + 4 * static_cast<uint32_t>(m_words.size());
}

void
RdmaSackHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(static_cast<uint8_t>((m_duplicate ? 0x80 : 0) | m_words.size()));
    i.WriteU8(static_cast<uint8_t>(m_triggerPsn >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_triggerPsn & 0xFFFF));
    for (uint32_t w : m_words)
    {
        i.WriteHtonU32(w);
    }
}

uint32_t
RdmaSackHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    const uint8_t b0 = i.ReadU8();
    m_duplicate = (b0 & 0x80) != 0;
    const uint32_t words = b0 & 0x7F;
    m_triggerPsn = static_cast<uint32_t>(i.ReadU8()) << 16;
    m_triggerPsn |= i.ReadNtohU16();
    m_words.resize(words);
    for (uint32_t w = 0; w < words; ++w)
    {
        m_words[w] = i.ReadNtohU32();
    }
    return GetSerializedSize();
}

} // namespace ns3
