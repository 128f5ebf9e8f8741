/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-radix-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

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
RdmaRadixScheduler::BucketOf(const Scheduler::EventKey& key, const Scheduler::EventKey& last)
{
    if (key.m_ts != last.m_ts)
    {
        return 96 - static_cast<uint32_t>(__builtin_clzll(key.m_ts ^ last.m_ts)); // 33..96
    }
    const uint32_t x = key.m_uid ^ last.m_uid;
    return x != 0 ? 32 - static_cast<uint32_t>(__builtin_clz(x)) : 0; // 1..32, or 0
}

void
RdmaRadixScheduler::Put(uint32_t bucket, const Scheduler::Event& ev)
{
    m_buckets[bucket].push_back(ev);
    m_nonEmpty[bucket >> 6] |= uint64_t(1) << (bucket & 63);
}

void
RdmaRadixScheduler::Insert(const Scheduler::Event& ev)
{
    NS_ASSERT_MSG(!(ev.key < m_last),
                  "RdmaRadixScheduler: an event before the last one removed (a radix heap "
                  "needs monotone keys)");
    Put(BucketOf(ev.key, m_last), ev);
    ++m_size;
}

bool
RdmaRadixScheduler::IsEmpty() const
{
    return m_size == 0;
}

uint32_t
RdmaRadixScheduler::LowestBucket() const
{
    return m_nonEmpty[0] != 0 ? static_cast<uint32_t>(__builtin_ctzll(m_nonEmpty[0]))
                              : 64 + static_cast<uint32_t>(__builtin_ctzll(m_nonEmpty[1]));
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
    const uint32_t bucket = LowestBucket();
    return m_buckets[bucket][MinIndex(bucket)];
}

Scheduler::Event
RdmaRadixScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "RdmaRadixScheduler::RemoveNext: no event");
    const uint32_t bucket = LowestBucket();
    std::vector<Scheduler::Event>& b = m_buckets[bucket];
    const uint32_t min = MinIndex(bucket);
    const Scheduler::Event next = b[min];
    --m_size;
    m_last = next.key;
    if (bucket == 0 && b.size() > 1)
    {
        b[min] = b.back(); // keys equal to the last: nothing to spread
        b.pop_back();
        return next;
    }
    // Every other key of the bucket agrees with the new last key above its bucket's bit, so
    // it lands in a lower bucket: b is not written while it is read. The non-empty masks
    // are kept in registers meanwhile (stores into the buckets could alias them).
    const uint64_t lastTs = next.key.m_ts;
    const uint32_t lastUid = next.key.m_uid;
    uint64_t low = m_nonEmpty[0] & ~(uint64_t(1) << (bucket & 63));
    uint64_t high = m_nonEmpty[1];
    if (bucket >= 64)
    {
        low = m_nonEmpty[0];
        high &= ~(uint64_t(1) << (bucket & 63));
    }
    const uint32_t n = static_cast<uint32_t>(b.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        if (i == min)
        {
            continue;
        }
        const Scheduler::Event& ev = b[i];
        const uint32_t to = ev.key.m_ts != lastTs
                                ? 96 - static_cast<uint32_t>(__builtin_clzll(ev.key.m_ts ^ lastTs))
                                : 32 - static_cast<uint32_t>(__builtin_clz(ev.key.m_uid ^ lastUid));
        m_buckets[to].push_back(ev);
        if (to < 64)
        {
            low |= uint64_t(1) << to;
        }
        else
        {
            high |= uint64_t(1) << (to - 64);
        }
    }
    b.clear();
    m_nonEmpty[0] = low;
    m_nonEmpty[1] = high;
    return next;
}

void
RdmaRadixScheduler::Remove(const Scheduler::Event& ev)
{
    const uint32_t bucket = BucketOf(ev.key, m_last);
    std::vector<Scheduler::Event>& b = m_buckets[bucket];
    for (uint32_t i = 0; i < b.size(); ++i)
    {
        if (b[i].key.m_uid == ev.key.m_uid)
        {
            b[i] = b.back();
            b.pop_back();
            --m_size;
            if (b.empty())
            {
                m_nonEmpty[bucket >> 6] &= ~(uint64_t(1) << (bucket & 63));
            }
            return;
        }
    }
    NS_ABORT_MSG("RdmaRadixScheduler::Remove: event uid " << ev.key.m_uid << " at time stamp "
                                                          << ev.key.m_ts << " is not scheduled");
}

} // namespace ns3
