/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of credit-based link flow control (RdmaCreditFlowControl, InfiniBand's absolute
// credit scheme, IBTA vol. 1 7.9): credit-limited throughput against its closed form, a
// lossless 16-to-1 incast through a switch without a pause frame, a lost credit update
// healed by the periodic refresh, and the bad-input check.
//
// Wire times at 100 Gb/s (IEEE 802.3 framing: FCS 4, preamble+SFD 8, gap 12, 64-byte minimum):
//  - a data frame carrying a 1024-byte IPv4 packet: 1024 + 14 + 4 + 8 + 12 = 1062 bytes,
//    T_f = 84.96 ns; it takes ceil(1024 / 64) = 16 credit blocks;
//  - a credit update (FCP, 6 bytes after a 14-byte Ethernet header, padded to 64): 84 bytes,
//    T_c = 6.72 ns.

#include "rdma-link-incast.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-credit-flow-control.h"
#include "ns3/rdma-link-flow-control.h"
#include "ns3/rdma-pfc-flow-control.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint32_t PACKET_BYTES = 1024;      //!< IPv4 packet of every data frame
constexpr uint32_t FRAME_BLOCKS = 16;        //!< its credit blocks
constexpr double FRAME_NS = 1062 * 8 / 100.; //!< T_f at 100 Gb/s: 84.96 ns
constexpr double FCP_NS = 84 * 8 / 100.;     //!< T_c at 100 Gb/s: 6.72 ns
constexpr uint8_t DATA_CLASS = 3;            //!< DSCP 26

/// An IPv4/UDP packet of PACKET_BYTES bytes in DATA_CLASS.
Ptr<Packet>
MakeData()
{
    Ptr<Packet> p = Create<Packet>(PACKET_BYTES - 20);
    Ipv4Header h;
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.0.2"));
    h.SetProtocol(17);
    h.SetTtl(64);
    h.SetPayloadSize(PACKET_BYTES - 20);
    h.SetDscp(static_cast<Ipv4Header::DscpType>(DATA_CLASS << 3 | 2));
    p->AddHeader(h);
    return p;
}

/// Receive callback: record the arrival time.
void
RecordTime(std::vector<Time>* times, Ptr<RdmaNetDevice>, Ptr<Packet>)
{
    times->push_back(Simulator::Now());
}

/// UpdateTx trace sink: record the time.
void
RecordUpdate(std::vector<Time>* times, uint8_t, uint16_t, uint16_t)
{
    times->push_back(Simulator::Now());
}

/// Two hosts' devices joined by one credit-controlled 100 Gb/s link: a sends to b.
struct CreditLink
{
    NodeContainer nodes;
    Ptr<RdmaNetDevice> a;
    Ptr<RdmaNetDevice> b;
    std::vector<Time> arrivals; //!< when b received each data frame

    /**
     * \param creditBlocks the receiver's buffer, credit blocks
     * \param delay the propagation delay
     */
    CreditLink(uint32_t creditBlocks, Time delay)
    {
        nodes.Create(2);
        RdmaLinkHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetDeviceAttribute("Mtu", UintegerValue(PACKET_BYTES));
        link.SetChannelAttribute("Delay", TimeValue(delay));
        link.SetLinkFlowControl("ns3::RdmaCreditFlowControl");
        link.SetLinkFlowControlAttribute("HostBufferBytes", UintegerValue(creditBlocks * 64));
        // Only the data class: one refresh update per 10 us per side, not eight.
        link.SetLinkFlowControlAttribute("Classes", UintegerValue(1U << DATA_CLASS));
        link.SetLinkFlowControlAttribute("UpdateBlocks", UintegerValue(1)); // every frame
        NetDeviceContainer d = link.Install(nodes);
        a = DynamicCast<RdmaNetDevice>(d.Get(0));
        b = DynamicCast<RdmaNetDevice>(d.Get(1));
        b->SetRdmaReceiveCallback(MakeBoundCallback(&RecordTime, &arrivals));
    }

    /// \param n packets queued at a at time 0
    void Queue(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            a->Enqueue(MakeData(), DATA_CLASS);
        }
    }

    /// \return a's flow control
    Ptr<RdmaCreditFlowControl> SenderFc() const
    {
        return DynamicCast<RdmaCreditFlowControl>(a->GetLinkFlowControl());
    }

    /// \return b's flow control
    Ptr<RdmaCreditFlowControl> ReceiverFc() const
    {
        return DynamicCast<RdmaCreditFlowControl>(b->GetLinkFlowControl());
    }
};

} // namespace

