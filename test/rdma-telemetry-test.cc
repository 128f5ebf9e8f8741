/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// In-band telemetry: the INT area's wire format (RdmaIntHeader, RdmaIntHop) against
// hand-written bytes, its wrap-around arithmetic, and the BTH telemetry bit.

#include "ns3/packet.h"
#include "ns3/rdma-bth-header.h"
#include "ns3/rdma-int-header.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes
Serialized(const Header& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    Bytes out(p->GetSize());
    p->CopyData(out.data(), out.size());
    return out;
}

RdmaIntHeader
Parsed(const Bytes& bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    RdmaIntHeader h;
    EXPECT_EQ(p->RemoveHeader(h), RdmaIntHeader::SIZE);
    return h;
}

/*
 * Hop A, multiplier 1: 100 Gb/s (code 2), t = 0x123456 ns, tx = 0x54321 units of 128 B,
 * queue = 0x1ABCD units of 80 B. The 64 bits, fields concatenated:
 *   010 | 0001 0010 0011 0100 0101 0110 | 0101 0100 0011 0010 0001 | 1 1010 1011 1100 1101
 * regrouped by eight: 01000010 01000110 10001010 11001010 10000110 01000011 10101011 11001101
 *                   = 42 46 8A CA 86 43 AB CD.
 */
constexpr uint64_t A_RATE = 100000000000ULL;
constexpr uint64_t A_TIME = 0x123456;
constexpr uint64_t A_TX = 0x54321ULL * 128;
constexpr uint64_t A_QUEUE = 0x1ABCDULL * 80;
const Bytes A_WIRE = {0x42, 0x46, 0x8A, 0xCA, 0x86, 0x43, 0xAB, 0xCD};

} // namespace

TEST(RdmaIntHeader, EmptyAreaIsFourHeaderBytesAndZeroRecords)
{
    RdmaIntHeader h;
    Bytes expected(44, 0);
    expected[1] = 5; // capacity
    expected[2] = 1; // multiplier
    EXPECT_EQ(h.GetSerializedSize(), 44u);
    EXPECT_EQ(Serialized(h), expected);
    EXPECT_EQ(h.GetNHops(), 0);
}

TEST(RdmaIntHeader, SerializesToHandWrittenBytes)
{
    RdmaIntHeader h;
    RdmaIntHop a;
    a.Set(A_RATE, A_TIME, A_TX, A_QUEUE);
    ASSERT_TRUE(h.PushHop(a));
    RdmaIntHop b;
    // 25 Gb/s (code 0), t = 1 ns, tx = 2 x 128 B, queue = 3 x 80 B:
    // 000 | 0x000001 | 0x00002 | 0x00003 = 00 00 00 20 00 04 00 03.
    b.Set(25000000000ULL, 1, 256, 240);
    ASSERT_TRUE(h.PushHop(b));
    Bytes expected = {2, 5, 1, 0};
    expected.insert(expected.end(), A_WIRE.begin(), A_WIRE.end());
    expected.insert(expected.end(), {0x00, 0x00, 0x00, 0x20, 0x00, 0x04, 0x00, 0x03});
    expected.resize(44, 0);
    EXPECT_EQ(Serialized(h), expected);
}

TEST(RdmaIntHeader, DecodesHandWrittenBytes)
{
    Bytes wire = {1, 5, 1, 0};
    wire.insert(wire.end(), A_WIRE.begin(), A_WIRE.end());
    wire.resize(44, 0);
    const RdmaIntHeader h = Parsed(wire);
    ASSERT_EQ(h.GetNHops(), 1);
    const RdmaIntHop& a = h.GetHop(0);
    EXPECT_EQ(a.GetLineRateBps(), A_RATE);
    EXPECT_EQ(a.GetTimeNs(), A_TIME);
    EXPECT_EQ(a.GetTxBytes(), A_TX);
    EXPECT_EQ(a.GetQueueBytes(), A_QUEUE);
    EXPECT_EQ(a.GetMultiplier(), 1u);
    EXPECT_EQ(Serialized(h), wire);
}

