/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaFifo's partition_point answers as std::partition_point over the same elements, also
// when the ring has wrapped (the oldest element is not at the start of the storage);
// RdmaTakeReference hands on a Ptr's reference uncounted.

#include "ns3/packet.h"
#include "ns3/rdma-fifo.h"

#include <algorithm>
#include <deque>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

TEST(RdmaFifo, PartitionPointMatchesTheStandardAlgorithmOnAWrappedRing)
{
    std::mt19937 rng(7);
    RdmaFifo<uint64_t> fifo;
    std::deque<uint64_t> reference;
    uint64_t next = 0;
    uint32_t wrapped = 0;
    for (uint32_t step = 0; step < 20000; ++step)
    {
        // Sorted values, pushed and popped at random: the head walks around the ring.
        if (reference.empty() || rng() % 3 != 0)
        {
            next += 1 + rng() % 4;
            fifo.push_back(next);
            reference.push_back(next);
        }
        else
        {
            fifo.pop_front();
            reference.pop_front();
        }
        const uint64_t key = reference.empty() ? 0 : reference.front() + rng() % 40;
        const auto pred = [key](uint64_t v) { return v <= key; };
        const auto expected = static_cast<std::size_t>(
            std::partition_point(reference.begin(), reference.end(), pred) - reference.begin());
        ASSERT_EQ(fifo.partition_point(pred), expected) << "step " << step << " key " << key;
        wrapped += (!reference.empty() && &fifo.front() > &fifo.back()) ? 1 : 0;
    }
    EXPECT_GT(wrapped, 1000U); // the wrapped case was exercised
    EXPECT_EQ(fifo.partition_point([](uint64_t) { return true; }), fifo.size());
    EXPECT_EQ(fifo.partition_point([](uint64_t) { return false; }), 0U);
}

// push_back_slot (the channel's frames on the wire fill their 64-byte slot in place) keeps
// the order of a std::deque through growth and wrap-around, like push_back.
TEST(RdmaFifo, PushBackSlotKeepsOrderThroughGrowthAndWrapAround)
{
    struct alignas(64) Slot
    {
        uint64_t value;
        uint8_t bytes[40];
    };

    std::mt19937 rng(11);
    RdmaFifo<Slot> fifo;
    std::deque<uint64_t> reference;
    uint64_t next = 0;
    for (uint32_t step = 0; step < 20000; ++step)
    {
        if (reference.empty() || rng() % 3 != 0)
        {
            Slot& slot = fifo.push_back_slot();
            EXPECT_EQ(reinterpret_cast<uintptr_t>(&slot) % 64, 0u);
            slot.value = ++next;
            slot.bytes[39] = static_cast<uint8_t>(next);
            reference.push_back(next);
        }
        else
        {
            ASSERT_EQ(fifo.front().value, reference.front());
            ASSERT_EQ(fifo.front().bytes[39], static_cast<uint8_t>(reference.front()));
            fifo.pop_front();
            reference.pop_front();
        }
        ASSERT_EQ(fifo.size(), reference.size());
        if (!reference.empty())
        {
            ASSERT_EQ(fifo.back().value, reference.back());
        }
    }
}

// RdmaTakeReference hands a Ptr's reference to the caller with no Ref and no Unref (the
// count is untouched) and leaves the Ptr null, so its destructor releases nothing; a Ptr
// copy or assignment would count up or down.
TEST(RdmaTakeReference, TakesTheReferenceUncountedAndLeavesThePtrNull)
{
    Ptr<Packet> keeper = Create<Packet>(100);
    Ptr<Packet> handedOn = keeper;
    ASSERT_EQ(keeper->GetReferenceCount(), 2u);
    Packet* taken = nullptr;
    {
        Ptr<Packet> scoped = keeper;
        ASSERT_EQ(keeper->GetReferenceCount(), 3u);
        taken = RdmaTakeReference(scoped);
        EXPECT_EQ(scoped, nullptr);
        EXPECT_EQ(taken, PeekPointer(keeper));
        EXPECT_EQ(keeper->GetReferenceCount(), 3u); // the taken reference, not counted down
    }                                               // scoped's destructor: null, releases nothing
    EXPECT_EQ(keeper->GetReferenceCount(), 3u);
    Ptr<Packet> adopted(taken, false); // the taken reference, adopted again
    EXPECT_EQ(keeper->GetReferenceCount(), 3u);
    Ptr<Packet> none;
    EXPECT_EQ(RdmaTakeReference(none), nullptr);
    EXPECT_EQ(none, nullptr);
}
