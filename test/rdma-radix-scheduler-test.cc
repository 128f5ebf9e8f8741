/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaRadixScheduler hands out events in exactly the order of ns-3's PriorityQueueScheduler:
// the (time stamp, uid) order that makes results independent of the scheduler.

#include "rdma-scheduler-order.h"

#include "ns3/rdma-radix-scheduler.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <vector>

using namespace ns3;

using rdmatest::SchedulerTestEvent;

// The level of a time stamp is one more than its highest bit above the run's RUN_BITS (12)
// that differs from the run's earliest time stamp, divided by the digit width (6 bits); 0
// for the current run's 4,096 ps span. Its bucket is its digit of that level.
TEST(RdmaRadixScheduler, LevelIsTheHighestDifferingDigit)
{
    static_assert(RdmaRadixScheduler::DIGIT_BITS == 6, "the expected figures assume 6 bits");
    static_assert(RdmaRadixScheduler::RUN_BITS == 12, "the expected figures assume 12 bits");
    EXPECT_EQ(RdmaRadixScheduler::NUM_LEVELS, 9U); // 9 x 6 bits cover the 52 above bit 11
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(1000, 1000), 0U);
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(4095, 1000), 0U);           // the same 4,096 ps span
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(4096, 1000), 1U);           // bit 12
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(262143, 1000), 1U);         // bit 17
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(262144, 1000), 2U);         // bit 18
    EXPECT_EQ(RdmaRadixScheduler::LevelOf(uint64_t(1) << 62, 0), 9U); // bit 62
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(5000, 1), 1U);              // 5000 >> 12
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(1U << 20, 1), 0U);          // bits 12..17 clear
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(1U << 20, 2), 4U);          // bits 18..23 = 4
    EXPECT_EQ(RdmaRadixScheduler::DigitOf(uint64_t(1) << 62, 9), 4U); // bits 60..63
}

// Removing the event that holds a bucket's earliest time stamp must leave the next one as
// the time stamp the refill makes current, else it would make current a time stamp that no
// event has.
TEST(RdmaRadixScheduler, RemovingABucketsEarliestEventKeepsTheOrder)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    // From time stamp 0, 100,000 ps, 100,001 and 100,005 share level 1's bucket 24 (bits
    // 12..17 = 24).
    const Scheduler::Event early = SchedulerTestEvent(100000, 10);
    radix->Insert(SchedulerTestEvent(100005, 11));
    radix->Insert(early);
    radix->Insert(SchedulerTestEvent(100001, 12));
    radix->Insert(SchedulerTestEvent(5000000, 13)); // level 2
    ASSERT_EQ(radix->PeekNext().key.m_uid, 10U);
    radix->Remove(early);
    EXPECT_EQ(radix->PeekNext().key.m_uid, 12U);
    const uint32_t uids[] = {12, 11, 13};
    const uint64_t times[] = {100001, 100005, 5000000};
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_FALSE(radix->IsEmpty());
        const Scheduler::Event ev = radix->RemoveNext();
        EXPECT_EQ(ev.key.m_ts, times[i]);
        EXPECT_EQ(ev.key.m_uid, uids[i]);
    }
    EXPECT_TRUE(radix->IsEmpty());
}

// Peeking past the current run reads the earliest bucket without sorting it: the next event
// is the one of the bucket's earliest time stamp with the least uid, not the first found
// with that time stamp, nor the least uid of the bucket.
TEST(RdmaRadixScheduler, PeekingABucketGivesItsEarliestTimeStampsLeastUid)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    // From time stamp 0, 147,456 to 151,551 ps share level 1's bucket 36 (bits 12..17).
    radix->Insert(SchedulerTestEvent(150500, 1));
    radix->Insert(SchedulerTestEvent(150000, 40));
    radix->Insert(SchedulerTestEvent(150000, 35));
    radix->Insert(SchedulerTestEvent(150000, 38));
    radix->Insert(SchedulerTestEvent(151000, 2));
    EXPECT_EQ(radix->PeekNext().key.m_uid, 35U);
    EXPECT_EQ(radix->PeekNext().key.m_ts, 150000U);
    const uint32_t uids[] = {35, 38, 40, 1, 2};
    for (const uint32_t uid : uids)
    {
        ASSERT_FALSE(radix->IsEmpty());
        EXPECT_EQ(radix->PeekNext().key.m_uid, uid);
        EXPECT_EQ(radix->RemoveNext().key.m_uid, uid);
    }
    EXPECT_TRUE(radix->IsEmpty());
}