TEST(RdmaIntHeader, MultiplierTravelsInByteTwoAndScalesBothUnits)
{
    // Multiplier 4: tx unit 512 B, queue unit 320 B. 1 MB sent = 2048 units (exact);
    // 100,000 B queued = 312.5 units, truncated to 312 = 99,840 B.
    RdmaIntHeader h(4);
    RdmaIntHop hop(4);
    hop.Set(400000000000ULL, 5000, 1048576, 100000);
    ASSERT_TRUE(h.PushHop(hop));
    const Bytes wire = Serialized(h);
    EXPECT_EQ(wire[2], 4);
    const RdmaIntHeader back = Parsed(wire);
    EXPECT_EQ(back.GetMultiplier(), 4u);
    EXPECT_EQ(back.GetHop(0).GetLineRateBps(), 400000000000ULL);
    EXPECT_EQ(back.GetHop(0).GetTxBytes(), 1048576u);
    EXPECT_EQ(back.GetHop(0).GetQueueBytes(), 99840u);
    // A reserved-zero multiplier byte (a writer that does not know it) reads as 1.
    Bytes zeroMult = wire;
    zeroMult[2] = 0;
    EXPECT_EQ(Parsed(zeroMult).GetMultiplier(), 1u);
    EXPECT_EQ(Parsed(zeroMult).GetHop(0).GetTxBytes(), 2048u * 128);
}

TEST(RdmaIntHeader, RoundTripKeepsEveryRateCodeAndField)
{
    const uint64_t G = 1000000000ULL;
    const uint64_t rates[] = {10 * G, 25 * G, 40 * G, 50 * G, 100 * G, 200 * G, 400 * G, 800 * G};
    RdmaIntHeader h;
    for (uint32_t i = 0; i < 5; ++i)
    {
        RdmaIntHop hop;
        // Values that are multiples of the units and below the wraps survive exactly.
        hop.Set(rates[i + 3], 1000 * i + 7, 128 * (1000 + i), 80 * (50 + i));
        ASSERT_TRUE(h.PushHop(hop));
    }
    const RdmaIntHeader back = Parsed(Serialized(h));
    ASSERT_EQ(back.GetNHops(), 5);
    for (uint8_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(back.GetHop(i).GetWord(), h.GetHop(i).GetWord());
        EXPECT_EQ(back.GetHop(i).GetLineRateBps(), rates[i + 3]);
        EXPECT_EQ(back.GetHop(i).GetTimeNs(), 1000u * i + 7);
        EXPECT_EQ(back.GetHop(i).GetTxBytes(), 128u * (1000 + i));
        EXPECT_EQ(back.GetHop(i).GetQueueBytes(), 80u * (50 + i));
    }
    for (uint64_t r : rates)
    {
        RdmaIntHop hop;
        hop.Set(r, 0, 0, 0);
        EXPECT_EQ(hop.GetLineRateBps(), r);
    }
}

TEST(RdmaIntHeader, FullAreaRefusesASixthRecord)
{
    RdmaIntHeader h;
    RdmaIntHop hop;
    hop.Set(A_RATE, 1, 2, 3);
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_TRUE(h.PushHop(hop));
    }
    EXPECT_FALSE(h.PushHop(hop));
    EXPECT_EQ(h.GetNHops(), 5);
    h.Clear();
    EXPECT_EQ(h.GetNHops(), 0);
    EXPECT_EQ(Serialized(h), Serialized(RdmaIntHeader()));
}

TEST(RdmaIntHeader, TimeDeltaWrapsAt2To24Nanoseconds)
{
    // 16,777,200 ns and 16,777,216 + 100 ns: the second reads 100, the delta is
    // 100 + 2^24 - 16,777,200 = 116 ns.
    RdmaIntHop older;
    older.Set(A_RATE, 16777200, 0, 0);
    RdmaIntHop newer;
    newer.Set(A_RATE, (1ULL << 24) + 100, 0, 0);
    EXPECT_EQ(newer.GetTimeNs(), 100u);
    EXPECT_EQ(newer.GetTimeDeltaNs(older), 116u);
    EXPECT_EQ(older.GetTimeDeltaNs(older), 0u);
    // Without a wrap: plain difference.
    EXPECT_EQ(older.GetTimeDeltaNs(newer), 16777200u - 100u);
}

