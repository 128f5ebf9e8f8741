/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaPacketRoom: a packet's first header written in an ns-3 buffer area that is recycled.
// The bytes and the metadata are those of a plain AddHeader; what changes is the memory the
// packet lives in, counted here as operator new calls (rdma-cc-allocation-test.cc).

#include "rdma-test-utils.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"

#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Payload of the test packets: 1,000 bytes, a pad of 0 and the ICRC.
constexpr uint32_t PAYLOAD_BYTES = 1004;

/**
 * Build a packet as a queue pair and its port do: IPv4 to BTH as one header on a
 * zero-filled payload, then the Ethernet header.
 * \param room write the first header with RdmaPacketRoom (else a plain AddHeader)
 * \param psn the BTH's PSN, so that packets differ
 * \return the frame
 */
Ptr<Packet>
BuildFrame(bool room, uint32_t psn)
{
    Ptr<Packet> p = Create<Packet>(PAYLOAD_BYTES);
    RdmaBthHeader bth;
    bth.SetOpcode(RC_WRITE_MIDDLE);
    bth.SetDestQp(7);
    bth.SetPsn(psn);
    RdmaHeaderStack stack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.FinishIpv4Udp(Ipv4Address("10.0.0.1"),
                        Ipv4Address("10.0.0.2"),
                        26,
                        Ipv4Header::ECN_ECT0,
                        49152,
                        4791,
                        p->GetSize());
    if (room)
    {
        RdmaPacketRoom::AddFirstHeader(p, stack);
    }
    else
    {
        p->AddHeader(stack);
    }
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("00:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("00:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    return p;
}

/// \return the packet's bytes
std::vector<uint8_t>
BytesOf(const Ptr<Packet>& p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), p->GetSize());
    return bytes;
}

/**
 * Keep `window` frames alive, oldest first, then replace the oldest by a new one `turnover`
 * times, as a loaded fabric does (more packets alive than ns-3's list of 1,000 areas).
 * \param room build with RdmaPacketRoom
 * \param window frames alive
 * \param turnover frames replaced
 * \return operator new calls per frame built while replacing
 */
double
AllocationsPerFrameAtTurnover(bool room, uint32_t window, uint32_t turnover)
{
    std::vector<Ptr<Packet>> alive;
    alive.reserve(window);
    for (uint32_t i = 0; i < window; ++i)
    {
        alive.push_back(BuildFrame(room, i));
    }
    TakeCountedAllocations();
    SetCountingAllocations(true);
    for (uint32_t i = 0; i < turnover; ++i)
    {
        alive[i % window] = BuildFrame(room, window + i); // the oldest goes
    }
    SetCountingAllocations(false);
    return static_cast<double>(TakeCountedAllocations()) / turnover;
}

} // namespace

TEST(RdmaPacketRoom, FramesAreByteForByteThoseOfAPlainAddHeader)
{
    // Checked with metadata on (this process: the header is added whole, Print shows it
    // whole) and off (a child process: written behind room that is removed).
    for (uint32_t psn : {0u, 1u, 0xabcdefu})
    {
        const Ptr<Packet> plain = BuildFrame(false, psn);
        const Ptr<Packet> roomy = BuildFrame(true, psn);
        EXPECT_EQ(roomy->GetSize(), 14u + 20u + 8u + 12u + PAYLOAD_BYTES);
        EXPECT_EQ(BytesOf(roomy), BytesOf(plain)) << "psn " << psn;
        std::ostringstream plainText;
        std::ostringstream roomyText;
        plain->Print(plainText);
        roomy->Print(roomyText);
        EXPECT_EQ(roomyText.str(), plainText.str());
    }
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        EXPECT_FALSE(RdmaPacketRoom::IsMetadataOff());
        RunInChildWithMetadataOff("RdmaPacketRoom.FramesAreByteForByteThoseOfAPlainAddHeader");
    }
    else
    {
        EXPECT_TRUE(RdmaPacketRoom::IsMetadataOff());
    }
}

TEST(RdmaPacketRoom, FramesBuiltPastTheFreeListReuseTheirAreas)
{
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaPacketRoom.FramesBuiltPastTheFreeListReuseTheirAreas");
        return;
    }
    // As in a simulation: a port puts ns-3's 1,000 areas of 128 bytes on its list.
    Ptr<RdmaNetDevice> device = CreateObject<RdmaNetDevice>();
    // 3,000 frames alive. Every new frame allocates its Packet and its metadata block (ns-3
    // frees that block at the packet's end when metadata is off). A plain AddHeader: the
    // frames that found no area on the list get a 1-byte one and two exact-sized ones (two
    // reallocations), freed at their end, so two in three new frames allocate three areas
    // more: (1,000 x 2 + 2,000 x 5) / 3,000 = 4. With the room every frame's area is
    // recycled, so a new frame takes the area of the one that went: 2.
    const double plain = AllocationsPerFrameAtTurnover(false, 3000, 3000);
    const double roomy = AllocationsPerFrameAtTurnover(true, 3000, 3000);
    EXPECT_NEAR(plain, 4.0, 0.05);
    EXPECT_NEAR(roomy, 2.0, 0.05);
    device->Dispose();
}