// The current run spans 4,096 ps and is kept sorted: an event scheduled inside it, before
// events of the run that have not run yet, runs before them; one at the time stamp of
// pending events runs after them (its uid is newer).
TEST(RdmaRadixScheduler, AnEventInsideTheCurrentRunTakesItsPlace)
{
    Ptr<Scheduler> radix = CreateObject<RdmaRadixScheduler>();
    radix->Insert(SchedulerTestEvent(8000, 1));
    radix->Insert(SchedulerTestEvent(8100, 2));
    radix->Insert(SchedulerTestEvent(8050, 3));
    ASSERT_EQ(radix->RemoveNext().key.m_uid, 1U); // the run is 8000, 8050, 8100 (4096..8191)
    radix->Insert(SchedulerTestEvent(8000, 4));   // now, after what has run
    radix->Insert(SchedulerTestEvent(8060, 5));   // between the two pending events
    radix->Insert(SchedulerTestEvent(8050, 6));   // with a pending event: after it
    radix->Insert(SchedulerTestEvent(8191, 7));   // the span's end
    radix->Insert(SchedulerTestEvent(8192, 8));   // the next span: a bucket
    const uint32_t uids[] = {4, 3, 6, 5, 2, 7, 8};
    for (const uint32_t uid : uids)
    {
        ASSERT_FALSE(radix->IsEmpty());
        EXPECT_EQ(radix->PeekNext().key.m_uid, uid);
        EXPECT_EQ(radix->RemoveNext().key.m_uid, uid);
    }
    EXPECT_TRUE(radix->IsEmpty());
}

// A simulator's pattern, sped up: each removal is followed by insertions at or after its
// time (many at the same time stamp, some far ahead), and some pending events are removed
// (Simulator::Remove). Both schedulers must agree on every event, and both end empty.
TEST(RdmaRadixScheduler, SameOrderAsPriorityQueueScheduler)
{
    rdmatest::ExpectSameOrderUnderRandomLoad(CreateObject<RdmaRadixScheduler>(), 12345);
}

// A large fabric's current run: thousands of events in one 4,096 ps span, and most events
// scheduled while it runs belong inside it, before its last event (the run's side heap, not
// a walk back through the run). Some of those are removed again (Simulator::Remove), and
// PeekNext must name the event RemoveNext returns.
TEST(RdmaRadixScheduler, ADenseRunKeepsTheOrder)
{
    rdmatest::SchedulerTwin twin(CreateObject<RdmaRadixScheduler>(), 1);
    const Ptr<Scheduler> radix = twin.m_tested;
    std::mt19937_64 rng(777);
    std::vector<Scheduler::Event> inRun; // events inserted inside the run, some removed later
    for (uint32_t i = 0; i < 3000; ++i)
    {
        twin.Insert(1 << 20 | rng() % 4096); // one span: 1,048,576 .. 1,052,671
    }
    uint64_t now = 0;
    uint32_t removed = 0;
    for (uint32_t step = 0; !twin.m_reference->IsEmpty(); ++step)
    {
        const Scheduler::Event peek = radix->PeekNext();
        const Scheduler::Event a = radix->RemoveNext();
        const Scheduler::Event b = twin.m_reference->RemoveNext();
        ASSERT_EQ(peek.key.m_uid, a.key.m_uid) << "step " << step;
        ASSERT_EQ(a.key.m_ts, b.key.m_ts) << "step " << step;
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << step;
        ASSERT_GE(a.key.m_ts, now);
        now = a.key.m_ts;
        if (step < 20000 && rng() % 4 != 0)
        {
            // Within the span's rest (most before the run's last event), or the next span.
            const uint64_t spanEnd = (now | 4095) + 1;
            const uint64_t ts =
                rng() % 8 == 0 ? spanEnd + rng() % 4096 : now + rng() % (spanEnd - now);
            const Scheduler::Event ev = twin.Insert(ts);
            if (rng() % 10 == 0)
            {
                inRun.push_back(ev);
            }
        }
        if (!inRun.empty() && rng() % 7 == 0)
        {
            const Scheduler::Event ev = inRun.back();
            inRun.pop_back();
            if (ev.key.m_ts > now || (ev.key.m_ts == now && ev.key.m_uid > a.key.m_uid))
            {
                radix->Remove(ev); // still pending: it is after the event just removed
                twin.m_reference->Remove(ev);
                ++removed;
            }
        }
    }
    EXPECT_TRUE(radix->IsEmpty());
    EXPECT_GT(removed, 100U);
}

