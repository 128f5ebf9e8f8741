/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-timing-wheel-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTimingWheelScheduler");
NS_OBJECT_ENSURE_REGISTERED(RdmaTimingWheelScheduler);

namespace
{
constexpr uint32_t SLOT_MASK = RdmaTimingWheelScheduler::NUM_SLOTS - 1;

/// Key order: time stamp, then uid (Scheduler::EventKey's operator<).
bool
Earlier(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return a.key < b.key;
}

/// The heap order of the overflow: std::push_heap keeps the largest first, so "larger" is
/// "later".
bool
Later(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return b.key < a.key;
}
} // namespace

TypeId
RdmaTimingWheelScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTimingWheelScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTimingWheelScheduler>()
            .AddAttribute("SlotWidth",
                          "The time one slot of the wheel covers, rounded down to a power of two "
                          "ticks of the time resolution (2,048 ps at picoseconds with the "
                          "default). Events of one slot are sorted when it becomes current, so "
                          "a slot should hold few; the wheel reaches 4,096 slots ahead.",
                          TimeValue(NanoSeconds(4)),
                          MakeTimeAccessor(&RdmaTimingWheelScheduler::m_slotWidth),
                          MakeTimeChecker());
    return tid;
}

RdmaTimingWheelScheduler::RdmaTimingWheelScheduler() = default;

RdmaTimingWheelScheduler::~RdmaTimingWheelScheduler() = default;

uint32_t
RdmaTimingWheelScheduler::SlotShiftFor(Time width)
{
    const int64_t ticks = width.GetTimeStep();
    return ticks > 1 ? 63 - static_cast<uint32_t>(__builtin_clzll(static_cast<uint64_t>(ticks)))
                     : 0;
}

void
RdmaTimingWheelScheduler::NotifyConstructionCompleted()
{
    NS_ABORT_MSG_IF(!m_slotWidth.IsStrictlyPositive(),
                    "RdmaTimingWheelScheduler: SlotWidth is " << m_slotWidth
                                                              << "; it must be at least one tick");
    m_shift = SlotShiftFor(m_slotWidth);
    Scheduler::NotifyConstructionCompleted();
}

inline void
RdmaTimingWheelScheduler::Append(const Scheduler::Event& ev, uint32_t index)
{
    m_slots[index].push_back(ev);
    m_slotMask[index >> 6] |= uint64_t(1) << (index & 63);
    m_wordMask |= uint64_t(1) << (index >> 6);
}

void
RdmaTimingWheelScheduler::Unmark(uint32_t index)
{
    uint64_t& word = m_slotMask[index >> 6];
    word &= ~(uint64_t(1) << (index & 63));
    if (word == 0)
    {
        m_wordMask &= ~(uint64_t(1) << (index >> 6));
    }
}

Scheduler::Event
RdmaTimingWheelScheduler::PopOverflow()
{
    std::pop_heap(m_overflow.begin(), m_overflow.end(), Later);
    const Scheduler::Event ev = m_overflow.back();
    m_overflow.pop_back();
    m_overflowSlot = m_overflow.empty() ? UINT64_MAX : m_overflow.front().key.m_ts >> m_shift;
    return ev;
}

uint32_t
RdmaTimingWheelScheduler::NextSlotIndex() const
{
    NS_ASSERT(m_wordMask != 0);
    // The wheel's slots after the current one, in time order, are the indices from the
    // current one's plus one, around.
    const uint32_t start = static_cast<uint32_t>(m_currentSlot + 1) & SLOT_MASK;
    const uint32_t word = start >> 6;
    const uint64_t sameWord = m_slotMask[word] & (~uint64_t(0) << (start & 63));
    if (sameWord != 0)
    {
        return (word << 6) | static_cast<uint32_t>(__builtin_ctzll(sameWord));
    }
    const uint64_t later = m_wordMask & (word + 1 < 64 ? ~uint64_t(0) << (word + 1) : 0);
    // None later: around, from word 0 up to this word (whose bits at or after start are 0).
    const uint64_t words = later != 0 ? later : m_wordMask;
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(words));
    return (w << 6) | static_cast<uint32_t>(__builtin_ctzll(m_slotMask[w]));
}

// Out of line: the rare path keeps the common one short.
__attribute__((noinline)) void
RdmaTimingWheelScheduler::PushOverflow(const Scheduler::Event& ev)
{
    m_overflow.push_back(ev);
    std::push_heap(m_overflow.begin(), m_overflow.end(), Later);
    m_overflowSlot = m_overflow.front().key.m_ts >> m_shift;
}

void
RdmaTimingWheelScheduler::Insert(const Scheduler::Event& ev)
{
    const uint64_t slot = ev.key.m_ts >> m_shift;
    NS_ASSERT_MSG(slot >= m_currentSlot,
                  "RdmaTimingWheelScheduler: an event before the current slot");
    ++m_size;
    if (slot != m_currentSlot)
    {
        if (slot - m_currentSlot < NUM_SLOTS)
        {
            Append(ev, static_cast<uint32_t>(slot) & SLOT_MASK);
        }
        else
        {
            PushOverflow(ev);
        }
        return;
    }
    // The current slot: into the sorted list. An event scheduled for now has the newest uid,
    // so it goes after every event of its time stamp; usually that is the end.
    if (m_current.size() == m_head || !(ev.key < m_current.back().key))
    {
        m_current.push_back(ev);
        return;
    }
    const auto at = std::upper_bound(m_current.begin() + static_cast<std::ptrdiff_t>(m_head),
                                     m_current.end(),
                                     ev,
                                     Earlier);
    m_current.insert(at, ev);
}

