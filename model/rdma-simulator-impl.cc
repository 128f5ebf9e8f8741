/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-simulator-impl.h"

#include "rdma-radix-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <limits>

namespace ns3
{

// No logging on the per-event path: each NS_LOG costs a call even when disabled (Debian's
// ns-3 is built with logging), which is what this class exists to avoid.
NS_LOG_COMPONENT_DEFINE("RdmaSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(RdmaSimulatorImpl);

RdmaSimulatorImpl* RdmaSimulatorImpl::s_running = nullptr;
bool RdmaSimulatorImpl::s_storesPastCaches = false;

TypeId
RdmaSimulatorImpl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSimulatorImpl")
            .SetParent<SimulatorImpl>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSimulatorImpl>()
            .AddAttribute("PrefetchMinPending",
                          "Prefetch the objects the next events of the radix "
                          "scheduler's current run will read while at least "
                          "this many events are pending (0: never). A large "
                          "fabric's devices, channels and packets are far "
                          "from the caches when their next event comes; in a "
                          "small one the prefetches would cost instructions "
                          "and save nothing.",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&RdmaSimulatorImpl::m_prefetchMinPending),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Lookahead",
                "Run the events in windows of this length, each window node by node (all "
                "of one node's events of the window, then the next node's), as ns-3's "
                "distributed simulator runs its partitions, so that a node's state is "
                "loaded once per window instead of once per event. It must not exceed the "
                "least delay with which an event of one node schedules one for another (in "
                "this module, a link's propagation delay): an event scheduled for another "
                "node inside the running window is refused, naming both. Events of no node "
                "(Simulator::Stop, a sampler scheduled from main) end a window and run "
                "alone. Same-time events of one node from different nodes may then run in "
                "another order than with 0 (global order, the default), so results are "
                "equivalent, not identical; and Stop() called by a node's event takes "
                "effect at the end of its window. 0: off.",
                TimeValue(Time(0)),
                MakeTimeAccessor(&RdmaSimulatorImpl::SetLookahead,
                                 &RdmaSimulatorImpl::GetLookahead),
                MakeTimeChecker()); // SetLookahead refuses a negative one, saying why
    return tid;
}

/**
 * What Insert hands events to while a node's events of a window run (Lookahead): those
 * earlier than the window's end to the node's own (InsertInWindow), the others to the
 * scheduler. Only Insert is ever called.
 */
class RdmaSimulatorImpl::WindowInserter : public Scheduler
{
  public:
    /// \param impl the implementation whose windows run
    explicit WindowInserter(RdmaSimulatorImpl* impl)
        : m_impl(impl)
    {
    }

    void Insert(const Scheduler::Event& ev) override
    {
        if (ev.key.m_ts < m_impl->m_windowEnd)
        {
            m_impl->InsertInWindow(ev);
        }
        else
        {
            m_impl->m_events->Insert(ev);
        }
    }

    bool IsEmpty() const override
    {
        NS_FATAL_ERROR("RdmaSimulatorImpl::WindowInserter only inserts");
        return true;
    }

    Scheduler::Event PeekNext() const override
    {
        NS_FATAL_ERROR("RdmaSimulatorImpl::WindowInserter only inserts");
        return {};
    }

    Scheduler::Event RemoveNext() override
    {
        NS_FATAL_ERROR("RdmaSimulatorImpl::WindowInserter only inserts");
        return {};
    }

    void Remove(const Scheduler::Event& /* ev */) override
    {
        NS_FATAL_ERROR("RdmaSimulatorImpl::WindowInserter only inserts");
    }

  private:
    RdmaSimulatorImpl* m_impl; //!< the implementation (owns this object)
};

RdmaSimulatorImpl::RdmaSimulatorImpl()
    : m_currentContext(Simulator::NO_CONTEXT),
      m_currentUid(EventId::UID::INVALID),
      m_nextUid(EventId::UID::VALID),
      m_mainThread(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

RdmaSimulatorImpl::~RdmaSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (s_running == this)
    {
        s_running = nullptr;
    }
    InsertForeignEvents();
    while (m_events && !m_events->IsEmpty())
    {
        Untag(m_events->RemoveNext().impl)->Unref();
    }
    m_events = nullptr;
    m_insertInto = nullptr;
    m_windowInserter = nullptr;
    m_radix = nullptr;
    m_prefetchFrom = INT64_MAX;
    SimulatorImpl::DoDispose();
}

