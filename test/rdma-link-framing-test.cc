/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the scale-up link framings (RdmaUalinkFlitFraming, RdmaCompressedHeaderFraming):
// the packing efficiency of a stream of 64-byte stores and of 4 KB writes, measured from the
// throughput of a simulated 100 Gb/s link, against the figure hand-computed from the format;
// a partly filled DL flit sent padded when the link goes idle; the bad-input errors.
//
// Every test frame is an RDMA WRITE Only packet (IPv4 20, UDP 8 to port 4791, BTH 12,
// RETH 16, payload, ICRC 4): a 64-byte store is a 124-byte IPv4 packet, a 4 KB write a
// 4156-byte one. The sender's class queue holds them all at time 0, so the link is never
// idle until the last; efficiency = payload bits / (C x (last arrival - propagation delay)).
//
// Hand-computed figures (defaults):
//  - plain Ethernet (RoCEv2): a frame costs its IPv4 packet + Ethernet 14 + FCS 4 +
//    preamble/SFD 8 + gap 12: 64 B store 162 B, 64 / 162 = 0.39506; 4 KB write 4194 B,
//    4096 / 4194 = 0.97663.
//  - compressed header (HeaderBytes 10 in place of Ethernet 14 + IPv4 20 + UDP 8, ICRC
//    dropped): 10 + BTH 12 + RETH 16 + payload + FCS 4 + 20: 64 B store 126 B,
//    64 / 126 = 0.50794; 4 KB write 4158 B, 4096 / 4158 = 0.98509.
//  - UALink-like FLITs: a DL flit of 640 B has 640 - 3 (flit header) - 5 x 1 (segment
//    headers) - 4 (CRC) = 628 payload bytes = 9 TL flits of 64 B. A transaction is
//    ceil((16 + payload) / 64) TL flits: a 64 B store 2, a 4 KB write ceil(4112 / 64) = 65.
//    900 stores = 1800 TL flits = 200 DL flits: 900 x 64 / (200 x 640) = 0.45 exactly;
//    90 writes = 5850 TL flits = 650 DL flits: 90 x 4096 / (650 x 640) = 0.88615.

#include "rdma-test-utils.h"

#include "ns3/ethernet-header.h"
#include "ns3/pointer.h"
#include "ns3/rdma-compressed-header-framing.h"
#include "ns3/rdma-link-framing.h"
#include "ns3/rdma-ualink-flit-framing.h"
#include "ns3/rdma-wire-error-model.h"

#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint8_t DATA_CLASS = 3;           //!< DSCP 26
constexpr double RATE = 100e9;              //!< link rate, bit/s
constexpr uint32_t DELAY_NS = 1000;         //!< propagation delay
constexpr uint32_t TRANSPORT = 12 + 16 + 4; //!< BTH, RETH, ICRC

/// An RDMA WRITE Only packet (IPv4 with its headers as bytes) carrying payload bytes.
Ptr<Packet>
MakeWrite(uint32_t payload)
{
    const uint32_t total = 20 + 8 + TRANSPORT + payload;
    std::vector<uint8_t> b(total, 0);
    b[0] = 0x45;
    b[1] = (DATA_CLASS << 3 | 2) << 2; // DSCP 26
    b[2] = total >> 8;
    b[3] = total & 0xff;
    b[8] = 64;  // TTL
    b[9] = 17;  // UDP
    b[12] = 10; // 10.0.0.1 -> 10.0.0.2
    b[15] = 1;
    b[16] = 10;
    b[19] = 2;
    b[20] = 0xc0; // source port 49152
    b[22] = 4791 >> 8;
    b[23] = 4791 & 0xff;
    b[24] = (total - 20) >> 8;
    b[25] = (total - 20) & 0xff;
    b[28] = 0x0A; // RC_WRITE_ONLY
    b[30] = 0xff; // P_Key
    b[31] = 0xff;
    return Create<Packet>(b.data(), total);
}

/// Receive callback: record the arrival time.
void
RecordTime(std::vector<Time>* times, Ptr<RdmaNetDevice>, Ptr<Packet>)
{
    times->push_back(Simulator::Now());
}

/// Two devices joined by one 100 Gb/s link with a framing (empty: Ethernet): a sends to b.
struct FramedLink
{
    NodeContainer nodes;
    Ptr<RdmaNetDevice> a;
    Ptr<RdmaNetDevice> b;
    std::vector<Time> arrivals; //!< when b received each frame