TEST(RdmaCreditFlowControl, HelperSelectsItAndPfcIsTheDefault)
{
    NodeContainer nodes;
    nodes.Create(2);
    RdmaLinkHelper plain;
    NetDeviceContainer d = plain.Install(nodes);
    EXPECT_TRUE(DynamicCast<RdmaPfcFlowControl>(
        DynamicCast<RdmaNetDevice>(d.Get(0))->GetLinkFlowControl()));
    CreditLink c(64, MicroSeconds(1));
    ASSERT_TRUE(c.SenderFc());
    ASSERT_TRUE(c.ReceiverFc());
    EXPECT_NE(c.SenderFc(), c.ReceiverFc());
    Simulator::Destroy();
}

TEST(RdmaCreditFlowControl, CreditLimitedThroughputMatchesTheClosedForm)
{
    // A sender with credits for n = credits / 16 frames sends frame i + n when the credit of
    // frame i comes back (one update per received frame, UpdateBlocks 1), one credit round
    // trip after frame i started:
    //   RTT_c = T_f (data serialization) + d (propagation) + 0 (the host frees the buffer
    //           on receipt: no processing delay) + T_c (update serialization) + d.
    // So n frames per RTT_c, and the link utilisation is
    //   U = min(1, n T_f / RTT_c) = min(1, credits x 64 B x (1062 / 1024) / (C x RTT_c)),
    // the brief's min(1, credits x block / (C x RTT_c)) with the block's bytes counted as the
    // wire bytes of the frames they belong to. Measured over 20 n frames in steady state
    // (after 2 n), as 20 n T_f over the time between those frames' arrivals; tolerance 2 %.
    struct Case
    {
        uint32_t credits;
        uint32_t delayNs;
    };

    const std::vector<Case> cases = {{32, 200},
                                     {64, 200},
                                     {128, 200},
                                     {64, 1000},
                                     {256, 1000},
                                     {512, 1000},
                                     {256, 2000},
                                     {1024, 2000},
                                     {2048, 2000}};
    for (const Case& k : cases)
    {
        const uint32_t n = k.credits / FRAME_BLOCKS;
        const double rtt = FRAME_NS + k.delayNs + FCP_NS + k.delayNs;
        const double expected = std::min(1.0, n * FRAME_NS / rtt);
        const uint32_t first = 2 * n;
        const uint32_t last = first + std::max(20 * n, 400U);
        CreditLink c(k.credits, NanoSeconds(k.delayNs));
        c.Queue(last + 1);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        ASSERT_EQ(c.arrivals.size(), last + 1) << k.credits << " credits, " << k.delayNs << " ns";
        const double span = (c.arrivals[last] - c.arrivals[first]).GetSeconds() * 1e9;
        const double measured = (last - first) * FRAME_NS / span;
        std::cout << "credits " << k.credits << " blocks, d " << k.delayNs << " ns: RTT_c " << rtt
                  << " ns, utilisation measured " << measured << ", expected " << expected << "\n";
        EXPECT_NEAR(measured, expected, 0.02 * expected)
            << k.credits << " credits, delay " << k.delayNs << " ns, RTT_c " << rtt << " ns";
        EXPECT_EQ(c.a->GetPfcFramesSent() + c.b->GetPfcFramesSent(), 0u);
        Simulator::Destroy();
    }
}

