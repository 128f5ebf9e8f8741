/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-sequence-bitmap.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

uint64_t
RdmaSequenceBitmap::GetBase() const
{
    return m_base;
}

uint64_t
RdmaSequenceBitmap::GetCount() const
{
    return m_count;
}

uint64_t
RdmaSequenceBitmap::GetCapacity() const
{
    return m_width;
}

bool
RdmaSequenceBitmap::Contains(uint64_t seq) const
{
    if (seq < m_base || seq - m_base >= m_width)
    {
        return false;
    }
    const uint64_t bit = seq & (m_width - 1);
    return (m_words[bit >> 6] >> (bit & 63)) & 1;
}

void
RdmaSequenceBitmap::Insert(uint64_t seq)
{
    NS_ABORT_MSG_IF(seq < m_base,
                    "RdmaSequenceBitmap::Insert: sequence " << seq << " is below the base "
                                                            << m_base);
    if (seq - m_base >= m_width)
    {
        Grow(seq);
    }
    const uint64_t bit = seq & (m_width - 1);
    uint64_t& word = m_words[bit >> 6];
    const uint64_t mask = uint64_t(1) << (bit & 63);
    if (!(word & mask))
    {
        word |= mask;
        ++m_count;
    }
}

void
RdmaSequenceBitmap::AdvanceBase(uint64_t base)
{
    if (base <= m_base)
    {
        return;
    }
    if (m_count > 0)
    {
        if (base - m_base >= m_width)
        {
            std::fill(m_words.begin(), m_words.end(), 0);
            m_count = 0;
        }
        else
        {
            for (uint64_t seq = m_base; seq < base && m_count > 0; ++seq)
            {
                const uint64_t bit = seq & (m_width - 1);
                uint64_t& word = m_words[bit >> 6];
                const uint64_t mask = uint64_t(1) << (bit & 63);
                if (word & mask)
                {
                    word &= ~mask;
                    --m_count;
                }
            }
        }
    }
    m_base = base;
}

uint64_t
RdmaSequenceBitmap::FirstAbsent(uint64_t from, uint64_t limit) const
{
    uint64_t seq = from;
    while (seq < limit && Contains(seq))
    {
        ++seq;
    }
    return seq;
}

void
RdmaSequenceBitmap::Reset(uint64_t base)
{
    std::fill(m_words.begin(), m_words.end(), 0);
    m_count = 0;
    m_base = base;
}

void
RdmaSequenceBitmap::Grow(uint64_t seq)
{
    uint64_t width = m_width == 0 ? 64 : m_width;
    while (seq - m_base >= width)
    {
        width *= 2;
    }
    std::vector<uint64_t> words(width / 64, 0);
    for (uint64_t s = m_base; m_count > 0 && s < m_base + m_width; ++s)
    {
        if (Contains(s))
        {
            const uint64_t bit = s & (width - 1);
            words[bit >> 6] |= uint64_t(1) << (bit & 63);
        }
    }
    m_words.swap(words);
    m_width = width;
}

} // namespace ns3