    /// \param framing the TypeId name of the framing, or "" for Ethernet
    explicit FramedLink(const std::string& framing)
    {
        nodes.Create(2);
        RdmaLinkHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(DELAY_NS)));
        if (!framing.empty())
        {
            link.SetLinkFraming(framing);
        }
        NetDeviceContainer d = link.Install(nodes);
        a = DynamicCast<RdmaNetDevice>(d.Get(0));
        b = DynamicCast<RdmaNetDevice>(d.Get(1));
        b->SetRdmaReceiveCallback(MakeBoundCallback(&RecordTime, &arrivals));
    }

    /**
     * Queue n writes of payload bytes at time 0, run, and measure the efficiency.
     * \param n writes
     * \param payload bytes each
     * \return payload bits / (C x time the link was busy)
     */
    double Efficiency(uint32_t n, uint32_t payload)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            a->Enqueue(MakeWrite(payload), DATA_CLASS);
        }
        Simulator::Run();
        EXPECT_EQ(arrivals.size(), n);
        const double busy = (arrivals.back() - NanoSeconds(DELAY_NS)).GetSeconds();
        return n * payload * 8.0 / (RATE * busy);
    }
};

/// The measured and the hand-computed efficiency of n writes of payload bytes.
void
ExpectEfficiency(const std::string& framing, uint32_t n, uint32_t payload, double expected)
{
    FramedLink link(framing);
    const double measured = link.Efficiency(n, payload);
    std::cout << (framing.empty() ? "Ethernet (RoCEv2)" : framing) << ", " << n << " writes of "
              << payload << " B: efficiency measured " << measured << ", hand-computed " << expected
              << "\n";
    // Exact arithmetic: 640 B at 100 Gb/s is 51.2 ns, a whole number of picoseconds; the
    // only error is the 1 ps rounding of the last arrival.
    EXPECT_NEAR(measured, expected, 1e-6) << framing << " " << payload << " B";
    Simulator::Destroy();
}

} // namespace

TEST(RdmaLinkFraming, ParseFindsTheRdmaPayload)
{
    const RdmaLinkFraming::FrameInfo store = RdmaLinkFraming::Parse(MakeWrite(64), false);
    EXPECT_TRUE(store.isRoce);
    EXPECT_EQ(store.ipv4Bytes, 124u);
    EXPECT_EQ(store.l4HeadBytes, 28u);
    EXPECT_EQ(store.rdmaPayload, 64u);
    EXPECT_EQ(store.transportBytes, TRANSPORT);
    auto ualink = CreateObject<RdmaUalinkFlitFraming>();
    EXPECT_EQ(ualink->GetTlFlitsPerDlFlit(), 9u);
    EXPECT_EQ(ualink->TlFlitsOf(store), 2u);
    EXPECT_EQ(ualink->TlFlitsOf(RdmaLinkFraming::Parse(MakeWrite(4096), false)), 65u);
    auto sue = CreateObject<RdmaCompressedHeaderFraming>();
    EXPECT_EQ(sue->WireBytesOf(store), 126u);
    EXPECT_EQ(RdmaNetDevice::WireBytes(124 + 14), 162u);
}

TEST(RdmaLinkFraming, EthernetIsTheDefaultAndUnchanged)
{
    FramedLink plain("");
    EXPECT_FALSE(plain.a->GetLinkFraming());
    Simulator::Destroy();
    ExpectEfficiency("", 1000, 64, 64.0 / 162);
    ExpectEfficiency("", 100, 4096, 4096.0 / 4194);
}

TEST(RdmaLinkFraming, CompressedHeaderEfficiencyMatchesTheFormat)
{
    ExpectEfficiency("ns3::RdmaCompressedHeaderFraming", 1000, 64, 64.0 / 126);
    ExpectEfficiency("ns3::RdmaCompressedHeaderFraming", 100, 4096, 4096.0 / 4158);
}

TEST(RdmaLinkFraming, UalinkFlitEfficiencyMatchesTheFormat)
{
    ExpectEfficiency("ns3::RdmaUalinkFlitFraming", 900, 64, 900 * 64.0 / (200 * 640));
    ExpectEfficiency("ns3::RdmaUalinkFlitFraming", 90, 4096, 90 * 4096.0 / (650 * 640));
}

