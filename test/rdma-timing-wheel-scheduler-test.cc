/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaTimingWheelScheduler hands out events in exactly the order of ns-3's
// PriorityQueueScheduler, the (time stamp, uid) order that makes results independent of the
// scheduler: within the current slot, across the wheel, around it, and through the overflow.

#include "rdma-scheduler-order.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-timing-wheel-scheduler.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A wheel whose slots are 2^shift ticks wide.
Ptr<Scheduler>
MakeWheel(uint32_t shift)
{
    ObjectFactory factory("ns3::RdmaTimingWheelScheduler");
    factory.Set("SlotWidth", TimeValue(TimeStep(uint64_t(1) << shift)));
    return factory.Create<Scheduler>();
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
    rdmatest::SchedulerTwin twin(MakeWheel(12), 1);
    auto insert = [&](uint64_t ts) { twin.Insert(ts); };
    insert(8192 + 100);
    insert(8192 + 50);
    insert(8192 + 4000);
    ASSERT_EQ(twin.m_tested->RemoveNext().key.m_ts, 8192U + 50); // slot 2 is current now
    twin.m_reference->RemoveNext();
    insert(8192 + 50);   // now: after the removed one
    insert(8192 + 70);   // between
    insert(8192 + 3000); // between 100 and 4000
    insert(8192 + 4095); // the slot's last tick
    insert(8192 + 4096); // the next slot
    twin.ExpectSameOrderToTheEnd();
}

// Events beyond the wheel's reach wait in the overflow and join the wheel as it turns; with
// nothing in reach the wheel jumps. Slots of one tick, so 4,096 ticks of reach.
TEST(RdmaTimingWheelScheduler, TheOverflowJoinsInOrder)
{
    rdmatest::SchedulerTwin twin(MakeWheel(0), 1);
    auto insert = [&](uint64_t ts) { twin.Insert(ts); };
    insert(10);
    insert(4095);      // the last slot within reach of slot 0
    insert(4096);      // the first beyond it
    insert(4096 + 10); // beyond: joins once slot 10 is current
    insert(1000000);   // far: the wheel jumps to it
    insert(1000000);   // same time stamp, later uid
    insert(1000000 + 4095);
    insert(1000000 + 4096);
    insert(uint64_t(1) << 62);
    twin.ExpectSameOrderToTheEnd();
}

// Remove works in each of the three places an event can be, and PeekNext agrees with
// RemoveNext in each state.
TEST(RdmaTimingWheelScheduler, RemoveFromTheCurrentSlotTheWheelAndTheOverflow)
{
    Ptr<Scheduler> wheel = MakeWheel(4); // 16 ticks a slot, 65,536 ticks of reach
    const Scheduler::Event current = rdmatest::SchedulerTestEvent(3, 2);
    const Scheduler::Event inWheel = rdmatest::SchedulerTestEvent(500, 4);
    const Scheduler::Event inOverflow = rdmatest::SchedulerTestEvent(100000, 6);
    wheel->Insert(rdmatest::SchedulerTestEvent(1, 1));
    wheel->Insert(current);
    wheel->Insert(rdmatest::SchedulerTestEvent(400, 3));
    wheel->Insert(inWheel);
    wheel->Insert(rdmatest::SchedulerTestEvent(100000, 5));
    wheel->Insert(inOverflow);
    wheel->Insert(rdmatest::SchedulerTestEvent(200000, 7));
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

// A slot narrower than one tick is refused, naming the attribute and the value.
TEST(RdmaTimingWheelSchedulerDeathTest, ASlotWidthBelowOneTickStops)
{
    ObjectFactory factory("ns3::RdmaTimingWheelScheduler");
    factory.Set("SlotWidth", TimeValue(TimeStep(0)));
    EXPECT_DEATH(factory.Create<Scheduler>(), "SlotWidth is .*it must be at least one tick");
}

TEST(RdmaTimingWheelSchedulerDeathTest, RemovingAnUnscheduledEventStops)
{
    Ptr<Scheduler> wheel = MakeWheel(2);
    wheel->Insert(rdmatest::SchedulerTestEvent(10, 5));
    wheel->Insert(rdmatest::SchedulerTestEvent(100, 7));
    wheel->Insert(rdmatest::SchedulerTestEvent(uint64_t(1) << 40, 8));
    EXPECT_DEATH(wheel->Remove(rdmatest::SchedulerTestEvent(10, 6)),
                 "event uid 6 at time stamp 10 is not scheduled");
    EXPECT_DEATH(wheel->Remove(rdmatest::SchedulerTestEvent(100, 6)),
                 "event uid 6 at time stamp 100");
    EXPECT_DEATH(wheel->Remove(rdmatest::SchedulerTestEvent(uint64_t(1) << 40, 6)), "event uid 6");
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

// Through the simulator: the events run in the same order under both schedulers.
TEST(RdmaTimingWheelScheduler, SimulatorRunsEventsInTheSameOrder)
{
    const std::vector<uint32_t> wheel =
        rdmatest::RunThroughSimulator("ns3::RdmaTimingWheelScheduler");
    const std::vector<uint32_t> reference =
        rdmatest::RunThroughSimulator("ns3::PriorityQueueScheduler");
    ASSERT_EQ(wheel.size(), 4000U);
    EXPECT_EQ(wheel, reference);
}