void
RdmaSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    // Taken off the list before it runs (so it is expired while running); it may schedule
    // another destroy event, which runs too.
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> event = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        event->Invoke(); // does nothing if it was cancelled
    }
}

void
RdmaSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    while (m_events && !m_events->IsEmpty())
    {
        scheduler->Insert(m_events->RemoveNext());
    }
    m_events = scheduler;
    m_insertInto = PeekPointer(scheduler);
    m_radix = dynamic_cast<RdmaRadixScheduler*>(PeekPointer(scheduler));
    UpdatePrefetchFrom();
}

void
RdmaSimulatorImpl::UpdatePrefetchFrom()
{
    m_prefetchFrom = m_radix && m_prefetchMinPending != 0 ? m_prefetchMinPending : INT64_MAX;
}

uint32_t
RdmaSimulatorImpl::GetSystemId() const
{
    return 0; // a sequential simulation is system 0
}

bool
RdmaSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

void
RdmaSimulatorImpl::InsertForeignEvents()
{
    if (!m_hasForeign.load(std::memory_order_acquire))
    {
        return;
    }
    std::vector<ForeignEvent> foreign;
    {
        std::lock_guard<std::mutex> lock(m_foreignMutex);
        foreign.swap(m_foreign);
        m_hasForeign.store(false, std::memory_order_release);
    }
    for (const ForeignEvent& f : foreign)
    {
        Insert(f.event, m_now + f.delay, f.context);
    }
}

/// How many events after the next one Run prefetches an event's object (its first line, a
/// plain prefetch), then calls its DirectEvent::Prefetch stage 1 to 5 (each stage reads
/// what the one before prefetched or loaded). A hop's event takes about 1 us of CPU at
/// k = 32 and 0.4 us at k = 16, a dependent miss to memory 0.1 to 0.27 us: one event
/// between stages is time enough. The last stage runs one event ahead, not just before
/// the event (as it did until the stages loaded their slots): the packet it prefetches
/// then arrives in time. Further ahead (stages 12, 8 and 4 events ahead) measured the same.
/// (The two are side by side at k = 32: 1.01.)
static constexpr std::size_t PREFETCH_EVENT_AHEAD = 6;
/// See PREFETCH_EVENT_AHEAD: stage s is called PREFETCH_STAGE_AHEAD[s - 1] events ahead.
static constexpr std::array<std::size_t, 5> PREFETCH_STAGE_AHEAD{5, 4, 3, 2, 1};

void
RdmaSimulatorImpl::PrefetchAhead() const
{
    std::size_t count = 0;
    const Scheduler::Event* run = m_radix->RunAhead(count);
    PrefetchFor(run, count);
}

void
RdmaSimulatorImpl::PrefetchFor(const Scheduler::Event* run, std::size_t count)
{
    if (PREFETCH_EVENT_AHEAD < count)
    {
        __builtin_prefetch(Untag(run[PREFETCH_EVENT_AHEAD].impl));
    }
    // The stages' events read first, then their calls: read between the calls, the run's
    // bounds were loaded again before each (a call might change the run, as far as the
    // compiler knows): 142 -> 82 instructions an event in a k = 32 window.
    std::array<EventImpl*, PREFETCH_STAGE_AHEAD.size()> events{};
    for (std::size_t s = 0; s < events.size(); ++s)
    {
        if (PREFETCH_STAGE_AHEAD[s] < count)
        {
            events[s] = run[PREFETCH_STAGE_AHEAD[s]].impl;
        }
    }
    for (uint32_t stage = 1; stage <= events.size(); ++stage)
    {
        EventImpl* const event = events[stage - 1]; // null: the run ends before it
        if (reinterpret_cast<uintptr_t>(event) & DIRECT_EVENT_TAG)
        {
            static_cast<const DirectEvent*>(Untag(event))->Prefetch(stage);
        }
    }
}

/// In windows (Lookahead), the events whose prefetch stages are called together: stage s
/// for the events PREFETCH_STAGE_AHEAD[s - 1] batches ahead, the event objects
/// PREFETCH_EVENT_AHEAD batches ahead. Why in batches: a stage that loads a line
/// (RdmaSimulatorImpl::Touch, the arrival's ring slot) holds up everything after it until
/// the line comes; called for one event at a time, each load waited alone, one memory
/// latency per event; eight in a row wait together. k = 32 window (fattree32, 8-12 us),
/// side by side (batches of 1, 2, 4, 8, 16): events/s 1.65 M one at a time, 1.97-2.07 M
/// from 2 to 16, against 1.78-1.85 M before the window's array ran across nodes.
/// PrefetchBatch and PrefetchFor stay two functions: one template for both, with batches of
/// one for Run, ran 47 more instructions an event in global order (k = 16) with its loops
/// nested, and 32 more in windows (k = 32) with them flat (callgrind).
static constexpr std::size_t PREFETCH_BATCH = 8;

