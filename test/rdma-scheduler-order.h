/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCHEDULER_ORDER_H
#define RDMA_SCHEDULER_ORDER_H

// The order checks every scheduler of the module passes: it hands out events in exactly the
// order of ns-3's PriorityQueueScheduler, the (time stamp, uid) order that makes results
// independent of the scheduler.

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace rdmatest
{

/// An event with no implementation: only its key matters to a scheduler.
inline ns3::Scheduler::Event
SchedulerTestEvent(uint64_t ts, uint32_t uid)
{
    ns3::Scheduler::Event ev;
    ev.impl = nullptr;
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = uid % 7;
    return ev;
}

/// A scheduler under test and ns-3's PriorityQueueScheduler, given the same events.
class SchedulerTwin
{
  public:
    /**
     * \param tested the scheduler under test, empty
     * \param firstUid the uid of the first event inserted (then one more per event)
     */
    SchedulerTwin(ns3::Ptr<ns3::Scheduler> tested, uint32_t firstUid)
        : m_tested(tested),
          m_reference(ns3::CreateObject<ns3::PriorityQueueScheduler>()),
          m_nextUid(firstUid)
    {
    }

    /**
     * Insert an event with the next uid into both.
     * \param ts its time stamp
     * \return the event
     */
    ns3::Scheduler::Event Insert(uint64_t ts)
    {
        const ns3::Scheduler::Event ev = SchedulerTestEvent(ts, m_nextUid++);
        m_tested->Insert(ev);
        m_reference->Insert(ev);
        return ev;
    }

    /// Remove every event from both and compare them one by one; both must end empty.
    void ExpectSameOrderToTheEnd()
    {
        for (uint32_t step = 0; !m_reference->IsEmpty(); ++step)
        {
            ASSERT_FALSE(m_tested->IsEmpty()) << "step " << step;
            const ns3::Scheduler::Event a = m_tested->RemoveNext();
            const ns3::Scheduler::Event b = m_reference->RemoveNext();
            ASSERT_EQ(a.key.m_ts, b.key.m_ts) << "step " << step;
            ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << step;
        }
        EXPECT_TRUE(m_tested->IsEmpty());
    }

    ns3::Ptr<ns3::Scheduler> m_tested;    //!< the scheduler under test
    ns3::Ptr<ns3::Scheduler> m_reference; //!< ns-3's binary heap
    uint32_t m_nextUid;                   //!< the next event's uid
};

/**
 * A simulator's pattern, sped up: each removal is followed by insertions at or after its
 * time (many at the same time stamp, most near, some far ahead, up to 2^40 ticks), some
 * pending events are removed (Simulator::Remove) and PeekNext is checked before each
 * removal. The scheduler and PriorityQueueScheduler must agree on every event, and both end
 * empty.
 * \param scheduler the scheduler under test, empty
 * \param seed the random stream
 */
inline void
ExpectSameOrderUnderRandomLoad(ns3::Ptr<ns3::Scheduler> scheduler, uint64_t seed)
{
    using namespace ns3;
    SchedulerTwin twin(scheduler, 4);
    const Ptr<Scheduler> reference = twin.m_reference;
    std::mt19937_64 rng(seed);
    std::map<uint32_t, Scheduler::Event> pending; // by uid
    auto insert = [&](uint64_t ts) {
        const Scheduler::Event ev = twin.Insert(ts);
        pending[ev.key.m_uid] = ev;
    };
    for (uint32_t i = 0; i < 500; ++i)
    {
        insert(rng() % 1000);
    }
    uint64_t now = 0;
    uint32_t removed = 0;
    for (uint32_t step = 0; step < 200000 && !reference->IsEmpty(); ++step)
    {
        ASSERT_FALSE(scheduler->IsEmpty());
        const Scheduler::Event peek = scheduler->PeekNext();
        const Scheduler::Event a = scheduler->RemoveNext();
        const Scheduler::Event b = reference->RemoveNext();
        ASSERT_EQ(peek.key.m_uid, a.key.m_uid) << "step " << step;
        ASSERT_EQ(a.key.m_ts, b.key.m_ts) << "step " << step;
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << step;
        ASSERT_EQ(a.key.m_context, b.key.m_context) << "step " << step;
        ASSERT_GE(a.key.m_ts, now);
        now = a.key.m_ts;
        pending.erase(a.key.m_uid);
        if (step < 150000)
        {
            // Some 2,000 events pending, as in the fabrics this scheduler is for.
            const uint32_t n = pending.size() < 2000 ? 2 : rng() % 2;
            for (uint32_t k = 0; k < n; ++k)
            {
                const uint64_t r = rng() % 100;
                // Same time (ScheduleNow), near (a frame), far (a timer, up to 2^40 ticks).
                insert(now + (r < 20 ? 0 : r < 95 ? rng() % 5000 : rng() % (uint64_t(1) << 40)));
            }
        }
        if (rng() % 50 == 0 && !pending.empty())
        {
            auto it = pending.lower_bound(static_cast<uint32_t>(rng() % twin.m_nextUid));
            it = it == pending.end() ? pending.begin() : it;
            scheduler->Remove(it->second);
            reference->Remove(it->second);
            pending.erase(it);
            ++removed;
        }
    }
    EXPECT_TRUE(reference->IsEmpty());
    EXPECT_TRUE(scheduler->IsEmpty());
    EXPECT_GT(removed, 2000U);
}

/**
 * Time stamps over the whole range (up to 2^62) and bursts at one time stamp: the same order
 * as the binary heap.
 * \param scheduler the scheduler under test, empty
 * \param seed the random stream
 */
inline void
ExpectSameOrderOverEveryDistance(ns3::Ptr<ns3::Scheduler> scheduler, uint64_t seed)
{
    using namespace ns3;
    SchedulerTwin twin(scheduler, 4);
    const Ptr<Scheduler> reference = twin.m_reference;
    std::mt19937_64 rng(seed);
    auto insert = [&](uint64_t ts) { twin.Insert(ts); };
    for (uint32_t i = 0; i < 300; ++i)
    {
        insert(rng() >> (2 + rng() % 62)); // 0 .. 2^62, spread over the levels
    }
    uint64_t now = 0;
    for (uint32_t step = 0; step < 100000 && !reference->IsEmpty(); ++step)
    {
        const Scheduler::Event a = scheduler->RemoveNext();
        const Scheduler::Event b = reference->RemoveNext();
        ASSERT_EQ(a.key.m_ts, b.key.m_ts) << "step " << step;
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << step;
        now = a.key.m_ts;
        if (step < 15000 && step % 3 == 0)
        {
            // A burst: several events at one future time stamp, plus one far ahead.
            const uint64_t at = now + (rng() % (uint64_t(1) << (rng() % 30)));
            for (uint32_t k = 0; k < 3; ++k)
            {
                insert(at);
            }
            insert(now + (rng() >> (2 + rng() % 62)) % ((uint64_t(1) << 62) - now));
        }
    }
    EXPECT_TRUE(reference->IsEmpty());
    EXPECT_TRUE(scheduler->IsEmpty());
}

namespace detail
{
/// The tags of the events RunThroughSimulator's events ran, in order.
inline std::vector<uint32_t>&
RunOrder()
{
    static std::vector<uint32_t> order;
    return order;
}

inline void
RecordRun(uint32_t tag)
{
    RunOrder().push_back(tag);
}
} // namespace detail

/**
 * Through the simulator: 2,000 events at 50 distinct times (1 ns apart), 2,000 up to 5 ms
 * ahead, and one removed (Simulator::Remove), run under a scheduler.
 * \param scheduler a Scheduler TypeId name
 * \return the tags of the events in the order they ran
 */
inline std::vector<uint32_t>
RunThroughSimulator(const std::string& scheduler)
{
    using namespace ns3;
    Simulator::Destroy();
    Simulator::SetScheduler(ObjectFactory(scheduler));
    detail::RunOrder().clear();
    std::mt19937 rng(7);
    for (uint32_t i = 0; i < 2000; ++i)
    {
        Simulator::Schedule(NanoSeconds(rng() % 50), &detail::RecordRun, i);
        Simulator::Schedule(MicroSeconds(rng() % 5000), &detail::RecordRun, 10000 + i);
    }
    EventId removed = Simulator::Schedule(NanoSeconds(10), &detail::RecordRun, 99999);
    Simulator::Remove(removed);
    Simulator::Run();
    Simulator::Destroy();
    return detail::RunOrder();
}

} // namespace rdmatest

#endif // RDMA_SCHEDULER_ORDER_H
