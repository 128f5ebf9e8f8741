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
 * "Faster algorithms for the shortest path problem", J. ACM 37(2), 1990, section 3).
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
 * not earlier than the last one removed. A radix heap keeps the time stamp T of the last
 * removed event and puts an event of time stamp t in bucket b(t), the position of the
 * highest bit in which t differs from T, plus one; every time stamp of bucket i is smaller
 * than every one of a bucket above i. Bucket 0 holds the events of time stamp T, in uid
 * order (an event scheduled for now has the newest uid, so it is appended). Insertion is
 * O(1); removal takes bucket 0's first event, and when bucket 0 is empty, takes the lowest
 * non-empty bucket, makes its earliest time stamp the new T and spreads its events over the
 * buckets below. Each event moves down at most 63 times and in practice a few: amortized,
 * an event costs far less than a heap's log2(n) levels of comparisons and moves.
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

    /**
     * The bucket of a time stamp relative to the last removed event's.
     * \param ts an event's time stamp, not smaller than lastTs
     * \param lastTs the last removed event's time stamp
     * \return 0 if equal, else 1 + the position of the highest differing bit (1..63: ns-3's
     *         time stamps are non-negative 64-bit signed values)
     */
    static uint32_t BucketOf(uint64_t ts, uint64_t lastTs);

  private:
    /// Buckets: 0 (the last removed time stamp) and one per bit position of a time stamp.
    static constexpr uint32_t NUM_BUCKETS = 64;

    /// \param bucket a non-empty bucket
    /// \return the index of its smallest event
    uint32_t MinIndex(uint32_t bucket) const;
    /// Bucket 0 is empty: move the earliest time stamp's events into it, in uid order.
    void Refill();

    std::array<std::vector<Scheduler::Event>, NUM_BUCKETS> m_buckets; //!< the buckets
    std::size_t m_head0{0}; //!< bucket 0's next event (those before it were removed)
    uint64_t m_nonEmpty{0}; //!< bit b: bucket b has events
    uint64_t m_lastTs{0};   //!< time stamp of the last removed event
    uint64_t m_size{0};     //!< events held
};

} // namespace ns3

#endif // RDMA_RADIX_SCHEDULER_H
