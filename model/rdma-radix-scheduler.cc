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

RdmaRadixScheduler::~RdmaRadixScheduler()
{
    for (auto& level : m_buckets)
    {
        for (Bucket& b : level)
        {
            for (Chunk* c = b.first; c != nullptr;)
            {
                Chunk* next = c->next;
                FreeChunk(c);
                c = next;
            }
        }
    }
    while (m_freeChunks != nullptr)
    {
        Chunk* next = m_freeChunks->next;
        delete m_freeChunks;
        m_freeChunks = next;
    }
}

std::size_t
RdmaRadixScheduler::GetChunksAllocated() const
{
    return m_chunks;
}

RdmaRadixScheduler::Chunk*
RdmaRadixScheduler::TakeChunk()
{
    Chunk* c = m_freeChunks;
    if (c != nullptr)
    {
        m_freeChunks = c->next;
    }
    else
    {
        c = new Chunk;
        ++m_chunks;
    }
    c->next = nullptr;
    return c;
}

void
RdmaRadixScheduler::FreeChunk(Chunk* chunk)
{
    chunk->next = m_freeChunks;
    m_freeChunks = chunk;
}

// Out of line, once per CHUNK_EVENTS appends, and called last: Append's callers keep no
// register across it (no saves and restores on their common path).
__attribute__((noinline)) void
RdmaRadixScheduler::AppendToNewChunk(Bucket& b, const Scheduler::Event& ev)
{
    Chunk* fresh = TakeChunk();
    if (b.last == nullptr)
    {
        b.first = fresh;
    }
    else
    {
        b.last->next = fresh;
    }
    b.last = fresh;
    b.end = fresh->event.data();
    b.limit = b.end + CHUNK_EVENTS;
    *b.end++ = ev;
}

// Inlined into Place.
__attribute__((always_inline)) inline void
RdmaRadixScheduler::Append(Bucket& b, const Scheduler::Event& ev)
{
    if (b.end == b.limit)
    {
        AppendToNewChunk(b, ev);
        return;
    }
    *b.end++ = ev;
}

Scheduler::Event
RdmaRadixScheduler::EarliestOf(const Bucket& b)
{
    Scheduler::Event earliest = b.first->event[0];
    for (const Chunk* c = b.first; c != nullptr; c = c->next)
    {
        const std::size_t n = EventsIn(b, c);
        for (std::size_t i = 0; i < n; ++i)
        {
            if (c->event[i].key < earliest.key)
            {
                earliest = c->event[i];
            }
        }
    }
    return earliest;
}

uint32_t
RdmaRadixScheduler::LevelOf(uint64_t ts, uint64_t lastTs)
{
    const uint64_t differing = (ts ^ lastTs) >> RUN_BITS;
    return differing != 0
               ? 1 + (63 - static_cast<uint32_t>(__builtin_clzll(differing))) / DIGIT_BITS
               : 0;
}

uint32_t
RdmaRadixScheduler::DigitOf(uint64_t ts, uint32_t level)
{
    return static_cast<uint32_t>(ts >> (RUN_BITS + (level - 1) * DIGIT_BITS)) & (NUM_DIGITS - 1);
}

// Inlined into Insert and into Refill's loop: as a call it cost more than its body.
__attribute__((always_inline)) inline void
RdmaRadixScheduler::Place(const Scheduler::Event& ev)
{
    const uint32_t level = LevelOf(ev.key.m_ts, m_lastTs);
    if (level == 0)
    {
        m_current.push_back(ev);
        return;
    }
    const uint32_t digit = DigitOf(ev.key.m_ts, level);
    m_digitMask[level - 1] |= uint64_t(1) << digit;
    m_levelMask |= 1U << (level - 1);
    Append(m_buckets[level - 1][digit], ev);
}

void
RdmaRadixScheduler::Insert(const Scheduler::Event& ev)
{
    NS_ASSERT_MSG(ev.key.m_ts >= m_lastTs,
                  "RdmaRadixScheduler: an event before the current run's earliest time "
                  "stamp (a radix heap needs monotone keys)");
    ++m_size;
    if (LevelOf(ev.key.m_ts, m_lastTs) != 0)
    {
        Place(ev);
        return;
    }
    InsertInRun(ev);
}

// Out of line: Insert's bucket path then saves no registers.
__attribute__((noinline)) void
RdmaRadixScheduler::InsertInRun(const Scheduler::Event& ev)
{
    // In the current run's span: into its place in the sorted run if that is among its last
    // MAX_WALK_BACK events (usually at the end: the newest uid, a time stamp not before the
    // run's last), else in m_late.
    const std::size_t end = m_current.size();
    std::size_t at = end;
    while (at > m_head && ev.key < m_current[at - 1].key)
    {
        if (end - at == MAX_WALK_BACK)
        {
            PushLate(ev);
            return;
        }
        --at;
    }
    m_current.insert(m_current.begin() + static_cast<std::ptrdiff_t>(at), ev);
}

bool
RdmaRadixScheduler::IsEmpty() const
{
    return m_size == 0;
}

