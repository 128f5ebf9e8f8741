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
 * How: a discrete-event simulator is a monotone priority queue: every key inserted is
 * larger than the last key removed (its time is not before now and its uid is the newest).
 * A radix heap keeps the last removed key L and puts a key k in bucket b(k), the position
 * of the highest bit in which k differs from L (time stamp bits above uid bits; 96 bits in
 * all). Every key of bucket i is smaller than every key of a bucket above i. Insertion is
 * O(1); removal takes the lowest non-empty bucket, finds its minimum, makes it the new L
 * and spreads the bucket's other keys over the buckets below. Each key moves down at most
 * 96 times and in practice a few: amortized, an event costs far less than a heap's
 * log2(n) levels of comparisons and moves.
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
     * The bucket of a key relative to the last removed key.
     * \param key an event key, not smaller than last
     * \param last the last removed key
     * \return 0 if equal, else 1 + the position of the highest differing bit (uid bits
     *         0..31, time stamp bits 32..95)
     */
    static uint32_t BucketOf(const Scheduler::EventKey& key, const Scheduler::EventKey& last);

  private:
    /// Buckets: 0 (equal to last) and one per bit position of the 96-bit key.
    static constexpr uint32_t NUM_BUCKETS = 97;

    /// \param bucket a non-empty bucket
    /// \return the index of its smallest event
    uint32_t MinIndex(uint32_t bucket) const;
    /// \return the lowest non-empty bucket (there must be one)
    uint32_t LowestBucket() const;
    /// \param bucket the bucket to put the event in
    /// \param ev the event
    void Put(uint32_t bucket, const Scheduler::Event& ev);

    std::array<std::vector<Scheduler::Event>, NUM_BUCKETS> m_buckets; //!< the buckets
    std::array<uint64_t, 2> m_nonEmpty{}; //!< bit b: bucket b has events
    Scheduler::EventKey m_last{0, 0, 0};  //!< key of the last removed event
    uint64_t m_size{0};                   //!< events held
};

} // namespace ns3

#endif // RDMA_RADIX_SCHEDULER_H
