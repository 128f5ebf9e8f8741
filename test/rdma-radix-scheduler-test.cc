/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaRadixScheduler hands out events in exactly the order of ns-3's PriorityQueueScheduler:
// the (time stamp, uid) order that makes results independent of the scheduler.

#include "ns3/object-factory.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/rdma-radix-scheduler.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace ns3;

namespace
{

Scheduler::Event
TestEvent(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr;
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = uid % 7;
    return ev;
}

} // namespace

// The bucket of a time stamp is one more than its highest bit that differs from the last
// removed event's time stamp; 0 for the same time stamp.
TEST(RdmaRadixScheduler, BucketIsTheHighestDifferingBit)
{
    EXPECT_EQ(RdmaRadixScheduler::BucketOf(1000, 1000), 0U);
    EXPECT_EQ(RdmaRadixScheduler::BucketOf(1001, 1000), 1U);  // 1000 ^ 1001 = 1
    EXPECT_EQ(RdmaRadixScheduler::BucketOf(1024, 1000), 11U); // bit 10
    EXPECT_EQ(RdmaRadixScheduler::BucketOf(uint64_t(1) << 62, 0), 63U);
}

// A simulator's pattern, sped up: each removal is followed by insertions at or after its
// time (many at the same time stamp, some far ahead), and some pending events are removed
// (Simulator::Remove). Both schedulers must agree on every event, and both end empty.
TEST(RdmaRadixScheduler, SameOrderAsPriorityQueueScheduler)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    Ptr<Scheduler> reference = CreateObject<PriorityQueueScheduler>();
    std::mt19937_64 rng(12345);
    uint32_t uid = 4;
    std::map<uint32_t, Scheduler::Event> pending; // by uid
    auto insert = [&](uint64_t ts) {
        const Scheduler::Event ev = TestEvent(ts, uid++);
        radix->Insert(ev);
        reference->Insert(ev);
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
        ASSERT_FALSE(radix->IsEmpty());
        const Scheduler::Event peek = radix->PeekNext();
        const Scheduler::Event a = radix->RemoveNext();
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
            auto it = pending.lower_bound(static_cast<uint32_t>(rng() % uid));
            it = it == pending.end() ? pending.begin() : it;
            radix->Remove(it->second);
            reference->Remove(it->second);
            pending.erase(it);
            ++removed;
        }
    }
    EXPECT_TRUE(reference->IsEmpty());
    EXPECT_TRUE(radix->IsEmpty());
    EXPECT_GT(removed, 2000U);
}

TEST(RdmaRadixSchedulerDeathTest, RemovingAnUnscheduledEventStops)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    radix->Insert(TestEvent(10, 5));
    EXPECT_DEATH(radix->Remove(TestEvent(10, 6)), "event uid 6 at time stamp 10 is not scheduled");
}

namespace
{
std::vector<uint32_t> g_order; //!< tags of the events in the order they ran

void
Record(uint32_t tag)
{
    g_order.push_back(tag);
}

/// Schedule a burst of events at few distinct times under a scheduler and record their order.
std::vector<uint32_t>
RunBurst(const std::string& scheduler)
{
    Simulator::Destroy();
    Simulator::SetScheduler(ObjectFactory(scheduler));
    g_order.clear();
    std::mt19937 rng(7);
    for (uint32_t i = 0; i < 2000; ++i)
    {
        Simulator::Schedule(NanoSeconds(rng() % 50), &Record, i);
    }
    EventId cancelled = Simulator::Schedule(NanoSeconds(10), &Record, 99999);
    Simulator::Remove(cancelled);
    Simulator::Run();
    Simulator::Destroy();
    return g_order;
}
} // namespace

// Through the simulator: the events run in the same order under both schedulers.
TEST(RdmaRadixScheduler, SimulatorRunsEventsInTheSameOrder)
{
    const std::vector<uint32_t> radix = RunBurst("ns3::RdmaRadixScheduler");
    const std::vector<uint32_t> reference = RunBurst("ns3::PriorityQueueScheduler");
    ASSERT_EQ(radix.size(), 2000U);
    EXPECT_EQ(radix, reference);
}