const RdmaRadixScheduler::Bucket&
RdmaRadixScheduler::EarliestBucket() const
{
    const uint32_t level = static_cast<uint32_t>(__builtin_ctz(m_levelMask));
    const uint32_t digit = static_cast<uint32_t>(__builtin_ctzll(m_digitMask[level]));
    return m_buckets[level][digit];
}

Scheduler::Event
RdmaRadixScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "RdmaRadixScheduler::PeekNext: no event");
    if (!m_late.empty() &&
        (m_head == m_current.size() || m_late.front().key < m_current[m_head].key))
    {
        return m_late.front();
    }
    if (m_head < m_current.size())
    {
        return m_current[m_head];
    }
    return EarliestOf(EarliestBucket());
}

void
RdmaRadixScheduler::Refill()
{
    NS_ASSERT_MSG(m_current.empty(), "RdmaRadixScheduler::Refill: the current run is not empty");
    // The lowest non-empty level's lowest bucket holds the earliest time stamp; it becomes
    // the current one.
    const uint32_t level = static_cast<uint32_t>(__builtin_ctz(m_levelMask));
    const uint32_t digit = static_cast<uint32_t>(__builtin_ctzll(m_digitMask[level]));
    Bucket& events = m_buckets[level][digit];
    m_digitMask[level] &= ~(uint64_t(1) << digit);
    if (m_digitMask[level] == 0)
    {
        m_levelMask &= ~(1U << level);
    }
    m_head = 0;
    const Bucket bucket = events;
    events = Bucket();
    Chunk* chunk = bucket.first;
    if (bucket.end == chunk->event.data() + 1 && chunk == bucket.last)
    {
        m_lastTs = chunk->event[0].key.m_ts;
        m_current.push_back(chunk->event[0]); // the common case: the bucket's one event runs next
        FreeChunk(chunk);
        return;
    }
    // Its earliest time stamp, found here rather than kept per insertion: a bucket's events
    // are read once at its refill but placed some 2.4 times each on the way down.
    uint64_t earliest = chunk->event[0].key.m_ts;
    for (const Chunk* c = chunk; c != nullptr; c = c->next)
    {
        const std::size_t n = EventsIn(bucket, c);
        for (std::size_t i = 0; i < n; ++i)
        {
            earliest = std::min(earliest, c->event[i].key.m_ts);
        }
    }
    m_lastTs = earliest;
    // Every time stamp of the bucket agrees with the new one above the bucket's digit, so
    // it lands in the current run or a lower level: the bucket is not written while read.
    // Each chunk goes back to the free list once read, for the lower buckets to fill next.
    while (chunk != nullptr)
    {
        const std::size_t n = EventsIn(bucket, chunk);
        for (std::size_t i = 0; i < n; ++i)
        {
            Place(chunk->event[i]);
        }
        Chunk* next = chunk->next;
        FreeChunk(chunk);
        chunk = next;
    }
    // The run in (time stamp, uid) order. A few events: insertion sort, without std::sort's
    // calls; more: by their time stamp's top digit within the span first.
    const std::size_t n = m_current.size();
    if (n >= MIN_BINNED_SORT)
    {
        SortLargeRun();
    }
    else if (n > MAX_INSERTION_SORT)
    {
        std::sort(m_current.begin(), m_current.end(), EarlierKey());
    }
    else
    {
        SortByInsertion(m_current.data(), m_current.data() + n); // never falls back: 120 moves
    }
}

// Inline in Refill and SortLargeRun: as a call it cost hpcc-a2a16 some 30 M instructions.
__attribute__((always_inline)) inline void
RdmaRadixScheduler::SortByInsertion(Scheduler::Event* first, Scheduler::Event* last)
{
    // A bin of a large fabric's run often holds many events of one time stamp (its hosts
    // started together, its links have one delay), already nearly in uid order.
    std::size_t budget = 8 * static_cast<std::size_t>(last - first);
    for (Scheduler::Event* i = first + (first != last); i < last; ++i)
    {
        const Scheduler::Event ev = *i;
        Scheduler::Event* j = i;
        for (; j > first && ev.key < (j - 1)->key; --j)
        {
            *j = *(j - 1);
            if (--budget == 0)
            {
                *(j - 1) = ev; // the range is a permutation of its events again
                std::sort(first, last, EarlierKey());
                return;
            }
        }
        *j = ev;
    }
}

