/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of link-level retry (RdmaLinkRetry, PCIe's data link layer ACK/NAK replay) and of
// the wire error model (RdmaWireErrorModel): conservation and in-order delivery of every
// frame under errors, goodput against go-back-N on a link, the replay-window stall, the
// sequence space wrapping, end-to-end losslessness of RDMA traffic under PFC and under
// credits, and the bad-input checks.
//
// Wire times at 100 Gb/s (IEEE 802.3 framing: FCS 4, preamble+SFD 8, gap 12, 64-byte minimum):
//  - a data frame carrying a 1024-byte IPv4 packet and LLR's 2-byte sequence number:
//    1024 + 14 + 2 + 4 + 8 + 12 = 1064 bytes, T_f = 85.12 ns;
//  - an Ack/Nak (6 bytes after a 14-byte Ethernet header, padded to 64): 84 bytes,
//    T_a = 6.72 ns.

#include "rdma-link-incast.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-credit-flow-control.h"
#include "ns3/rdma-link-retry.h"
#include "ns3/rdma-periodic-error-model.h"
#include "ns3/rdma-wire-error-model.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint32_t PACKET_BYTES = 1024;      //!< IPv4 packet of every data frame
constexpr uint32_t HELD_FRAME_BYTES = 1040;  //!< that frame in the replay buffer (+14 +2)
constexpr double FRAME_NS = 1064 * 8 / 100.; //!< T_f at 100 Gb/s: 85.12 ns
constexpr double ACK_NS = 84 * 8 / 100.;     //!< T_a at 100 Gb/s: 6.72 ns
constexpr uint8_t DATA_CLASS = 3;            //!< DSCP 26

/// An IPv4/UDP packet of PACKET_BYTES bytes in DATA_CLASS whose identification is id.
Ptr<Packet>
MakeData(uint16_t id)
{
    Ptr<Packet> p = Create<Packet>(PACKET_BYTES - 20);
    Ipv4Header h;
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.0.2"));
    h.SetProtocol(17);
    h.SetTtl(64);
    h.SetIdentification(id);
    h.SetPayloadSize(PACKET_BYTES - 20);
    h.SetDscp(static_cast<Ipv4Header::DscpType>(DATA_CLASS << 3 | 2));
    p->AddHeader(h);
    return p;
}

/// What the receiving host saw: arrival times and IPv4 identifications, in order.
struct Arrivals
{
    std::vector<Time> times;
    std::vector<uint16_t> ids;

    void Record(Ptr<RdmaNetDevice>, Ptr<Packet> p)
    {
        Ipv4Header h;
        p->PeekHeader(h);
        times.push_back(Simulator::Now());
        ids.push_back(h.GetIdentification());
    }
};

/// Two hosts' devices joined by one 100 Gb/s link with LLR at both ends: a sends to b.
struct RetryLink
{
    NodeContainer nodes;
    Ptr<RdmaNetDevice> a;
    Ptr<RdmaNetDevice> b;
    Ptr<RdmaWireErrorModel> dataErrors; //!< on b: corrupts data frames
    Ptr<RdmaWireErrorModel> ackErrors;  //!< on a: corrupts Acks and Naks
    Arrivals arrivals;

    /**
     * \param delay the propagation delay
     * \param dataFer frame error rate of a -> b
     * \param ackFer frame error rate of b -> a
     * \param bufferBytes ReplayBufferBytes
     * \param sequenceBits SequenceBits
     */
    RetryLink(Time delay,
              double dataFer,
              double ackFer,
              uint32_t bufferBytes = 262144,
              uint32_t sequenceBits = 12)
    {
        nodes.Create(2);
        RdmaLinkHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetDeviceAttribute("Mtu", UintegerValue(PACKET_BYTES));
        link.SetChannelAttribute("Delay", TimeValue(delay));
        link.EnableLinkRetry();
        link.SetLinkRetryAttribute("ReplayBufferBytes", UintegerValue(bufferBytes));
        link.SetLinkRetryAttribute("SequenceBits", UintegerValue(sequenceBits));
        link.SetReceiveErrorModel("ns3::RdmaWireErrorModel");
        NetDeviceContainer d = link.Install(nodes);
        a = DynamicCast<RdmaNetDevice>(d.Get(0));
        b = DynamicCast<RdmaNetDevice>(d.Get(1));
        PointerValue em;
        b->GetAttribute("ReceiveErrorModel", em);
        dataErrors = DynamicCast<RdmaWireErrorModel>(em.GetObject());
        a->GetAttribute("ReceiveErrorModel", em);
        ackErrors = DynamicCast<RdmaWireErrorModel>(em.GetObject());
        dataErrors->SetFrameErrorRate(dataFer);
        ackErrors->SetFrameErrorRate(ackFer);
        dataErrors->AssignStreams(11);
        ackErrors->AssignStreams(12);
        b->SetRdmaReceiveCallback(MakeCallback(&Arrivals::Record, &arrivals));
    }

    /// \param n packets queued at a at time 0, identifications 0, 1, ... (mod 2^16)
    void Queue(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            a->Enqueue(MakeData(static_cast<uint16_t>(i)), DATA_CLASS);
        }
    }

    /// \return a's link retry (the transmitter's)
    Ptr<RdmaLinkRetry> Tx() const
    {
        return a->GetLinkRetry();
    }

    /// \return b's link retry (the receiver's)
    Ptr<RdmaLinkRetry> Rx() const
    {
        return b->GetLinkRetry();
    }

    /// \param n frames sent: b got exactly them, once each, in order
    void ExpectInOrder(uint32_t n) const
    {
        ASSERT_EQ(arrivals.ids.size(), n);
        for (uint32_t i = 0; i < n; ++i)
        {
            ASSERT_EQ(arrivals.ids[i], static_cast<uint16_t>(i)) << "arrival " << i;
        }
    }
};

} // namespace

