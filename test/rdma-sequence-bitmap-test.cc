/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaSequenceBitmap, the requester's record of responses landed above sndUna under
// selective repeat and the unreliable mode: the same answers as the std::set it replaced,
// across growth and the ring's wrap.

#include "ns3/rdma-sequence-bitmap.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace ns3;

TEST(RdmaSequenceBitmap, InsertContainsAndAdvance)
{
    RdmaSequenceBitmap b;
    EXPECT_FALSE(b.Contains(0));
    b.Insert(3);
    b.Insert(5);
    b.Insert(5); // twice: still one member
    EXPECT_EQ(b.GetCount(), 2u);
    EXPECT_EQ(b.GetCapacity(), 64u);
    EXPECT_TRUE(b.Contains(3));
    EXPECT_FALSE(b.Contains(4));
    EXPECT_EQ(b.FirstAbsent(0, 10), 0u);
    EXPECT_EQ(b.FirstAbsent(3, 10), 4u);
    EXPECT_EQ(b.FirstAbsent(5, 6), 6u); // stops at the limit
    b.AdvanceBase(4);                   // drops 3
    EXPECT_EQ(b.GetCount(), 1u);
    EXPECT_FALSE(b.Contains(3));
    EXPECT_TRUE(b.Contains(5));
    b.AdvanceBase(2); // lower: ignored
    EXPECT_EQ(b.GetBase(), 4u);
    b.AdvanceBase(1000); // beyond the width: empties
    EXPECT_EQ(b.GetCount(), 0u);
    EXPECT_FALSE(b.Contains(5 + 64 * 16)); // the old member 5 was in the same bit
}

TEST(RdmaSequenceBitmap, GrowsToTheFarthestMemberAndKeepsTheOthers)
{
    RdmaSequenceBitmap b;
    b.AdvanceBase(100);
    b.Insert(100);
    b.Insert(163); // the last of 64
    EXPECT_EQ(b.GetCapacity(), 64u);
    b.Insert(100 + 300); // needs 512
    EXPECT_EQ(b.GetCapacity(), 512u);
    EXPECT_TRUE(b.Contains(100));
    EXPECT_TRUE(b.Contains(163));
    EXPECT_TRUE(b.Contains(400));
    EXPECT_EQ(b.GetCount(), 3u);
    b.Reset(7);
    EXPECT_EQ(b.GetCount(), 0u);
    EXPECT_EQ(b.GetBase(), 7u);
    EXPECT_EQ(b.GetCapacity(), 512u); // keeps its width
}

TEST(RdmaSequenceBitmap, SameAnswersAsASetUnderRandomUse)
{
    // A window sliding over 200,000 sequences: members land out of order up to 700 above
    // the base (the ring grows once, then wraps many times), the base moves over the run
    // that has landed, as AdvanceSelective does.
    std::mt19937_64 rng(12345);
    RdmaSequenceBitmap b;
    std::set<uint64_t> s;
    uint64_t base = 0;
    for (int i = 0; i < 200000; ++i)
    {
        const uint64_t seq = base + rng() % 700;
        b.Insert(seq);
        s.insert(seq);
        if (rng() % 4 == 0)
        {
            const uint64_t end = b.FirstAbsent(base, base + 1000);
            uint64_t expected = base;
            while (s.count(expected))
            {
                ++expected;
            }
            ASSERT_EQ(end, expected);
            base = end + (rng() % 3 == 0 ? rng() % 50 : 0); // sometimes past a hole
            b.AdvanceBase(base);
            s.erase(s.begin(), s.lower_bound(base));
        }
        ASSERT_EQ(b.GetCount(), s.size());
        const uint64_t probe = base + rng() % 800;
        ASSERT_EQ(b.Contains(probe), s.count(probe) == 1) << "sequence " << probe;
    }
    EXPECT_EQ(b.GetCapacity(), 1024u);
}

TEST(RdmaSequenceBitmapDeathTest, InsertBelowTheBaseIsAClearError)
{
    RdmaSequenceBitmap b;
    b.AdvanceBase(10);
    EXPECT_DEATH(b.Insert(9), "sequence 9 is below the base 10");
}