TEST(RdmaCreditFlowControl, LostUpdateHealsAtTheNextRefresh)
{
    // Credits for one frame (16 blocks, d = 1 us): exactly one frame is in flight, and each
    // update returns the only credit. The sender's receive error model drops the 4th frame
    // it receives (all are updates: the initial one, then one per delivered data frame), so
    // the sender stalls with no credit. The receiver's next refresh (it refreshes every
    // RefreshInterval, 10 us) carries the absolute limit FCCL and
    // heals it: the next data frame arrives T_c + d + T_f + d after that refresh was sent.
    const Time d = MicroSeconds(1);
    CreditLink c(FRAME_BLOCKS, d);
    Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
    em->SetList({3});
    c.a->SetAttribute("ReceiveErrorModel", PointerValue(em));
    std::vector<Time> receiverUpdates;
    c.ReceiverFc()->TraceConnectWithoutContext("UpdateTx",
                                               MakeBoundCallback(&RecordUpdate, &receiverUpdates));
    const uint32_t frames = 20;
    c.Queue(frames);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(c.arrivals.size(), frames); // nothing lost: the stall ended
    EXPECT_EQ(c.a->GetRxDropCount(), 1u);
    const double rtt = FRAME_NS + 1000 + FCP_NS + 1000;
    // Find the stall: the one gap between arrivals longer than a credit round trip.
    uint32_t stalled = 0;
    for (uint32_t i = 1; i < frames; ++i)
    {
        const double gap = (c.arrivals[i] - c.arrivals[i - 1]).GetSeconds() * 1e9;
        if (gap > rtt + 1)
        {
            EXPECT_EQ(stalled, 0u) << "a second stall at frame " << i;
            stalled = i;
        }
        else
        {
            EXPECT_NEAR(gap, rtt, 0.01) << "frame " << i;
        }
    }
    ASSERT_GT(stalled, 0u) << "the lost update did not stall the sender";
    // The update that healed it: the receiver's first update after the frame before the stall.
    auto it =
        std::upper_bound(receiverUpdates.begin(), receiverUpdates.end(), c.arrivals[stalled - 1]);
    ASSERT_NE(it, receiverUpdates.end());
    const double healedAt = it->GetSeconds() * 1e9 + FCP_NS + 1000 + FRAME_NS + 1000;
    std::cout << "lost update: stall from " << c.arrivals[stalled - 1].As(Time::US) << " to "
              << c.arrivals[stalled].As(Time::US) << ", healing update sent at " << it->As(Time::US)
              << "\n";
    EXPECT_NEAR(c.arrivals[stalled].GetSeconds() * 1e9, healedAt, 0.01);
    // ... and it was a refresh: sent at most one RefreshInterval after the lost update.
    EXPECT_LE((*it - c.arrivals[stalled - 1]).GetSeconds(), 10e-6 + 1e-12);
    Simulator::Destroy();
}