TEST(RdmaLinkFraming, PartlyFilledFlitIsSentPaddedWhenTheLinkIdles)
{
    // One 64 B store every microsecond: each finds the link idle, opens a DL flit, fills 2
    // of its 9 TL slots and is delivered when the flit (51.2 ns at 100 Gb/s) has been sent;
    // the flit leaves padded (7 empty slots), so each store costs a whole DL flit (10 %).
    FramedLink link("ns3::RdmaUalinkFlitFraming");
    constexpr uint32_t N = 10;
    for (uint32_t i = 0; i < N; ++i)
    {
        Simulator::Schedule(MicroSeconds(i),
                            [&link]() { link.a->Enqueue(MakeWrite(64), DATA_CLASS); });
    }
    Simulator::Run();
    ASSERT_EQ(link.arrivals.size(), N);
    for (uint32_t i = 0; i < N; ++i)
    {
        EXPECT_EQ(link.arrivals[i], MicroSeconds(i) + PicoSeconds(51200) + NanoSeconds(DELAY_NS));
    }
    auto framing = DynamicCast<RdmaUalinkFlitFraming>(link.a->GetLinkFraming());
    EXPECT_EQ(framing->GetDlFlitsSent(), N);
    EXPECT_EQ(framing->GetTlFlitsSent(), 2 * N);
    EXPECT_EQ(framing->GetPaddedTlSlots(), 7u * (N - 1)); // the last flit is closed later
    EXPECT_EQ(link.a->GetTxWireBytes(), 640u * N);
    // A lone 4 KB write: 65 TL flits open ceil(65 / 9) = 8 DL flits (80 % efficiency).
    const Time sent = Simulator::Now() + MicroSeconds(1);
    Simulator::Schedule(MicroSeconds(1),
                        [&link]() { link.a->Enqueue(MakeWrite(4096), DATA_CLASS); });
    Simulator::Run();
    EXPECT_EQ(link.a->GetTxWireBytes(), 640u * N + 8 * 640);
    EXPECT_EQ(link.arrivals.back(), sent + PicoSeconds(8 * 51200) + NanoSeconds(DELAY_NS));
    // The pacer's charge is the stream share: 2 / 9 of a DL flit, rounded down.
    EXPECT_EQ(link.a->GetPacketWireBytes(MakeWrite(64)), 2u * 640 / 9);
    Simulator::Destroy();
}

TEST(RdmaLinkFraming, BitErrorsCountTheBitsTheFramingSends)
{
    // RdmaWireErrorModel on the receiving device: a 4 KB write (a 4170-byte Ethernet frame)
    // is corrupt with probability 1 - (1 - BER)^(8 w), w its wire bytes: 4194 as Ethernet,
    // 4158 with the compressed header, 65 TL flits x 640 / 9 = 4622 (rounded down) as FLITs.
    // The framing hands itself to the error model at time 0.
    const double ber = 1e-6;
    Ptr<Packet> frame = MakeWrite(4096);
    EthernetHeader eth(false);
    eth.SetLengthType(0x0800);
    frame->AddHeader(eth);
    ASSERT_EQ(frame->GetSize(), 4170u);
    for (const auto& [framing, wire] :
         std::vector<std::pair<std::string, uint32_t>>{{"", 4194},
                                                       {"ns3::RdmaCompressedHeaderFraming", 4158},
                                                       {"ns3::RdmaUalinkFlitFraming", 4622}})
    {
        SCOPED_TRACE(framing);
        FramedLink link(framing);
        Ptr<RdmaWireErrorModel> em = CreateObject<RdmaWireErrorModel>();
        em->SetBitErrorRate(ber);
        link.b->SetAttribute("ReceiveErrorModel", PointerValue(em));
        Simulator::Run(); // the time-0 checks
        const double expected = -std::expm1(8.0 * wire * std::log1p(-ber));
        EXPECT_NEAR(em->GetFrameCorruptProbability(frame) / expected, 1, 1e-12);
        Simulator::Destroy();
    }
}

