/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaRadixScheduler hands out events in exactly the order of ns-3's PriorityQueueScheduler:
// the (time stamp, uid) order that makes results independent of the scheduler.

#include "rdma-scheduler-order.h"

#include "ns3/rdma-radix-scheduler.h"

#include <gtest/gtest.h>

using namespace ns3;

using rdmatest::SchedulerTestEvent;

// The level of a time stamp is one more than its highest bit that differs from the last
// removed event's time stamp, divided by the digit width (6 bits); 0 for the same time
// stamp. Its bucket is its digit of that level.
TEST(RdmaRadixScheduler, LevelIsTheHighestDifferingDigit)
{
    static_assert(RdmaRadixScheduler::DIGIT_BITS == 6, "the expected figures assume 6 bits");
    EXPECT_EQ(RdmaRadixScheduler::NUM_LEVELS, 11U); // 11 x 6 bits cover 64
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(1000, 1000), 0U);
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(1001, 1000), 1U); // 1000 ^ 1001 = 1: bit 0
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(1023, 1000), 1U); // 1000 ^ 1023 = 0b10111: bit 4
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(1024, 1000), 2U); // bit 10
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(4096, 1000), 3U); // bit 12
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(uint64_t(1) << 62, 0), 11U); // bit 62
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(1001, 1), 1001U % 64);
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(1024, 2), 16U);              // 1024 = 16 * 64
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(uint64_t(1) << 62, 11), 4U); // bits 60..63
}

// A bucket's earliest time stamp is kept per bucket (the refill reads it instead of
// scanning): removing the event that holds it must leave the next one, else the refill
// would make a time stamp current that no event has.
TEST(RdmaRadixScheduler, RemovingABucketsEarliestEventKeepsTheOrder)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    // From time stamp 0, 1000, 1001 and 1005 share level 2's bucket 15 (bits 6..11 = 15).
    const Scheduler::Event early = SchedulerTestEvent(1000, 10);
    radix->Insert(SchedulerTestEvent(1005, 11));
    radix->Insert(early);
    radix->Insert(SchedulerTestEvent(1001, 12));
    radix->Insert(SchedulerTestEvent(5000, 13)); // level 3
    ASSERT_EQ(radix->PeekNext().key.m_uid, 10U);
    radix->Remove(early);
    EXPECT_EQ(radix->PeekNext().key.m_uid, 12U);
    const uint32_t uids[] = {12, 11, 13};
    const uint64_t times[] = {1001, 1005, 5000};
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_FALSE(radix->IsEmpty());
        const Scheduler::Event ev = radix->RemoveNext();
        EXPECT_EQ(ev.key.m_ts, times[i]);
        EXPECT_EQ(ev.key.m_uid, uids[i]);
    }
    EXPECT_TRUE(radix->IsEmpty());
}

// Time stamps over the whole range (up to 2^62: every level, the top one included) and
// bursts at one time stamp spread from one bucket: the same order as the binary heap.
TEST(RdmaRadixScheduler, EveryLevelInTheOrderOfPriorityQueueScheduler)
{
    rdmatest::ExpectSameOrderOverEveryDistance(CreateObject<RdmaRadixScheduler>(), 777);
}

// A simulator's pattern, sped up: each removal is followed by insertions at or after its
// time (many at the same time stamp, some far ahead), and some pending events are removed
// (Simulator::Remove). Both schedulers must agree on every event, and both end empty.
TEST(RdmaRadixScheduler, SameOrderAsPriorityQueueScheduler)
{
    rdmatest::ExpectSameOrderUnderRandomLoad(CreateObject<RdmaRadixScheduler>(), 12345);
}

TEST(RdmaRadixSchedulerDeathTest, RemovingAnUnscheduledEventStops)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    radix->Insert(SchedulerTestEvent(10, 5));
    EXPECT_DEATH(radix->Remove(SchedulerTestEvent(10, 6)),
                 "event uid 6 at time stamp 10 is not scheduled");
}

// Through the simulator: the events run in the same order under both schedulers.
TEST(RdmaRadixScheduler, SimulatorRunsEventsInTheSameOrder)
{
    const std::vector<uint32_t> radix = rdmatest::RunThroughSimulator("ns3::RdmaRadixScheduler");
    const std::vector<uint32_t> reference =
        rdmatest::RunThroughSimulator("ns3::PriorityQueueScheduler");
    ASSERT_EQ(radix.size(), 4000U); // 2,000 near events and 2,000 far ones
    EXPECT_EQ(radix, reference);
}
