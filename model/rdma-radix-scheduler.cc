/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-radix-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRadixScheduler");
NS_OBJECT_ENSURE_REGISTERED(RdmaRadixScheduler);

TypeId
RdmaRadixScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRadixScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRadixScheduler>();
    return tid;
}

RdmaRadixScheduler::RdmaRadixScheduler() = default;

RdmaRadixScheduler::~RdmaRadixScheduler() = default;

uint32_t
RdmaRadixScheduler::BucketOf(uint64_t ts, uint64_t lastTs)
{
    return ts != lastTs ? 64 - static_cast<uint32_t>(__builtin_clzll(ts ^ lastTs)) : 0;
}

void
RdmaRadixScheduler::Insert(const Scheduler::Event& ev)
{
    NS_ASSERT_MSG(ev.key.m_ts >= m_lastTs,
                  "RdmaRadixScheduler: an event before the last one removed (a radix heap "
                  "needs monotone keys)");
    // An event at the current time stamp has the newest uid: appended, bucket 0 stays sorted.
    const uint32_t bucket = BucketOf(ev.key.m_ts, m_lastTs);
    m_buckets[bucket].push_back(ev);
    m_nonEmpty |= uint64_t(1) << bucket;
    ++m_size;
}

bool
RdmaRadixScheduler::IsEmpty() const
{
    return m_size == 0;
}

uint32_t
RdmaRadixScheduler::MinIndex(uint32_t bucket) const
{
    const std::vector<Scheduler::Event>& b = m_buckets[bucket];
    uint32_t min = 0;
    for (uint32_t i = 1; i < b.size(); ++i)
    {
        if (b[i].key < b[min].key)
        {
            min = i;
        }
    }
    return min;
}

Scheduler::Event
RdmaRadixScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "RdmaRadixScheduler::PeekNext: no event");
    if (m_head0 < m_buckets[0].size())
    {
        return m_buckets[0][m_head0];
    }
    const uint32_t bucket = static_cast<uint32_t>(__builtin_ctzll(m_nonEmpty & ~uint64_t(1)));
    return m_buckets[bucket][MinIndex(bucket)];
}

void
RdmaRadixScheduler::Refill()
{
    // The lowest non-empty bucket holds the earliest time stamp; it becomes the current one.
    const uint32_t bucket = static_cast<uint32_t>(__builtin_ctzll(m_nonEmpty & ~uint64_t(1)));
    std::vector<Scheduler::Event>& b = m_buckets[bucket];
    uint64_t minTs = b[0].key.m_ts;
    for (const Scheduler::Event& ev : b)
    {
        minTs = std::min(minTs, ev.key.m_ts);
    }
    m_lastTs = minTs;
    // Every key of the bucket agrees with the new time stamp above the bucket's bit, so it
    // lands in a lower bucket: b is not written while it is read. The mask is kept in a
    // register meanwhile (stores into the buckets could alias it).
    std::vector<Scheduler::Event>& zero = m_buckets[0];
    zero.clear();
    m_head0 = 0;
    uint64_t mask = m_nonEmpty & ~(uint64_t(1) << bucket);
    for (const Scheduler::Event& ev : b)
    {
        const uint32_t to = BucketOf(ev.key.m_ts, minTs);
        m_buckets[to].push_back(ev);
        mask |= uint64_t(1) << to;
    }
    b.clear();
    m_nonEmpty = mask;
    if (zero.size() > 1)
    {
        // Events of one time stamp run in uid order; later insertions append larger uids.
        std::sort(zero.begin(), zero.end(), [](const Event& x, const Event& y) {
            return x.key.m_uid < y.key.m_uid;
        });
    }
}

Scheduler::Event
RdmaRadixScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "RdmaRadixScheduler::RemoveNext: no event");
    if (m_head0 == m_buckets[0].size())
    {
        Refill();
    }
    std::vector<Scheduler::Event>& zero = m_buckets[0];
    const Scheduler::Event next = zero[m_head0++];
    --m_size;
    if (m_head0 == zero.size())
    {
        zero.clear();
        m_head0 = 0;
        m_nonEmpty &= ~uint64_t(1);
    }
    return next;
}

void
RdmaRadixScheduler::Remove(const Scheduler::Event& ev)
{
    const uint32_t bucket = BucketOf(ev.key.m_ts, m_lastTs);
    std::vector<Scheduler::Event>& b = m_buckets[bucket];
    for (std::size_t i = bucket == 0 ? m_head0 : 0; i < b.size(); ++i)
    {
        if (b[i].key.m_uid == ev.key.m_uid)
        {
            if (bucket == 0)
            {
                b.erase(b.begin() + static_cast<std::ptrdiff_t>(i)); // keeps the uid order
            }
            else
            {
                b[i] = b.back();
                b.pop_back();
            }
            --m_size;
            if (b.size() == (bucket == 0 ? m_head0 : 0))
            {
                b.clear();
                m_head0 = bucket == 0 ? 0 : m_head0;
                m_nonEmpty &= ~(uint64_t(1) << bucket);
            }
            return;
        }
    }
    NS_ABORT_MSG("RdmaRadixScheduler::Remove: event uid " << ev.key.m_uid << " at time stamp "
                                                          << ev.key.m_ts << " is not scheduled");
}

} // namespace ns3