TEST(RdmaWireErrorModel, BitErrorRateBecomesAFrameErrorProbabilityOverTheWireBytes)
{
    // A 1040-byte frame is 1064 bytes on the wire: p = 1 - (1 - 1e-6)^(8 x 1064) = 0.008476.
    Ptr<RdmaWireErrorModel> em = CreateObject<RdmaWireErrorModel>();
    em->SetBitErrorRate(1e-6);
    const double p = 1 - std::pow(1 - 1e-6, 8 * 1064);
    EXPECT_NEAR(em->GetFrameCorruptProbability(1040), p, 1e-12);
    EXPECT_NEAR(p, 0.008476, 1e-6);
    // BER 1e-12: 8.512e-9, not lost to rounding.
    em->SetBitErrorRate(1e-12);
    EXPECT_NEAR(em->GetFrameCorruptProbability(1040) / 8.512e-9, 1, 1e-6);
    // Sampled: 200,000 frames at BER 1e-6 give 1695 +/- 41 corrupted (binomial); 4 sigma.
    em->SetBitErrorRate(1e-6);
    em->AssignStreams(3);
    Ptr<Packet> frame = Create<Packet>(1040);
    const uint32_t n = 200000;
    uint32_t corrupted = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        corrupted += em->IsCorrupt(frame) ? 1 : 0;
    }
    const double sigma = std::sqrt(n * p * (1 - p));
    EXPECT_NEAR(corrupted, n * p, 4 * sigma);
    EXPECT_EQ(em->GetFramesCorrupted(), corrupted);
    // FrameErrorRate overrides.
    em->SetFrameErrorRate(0.25);
    EXPECT_DOUBLE_EQ(em->GetFrameCorruptProbability(60), 0.25);
}