void
RdmaSimulatorImpl::PrefetchBatch(const Scheduler::Event* run, std::size_t count, std::size_t first)
{
    const std::size_t objects = first + PREFETCH_EVENT_AHEAD * PREFETCH_BATCH;
    for (std::size_t i = objects; i < std::min(count, objects + PREFETCH_BATCH); ++i)
    {
        __builtin_prefetch(Untag(run[i].impl));
    }
    for (uint32_t stage = 1; stage <= PREFETCH_STAGE_AHEAD.size(); ++stage)
    {
        const std::size_t from = first + PREFETCH_STAGE_AHEAD[stage - 1] * PREFETCH_BATCH;
        for (std::size_t i = from; i < std::min(count, from + PREFETCH_BATCH); ++i)
        {
            EventImpl* const event = run[i].impl;
            if (reinterpret_cast<uintptr_t>(event) & DIRECT_EVENT_TAG)
            {
                static_cast<const DirectEvent*>(Untag(event))->Prefetch(stage);
            }
        }
    }
}

void
RdmaSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThread = std::this_thread::get_id();
    InsertForeignEvents();
    m_stop = false;
    UpdatePrefetchFrom();
    RdmaSimulatorImpl* const outer = s_running; // a Run inside an event (not done, but safe)
    s_running = this;
    if (m_lookahead != 0)
    {
        RunWindows();
        s_running = outer;
        s_storesPastCaches = false;
        return;
    }
    // m_pending counts the scheduler's events (Insert, Remove and this loop keep it): no
    // virtual IsEmpty per event.
    while (m_pending != 0 && !m_stop)
    {
        NS_ASSERT(!m_events->IsEmpty());
        const Scheduler::Event next = m_events->RemoveNext();
        NS_ASSERT(next.key.m_ts >= m_now);
        // The stages read only the run ahead, not the clock: before RunEvent, with the
        // pending count as RunEvent leaves it (one comparison per event where it is off).
        if (m_pending > m_prefetchFrom)
        {
            PrefetchAhead();
        }
        RunEvent(next);
        if (m_hasForeign.load(std::memory_order_relaxed))
        {
            InsertForeignEvents();
        }
    }
    s_running = outer;
    // Ended for want of events: every event scheduled was run, cancelled or removed.
    NS_ASSERT(m_events->IsEmpty() == (m_pending == 0));
}

void
RdmaSimulatorImpl::SetLookahead(Time lookahead)
{
    NS_ABORT_MSG_IF(lookahead.IsStrictlyNegative(),
                    "RdmaSimulatorImpl::Lookahead: " << lookahead.As(Time::NS)
                                                     << "; valid: 0 (off) or more");
    NS_ABORT_MSG_IF(s_running == this,
                    "RdmaSimulatorImpl::Lookahead: set while the simulation runs; set it "
                    "before Simulator::Run");
    m_lookahead = static_cast<uint64_t>(lookahead.GetTimeStep());
}

Time
RdmaSimulatorImpl::GetLookahead() const
{
    return TimeStep(static_cast<int64_t>(m_lookahead));
}

/// Contexts from this one on are of no node (Simulator::NO_CONTEXT and the like): their
/// events run alone, between windows.
static constexpr uint32_t FIRST_NON_NODE_CONTEXT = 1U << 24;

namespace
{
/**
 * The order of a node's own events in a window (a heap whose top runs first). A function
 * object, not a function: given a function, std::push_heap and std::pop_heap called it
 * through its pointer for every comparison; the object's operator they inline.
 */
struct RunsAfter
{
    /// \return whether a runs after b (a later time stamp, or the same and a later uid)
    bool operator()(const Scheduler::Event& a, const Scheduler::Event& b) const
    {
        return a.key.m_ts != b.key.m_ts ? a.key.m_ts > b.key.m_ts : a.key.m_uid > b.key.m_uid;
    }
};
} // namespace