TEST(RdmaCreditFlowControl, LostRefreshHealsAtTheOneAfter)
{
    // As above, but the sender also loses the 5th frame it receives: the first refresh after
    // the lost update (the sender, out of credit, receives nothing else). The link keeps
    // refreshing every 10 us whether it carries data or not (IB's rule), so the next refresh
    // heals it: one stall, ended by a receiver update sent between one and two refresh
    // intervals after it began, and every frame delivered. (A refresh that stopped on an
    // idle link would have left the sender waiting for ever.)
    CreditLink c(FRAME_BLOCKS, MicroSeconds(1));
    Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
    em->SetList({3, 4});
    c.a->SetAttribute("ReceiveErrorModel", PointerValue(em));
    std::vector<Time> receiverUpdates;
    c.ReceiverFc()->TraceConnectWithoutContext("UpdateTx",
                                               MakeBoundCallback(&RecordUpdate, &receiverUpdates));
    const uint32_t frames = 20;
    c.Queue(frames);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(c.arrivals.size(), frames);
    EXPECT_EQ(c.a->GetRxDropCount(), 2u);
    const double rtt = FRAME_NS + 1000 + FCP_NS + 1000;
    uint32_t stalled = 0;
    for (uint32_t i = 1; i < frames; ++i)
    {
        if ((c.arrivals[i] - c.arrivals[i - 1]).GetSeconds() * 1e9 > rtt + 1)
        {
            EXPECT_EQ(stalled, 0u) << "a second stall at frame " << i;
            stalled = i;
        }
    }
    ASSERT_GT(stalled, 0u);
    // The healing update is the last receiver update before the resumed frame's flight.
    const Time healer = c.arrivals[stalled] - NanoSeconds(1000) - PicoSeconds(84960) -
                        NanoSeconds(1000) - PicoSeconds(6720);
    EXPECT_TRUE(std::binary_search(receiverUpdates.begin(), receiverUpdates.end(), healer))
        << "no receiver update at " << healer.As(Time::US);
    const double stallUs = (healer - c.arrivals[stalled - 1]).GetSeconds() * 1e6;
    std::cout << "lost update and refresh: stall from " << c.arrivals[stalled - 1].As(Time::US)
              << ", healed by the update at " << healer.As(Time::US) << "\n";
    EXPECT_GT(stallUs, 10.0 - 1e-6);
    EXPECT_LE(stallUs, 20.0 + 1e-6);
    Simulator::Destroy();
}

TEST(RdmaCreditFlowControl, SixteenToOneIncastIsLosslessWithoutPauseFrames)
{
    // 16 x 200 KB into one 100 Gb/s port through one switch, every link credit-controlled.
    // The switch advertises each ingress (port, class) partition (reserved + headroom), so
    // the MMU never refuses a packet: no drop anywhere, no PFC frame, every byte delivered
    // once (no retransmission), and the bottleneck stays busy: 3.2 MB at the analytical
    // goodput of MTU-1024 RoCEv2 frames take 3.2e6 x 8 / 92.59 Gb/s = 276.5 us; allow 5 %.
    const uint32_t senders = 16;
    const uint64_t bytes = 200'000;
    LinkIncast incast;
    incast.link.SetLinkFlowControl("ns3::RdmaCreditFlowControl");
    incast.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    incast.Run(senders, bytes, MilliSeconds(5));
    const auto& logs = incast.logs;
    const auto& requesters = incast.requesters;
    const auto& responders = incast.responders;
    const NetDeviceContainer& devices = incast.devices;

    Ptr<RdmaSwitch> s = incast.Switch();
    EXPECT_EQ(s->GetTotalDrops(), 0u);
    EXPECT_EQ(s->GetPfcPausesSent(), 0u);
    uint64_t received = 0;
    Time last;
    for (uint32_t i = 0; i < senders; ++i)
    {
        EXPECT_EQ(logs[i].receives.size(), 1u) << "sender " << i;
        EXPECT_EQ(logs[i].sends.size(), 1u) << "sender " << i;
        if (!logs[i].sends.empty())
        {
            last = std::max(last, logs[i].sends[0].completionTime);
        }
        received += responders[i]->GetBytesReceived();
        EXPECT_EQ(requesters[i]->GetRetransmissions(), 0u) << "sender " << i;
    }
    EXPECT_EQ(received, senders * bytes);
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(devices.Get(i));
        EXPECT_EQ(dev->GetRxDropCount(), 0u) << "device " << i;
        EXPECT_EQ(dev->GetPfcFramesSent(), 0u) << "device " << i;
    }
    // The partitions were respected: no ingress queue held more than it advertised.
    Ptr<RdmaSwitchMmu> mmu = s->GetMmu();
    for (uint32_t port = 0; port <= senders; ++port)
    {
        auto fc = DynamicCast<RdmaCreditFlowControl>(
            DynamicCast<RdmaNetDevice>(devices.Get(2 * port + 1))->GetLinkFlowControl());
        ASSERT_TRUE(fc);
        EXPECT_LE(mmu->GetPeakIngressBytes(port, DATA_CLASS),
                  uint64_t(fc->GetBufferBlocks(DATA_CLASS)) * 64);
    }
    const double goodput = senders * bytes * 8.0 / last.GetSeconds();
    std::cout << "16-to-1 incast with credits: goodput " << goodput / 1e9
              << " Gb/s, last completion " << last.As(Time::US) << "\n";
    EXPECT_GE(goodput, 0.95 * AnalyticalGoodput(100e9, 1024)) << goodput / 1e9 << " Gb/s";
    EXPECT_LE(goodput, AnalyticalGoodput(100e9, 1024));
    Simulator::Destroy();
}

