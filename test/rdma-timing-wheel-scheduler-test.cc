/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaTimingWheelScheduler hands out events in exactly the order of ns-3's
// PriorityQueueScheduler, the (time stamp, uid) order that makes results independent of the
// scheduler: within the current slot, across the wheel, around it, and through the overflow.

#include "rdma-scheduler-order.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/rdma-timing-wheel-scheduler.h"
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

/// A wheel whose slots are 2^shift ticks wide.
Ptr<Scheduler>
MakeWheel(uint32_t shift)
{
    ObjectFactory factory("ns3::RdmaTimingWheelScheduler");
    factory.Set("SlotWidth", TimeValue(TimeStep(uint64_t(1) << shift)));
    return factory.Create<Scheduler>();
}

/// Remove every event from both and compare them one by one.
void
ExpectSameOrder(Ptr<Scheduler> wheel, Ptr<Scheduler> reference)
{
    uint32_t step = 0;
    while (!reference->IsEmpty())
    {
        ASSERT_FALSE(wheel->IsEmpty()) << "step " << step;
        const Scheduler::Event a = wheel->RemoveNext();
        const Scheduler::Event b = reference->RemoveNext();
        ASSERT_EQ(a.key.m_ts, b.key.m_ts) << "step " << step;
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << step;
        ++step;
    }
    EXPECT_TRUE(wheel->IsEmpty());
}

} // namespace

// The slot width is the largest power of two ticks not above the attribute.
TEST(RdmaTimingWheelScheduler, SlotWidthIsRoundedDownToAPowerOfTwoTicks)
{
    EXPECT_EQ(RdmaTimingWheelScheduler::SlotShiftFor(TimeStep(1)), 0U);
    EXPECT_EQ(RdmaTimingWheelScheduler::SlotShiftFor(TimeStep(2)), 1U);
    EXPECT_EQ(RdmaTimingWheelScheduler::SlotShiftFor(TimeStep(4095)), 11U);
    EXPECT_EQ(RdmaTimingWheelScheduler::SlotShiftFor(TimeStep(4096)), 12U);
    EXPECT_EQ(RdmaTimingWheelScheduler::SlotShiftFor(TimeStep(4097)), 12U);
}

// Inside one slot of 4,096 ticks: events inserted into the current slot after it became
// current, before and after pending ones, and at the time stamp just removed.
TEST(RdmaTimingWheelScheduler, TheCurrentSlotStaysSorted)
{
    Ptr<Scheduler> wheel = MakeWheel(12);
    Ptr<Scheduler> reference = CreateObject<PriorityQueueScheduler>();
    uint32_t uid = 1;
    auto insert = [&](uint64_t ts) {
        wheel->Insert(TestEvent(ts, uid));
        reference->Insert(TestEvent(ts, uid));
        ++uid;
    };
    insert(8192 + 100);
    insert(8192 + 50);
    insert(8192 + 4000);
    ASSERT_EQ(wheel->RemoveNext().key.m_ts, 8192U + 50); // slot 2 is current now
    reference->RemoveNext();
    insert(8192 + 50);   // now: after the removed one
    insert(8192 + 70);   // between
    insert(8192 + 3000); // between 100 and 4000
    insert(8192 + 4095); // the slot's last tick
    insert(8192 + 4096); // the next slot
    ExpectSameOrder(wheel, reference);
}

// Events beyond the wheel's reach wait in the overflow and join the wheel as it turns; with
// nothing in reach the wheel jumps. Slots of one tick, so 4,096 ticks of reach.
TEST(RdmaTimingWheelScheduler, TheOverflowJoinsInOrder)
{
    Ptr<Scheduler> wheel = MakeWheel(0);
    Ptr<Scheduler> reference = CreateObject<PriorityQueueScheduler>();
    uint32_t uid = 1;
    auto insert = [&](uint64_t ts) {
        wheel->Insert(TestEvent(ts, uid));
        reference->Insert(TestEvent(ts, uid));
        ++uid;
    };
    insert(10);
    insert(4095);      // the last slot within reach of slot 0
    insert(4096);      // the first beyond it
    insert(4096 + 10); // beyond: joins once slot 10 is current
    insert(1000000);   // far: the wheel jumps to it
    insert(1000000);   // same time stamp, later uid
    insert(1000000 + 4095);
    insert(1000000 + 4096);
    insert(uint64_t(1) << 62);
    ExpectSameOrder(wheel, reference);
}