// A bucket holds its events in chunks of CHUNK_EVENTS from one free list. Thousands of
// events in one bucket (many chunks), removals anywhere in it (emptying its last chunk over
// and over), then a steady load: the order is PriorityQueueScheduler's throughout, and the
// chunks allocated are bounded by the most events pending (not, as with a vector per
// bucket, by the most each bucket ever held).
TEST(RdmaRadixScheduler, ChunkedBucketsKeepTheOrderAndBoundTheMemory)
{
    rdmatest::SchedulerTwin twin(CreateObject<RdmaRadixScheduler>(), 1);
    const Ptr<RdmaRadixScheduler> radix = DynamicCast<RdmaRadixScheduler>(twin.m_tested);
    std::mt19937_64 rng(4242);
    // One level-2 bucket: time stamps 2^22 .. 2^22 + 2^18 - 1 share their digit of bits 18-23.
    std::vector<Scheduler::Event> pending;
    for (uint32_t i = 0; i < 5000; ++i)
    {
        pending.push_back(twin.Insert((uint64_t(1) << 22) + rng() % (uint64_t(1) << 18)));
    }
    const std::size_t oneBucket = radix->GetChunksAllocated();
    EXPECT_EQ(oneBucket,
              (5000 + RdmaRadixScheduler::CHUNK_EVENTS - 1) / RdmaRadixScheduler::CHUNK_EVENTS);
    std::shuffle(pending.begin(), pending.end(), rng);
    for (uint32_t i = 0; i < 1500; ++i)
    {
        radix->Remove(pending[i]);
        twin.m_reference->Remove(pending[i]);
    }
    const std::size_t maxPending = 5000;
    uint64_t now = 0;
    // A steady load: every removal schedules one event up to 2^20 ps ahead (a link's delay
    // and a frame's serialization), 200,000 times: some 3,500 pending, spread over the
    // buckets of levels 1 and 2 in turn.
    for (uint32_t i = 0; i < 200000; ++i)
    {
        const Scheduler::Event a = radix->RemoveNext();
        const Scheduler::Event b = twin.m_reference->RemoveNext();
        ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "step " << i;
        ASSERT_GE(a.key.m_ts, now);
        now = a.key.m_ts;
        twin.Insert(now + 1 + rng() % (uint64_t(1) << 20));
        if (i % 3 == 0)
        {
            twin.Insert(now + 1 + rng() % (uint64_t(1) << 20));
        }
        else if (i % 3 == 1 && !twin.m_reference->IsEmpty())
        {
            const Scheduler::Event c = radix->RemoveNext();
            const Scheduler::Event d = twin.m_reference->RemoveNext();
            ASSERT_EQ(c.key.m_uid, d.key.m_uid) << "step " << i;
            now = c.key.m_ts;
        }
    }
    while (!twin.m_reference->IsEmpty())
    {
        const Scheduler::Event a = radix->RemoveNext();
        const Scheduler::Event b = twin.m_reference->RemoveNext();
        ASSERT_EQ(a.key.m_uid, b.key.m_uid);
    }
    EXPECT_TRUE(radix->IsEmpty());
    // Every chunk of a bucket but its last is full; the buckets of levels 1..NUM_LEVELS can
    // each hold a partly filled one.
    const std::size_t bound =
        maxPending / RdmaRadixScheduler::CHUNK_EVENTS + 1 +
        std::size_t(RdmaRadixScheduler::NUM_LEVELS) * RdmaRadixScheduler::NUM_DIGITS;
    EXPECT_LE(radix->GetChunksAllocated(), bound);
    std::cout << "[ radix chunks ] " << radix->GetChunksAllocated() << " chunks allocated (bound "
              << bound << ")\n";
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