TEST(RdmaCreditFlowControlDeathTest, CreditsBelowOneFrameAreRefused)
{
    // 512 bytes of buffer are 8 blocks; a 1024-byte MTU frame needs 16.
    EXPECT_DEATH(
        {
            CreditLink c(8, MicroSeconds(1));
            Simulator::Run();
        },
        "credits of class 3 from HostBufferBytes are 8 blocks \\(512 B at BlockBytes 64\\), "
        "below one maximum frame \\(Mtu 1024 B = 16 blocks\\)");
    // Credits at one end of a link, PFC at the other: the credit end would wait forever.
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(2);
            RdmaLinkHelper link;
            NetDeviceContainer d = link.Install(nodes);
            DynamicCast<RdmaNetDevice>(d.Get(0))->SetLinkFlowControl(
                CreateObject<RdmaCreditFlowControl>());
            Simulator::Run();
        },
        "uses credits but its peer .* uses ns3::RdmaPfcFlowControl; both ends of a link must "
        "use the same link flow control");
    EXPECT_DEATH(
        {
            RdmaLinkHelper link;
            link.SetLinkFlowControl("ns3::RdmaSwitch");
        },
        "'ns3::RdmaSwitch' is not a link flow control");
}

TEST(RdmaCreditFlowControl, ScaleUpPodRunsOnCreditsSelectedInOneLine)
{
    // A 4-accelerator, 2-plane pod (200 Gb/s, 10 ns links, 150 ns switches) whose every link
    // uses credits (one line on the pod's link helper): a 3-to-1 incast of 512 KB WRITEs
    // completes with no drop, no retransmission and no PFC frame, and credit updates flowed.
    const uint64_t bytes = 512 * 1024;
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(4);
    pod.SetPlanes(2);
    pod.GetLinkHelper().SetLinkFlowControl("ns3::RdmaCreditFlowControl");
    pod.Install(rdma);
    std::vector<CompletionLog> logs(3);
    for (uint32_t i = 1; i <= 3; ++i)
    {
        auto [qp, peer] = rdma.Connect(pod.GetAccelerator(i), pod.GetAccelerator(0));
        logs[i - 1].Attach(qp, peer);
        PostWriteAt(qp, pod.GetAccelerator(i), Seconds(0), bytes, i);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (const CompletionLog& log : logs)
    {
        ASSERT_EQ(log.receives.size(), 1u);
        EXPECT_EQ(log.receives[0].length, bytes);
        EXPECT_EQ(log.sends.size(), 1u);
    }
    uint64_t updates = 0;
    for (uint32_t d = 0; d < pod.GetDevices().GetN(); ++d)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(pod.GetDevices().Get(d));
        auto fc = DynamicCast<RdmaCreditFlowControl>(dev->GetLinkFlowControl());
        ASSERT_TRUE(fc) << "device " << d;
        updates += fc->GetUpdatesSent();
        EXPECT_EQ(dev->GetPfcFramesSent(), 0u);
        EXPECT_EQ(dev->GetRxDropCount(), 0u);
    }
    EXPECT_GT(updates, 0u);
    for (uint32_t p = 0; p < 2; ++p)
    {
        EXPECT_EQ(pod.GetSwitch(p)->GetObject<RdmaSwitch>()->GetTotalDrops(), 0u);
    }
    Simulator::Destroy();
}
