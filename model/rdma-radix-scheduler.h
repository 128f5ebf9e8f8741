/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RADIX_SCHEDULER_H
#define RDMA_RADIX_SCHEDULER_H

#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An ns-3 event scheduler built on a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
 * "Faster algorithms for the shortest path problem", J. ACM 37(2), 1990, section 3) with
 * 64-way buckets: the multi-level form of the same paper's section 4, in which a key's
 * bucket is chosen by a digit of base 2^DIGIT_BITS instead of a single bit.
 *
 * Why it exists: in this module's fabrics the scheduler's binary heap (ns-3's
 * PriorityQueueScheduler, the fastest of ns-3's own) cost some 470 instructions per event,
 * a fifth of the whole run (callgrind, hpcc-a2a16): every frame in flight on every link is
 * an event, so the heap holds thousands of entries and each removal sifts through about
 * eleven levels.
 *
 * What it must keep equivalent: the order of events. An event's key is (time stamp, uid);
 * uids are unique, so the key order is total and every correct priority queue hands out
 * the same sequence: results are the same as with any of ns-3's schedulers, by
 * construction (test RdmaRadixScheduler.* compares it with PriorityQueueScheduler).
 *
 * How: a discrete-event simulator is a monotone priority queue: every event inserted is
 * not earlier than the last one removed. The heap keeps the time stamp T of the last
 * removed event. An event of time stamp T goes to the current list (in uid order: an event
 * scheduled for now has the newest uid, so it is appended). Any other time stamp t goes to
 * level l = 1 + (highest bit in which t differs from T) / DIGIT_BITS, bucket d = t's digit
 * of that level: every time stamp of a bucket is smaller than every one of a later bucket
 * of its level and of every higher level. Insertion is O(1); removal takes the current
 * list's first event, and when that list is empty, takes the lowest non-empty level's
 * lowest non-empty bucket, makes its earliest time stamp (kept up to date per bucket, so
 * no scan is needed) the new T and spreads its events over the current list and the lower
 * levels. An event moves down at most once per level.
 *
 * Why 64-way: with a bit per bucket (the binary radix heap) a frame scheduled some 2^12 to
 * 2^24 ps ahead (a serialization time, a link delay) could sink through up to one bucket per
 * bit of that distance before it ran, and each refill scanned its bucket twice (the
 * minimum, then the moves): 1.13 G of hpcc-a2a16's instructions. With 6-bit digits it moves about
 * twice (measured on hpcc-incast15: 751,015 moves for 384,959 events), and each level's non-empty
 * buckets fit in one 64-bit mask; 8-bit digits (four words per level to search) measured more
 * instructions, not fewer.
 */
class RdmaRadixScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaRadixScheduler();
    ~RdmaRadixScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /// Bits of a time stamp per level: a level has 2^DIGIT_BITS buckets.
    static constexpr uint32_t DIGIT_BITS = 6;
    /// Levels 1..NUM_LEVELS cover the 64 bits of a time stamp (level 0 is the current list).
    static constexpr uint32_t NUM_LEVELS = (64 + DIGIT_BITS - 1) / DIGIT_BITS;
    /// Buckets per level.
    static constexpr uint32_t NUM_DIGITS = 1U << DIGIT_BITS;

    /**
     * The level of a time stamp relative to the last removed event's.
     * \param ts an event's time stamp, not smaller than lastTs
     * \param lastTs the last removed event's time stamp
     * \return 0 if equal (the current list), else 1 + (the position of the highest
     *         differing bit) / DIGIT_BITS (1..NUM_LEVELS)
     */
    static uint32_t LevelOf(uint64_t ts, uint64_t lastTs);

    /**
     * The bucket of a time stamp within its level.
     * \param ts an event's time stamp
     * \param level its level (1..NUM_LEVELS)
     * \return ts's digit of that level (0..NUM_DIGITS - 1)
     */
    static uint32_t DigitOf(uint64_t ts, uint32_t level);

  private:
    /// A bucket: its events, unordered, and the earliest time stamp among them.
    struct Bucket
    {
        std::vector<Scheduler::Event> events; //!< the events
        uint64_t minTs{UINT64_MAX};           //!< their earliest time stamp (max if none)
    };

    /// \return the lowest non-empty level's lowest non-empty bucket (the current list empty)
    const Bucket& EarliestBucket() const;
    /// Put an event in the current list or its bucket, relative to m_lastTs.
    /// \param ev the event
    void Place(const Scheduler::Event& ev);
    /// The current list is empty: move the earliest time stamp's events into it, in uid order.
    void Refill();

    std::vector<Scheduler::Event> m_current; //!< events of time stamp m_lastTs, in uid order
    std::size_t m_head{0}; //!< m_current's next event (those before it were removed)
    std::array<std::array<Bucket, NUM_DIGITS>, NUM_LEVELS> m_buckets; //!< level 1.. at 0..
    static_assert(NUM_DIGITS == 64, "a level's mask of non-empty buckets is one 64-bit word");
    /// Per level, bit d: bucket d is non-empty.
    std::array<uint64_t, NUM_LEVELS> m_digitMask{};
    uint32_t m_levelMask{0}; //!< bit l - 1: level l has a non-empty bucket
    uint64_t m_lastTs{0};    //!< time stamp of the last removed event
    uint64_t m_size{0};      //!< events held
};

} // namespace ns3

#endif // RDMA_RADIX_SCHEDULER_H
