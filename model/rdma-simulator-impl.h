/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SIMULATOR_IMPL_H
#define RDMA_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ns3
{

class RdmaRadixScheduler;

/**
 * \ingroup rdma
 * \brief A sequential simulator implementation (the SimulatorImplementationType global
 * value) with the semantics of ns-3's DefaultSimulatorImpl and a cheaper per-event path.
 *
 * Why it exists: in this module's fabrics every frame on every link is an event, and
 * DefaultSimulatorImpl's bookkeeping around each one cost about 230 instructions of the
 * 2,150 per event of hpcc-a2a16 (callgrind): an EventId built and destroyed per event only
 * to be passed to an empty PreEventHook, a logging check in ProcessOneEvent and in
 * ScheduleWithContext, a call per event to look for events scheduled from other threads,
 * Time objects built and destroyed for a sum of two integers.
 *
 * What it keeps equal (test RdmaSimulatorImpl.*, which runs the same random schedules,
 * cancellations, removals, destroy events and stops through both): uids are handed out as
 * DefaultSimulatorImpl hands them out (from EventId::UID::VALID, one per Schedule,
 * ScheduleWithContext, ScheduleNow and ScheduleDestroy), so every scheduler orders the
 * events exactly as under DefaultSimulatorImpl and results are identical; Schedule,
 * Cancel, Remove, IsExpired, GetDelayLeft, Stop, Destroy and GetContext answer the same;
 * ScheduleWithContext from another thread is queued under a mutex and inserted between
 * events, as DefaultSimulatorImpl does.
 *
 * What it leaves out: SimulatorImpl::PreEventHook is not called (only a subclass can
 * override it, and this class has none).
 *
 * What it can do besides, off by default: with the Lookahead attribute set (at most the
 * least delay between nodes, a link's propagation delay) it runs the events in windows of
 * that length, node by node, as a conservative parallel simulator with synchronous windows
 * runs its partitions (Lubachevsky, "Efficient distributed event-driven simulations of
 * multiple-loop networks", CACM 32(1), 1989; ns-3's DistributedSimulatorImpl does the same
 * per MPI rank): every event of a window is earlier than the window's end, and every event
 * it schedules for another node is not, so each node runs its events in (time stamp, uid)
 * order and no node's event can change what another ran in that window. Why: in a large
 * fabric consecutive events in global order belong to different switches, whose state is
 * far from the caches each time; node by node, a switch's ports and queues are loaded once
 * for all its events of the window. Same-time events of one node that came from different
 * nodes may run in another order than in global order (their uids are handed out in the
 * order the windows run them), so results are equivalent, not identical (tests
 * RdmaLookahead.*).
 */
class RdmaSimulatorImpl : public SimulatorImpl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaSimulatorImpl();
    ~RdmaSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * Set the Lookahead attribute (before Run).
     * \param lookahead the window's length (0: off)
     */
    void SetLookahead(Time lookahead);
    /// \return the Lookahead attribute
    Time GetLookahead() const;

    /**
     * Simulator::Now() for the module's per-event code. While an RdmaSimulatorImpl runs
     * events it reads that implementation's clock directly, skipping the two calls through
     * ns-3's Simulator (about 45 instructions, 7 million times in hpcc-a2a16); otherwise it
     * is Simulator::Now().
     * \return the current simulated time
     */
    static Time CurrentTime()
    {
        const RdmaSimulatorImpl* running = s_running;
        return running ? TimeStep(static_cast<int64_t>(running->m_now)) : Simulator::Now();
    }

    /**
     * An event of the module's per-frame paths (a frame's arrival, the end of its
     * serialization) that is never cancelled: no EventId is made for it. Scheduled with
     * ScheduleDirectNow, Run calls Fire directly instead of EventImpl::Invoke, whose
     * NS_LOG_FUNCTION and cancel check cost some 30 instructions an event in ns-3's build
     * with logging (4.7 M of hpcc-a2a16's 5.05 M events are these).
     */
    class DirectEvent : public EventImpl
    {
      public:
        /// Run the event (what Notify does).
        virtual void Fire() = 0;

        /**
         * Prefetch what Fire will read, in stages: stage 1 the lines of the objects this
         * event points at (addresses only, nothing read), stages 2 to 5 the lines reached
         * through what the stage before prefetched or loaded (Touch). Run calls stage s
         * 6 - s events before this one (stage 5 one event before), in windows 6 - s batches
         * of eight before (PrefetchBatch), while many events are pending (see
         * RdmaSimulatorImpl::PrefetchMinPending); for each event, the stages in order. Reads
         * nothing Fire would not read.
         * \param stage 1 to 5
         */
        virtual void Prefetch(uint32_t /* stage */) const
        {
        }

      private:
        /// Through Invoke, when another simulator implementation runs it.
        void Notify() override
        {
            Fire();
        }
    };

    /**
     * ScheduleWithContextNow for a DirectEvent: the same uid and order; Run fires it
     * without EventImpl::Invoke (the scheduler holds it tagged, DIRECT_EVENT_TAG).
     * \param context the event's context (node id)
     * \param delay from now
     * \param event the event (the scheduler takes the caller's reference)
     */
    static void ScheduleDirectNow(uint32_t context, const Time& delay, DirectEvent* event)
    {
        RdmaSimulatorImpl* running = s_running;
        const int64_t steps = delay.GetTimeStep();
        if (running && steps >= 0 && running->m_mainThread == std::this_thread::get_id())
        {
            running->Insert(Tag(event), running->m_now + static_cast<uint64_t>(steps), context);
        }
        else
        {
            Simulator::ScheduleWithContext(context, delay, event);
        }
    }

    /**
     * Simulator::ScheduleWithContext for the module's per-event code, with the same
     * shortcut as CurrentTime(): the same event, uid and order, fewer calls.
     * \param context the event's context (node id)
     * \param delay from now
     * \param event the event (the scheduler takes the caller's reference)
     */
    static void ScheduleWithContextNow(uint32_t context, const Time& delay, EventImpl* event)
    {
        RdmaSimulatorImpl* running = s_running;
        const int64_t steps = delay.GetTimeStep();
        if (running && steps >= 0 && running->m_mainThread == std::this_thread::get_id())
        {
            running->Insert(event, running->m_now + static_cast<uint64_t>(steps), context);
        }
        else
        {
            // Not running, from another thread, or a negative delay (refused there).
            Simulator::ScheduleWithContext(context, delay, event);
        }
    }

    /**
     * Simulator::GetContext() with the same shortcut.
     * \return the running event's context
     */
    static uint32_t CurrentContext()
    {
        const RdmaSimulatorImpl* running = s_running;
        return running ? running->m_currentContext : Simulator::GetContext();
    }

    /**
     * Load the cache line of address now (one byte read), for a DirectEvent::Prefetch
     * stage whose next stage reads through that line.
     *
     * Why a load and not __builtin_prefetch: on a k = 32 fat-tree (perf, cpu-clock samples
     * on this project's AMD EPYC VM) the channel's ring slots and the device queue's first
     * slot prefetched one to four events ahead were still missed where Fire read them, and
     * so was the packet the next stage prefetched through them; read here instead, the
     * miss is taken here, overlapped with the other stage loads, and the later reads and
     * the packet's prefetch hit (measured events/s of the k = 32 window about 1.15 times
     * higher, side by side). Prefetching a port handler a stage before its virtual stage
     * was called left the same wait; loading its first line removed it. Lines that no later
     * stage reads through stay prefetches.
     * \param address any readable byte of the line
     */
    static void Touch(const void* address)
    {
        (void)*static_cast<const volatile uint8_t*>(address);
    }

    /**
     * Prefetch every cache line an object lies on: one of the heap need not start on a
     * line (a Packet's 104 bytes, 16-byte aligned, lie on two or three, and reading its
     * size touches the second as often as not).
     * \param object the object
     */
    template <typename T>
    static void PrefetchLines(const T* object)
    {
        constexpr uintptr_t LINE = 64;
        const uintptr_t first = reinterpret_cast<uintptr_t>(object);
        for (uintptr_t line = first & ~(LINE - 1); line < first + sizeof(T); line += LINE)
        {
            __builtin_prefetch(reinterpret_cast<const void*>(line));
        }
    }

    /**
     * \return true while a whole line written once and read back only much later is best
     * written past the caches (StreamLine): while a window's events run (Lookahead) with at
     * least PrefetchMinPending events pending, the prefetch stages' measure of a fabric too
     * large for the caches.
     *
     * Why: a channel's ring slot, written at a frame's start, is read back one propagation
     * delay later, when in a large fabric it has long left the caches; an ordinary store
     * first reads the line it writes from memory (a read for ownership), a streaming store
     * of the whole line does not. In a small fabric the slot stays in the caches until the
     * frame arrives, and a streaming store would send it to memory for the arrival to read
     * back: k = 4 in windows ran 0.88 times as fast streaming always (8 pairs, side by side).
     * In global order a k = 32 fat-tree gained nothing from it (0.99, 5 pairs), and the
     * decision would cost a store per event there: windows only.
     */
    static bool StoresPastCaches()
    {
        return s_storesPastCaches;
    }

    /**
     * Write a whole 64-byte line, \p from into \p to, past the caches (streaming stores;
     * an ordinary copy where the processor has none). A thread reads its own streaming
     * stores back as ordinary ones: no fence is needed.
     * \param to the line written (64-byte aligned)
     * \param from what it is to hold
     */
    template <typename T>
    static void StreamLine(T& to, const T& from)
    {
        static_assert(sizeof(T) == 64 && alignof(T) == 64, "StreamLine writes one aligned line");
#if defined(__SSE2__)
        const auto* source = reinterpret_cast<const __m128i*>(&from);
        auto* line = reinterpret_cast<__m128i*>(&to);
        for (int i = 0; i < 4; ++i)
        {
            _mm_stream_si128(line + i, _mm_load_si128(source + i));
        }
#else
        to = from;
#endif
    }

  private:
    /// The implementation inside Run() (events run only there), or null.
    static RdmaSimulatorImpl* s_running;
    /// StoresPastCaches(): set for each node's events of a window, with the prefetch stages'
    /// decision; false in global order and outside Run.
    static bool s_storesPastCaches;

    /// The low bit of a DirectEvent's pointer in the scheduler (events are aligned, and the
    /// schedulers compare keys only, never read the event).
    static constexpr uintptr_t DIRECT_EVENT_TAG = 1;

    /// \param event a direct event \return its pointer, tagged
    static EventImpl* Tag(DirectEvent* event)
    {
        return reinterpret_cast<EventImpl*>(
            reinterpret_cast<uintptr_t>(static_cast<EventImpl*>(event)) | DIRECT_EVENT_TAG);
    }

    /// \param event a scheduler's event pointer \return the event, untagged
    static EventImpl* Untag(EventImpl* event)
    {
        return reinterpret_cast<EventImpl*>(reinterpret_cast<uintptr_t>(event) & ~DIRECT_EVENT_TAG);
    }

    void DoDispose() override;

    /**
     * Hand an event to the scheduler with the next uid.
     * \param event the event (the scheduler's reference is the caller's)
     * \param ts its absolute time stamp
     * \param context its context
     * \return the uid it was given
     */
    uint32_t Insert(EventImpl* event, uint64_t ts, uint32_t context)
    {
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = ts;
        ev.key.m_context = context;
        ev.key.m_uid = m_nextUid++;
        ++m_pending;
        m_insertInto->Insert(ev);
        return ev.key.m_uid;
    }

    /**
     * An event scheduled inside the running window (Lookahead): it must be the running
     * node's own; it joins that node's events of the window. An event for another node
     * this soon would run out of order: refused, naming both nodes and the delay.
     * \param ev the event, with its key
     */
    void InsertInWindow(const Scheduler::Event& ev);

    /// Run's loop with Lookahead: windows of events run node by node.
    void RunWindows();

    /**
     * Take the next window's events out of the scheduler into m_windowRun, node by node
     * (each node's in the scheduler's order), up to Lookahead after the first or up to an
     * event of no node (which is held, and the window ends at its time stamp).
     * \param[out] global the held event of no node, if any
     * \return whether an event of no node is held
     */
    bool TakeWindow(Scheduler::Event& global);

    /**
     * Run one node's events of the window, m_windowRun[begin, end), merged with the events
     * it schedules for itself within the window, by (time stamp, uid).
     * \param begin the node's first event in m_windowRun
     * \param end one past its last
     */
    void RunNodeWindow(std::size_t begin, std::size_t end);

    /**
     * Run one event: the clock, context and uid set, then the event fired or invoked and
     * its reference released.
     * \param ev the event
     */
    void RunEvent(const Scheduler::Event& ev)
    {
        --m_pending;
        ++m_eventCount;
        m_now = ev.key.m_ts;
        m_currentContext = ev.key.m_context;
        m_currentUid = ev.key.m_uid;
        const uintptr_t tagged = reinterpret_cast<uintptr_t>(ev.impl);
        if (tagged & DIRECT_EVENT_TAG)
        {
            EventImpl* event = Untag(ev.impl);
            static_cast<DirectEvent*>(event)->Fire(); // never cancelled: no EventId exists
            event->Unref();
        }
        else
        {
            ev.impl->Invoke();
            ev.impl->Unref();
        }
    }

    /// Insert the events other threads scheduled (their delays count from now).
    void InsertForeignEvents();

    /// Prefetch what the next events of the current run will read (see PrefetchMinPending).
    void PrefetchAhead() const;

    /**
     * Prefetch what the events after the next one will read: their DirectEvent::Prefetch
     * stages, each stage's event as many events ahead as PREFETCH_STAGE_AHEAD says.
     * \param run the next event to run, then the ones after it
     * \param count how many events run holds
     */
    static void PrefetchFor(const Scheduler::Event* run, std::size_t count);

    /**
     * In windows: call the prefetch stages of the events ahead of a batch, batch by batch
     * (PREFETCH_BATCH events each; stage s for the events PREFETCH_STAGE_AHEAD[s - 1]
     * batches after first).
     * \param run the window's events
     * \param count how many run holds
     * \param first the batch's first event
     */
    static void PrefetchBatch(const Scheduler::Event* run, std::size_t count, std::size_t first);

    /// An event scheduled from a thread other than the one running the simulation.
    struct ForeignEvent
    {
        uint32_t context; //!< its context
        uint64_t delay;   //!< its delay, time steps from the time it is inserted
        EventImpl* event; //!< the event
    };

    Ptr<Scheduler> m_events; //!< the pending events
    /**
     * Where Insert hands an event: m_events, or while a node's events of a window run
     * (Lookahead) m_windowInserter, which sends the events of that window to the node's
     * own (InsertInWindow) and the later ones to m_events. A pointer swapped per window
     * instead of a test per event: without Lookahead, Insert costs what it did.
     */
    Scheduler* m_insertInto{nullptr};
    class WindowInserter;
    /// m_insertInto while a node's events of a window run.
    Ptr<WindowInserter> m_windowInserter;
    /// m_events if it is an RdmaRadixScheduler (its run can be read ahead), else null.
    RdmaRadixScheduler* m_radix{nullptr};
    /// Prefetch for the next events while at least this many are pending (0: never).
    uint32_t m_prefetchMinPending;
    /// m_prefetchMinPending as Run compares it: INT64_MAX if there is no prefetching (0, or
    /// not a radix scheduler); set by Run and SetScheduler.
    int64_t m_prefetchFrom{INT64_MAX};
    /// Set m_prefetchFrom from m_radix and m_prefetchMinPending.
    void UpdatePrefetchFrom();
    uint64_t m_now{0};                     //!< time stamp of the running (last run) event
    uint32_t m_currentContext;             //!< context of the running event
    uint32_t m_currentUid;                 //!< uid of the running event
    uint32_t m_nextUid;                    //!< uid of the next event scheduled
    uint64_t m_eventCount{0};              //!< events run
    int64_t m_pending{0};                  //!< events in the scheduler
    bool m_stop{false};                    //!< Stop() was called
    std::deque<EventId> m_destroyEvents;   //!< run by Destroy(), in order
    std::thread::id m_mainThread;          //!< the thread that runs the simulation
    std::mutex m_foreignMutex;             //!< guards m_foreign
    std::vector<ForeignEvent> m_foreign;   //!< scheduled from other threads
    std::atomic<bool> m_hasForeign{false}; //!< m_foreign is not empty

    /// Lookahead in time steps (0: events run in global order).
    uint64_t m_lookahead{0};
    /// The running window's end (exclusive) while a node's events of it run, else 0: an
    /// event scheduled earlier than this is the running node's and joins its window.
    uint64_t m_windowEnd{0};
    /// The window's events as TakeWindow removes them from the scheduler.
    std::vector<Scheduler::Event> m_taken;
    /// The window's events node by node (nodes in m_windowNodes' order), each node's in
    /// (time stamp, uid) order.
    std::vector<Scheduler::Event> m_windowRun;
    /// Per node (context): while TakeWindow counts, its events in the window; then the end
    /// of its events in m_windowRun; 0 once run.
    std::vector<uint32_t> m_nodeEnd;
    /// The event of m_windowRun from which the next batch's stages are called.
    std::size_t m_nextBatch{0};
    /// The nodes with events in the window, in the order of their first event.
    std::vector<uint32_t> m_windowNodes;
    /// Events the running node scheduled for itself within the window: a binary heap,
    /// earliest (time stamp, uid) first.
    std::vector<Scheduler::Event> m_ownEvents;
};

} // namespace ns3

#endif // RDMA_SIMULATOR_IMPL_H