TEST(RdmaLinkFramingDeathTest, BadInputIsRefused)
{
    // A framing at one end only: the peer would charge (and pace) different bytes.
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(2);
            RdmaLinkHelper link;
            NetDeviceContainer d = link.Install(nodes);
            DynamicCast<RdmaNetDevice>(d.Get(0))->SetLinkFraming(
                CreateObject<RdmaUalinkFlitFraming>());
            Simulator::Run();
        },
        "uses LinkFraming ns3::RdmaUalinkFlitFraming but its peer .* uses none \\(plain "
        "Ethernet\\); both ends of a link must use the same framing");
    // Different DL flit sizes at the two ends.
    EXPECT_DEATH(
        {
            FramedLink link("ns3::RdmaUalinkFlitFraming");
            link.b->GetLinkFraming()->SetAttribute("DlFlitBytes", UintegerValue(512));
            Simulator::Run();
        },
        "with different parameters: DlFlitBytes 640 / 512");
    // Sizes that do not divide.
    EXPECT_DEATH(
        {
            FramedLink link("ns3::RdmaUalinkFlitFraming");
            link.a->GetLinkFraming()->SetAttribute("SegmentBytes", UintegerValue(100));
            Simulator::Run();
        },
        "DlFlitBytes 640 is not a whole number of SegmentBytes 100");
    EXPECT_DEATH(
        {
            FramedLink link("ns3::RdmaUalinkFlitFraming");
            link.a->GetLinkFraming()->SetAttribute("TlFlitBytes", UintegerValue(700));
            Simulator::Run();
        },
        "holds no TL flit of TlFlitBytes 700; valid: TlFlitBytes <= 628");
    EXPECT_DEATH(
        {
            RdmaLinkHelper link;
            link.SetLinkFraming("ns3::RdmaPfcFlowControl");
        },
        "'ns3::RdmaPfcFlowControl' is not a link framing; valid: ns3::RdmaUalinkFlitFraming, "
        "ns3::RdmaCompressedHeaderFraming");
}

TEST(RdmaLinkFraming, ScaleUpPodRunsOnFlitsAndCreditsSelectedOnItsLinkHelper)
{
    // A 4-accelerator, 2-plane pod whose every link uses UALink-like FLITs and credits (two
    // lines on the pod's link helper): a 3-to-1 incast of 512 KB WRITEs completes with no
    // drop and no retransmission, and every link carried DL flits only (its wire bytes are
    // a whole number of 640-byte flits).
    const uint64_t bytes = 512 * 1024;
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(4);
    pod.SetPlanes(2);
    pod.GetLinkHelper().SetLinkFlowControl("ns3::RdmaCreditFlowControl");
    pod.GetLinkHelper().SetLinkFraming("ns3::RdmaUalinkFlitFraming");
    pod.Install(rdma);
    std::vector<CompletionLog> logs(3);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 1; i <= 3; ++i)
    {
        auto [qp, peer] = rdma.Connect(pod.GetAccelerator(i), pod.GetAccelerator(0));
        logs[i - 1].Attach(qp, peer);
        qps.push_back(qp);
        PostWriteAt(qp, pod.GetAccelerator(i), Seconds(0), bytes, i);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_EQ(logs[i].receives.size(), 1u);
        EXPECT_EQ(logs[i].receives[0].length, bytes);
        EXPECT_EQ(logs[i].sends.size(), 1u);
        EXPECT_EQ(qps[i]->GetRetransmissions(), 0u);
    }
    uint64_t flits = 0;
    for (uint32_t d = 0; d < pod.GetDevices().GetN(); ++d)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(pod.GetDevices().Get(d));
        auto framing = DynamicCast<RdmaUalinkFlitFraming>(dev->GetLinkFraming());
        ASSERT_TRUE(framing) << "device " << d;
        EXPECT_EQ(dev->GetTxWireBytes(), framing->GetDlFlitsSent() * 640) << "device " << d;
        EXPECT_EQ(dev->GetRxDropCount(), 0u);
        flits += framing->GetDlFlitsSent();
    }
    // At least the payload's TL flits: 3 x 512 KB / 64 B, 9 to a DL flit, crossing two links.
    EXPECT_GE(flits, 2 * 3 * bytes / 64 / 9);
    for (uint32_t p = 0; p < 2; ++p)
    {
        EXPECT_EQ(pod.GetSwitch(p)->GetObject<RdmaSwitch>()->GetTotalDrops(), 0u);
    }
    Simulator::Destroy();
}