TEST(RdmaLinkRetry, EveryCorruptedFrameIsReplayedAndDeliveredInOrderOnce)
{
    // 5000 frames over a link that corrupts 3 % of the data frames and 3 % of the Acks and
    // Naks. Conservation on the link: every frame a transmits (new or replayed) reaches b
    // and is either corrupted (CRC), accepted, or dropped as out of sequence; b delivers
    // each of the 5000 exactly once, in order (so every corrupted frame was replayed and
    // then accepted), and nothing stays in the replay buffer.
    const uint32_t n = 5000;
    RetryLink link(NanoSeconds(500), 0.03, 0.03);
    link.Queue(n);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    link.ExpectInOrder(n);
    Ptr<RdmaLinkRetry> tx = link.Tx();
    Ptr<RdmaLinkRetry> rx = link.Rx();
    EXPECT_EQ(tx->GetFramesSent(), n);
    EXPECT_EQ(rx->GetFramesAccepted(), n);
    EXPECT_EQ(tx->GetFramesSent() + tx->GetFramesReplayed(),
              rx->GetFramesAccepted() + rx->GetFramesCorrupted() + rx->GetFramesOutOfSequence());
    EXPECT_EQ(rx->GetFramesCorrupted(), link.dataErrors->GetFramesCorrupted());
    EXPECT_EQ(link.b->GetRxDropCount(), rx->GetFramesCorrupted());
    EXPECT_GT(rx->GetFramesCorrupted(), 100u); // about 3 % of 5000 first copies and more
    EXPECT_GE(tx->GetFramesReplayed(), rx->GetFramesCorrupted());
    EXPECT_GT(link.ackErrors->GetFramesCorrupted(), 0u); // lost Acks/Naks were survived
    EXPECT_GT(tx->GetTimeouts(), 0u);                    // ... some by the replay timer
    EXPECT_EQ(tx->GetFramesHeld(), 0u);
    // IPv4 bytes: b received every packet once; what the error model destroyed is counted
    // apart (each corrupted frame once, its sequence number not included).
    EXPECT_EQ(link.b->GetIpv4RxBytes(), uint64_t(n) * PACKET_BYTES);
    EXPECT_EQ(link.b->GetIpv4CorruptedBytes(), rx->GetFramesCorrupted() * PACKET_BYTES);
    std::cout << "5000 frames, 3 % errors: " << rx->GetFramesCorrupted() << " corrupted, "
              << tx->GetFramesReplayed() << " replayed, " << rx->GetFramesOutOfSequence()
              << " out of sequence, " << rx->GetNaksSent() << " Naks, " << tx->GetTimeouts()
              << " timeouts\n";
    Simulator::Destroy();
}

TEST(RdmaLinkRetry, GoodputMatchesGoBackNOnALink)
{
    // Go-back-N on one link. Frame i, corrupted, is detected when it has arrived
    // (T_f + d after it started); b sends a Nak at once (T_a; it may wait for at most one
    // Ack being serialized, T_a more), which reaches a after d more. a finishes the frame it
    // is sending and replays from i, so the k slots started before the Nak arrived are lost:
    //   k = ceil((T_f + 2 d + T_a) / T_f)   (the same with 2 T_a for the d used here).
    // With frame error probability p a frame needs 1/(1-p) transmissions on average, every
    // failed one costing k slots: E = 1 + k p / (1 - p) slots per delivered frame, i.e. the
    // efficiency (1 - p) / (1 - p + k p), the brief's formula with R' = k. Second order: a
    // replayed frame i corrupted again is not Nak'ed (NAK_SCHEDULED is still set, PCIe
    // 3.6.3.1) and waits for the replay timer T_o instead of k slots, adding
    // p^2 (T_o / T_f - k) slots per frame. The replay buffer (256 KB, 252 frames) is far
    // larger than the ACK round trip, so the window never stalls. Acks travel b -> a
    // without error. 20,000 frames (p = 0.01: about 200 errors; the standard deviation
    // of E's error term is then 7 % of it: 0.5 % of the efficiency for k = 6, 1.4 % for
    // k = 25); tolerance 3 %.
    struct Case
    {
        double p;
        uint32_t delayNs;
    };

    const std::vector<Case> cases = {{0.01, 200},
                                     {0.03, 200},
                                     {0.002, 200},
                                     {0.01, 1000},
                                     {0.002, 1000}};
    const uint32_t n = 20000;
    for (const Case& c : cases)
    {
        RetryLink link(NanoSeconds(c.delayNs), c.p, 0);
        link.Queue(n);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        link.ExpectInOrder(n); // 20,000 frames: the 12-bit sequence space wrapped 4 times
        const double k = std::ceil((FRAME_NS + 2 * c.delayNs + ACK_NS) / FRAME_NS);
        const double timeoutSlots = link.Tx()->GetReplayTimeout().GetSeconds() * 1e9 / FRAME_NS;
        const double slots = 1 + k * c.p / (1 - c.p) + c.p * c.p * (timeoutSlots - k);
        const double expected = 1 / slots;
        const uint32_t first = 100;
        const double span = (link.arrivals.times[n - 1] - link.arrivals.times[first]).GetSeconds();
        const double measured = (n - 1 - first) * FRAME_NS / (span * 1e9);
        std::cout << "p " << c.p << ", d " << c.delayNs << " ns: k " << k << ", efficiency "
                  << measured << ", go-back-N " << expected << " ("
                  << link.Rx()->GetFramesCorrupted() << " corrupted, " << link.Tx()->GetTimeouts()
                  << " timeouts)\n";
        EXPECT_NEAR(measured, expected, 0.03 * expected) << "p " << c.p << " d " << c.delayNs;
        // Sharper, and free of the sampling noise of p: frame j (0-based) of a run started at
        // 0 arrives at (j + lost) T_f + T_f + d, with lost the slots wasted before it. So the
        // last arrival gives the slots lost in all, which must be k per Nak-started replay
        // when no replay timer fired (each costs a full k; a Nak delayed behind an Ack by up
        // to T_a crosses no slot boundary for these d). Tolerance: a tenth of a slot.
        if (link.Tx()->GetTimeouts() == 0)
        {
            const double lastNs = link.arrivals.times[n - 1].GetSeconds() * 1e9;
            const double lost = (lastNs - c.delayNs) / FRAME_NS - n;
            const double perReplay = lost / link.Tx()->GetNakReplays();
            std::cout << "  slots lost per Nak replay " << perReplay << " (k " << k << ", "
                      << link.Tx()->GetNakReplays() << " replays)\n";
            EXPECT_NEAR(perReplay, k, 0.1) << "p " << c.p << " d " << c.delayNs;
        }
        Simulator::Destroy();
    }
}