bool
RdmaTimingWheelScheduler::IsEmpty() const
{
    return m_size == 0;
}

// Out of line: the rare path keeps the common one short.
__attribute__((noinline)) void
RdmaTimingWheelScheduler::PullOverflow()
{
    // Each is after the current slot: it was beyond reach when the current slot was.
    while (m_overflowSlot - m_currentSlot < NUM_SLOTS)
    {
        const uint32_t index = static_cast<uint32_t>(m_overflowSlot) & SLOT_MASK;
        Append(PopOverflow(), index);
    }
}

// Out of line: the rare path keeps the common one short.
__attribute__((noinline)) void
RdmaTimingWheelScheduler::JumpToOverflow()
{
    // Nothing within reach: the overflow's earliest slot becomes current. Its events leave
    // the heap in key order, so the current list is sorted as it is built.
    m_currentSlot = m_overflowSlot;
    while (m_overflowSlot == m_currentSlot)
    {
        m_current.push_back(PopOverflow());
    }
    PullOverflow();
}

// Out of line: the rare path keeps the common one short.
__attribute__((noinline)) void
RdmaTimingWheelScheduler::SortCurrent()
{
    // In insertion order: uid order, except for events that came from the overflow (which
    // came first, in key order). An insertion sort costs one comparison per event in order.
    const std::size_t n = m_current.size();
    if (n > 64)
    {
        std::sort(m_current.begin(), m_current.end(), Earlier);
        return;
    }
    for (std::size_t i = 1; i < n; ++i)
    {
        if (!(m_current[i].key < m_current[i - 1].key))
        {
            continue;
        }
        const Scheduler::Event ev = m_current[i];
        std::size_t j = i;
        for (; j > 0 && ev.key < m_current[j - 1].key; --j)
        {
            m_current[j] = m_current[j - 1];
        }
        m_current[j] = ev;
    }
}

Scheduler::Event
RdmaTimingWheelScheduler::RemoveFromNextSlot()
{
    NS_ASSERT(m_current.empty() && m_head == 0 && m_size > 0);
    if (m_wordMask == 0)
    {
        JumpToOverflow();
        return RemoveNext();
    }
    const uint32_t start = static_cast<uint32_t>(m_currentSlot + 1) & SLOT_MASK;
    const uint32_t index = NextSlotIndex();
    m_currentSlot += 1 + ((index - start) & SLOT_MASK);
    Unmark(index);
    // The wheel's reach moved forward: overflow events may now be within it (never in the
    // new current slot, which was within reach before).
    if (m_overflowSlot - m_currentSlot < NUM_SLOTS)
    {
        PullOverflow();
    }
    std::vector<Scheduler::Event>& events = m_slots[index];
    if (events.size() == 1)
    {
        // The common case: the slot's one event runs now, and the current list stays empty.
        const Scheduler::Event ev = events[0];
        events.clear();
        --m_size;
        return ev;
    }
    m_current.swap(events); // the slot gets the empty current list and keeps its capacity
    SortCurrent();
    return RemoveNext();
}

Scheduler::Event
RdmaTimingWheelScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "RdmaTimingWheelScheduler::PeekNext: no event");
    if (m_head < m_current.size())
    {
        return m_current[m_head];
    }
    if (m_wordMask == 0)
    {
        return m_overflow.front();
    }
    const std::vector<Scheduler::Event>& events = m_slots[NextSlotIndex()];
    return *std::min_element(events.begin(), events.end(), Earlier);
}

Scheduler::Event
RdmaTimingWheelScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "RdmaTimingWheelScheduler::RemoveNext: no event");
    if (m_head == m_current.size())
    {
        return RemoveFromNextSlot();
    }
    const Scheduler::Event next = m_current[m_head++];
    --m_size;
    if (m_head == m_current.size())
    {
        m_current.clear();
        m_head = 0;
    }
    return next;
}

void
RdmaTimingWheelScheduler::Remove(const Scheduler::Event& ev)
{
    const uint64_t slot = ev.key.m_ts >> m_shift;
    if (slot == m_currentSlot)
    {
        for (std::size_t i = m_head; i < m_current.size(); ++i)
        {
            if (m_current[i].key.m_uid == ev.key.m_uid)
            {
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
    else if (slot > m_currentSlot && slot - m_currentSlot < NUM_SLOTS)
    {
        const uint32_t index = static_cast<uint32_t>(slot) & SLOT_MASK;
        std::vector<Scheduler::Event>& events = m_slots[index];
        for (std::size_t i = 0; i < events.size(); ++i)
        {
            if (events[i].key.m_uid == ev.key.m_uid)
            {
                events.erase(events.begin() + static_cast<std::ptrdiff_t>(i));
                if (events.empty())
                {
                    Unmark(index);
                }
                --m_size;
                return;
            }
        }
    }
    else if (slot > m_currentSlot)
    {
        for (std::size_t i = 0; i < m_overflow.size(); ++i)
        {
            if (m_overflow[i].key.m_uid == ev.key.m_uid)
            {
                m_overflow[i] = m_overflow.back();
                m_overflow.pop_back();
                std::make_heap(m_overflow.begin(), m_overflow.end(), Later);
                m_overflowSlot =
                    m_overflow.empty() ? UINT64_MAX : m_overflow.front().key.m_ts >> m_shift;
                --m_size;
                return;
            }
        }
    }
    NS_ABORT_MSG("RdmaTimingWheelScheduler::Remove: event uid "
                 << ev.key.m_uid << " at time stamp " << ev.key.m_ts << " is not scheduled");
}

} // namespace ns3