void
RdmaSimulatorImpl::InsertInWindow(const Scheduler::Event& ev)
{
    if (ev.key.m_context != m_currentContext)
    {
        NS_FATAL_ERROR("RdmaSimulatorImpl::Lookahead "
                       << TimeStep(static_cast<int64_t>(m_lookahead)).As(Time::NS)
                       << ": an event of node " << m_currentContext << " at "
                       << TimeStep(static_cast<int64_t>(m_now)).As(Time::NS)
                       << " scheduled one for context " << ev.key.m_context << " "
                       << TimeStep(static_cast<int64_t>(ev.key.m_ts - m_now)).As(Time::NS)
                       << " later, inside the window that ends at "
                       << TimeStep(static_cast<int64_t>(m_windowEnd)).As(Time::NS)
                       << "; valid: a Lookahead no larger than the least delay between nodes "
                          "(a link's propagation delay), or 0 (off)");
    }
    m_ownEvents.push_back(ev);
    std::push_heap(m_ownEvents.begin(), m_ownEvents.end(), RunsAfter());
}

bool
RdmaSimulatorImpl::TakeWindow(Scheduler::Event& global)
{
    const uint64_t start = m_events->PeekNext().key.m_ts;
    uint64_t end = start + m_lookahead;
    if (end < start) // past the last time step
    {
        end = std::numeric_limits<uint64_t>::max();
    }
    bool holdsGlobal = false;
    m_windowEnd = end;
    // Taken in the scheduler's order and counted per node, then placed node by node (a
    // counting sort): one array the window runs through from end to end, so the prefetch
    // stages reach across a node's last events into the next node's first.
    do
    {
        const Scheduler::Event ev = m_events->RemoveNext();
        const uint32_t context = ev.key.m_context;
        if (context >= FIRST_NON_NODE_CONTEXT)
        {
            global = ev;
            m_windowEnd = ev.key.m_ts;
            holdsGlobal = true;
            break;
        }
        if (context >= m_nodeEnd.size())
        {
            m_nodeEnd.resize(context + 1, 0);
        }
        if (m_nodeEnd[context]++ == 0)
        {
            m_windowNodes.push_back(context);
        }
        m_taken.push_back(ev);
    } while (!m_events->IsEmpty() && m_events->PeekNext().key.m_ts < end);
    uint32_t offset = 0;
    for (uint32_t node : m_windowNodes)
    {
        const uint32_t count = m_nodeEnd[node];
        m_nodeEnd[node] = offset; // where the node's events go; their end once placed
        offset += count;
    }
    m_windowRun.resize(m_taken.size());
    for (const Scheduler::Event& ev : m_taken)
    {
        m_windowRun[m_nodeEnd[ev.key.m_context]++] = ev;
    }
    m_taken.clear();
    return holdsGlobal;
}

void
RdmaSimulatorImpl::RunNodeWindow(std::size_t begin, std::size_t end)
{
    std::size_t next = begin;
    // The node's own state is loaded by its first events and stays in the caches for the
    // rest; what its events read of other nodes' making (the channel ring slots and packets
    // its neighbours sent a window earlier) is prefetched from the window's array, stage by
    // stage and batch by batch (PrefetchBatch): across the node's end into the next node's
    // first events, whose own state is then on its way too.
    const bool prefetch = m_pending >= m_prefetchFrom;
    s_storesPastCaches = prefetch;
    const Scheduler::Event* const run = m_windowRun.data();
    const std::size_t size = m_windowRun.size();
    for (;;)
    {
        if (prefetch && next >= m_nextBatch && next < end)
        {
            PrefetchBatch(run, size, next);
            m_nextBatch = next + PREFETCH_BATCH;
        }
        if (!m_ownEvents.empty() && (next == end || RunsAfter()(run[next], m_ownEvents[0])))
        {
            std::pop_heap(m_ownEvents.begin(), m_ownEvents.end(), RunsAfter());
            const Scheduler::Event ev = m_ownEvents.back();
            m_ownEvents.pop_back();
            RunEvent(ev);
        }
        else if (next < end)
        {
            RunEvent(run[next++]);
        }
        else
        {
            break;
        }
    }
}