TEST(RdmaLinkRetry, ReplaysCarryTheOriginalBytesWhateverTheFrameSizes)
{
    // The replay buffer keeps the frames' bytes (a byte ring that a frame never wraps inside):
    // 3000 IPv4 packets of 46 to 1024 bytes (each size a different step, so the ring's free
    // space is left in every shape), every payload byte a function of the packet's index,
    // through a replay buffer of 4 maximum frames with 10 % of the data frames corrupted.
    // b must get every packet once, in order, byte for byte as it was sent.
    const uint32_t n = 3000;
    RetryLink link(NanoSeconds(300), 0.10, 0.02, 4 * (HELD_FRAME_BYTES + 2));
    auto sizeOf = [](uint32_t i) { return 46 + (i * 397) % (PACKET_BYTES - 46 + 1); };
    auto byteOf = [](uint32_t i, uint32_t k) { return static_cast<uint8_t>(i * 31 + k * 7); };
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t bytes = sizeOf(i);
        std::vector<uint8_t> payload(bytes - 20);
        for (uint32_t k = 0; k < payload.size(); ++k)
        {
            payload[k] = byteOf(i, k);
        }
        Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(Ipv4Address("10.0.0.2"));
        h.SetProtocol(17);
        h.SetIdentification(static_cast<uint16_t>(i));
        h.SetPayloadSize(payload.size());
        h.SetDscp(static_cast<Ipv4Header::DscpType>(DATA_CLASS << 3 | 2));
        p->AddHeader(h);
        link.a->Enqueue(p, DATA_CLASS);
    }
    uint32_t received = 0;
    uint32_t mismatches = 0;
    link.b->SetRdmaReceiveCallback(
        RdmaNetDevice::RdmaReceiveCallback([&](Ptr<RdmaNetDevice>, Ptr<Packet> p) {
            const uint32_t i = received++;
            Ipv4Header h;
            p->RemoveHeader(h);
            std::vector<uint8_t> got(p->GetSize());
            p->CopyData(got.data(), got.size());
            bool same =
                h.GetIdentification() == static_cast<uint16_t>(i) && got.size() + 20 == sizeOf(i);
            for (uint32_t k = 0; same && k < got.size(); ++k)
            {
                same = got[k] == byteOf(i, k);
            }
            mismatches += same ? 0 : 1;
        }));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(received, n);
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(link.Tx()->GetFramesReplayed(), 300u); // replays were many, from every ring shape
    EXPECT_EQ(link.Tx()->GetFramesHeld(), 0u);
    Simulator::Destroy();
}

