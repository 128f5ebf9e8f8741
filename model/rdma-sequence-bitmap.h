/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SEQUENCE_BITMAP_H
#define RDMA_SEQUENCE_BITMAP_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A set of sequence numbers at or above a base that only moves up, kept as a ring of
 * bits.
 *
 * Why: a selective-repeat (IRN) or unreliable requester records the READ and atomic
 * responses that land above its cumulative point (sndUna) until the hole below them fills.
 * A node-based std::set allocated on every response; this ring allocates only when a
 * sequence lands further above the base than it is wide (it then doubles, a power of two
 * bits, and keeps the width), so a steady stream of responses costs no allocation.
 */
class RdmaSequenceBitmap
{
  public:
    /// \return the base: no member lies below it
    uint64_t GetBase() const;

    /// \return the number of members
    uint64_t GetCount() const;

    /// \return the width of the ring in sequences (0 before the first Insert)
    uint64_t GetCapacity() const;

    /**
     * \param seq a sequence number
     * \return true if seq is a member (false for anything below the base)
     */
    bool Contains(uint64_t seq) const;

    /**
     * Add seq (at or above the base); the ring grows if seq lies beyond its width.
     * \param seq the sequence number
     */
    void Insert(uint64_t seq);

    /**
     * Move the base up to base (a lower value is ignored), dropping the members below it.
     * \param base the new base
     */
    void AdvanceBase(uint64_t base);

    /**
     * \param from a sequence at or above the base
     * \param limit one past the last sequence to look at
     * \return the first sequence in [from, limit) that is not a member, or limit
     */
    uint64_t FirstAbsent(uint64_t from, uint64_t limit) const;

    /// Empty the set and put the base at base, keeping the ring's width.
    void Reset(uint64_t base);

  private:
    /// Widen the ring to hold seq, a power of two of at least 64 bits, keeping the members.
    void Grow(uint64_t seq);

    std::vector<uint64_t> m_words; //!< bit (seq mod width) of word (that / 64)
    uint64_t m_base{0};            //!< no member below it
    uint64_t m_width{0};           //!< width in bits: 0 or a power of two >= 64
    uint64_t m_count{0};           //!< members
};

} // namespace ns3

#endif /* RDMA_SEQUENCE_BITMAP_H */