void
RdmaRadixScheduler::SortLargeRun()
{
    // One counting-sort pass on bits RUN_BITS - 6 .. RUN_BITS - 1 of the time stamp (every
    // time stamp of the run agrees above them): 64 bins of 64 ps, in order; then each bin by
    // (time stamp, uid). std::sort over a k = 32 fat-tree's runs (some 1,270 events each)
    // cost some 150 instructions an event, often falling back to heap sort.
    constexpr uint32_t shift = RUN_BITS - DIGIT_BITS;
    std::array<uint32_t, NUM_DIGITS + 1> start{};
    for (const Scheduler::Event& ev : m_current)
    {
        ++start[((ev.key.m_ts >> shift) & (NUM_DIGITS - 1)) + 1];
    }
    for (uint32_t d = 1; d <= NUM_DIGITS; ++d)
    {
        start[d] += start[d - 1];
    }
    m_sortSpace.resize(m_current.size());
    std::array<uint32_t, NUM_DIGITS> next;
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (const Scheduler::Event& ev : m_current)
    {
        m_sortSpace[next[(ev.key.m_ts >> shift) & (NUM_DIGITS - 1)]++] = ev;
    }
    m_current.swap(m_sortSpace);
    Scheduler::Event* const base = m_current.data();
    for (uint32_t d = 0; d < NUM_DIGITS; ++d)
    {
        Scheduler::Event* const first = base + start[d];
        Scheduler::Event* const last = base + start[d + 1];
        SortByInsertion(first, last);
    }
}

Scheduler::Event
RdmaRadixScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "RdmaRadixScheduler::RemoveNext: no event");
    if (__builtin_expect(!m_late.empty(), 0))
    {
        return RemoveNextWithLate();
    }
    if (m_head == m_current.size())
    {
        Refill();
    }
    --m_size;
    return TakeFromRun();
}

// Built in the caller's return slot (no copy through the stack, as when RemoveNext returned
// a named event on one path and RemoveNextWithLate's on the other).
__attribute__((always_inline)) inline Scheduler::Event
RdmaRadixScheduler::TakeFromRun()
{
    Scheduler::Event next = m_current[m_head++];
    if (m_head == m_current.size())
    {
        m_current.clear();
        m_head = 0;
    }
    return next;
}

// Out of line, as RemoveNextWithLate: inlined, they made the common paths of Insert and
// RemoveNext save and restore more registers (some 12 instructions a call on hpcc-a2a16,
// where m_late is seldom used).
__attribute__((noinline)) void
RdmaRadixScheduler::PushLate(const Scheduler::Event& ev)
{
    m_late.push_back(ev);
    std::push_heap(m_late.begin(), m_late.end(), LaterKey());
}

__attribute__((noinline)) Scheduler::Event
RdmaRadixScheduler::RemoveNextWithLate()
{
    // Every event of m_late is in the run's span, so before every bucket's: no refill.
    --m_size;
    if (m_head < m_current.size() && m_current[m_head].key < m_late.front().key)
    {
        return TakeFromRun();
    }
    std::pop_heap(m_late.begin(), m_late.end(), LaterKey());
    const Scheduler::Event next = m_late.back();
    m_late.pop_back();
    return next;
}

void
RdmaRadixScheduler::Remove(const Scheduler::Event& ev)
{
    const uint32_t level = LevelOf(ev.key.m_ts, m_lastTs);
    if (level == 0)
    {
        for (std::size_t i = 0; i < m_late.size(); ++i)
        {
            if (m_late[i].key.m_uid == ev.key.m_uid)
            {
                m_late[i] = m_late.back();
                m_late.pop_back();
                std::make_heap(m_late.begin(), m_late.end(), LaterKey());
                --m_size;
                return;
            }
        }
        for (std::size_t i = m_head; i < m_current.size(); ++i)
        {
            if (m_current[i].key.m_uid == ev.key.m_uid)
            {
                // Erasing keeps the uid order.
                m_current.erase(m_current.begin() + static_cast<std::ptrdiff_t>(i));
                if (m_head == m_current.size())
                {
                    m_current.clear();
                    m_head = 0;
                }
                --m_size;
                return;
            }
        }
    }
    else
    {
        const uint32_t digit = DigitOf(ev.key.m_ts, level);
        Bucket& b = m_buckets[level - 1][digit];
        for (Chunk* c = b.first; c != nullptr; c = c->next)
        {
            const std::size_t n = EventsIn(b, c);
            for (std::size_t i = 0; i < n; ++i)
            {
                if (c->event[i].key.m_uid != ev.key.m_uid)
                {
                    continue;
                }
                // The bucket's last event takes its place; an emptied last chunk is freed.
                c->event[i] = *--b.end;
                --m_size;
                if (b.end == b.last->event.data())
                {
                    Chunk* before = nullptr;
                    for (Chunk* p = b.first; p != b.last; p = p->next)
                    {
                        before = p;
                    }
                    FreeChunk(b.last);
                    if (before == nullptr)
                    {
                        b = Bucket();
                    }
                    else
                    {
                        before->next = nullptr;
                        b.last = before;
                        b.end = before->event.data() + CHUNK_EVENTS;
                        b.limit = b.end;
                    }
                }
                if (b.first == nullptr)
                {
                    m_digitMask[level - 1] &= ~(uint64_t(1) << digit);
                    if (m_digitMask[level - 1] == 0)
                    {
                        m_levelMask &= ~(1U << (level - 1));
                    }
                }
                return;
            }
        }
    }
    NS_ABORT_MSG("RdmaRadixScheduler::Remove: event uid " << ev.key.m_uid << " at time stamp "
                                                          << ev.key.m_ts << " is not scheduled");
}

} // namespace ns3