TEST(RdmaLinkRetry, FullReplayBufferStallsTheTransmitter)
{
    // No errors, a replay buffer of W frames (W x 1040 bytes), d = 1 us. b accepts the first
    // frame of a batch T_f + d after it started and acknowledges AckLatency (500 ns) later:
    // the W frames of the batch have all arrived by then (W T_f <= 500 ns + T_f for W <= 6),
    // so one Ack releases the whole batch. It reaches a after T_a + d, and the next batch
    // starts: a period P = T_f + 2 d + AckLatency + T_a = 2591.84 ns per W frames, an
    // efficiency W T_f / P (W = 2: 0.06568; W = 4: 0.1314), exact up to the time step.
    for (uint32_t w : {2U, 4U})
    {
        RetryLink link(MicroSeconds(1), 0, 0, w * HELD_FRAME_BYTES);
        const uint32_t n = 400;
        link.Queue(n);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        link.ExpectInOrder(n);
        const double period = FRAME_NS + 2000 + 500 + ACK_NS;
        const double gap =
            (link.arrivals.times[n - 1] - link.arrivals.times[n - 1 - w]).GetSeconds() * 1e9;
        EXPECT_NEAR(gap, period, 0.01) << "W " << w;
        EXPECT_EQ(link.Tx()->GetPeakFramesHeld(), w);
        std::cout << "W " << w << ": a batch every " << gap << " ns, efficiency "
                  << w * FRAME_NS / gap << " (expected " << w * FRAME_NS / period << ")\n";
        Simulator::Destroy();
    }
}

TEST(RdmaLinkRetry, SequenceSpaceWrapsWithThreeBits)
{
    // SequenceBits 3: sequence numbers 0..7 on the wire, at most 4 frames outstanding.
    // 3000 frames (375 wraps) with 5 % of the data frames and of the Acks/Naks corrupted,
    // d = 100 ns: every frame is delivered once, in order, so neither a duplicate was taken
    // for a new frame nor a new one for a duplicate across the wrap.
    const uint32_t n = 3000;
    RetryLink link(NanoSeconds(100), 0.05, 0.05, 262144, 3);
    link.Queue(n);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    link.ExpectInOrder(n);
    EXPECT_EQ(link.Tx()->GetRingSlots(), 4u);
    EXPECT_LE(link.Tx()->GetPeakFramesHeld(), 4u);
    EXPECT_GT(link.Tx()->GetFramesReplayed(), 0u);
    EXPECT_GT(link.Rx()->GetFramesOutOfSequence(), 0u);
    EXPECT_EQ(link.Tx()->GetFramesSent() + link.Tx()->GetFramesReplayed(),
              link.Rx()->GetFramesAccepted() + link.Rx()->GetFramesCorrupted() +
                  link.Rx()->GetFramesOutOfSequence());
    Simulator::Destroy();
}