void
RdmaSimulatorImpl::RunWindows()
{
    // Every event run in a window is earlier than the window's end, and every event it
    // schedules for another node is not (InsertInWindow refuses it): the scheduler's
    // events stay later than all it handed out, as a monotone scheduler needs.
    uint64_t latest = m_now;
    if (!m_windowInserter)
    {
        m_windowInserter = Create<WindowInserter>(this);
    }
    while (m_pending != 0 && !m_stop)
    {
        Scheduler::Event global;
        const bool holdsGlobal = TakeWindow(global);
        m_insertInto = PeekPointer(m_windowInserter);
        std::size_t begin = 0;
        m_nextBatch = 0;
        for (uint32_t node : m_windowNodes)
        {
            const std::size_t end = m_nodeEnd[node];
            m_nodeEnd[node] = 0;
            RunNodeWindow(begin, end);
            begin = end;
            latest = std::max(latest, m_now);
        }
        m_insertInto = PeekPointer(m_events);
        m_windowNodes.clear();
        m_windowEnd = 0;
        m_now = latest; // the clock between windows: the latest time any node reached
        if (holdsGlobal)
        {
            RunEvent(global);
            latest = m_now;
        }
        if (m_hasForeign.load(std::memory_order_relaxed))
        {
            InsertForeignEvents();
        }
    }
    NS_ASSERT(m_events->IsEmpty() == (m_pending == 0));
}

void
RdmaSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

void
RdmaSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    Simulator::Schedule(delay, &Simulator::Stop);
}

EventId
RdmaSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThread == std::this_thread::get_id(),
                  "RdmaSimulatorImpl::Schedule called from another thread; use "
                  "Simulator::ScheduleWithContext");
    const int64_t steps = delay.GetTimeStep();
    NS_ABORT_MSG_IF(steps < 0, "Simulator::Schedule: negative delay " << delay);
    const uint64_t ts = m_now + static_cast<uint64_t>(steps);
    const uint32_t uid = Insert(event, ts, m_currentContext);
    return EventId(event, ts, m_currentContext, uid);
}

void
RdmaSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    const int64_t steps = delay.GetTimeStep();
    NS_ABORT_MSG_IF(steps < 0, "Simulator::ScheduleWithContext: negative delay " << delay);
    if (m_mainThread == std::this_thread::get_id())
    {
        Insert(event, m_now + static_cast<uint64_t>(steps), context);
        return;
    }
    std::lock_guard<std::mutex> lock(m_foreignMutex);
    m_foreign.push_back({context, static_cast<uint64_t>(steps), event});
    m_hasForeign.store(true, std::memory_order_release);
}

EventId
RdmaSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(TimeStep(0), event);
}

EventId
RdmaSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThread == std::this_thread::get_id(),
                  "RdmaSimulatorImpl::ScheduleDestroy called from another thread");
    EventId id(Ptr<EventImpl>(event, false), m_now, Simulator::NO_CONTEXT, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_nextUid; // as DefaultSimulatorImpl: a destroy event takes a uid too
    return id;
}

Time
RdmaSimulatorImpl::Now() const
{
    return TimeStep(m_now);
}

Time
RdmaSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_now);
}

void
RdmaSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto it = m_destroyEvents.begin(); it != m_destroyEvents.end(); ++it)
        {
            if (*it == id)
            {
                m_destroyEvents.erase(it);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    if (m_insertInto == PeekPointer(m_windowInserter) && id.GetTs() <= m_windowEnd)
    {
        // Within the running window (Lookahead) the event may be on a node's list, in the
        // running node's own events, or held: cancelled there instead, it runs as nothing.
        id.PeekEventImpl()->Cancel();
        return;
    }
    Scheduler::Event ev;
    ev.impl = id.PeekEventImpl();
    ev.key.m_ts = id.GetTs();
    ev.key.m_context = id.GetContext();
    ev.key.m_uid = id.GetUid();
    m_events->Remove(ev);
    ev.impl->Cancel();
    ev.impl->Unref(); // the scheduler's reference
    --m_pending;
}

void
RdmaSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
RdmaSimulatorImpl::IsExpired(const EventId& id) const
{
    EventImpl* event = id.PeekEventImpl();
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (!event || event->IsCancelled())
        {
            return true;
        }
        for (const EventId& pending : m_destroyEvents)
        {
            if (pending == id)
            {
                return false;
            }
        }
        return true;
    }
    // Run already: earlier, or at this time stamp and not after the running event.
    return !event || id.GetTs() < m_now || (id.GetTs() == m_now && id.GetUid() <= m_currentUid) ||
           event->IsCancelled();
}

Time
RdmaSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(std::numeric_limits<int64_t>::max());
}

uint32_t
RdmaSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
RdmaSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