// Remove works in each of the three places an event can be, and PeekNext agrees with
// RemoveNext in each state.
TEST(RdmaTimingWheelScheduler, RemoveFromTheCurrentSlotTheWheelAndTheOverflow)
{
    Ptr<Scheduler> wheel = MakeWheel(4); // 16 ticks a slot, 65,536 ticks of reach
    const Scheduler::Event current = TestEvent(3, 2);
    const Scheduler::Event inWheel = TestEvent(500, 4);
    const Scheduler::Event inOverflow = TestEvent(100000, 6);
    wheel->Insert(TestEvent(1, 1));
    wheel->Insert(current);
    wheel->Insert(TestEvent(400, 3));
    wheel->Insert(inWheel);
    wheel->Insert(TestEvent(100000, 5));
    wheel->Insert(inOverflow);
    wheel->Insert(TestEvent(200000, 7));
    ASSERT_EQ(wheel->PeekNext().key.m_uid, 1U); // slot 0 is current before any removal
    ASSERT_EQ(wheel->RemoveNext().key.m_uid, 1U);
    wheel->Remove(current);
    wheel->Remove(inWheel);
    wheel->Remove(inOverflow);
    for (uint32_t uid : {3U, 5U, 7U})
    {
        ASSERT_FALSE(wheel->IsEmpty());
        EXPECT_EQ(wheel->PeekNext().key.m_uid, uid);
        EXPECT_EQ(wheel->RemoveNext().key.m_uid, uid);
    }
    EXPECT_TRUE(wheel->IsEmpty());
}

TEST(RdmaTimingWheelSchedulerDeathTest, RemovingAnUnscheduledEventStops)
{
    Ptr<Scheduler> wheel = MakeWheel(2);
    wheel->Insert(TestEvent(10, 5));
    wheel->Insert(TestEvent(100, 7));
    wheel->Insert(TestEvent(uint64_t(1) << 40, 8));
    EXPECT_DEATH(wheel->Remove(TestEvent(10, 6)), "event uid 6 at time stamp 10 is not scheduled");
    EXPECT_DEATH(wheel->Remove(TestEvent(100, 6)), "event uid 6 at time stamp 100");
    EXPECT_DEATH(wheel->Remove(TestEvent(uint64_t(1) << 40, 6)), "event uid 6");
}

// A simulator's pattern, sped up, at three slot widths (one tick, 4 ticks, 4,096 ticks):
// each removal is followed by insertions at or after its time (many at the same time
// stamp, most near, some far ahead, beyond the wheel), some pending events are removed
// (Simulator::Remove) and PeekNext is checked before each removal. Both schedulers must
// agree on every event, and both end empty.
class RdmaTimingWheelSchedulerRandom : public ::testing::TestWithParam<uint32_t>
{
};

TEST_P(RdmaTimingWheelSchedulerRandom, SameOrderAsPriorityQueueScheduler)
{
    rdmatest::ExpectSameOrderUnderRandomLoad(MakeWheel(GetParam()), 12345 + GetParam());
}

INSTANTIATE_TEST_SUITE_P(SlotShifts,
                         RdmaTimingWheelSchedulerRandom,
                         ::testing::Values(0U, 2U, 12U));

// Time stamps over the whole range (up to 2^62) and bursts at one time stamp: the same order
// as the binary heap, with the wheel going around many times.
TEST(RdmaTimingWheelScheduler, EveryDistanceInTheOrderOfPriorityQueueScheduler)
{
    rdmatest::ExpectSameOrderOverEveryDistance(MakeWheel(2), 777);
}

namespace
{
std::vector<uint32_t> g_order; //!< tags of the events in the order they ran

void
Record(uint32_t tag)
{
    g_order.push_back(tag);
}

/// Schedule events at few distinct times, and a chain of events far apart, under a
/// scheduler and record their order.
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
        Simulator::Schedule(MicroSeconds(rng() % 5000), &Record, 10000 + i);
    }
    EventId cancelled = Simulator::Schedule(NanoSeconds(10), &Record, 99999);
    Simulator::Remove(cancelled);
    Simulator::Run();
    Simulator::Destroy();
    return g_order;
}
} // namespace

// Through the simulator: the events run in the same order under both schedulers.
TEST(RdmaTimingWheelScheduler, SimulatorRunsEventsInTheSameOrder)
{
    const std::vector<uint32_t> wheel = RunBurst("ns3::RdmaTimingWheelScheduler");
    const std::vector<uint32_t> reference = RunBurst("ns3::PriorityQueueScheduler");
    ASSERT_EQ(wheel.size(), 4000U);
    EXPECT_EQ(wheel, reference);
}