namespace
{

/**
 * A 4-to-1 incast of 256 KB WRITEs through one switch, every link with LLR and a bit error
 * rate; the end-to-end transport (go-back-N) never has to retransmit.
 * \param credits true: credit flow control on every link; false: PFC (the default)
 * \param ber bit error rate of every link direction
 */
void
IncastIsLosslessEndToEnd(bool credits, double ber, bool unreliable = false)
{
    const uint32_t senders = 4;
    const uint64_t bytes = 256 * 1024;
    LinkIncast incast;
    if (credits)
    {
        incast.link.SetLinkFlowControl("ns3::RdmaCreditFlowControl");
    }
    incast.link.EnableLinkRetry();
    incast.link.SetReceiveErrorModel("ns3::RdmaWireErrorModel");
    incast.link.SetReceiveErrorModelAttribute("BitErrorRate", DoubleValue(ber));
    if (unreliable)
    {
        incast.rdma.SetLossRecovery("ns3::RdmaNoRetransmitLossRecovery");
    }
    incast.Run(senders, bytes, MilliSeconds(5));
    const auto& logs = incast.logs;
    const auto& requesters = incast.requesters;
    const auto& responders = incast.responders;
    const NetDeviceContainer& devices = incast.devices;

    Ptr<RdmaSwitch> s = incast.Switch();
    EXPECT_EQ(s->GetTotalDrops(), 0u);
    uint64_t received = 0;
    for (uint32_t i = 0; i < senders; ++i)
    {
        EXPECT_EQ(logs[i].sends.size(), 1u) << "sender " << i;
        EXPECT_EQ(logs[i].receives.size(), 1u) << "sender " << i;
        EXPECT_EQ(requesters[i]->GetRetransmissions(), 0u) << "sender " << i;
        EXPECT_EQ(responders[i]->GetPacketsLost(), 0u) << "sender " << i;
        EXPECT_EQ(responders[i]->GetOutOfOrderDiscards(), 0u) << "sender " << i;
        received += responders[i]->GetBytesReceived();
    }
    EXPECT_EQ(received, senders * bytes);
    uint64_t corrupted = 0;
    uint64_t replayed = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(devices.Get(i));
        corrupted += dev->GetLinkRetry()->GetFramesCorrupted();
        replayed += dev->GetLinkRetry()->GetFramesReplayed();
        EXPECT_EQ(dev->GetLinkRetry()->GetFramesHeld(), 0u) << "device " << i;
        if (credits)
        {
            EXPECT_EQ(dev->GetPfcFramesSent(), 0u);
        }
    }
    std::cout << (credits ? "credits" : "PFC") << (unreliable ? ", unreliable e2e" : "") << ", BER "
              << ber << ": " << corrupted << " data frames corrupted, " << replayed
              << " replayed, no e2e retransmission\n";
    EXPECT_GT(corrupted, 5u);
    EXPECT_GE(replayed, corrupted);
    Simulator::Destroy();
}

} // namespace

TEST(RdmaLinkRetry, IncastUnderPfcIsLosslessEndToEnd)
{
    // BER 1e-6: a 1024-byte-MTU RoCEv2 frame (1106 wire bytes with LLR) is corrupt with
    // p = 0.0088, so 1 MB of WRITEs (1024 frames, each crossing two links) loses about 18.
    IncastIsLosslessEndToEnd(false, 1e-6);
}

TEST(RdmaLinkRetry, IncastUnderCreditsIsLosslessEndToEnd)
{
    IncastIsLosslessEndToEnd(true, 1e-6);
}

TEST(RdmaLinkRetry, UnreliableEndToEndOverLinkRetryDeliversEverything)
{
    // LLR on every link, the end-to-end transport unreliable (no retransmission, SUE-Lite):
    // at BER 1e-6 about 18 frames are corrupted, and LLR replays them all, so the
    // responders lose nothing and every message completes at both ends.
    IncastIsLosslessEndToEnd(false, 1e-6, true);
}

