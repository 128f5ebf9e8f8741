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
 * not earlier than the last one removed. The heap keeps a current run: the events of one
 * span of 2^RUN_BITS time stamps (4,096 ps), sorted by (time stamp, uid), and T, the
 * earliest time stamp the run had. An event in the run's span takes its place in the run
 * (usually at its end: its uid is the newest). Any other time stamp t goes to level l = 1 +
 * (highest bit above RUN_BITS in which t differs from T - RUN_BITS) / DIGIT_BITS, bucket d
 * = t's digit of that level: every time stamp of a bucket is smaller than every one of a
 * later bucket of its level and of every higher level. Insertion outside the run is O(1);
 * removal takes the run's next event, and when the run is empty, takes the lowest
 * non-empty level's lowest non-empty bucket, makes its earliest time stamp (found by one
 * scan of the bucket) the new T, spreads its events over the new run
 * and the lower levels and sorts the run. An event moves down at most once per level.
 *
 * Why 64-way: with a bit per bucket (the binary radix heap) a frame scheduled some 2^12 to
 * 2^24 ps ahead (a serialization time, a link delay) could sink through up to one bucket per
 * bit of that distance before it ran, and each refill scanned its bucket twice (the
 * minimum, then the moves): 1.13 G of hpcc-a2a16's instructions. With 6-bit digits it moves about
 * twice (measured on hpcc-incast15: 751,015 moves for 384,959 events), and each level's non-empty
 * buckets fit in one 64-bit mask; 8-bit digits (four words per level to search) measured more
 * instructions, not fewer.
 *
 * Why a sorted run of 4,096 ps instead of levels down to the picosecond: on hpcc-a2a16 the
 * two lowest levels took 4.4 M of the 10.0 M moves for 5.05 M events, and 2.4 M more moves
 * put events of one time stamp in uid order; a run of a few events sorted by insertion
 * costs less (whole process 7.52 G -> 7.31 G; RUN_BITS 10, 11, 13, 14 measured 7.35, 7.30,
 * 7.36, 7.41 G).
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
    /// Low bits of a time stamp that the current run spans, sorted instead of bucketed.
    static constexpr uint32_t RUN_BITS = 12;
    /// Levels 1..NUM_LEVELS cover the time stamp's bits above RUN_BITS (level 0: the run).
    static constexpr uint32_t NUM_LEVELS = (64 - RUN_BITS + DIGIT_BITS - 1) / DIGIT_BITS;
    /// Buckets per level.
    static constexpr uint32_t NUM_DIGITS = 1U << DIGIT_BITS;

    /**
     * The level of a time stamp relative to the current run's earliest one.
     * \param ts an event's time stamp, not smaller than lastTs
     * \param lastTs the current run's earliest time stamp
     * \return 0 if both are in one span of 2^RUN_BITS (the current run), else 1 + (the
     *         position of the highest differing bit - RUN_BITS) / DIGIT_BITS (1..NUM_LEVELS)
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
    /// A bucket: its events, unordered (its earliest time stamp is found at its refill).
    using Bucket = std::vector<Scheduler::Event>;

    /// \return the lowest non-empty level's lowest non-empty bucket (the current run empty)
    const Bucket& EarliestBucket() const;
    /// Put an event at the end of the current run or in its bucket, relative to m_lastTs.
    /// \param ev the event
    void Place(const Scheduler::Event& ev);
    /// The current run is empty: move the earliest bucket's events of its earliest time
    /// stamp's span into it, sorted by (time stamp, uid).
    void Refill();

    std::vector<Scheduler::Event> m_current; //!< the run: m_lastTs's span, (ts, uid) order
    std::size_t m_head{0}; //!< m_current's next event (those before it were removed)
    std::array<std::array<Bucket, NUM_DIGITS>, NUM_LEVELS> m_buckets; //!< level 1.. at 0..
    static_assert(NUM_DIGITS == 64, "a level's mask of non-empty buckets is one 64-bit word");
    /// Per level, bit d: bucket d is non-empty.
    std::array<uint64_t, NUM_LEVELS> m_digitMask{};
    uint32_t m_levelMask{0}; //!< bit l - 1: level l has a non-empty bucket
    uint64_t m_lastTs{0};    //!< the run's earliest time stamp (levels are relative to it)
    uint64_t m_size{0};      //!< events held
};

} // namespace ns3

#endif // RDMA_RADIX_SCHEDULER_H