TEST(RdmaIntHeader, TxBytesDeltaWrapsAt2To20Units)
{
    // Multiplier 1: the counter wraps at 2^20 x 128 B = 134,217,728 B. Older at
    // 134,217,600 B (unit 1,048,575), newer at 134,217,728 + 1,280 B (unit 10 after the
    // wrap): delta 11 units = 1,408 B.
    RdmaIntHop older;
    older.Set(A_RATE, 0, 134217600, 0);
    RdmaIntHop newer;
    newer.Set(A_RATE, 0, 134217728ULL + 1280, 0);
    EXPECT_EQ(newer.GetTxBytes(), 1280u);
    EXPECT_EQ(newer.GetTxBytesDelta(older), 1408u);
    // Multiplier 2 doubles the unit and the wrap: 2^20 x 256 B.
    RdmaIntHop o2(2);
    o2.Set(A_RATE, 0, (1ULL << 28) - 256, 0);
    RdmaIntHop n2(2);
    n2.Set(A_RATE, 0, (1ULL << 28) + 512, 0);
    EXPECT_EQ(n2.GetTxBytesDelta(o2), 768u);
}

TEST(RdmaIntHeader, QueueSaturatesInsteadOfWrapping)
{
    // 2^17 - 1 units of 80 B = 10,485,680 B is the largest queue; more reads as that.
    RdmaIntHop hop;
    hop.Set(A_RATE, 0, 0, 20000000);
    EXPECT_EQ(hop.GetQueueBytes(), 10485680u);
}

TEST(RdmaIntHeader, PushHopInPlaceWritesWhatPushHopSerializes)
{
    RdmaIntHeader h(3);
    Bytes area = Serialized(h);
    RdmaIntHop hop(3);
    hop.Set(A_RATE, A_TIME, A_TX, A_QUEUE);
    for (int i = 0; i < 5; ++i)
    {
        ASSERT_TRUE(h.PushHop(hop));
        ASSERT_TRUE(RdmaIntHeader::PushHopInPlace(area.data(), A_RATE, A_TIME, A_TX, A_QUEUE));
        EXPECT_EQ(area, Serialized(h));
    }
    EXPECT_FALSE(RdmaIntHeader::PushHopInPlace(area.data(), A_RATE, A_TIME, A_TX, A_QUEUE));
    EXPECT_EQ(area, Serialized(h)); // a full area is left unchanged
}

TEST(RdmaIntHeader, PrintShowsRecords)
{
    RdmaIntHeader h;
    RdmaIntHop hop;
    hop.Set(A_RATE, 1000, 1280, 160);
    h.PushHop(hop);
    std::ostringstream os;
    h.Print(os);
    EXPECT_EQ(os.str(), "INT hops=1 multiplier=1 [0: rate=100Gbps t=1000ns tx=1280B q=160B]");
}

TEST(RdmaIntHeaderDeathTest, BadRateAndMultiplierAreNamed)
{
    RdmaIntHop hop;
    EXPECT_DEATH(hop.Set(1000000000ULL, 0, 0, 0),
                 "line rate 1000000000 bit/s has no INT line-rate code");
    EXPECT_DEATH(RdmaIntHop(0), "multiplier 0 out of range \\(valid 1..255\\)");
    EXPECT_DEATH(RdmaIntHeader(256), "multiplier 256 out of range");
    RdmaIntHeader h(2);
    EXPECT_DEATH(h.PushHop(hop), "multiplier 1 is not the area's 2");
    EXPECT_DEATH(h.GetHop(0), "record 0 does not exist");
    EXPECT_FALSE(RdmaIntHop::IsEncodableRate(1000000000ULL));
    EXPECT_TRUE(RdmaIntHop::IsEncodableRate(100000000000ULL));
}

TEST(RdmaIntHeader, BthTelemetryBitIsByteFourBitFive)
{
    RdmaBthHeader bth;
    EXPECT_FALSE(bth.GetTelemetry());
    bth.SetTelemetry(true);
    uint8_t b[12];
    bth.Write(b);
    EXPECT_EQ(b[4], 0x20);
    bth.SetFecn(true);
    bth.Write(b);
    EXPECT_EQ(b[4], 0xA0);
    RdmaBthHeader back;
    b[4] = 0x20;
    back.Read(b);
    EXPECT_TRUE(back.GetTelemetry());
    EXPECT_FALSE(back.GetFecn());
    std::ostringstream os;
    back.Print(os);
    EXPECT_NE(os.str().find(" INT"), std::string::npos);
}