TEST(RdmaLinkRetry, UnreliableEndToEndWithoutLinkRetryCountsWhatTheLinkLost)
{
    // No LLR, unreliable end-to-end: what the link corrupts is lost for good, and the
    // responder counts it. One sender, one switch, one receiver; the receiver's device
    // drops every 97th frame it receives (RdmaPeriodicErrorModel), all of them data frames
    // (nothing else flows towards the receiver: one sender, no congestion, no PFC).
    // 8 WRITEs of 64 KiB at MTU 1024 are 512 packets: frames 97, 194, 291, 388 and 485 are
    // lost, all middle packets of their messages (the first packets are 1, 65, 129, ...),
    // each 1024 + 44 IPv4 bytes (IPv4 20, UDP 8, BTH 12, ICRC 4); the last packet arrives,
    // so every gap is seen. Conservation: payload lost = 5 x 1024 = IPv4 bytes corrupted
    // less 44 per packet; received + lost = posted; the requester never retransmits and
    // completes all 8 messages on send; the responder completes the 8 (no last packet lost).
    const uint32_t messages = 8;
    const uint64_t bytes = 64 * 1024;
    NodeContainer hosts;
    hosts.Create(2);
    Ptr<Node> sw = CreateObject<Node>();
    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer toSender = link.Install(hosts.Get(0), sw);
    NetDeviceContainer toReceiver = link.Install(hosts.Get(1), sw);
    Ptr<RdmaNetDevice> receiverDevice = DynamicCast<RdmaNetDevice>(toReceiver.Get(0));
    Ptr<RdmaPeriodicErrorModel> em = CreateObject<RdmaPeriodicErrorModel>();
    em->SetAttribute("Period", UintegerValue(97));
    receiverDevice->SetAttribute("ReceiveErrorModel", PointerValue(em));
    RdmaHelper rdma;
    rdma.SetLossRecovery("ns3::RdmaNoRetransmitLossRecovery");
    rdma.InstallHosts(hosts);
    rdma.InstallSwitch(sw);
    RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, NodeContainer(sw)));
    CompletionLog log;
    auto [requester, responder] = rdma.Connect(hosts.Get(0), hosts.Get(1));
    log.Attach(requester, responder);
    for (uint32_t i = 0; i < messages; ++i)
    {
        PostWriteAt(requester, hosts.Get(0), Seconds(0), bytes, i);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EXPECT_EQ(receiverDevice->GetRxDropCount(), 5u);
    EXPECT_EQ(receiverDevice->GetIpv4CorruptedBytes(), 5u * (1024 + 44));
    EXPECT_EQ(responder->GetPacketsLost(), receiverDevice->GetRxDropCount());
    EXPECT_EQ(responder->GetBytesLost(), receiverDevice->GetIpv4CorruptedBytes() - 5 * 44);
    EXPECT_EQ(responder->GetBytesReceived() + responder->GetBytesLost(), messages * bytes);
    EXPECT_EQ(responder->GetNaksSent(), 0u);
    EXPECT_EQ(requester->GetRetransmissions(), 0u);
    EXPECT_EQ(requester->GetPacketsSent(), messages * 64);
    EXPECT_EQ(log.sends.size(), messages);
    EXPECT_EQ(log.receives.size(), messages);
    EXPECT_EQ(requester->GetOutstandingWorkRequests(), 0u);
    Simulator::Destroy();
}

TEST(RdmaLinkRetryDeathTest, BadInputIsRefusedBeforeTheRun)
{
    // Mtu 1024: one maximum frame in the replay buffer is 1024 + 14 + 2 = 1040 bytes.
    EXPECT_DEATH(
        {
            RetryLink link(MicroSeconds(1), 0, 0, 1039);
            Simulator::Run();
        },
        "ReplayBufferBytes 1039 is below one maximum frame \\(Mtu 1024 B \\+ 14 B Ethernet "
        "header \\+ 2 B sequence number = 1040 B\\); valid: at least 1040");
    EXPECT_DEATH(
        {
            RetryLink link(MicroSeconds(1), 0, 0, 0);
            Simulator::Run();
        },
        "ReplayBufferBytes 0 is below one maximum frame");
    EXPECT_DEATH(
        {
            Ptr<RdmaWireErrorModel> em = CreateObject<RdmaWireErrorModel>();
            em->SetAttribute("BitErrorRate", DoubleValue(1.0));
        },
        "BitErrorRate 1 is not valid; valid: \\[0, 1\\)");
    EXPECT_DEATH(
        {
            Ptr<RdmaWireErrorModel> em = CreateObject<RdmaWireErrorModel>();
            em->SetAttribute("FrameErrorRate", DoubleValue(-0.1));
        },
        "FrameErrorRate -0.1 is not valid; valid: \\[0, 1\\)");
    // LLR at one end of a link only: the other end would take sequence numbers for data.
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(2);
            RdmaLinkHelper link;
            NetDeviceContainer d = link.Install(nodes);
            DynamicCast<RdmaNetDevice>(d.Get(0))->SetLinkRetry(CreateObject<RdmaLinkRetry>());
            Simulator::Run();
        },
        "runs link-level retry but its peer .* does not; both ends of a link must");
}
