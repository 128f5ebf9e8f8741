/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaPrefetchCursor names the item a stage's schedule will take: the n-th pending schedule
// takes the n-th item from the oldest, as its stages are called ahead of the fires.

#include "ns3/rdma-prefetch-cursor.h"

#include <deque>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

TEST(RdmaPrefetchCursor, EachStageNamesTheItemItsScheduleWillTake)
{
    // Schedules 0, 1, 2, ... take items 0, 1, 2, ... (a FIFO); stage s is called for a
    // schedule `ahead[s]` events before it fires, in the order the schedules fire.
    RdmaPrefetchCursor<2> cursor;
    const std::array<uint64_t, 2> ahead{5, 2};
    std::mt19937 rng(3);
    std::deque<uint64_t> pending; // the schedules' items, oldest first
    uint64_t nextItem = 0;
    uint64_t taken = 0;
    uint32_t checked = 0;
    std::array<uint64_t, 2> nextStaged{0, 0}; // per stage, the next schedule it is called for
    for (uint32_t step = 0; step < 5000; ++step)
    {
        // Up to three new schedules, then the stages for every schedule now close enough
        // to firing, then the oldest fires.
        for (uint32_t n = rng() % 4; n > 0; --n)
        {
            pending.push_back(nextItem++);
        }
        for (std::size_t s = 0; s < 2; ++s)
        {
            while (nextStaged[s] < taken + std::min<uint64_t>(ahead[s], pending.size()))
            {
                EXPECT_EQ(taken + cursor.Next(s), nextStaged[s]) << "stage " << s;
                ++nextStaged[s];
                ++checked;
            }
        }
        if (!pending.empty())
        {
            pending.pop_front();
            cursor.Fired();
            ++taken;
        }
    }
    EXPECT_GT(checked, 5000U);
}

TEST(RdmaPrefetchCursor, SchedulesFiredUnstagedAreCaughtUpWith)
{
    // Three schedules fire before any stage is called (the first events of a window): the
    // next call names the oldest pending item, not the fourth after it.
    RdmaPrefetchCursor<1> cursor;
    cursor.Fired();
    cursor.Fired();
    cursor.Fired();
    EXPECT_EQ(cursor.Next(0), 0U);
    EXPECT_EQ(cursor.Next(0), 1U);
    cursor.Fired();
    // Schedules 3 and 4 were staged; 3 fired: the next, 5, is the second after the oldest.
    EXPECT_EQ(cursor.Next(0), 1U);
}
