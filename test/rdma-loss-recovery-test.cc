/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Loss recovery: go-back-N against its analytical goodput curve for two bandwidth-delay
// products, selective repeat with RACK-TLP against (1 - p) x header efficiency, in-order
// completion of data placed out of order, reordering without loss, tail-loss probes,
// go-back-0's restart and livelock, the reorder bitmap bound, PSN wrap with SACK, the wire
// format of the extensions, and the loss-injection helper.

#include "rdma-test-utils.h"

#include <cmath>
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint32_t MTU = 1024;
constexpr double LINE_RATE = 100e9;

/// Wire time of a frame carrying an IPv4 packet of ipBytes at 100 Gb/s.
double
WireSeconds(uint32_t ipBytes)
{
    return RdmaNetDevice::WireBytes(ipBytes + 14) * 8.0 / LINE_RATE;
}

/// Data packet (IPv4 20, UDP 8, BTH 12, ICRC 4 and the payload), optionally with a RETH.
double
DataPacketTime(bool reth)
{
    return WireSeconds(MTU + 44 + (reth ? 16 : 0));
}

/// ACK: IPv4, UDP, BTH, AETH, ICRC = 48 bytes (+4 with the empty SACK extension).
double
AckTime(bool sack)
{
    return WireSeconds(48 + (sack ? 4 : 0));
}

/// Loss-free round trip through one switch (two links), store and forward.
double
BaseRtt(Time delay, bool sack)
{
    return 2 * (DataPacketTime(sack) + AckTime(sack) + 2 * delay.GetSeconds());
}

/// Go-back-N: packets from the lost one (sent at t0) until the sender resumes at it. The
/// NAK leaves when the next packet has arrived (t0 + T + one-way time) and arrives one
/// ACK path later, t0 + T + RTT0; the packet being serialized then is finished first.
double
GoBackNK(Time delay)
{
    return std::floor(BaseRtt(delay, false) / DataPacketTime(false)) + 2;
}

/// Loss-free goodput with standard headers, bit/s.
double
Capacity()
{
    return AnalyticalGoodput(LINE_RATE, MTU);
}

/// A sender (host 1) and a receiver (host 0) through one switch.
struct LossFlow
{
    Star star;
    Ptr<RdmaQueuePair> requester;
    Ptr<RdmaQueuePair> responder;
    CompletionLog log;
    uint64_t highest{0};                             //!< one past the highest sequence sent
    std::vector<std::pair<uint64_t, uint64_t>> naks; //!< (NAK seq, highest at arrival)

    LossFlow(Time delay, const std::string& lossRecovery)
        : star(2, "100Gbps", delay)
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
        star.rdma.SetLossRecovery(lossRecovery);
    }

    void Connect()
    {
        star.Install();
        std::tie(requester, responder) = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        log.Attach(requester, responder);
        requester->TraceConnectWithoutContext("Tx",
                                              MakeBoundCallback(
                                                  +[](LossFlow* f, uint64_t seq, bool) {
                                                      f->highest = std::max(f->highest, seq + 1);
                                                  },
                                                  this));
        requester->TraceConnectWithoutContext(
            "NakReceived",
            MakeBoundCallback(
                +[](LossFlow* f, uint64_t seq) { f->naks.emplace_back(seq, f->highest); },
                this));
    }

    /// Post messages of messageBytes until totalBytes, all at time 0.
    void PostWrites(uint64_t totalBytes, uint64_t messageBytes)
    {
        uint64_t wrId = 0;
        for (uint64_t left = totalBytes; left > 0; ++wrId)
        {
            const uint64_t len = std::min(left, messageBytes);
            PostWriteAt(requester, star.hosts.Get(1), Seconds(0), len, wrId);
            left -= len;
        }
    }

    Ptr<RdmaSackLossRecovery> Sack() const
    {
        return DynamicCast<RdmaSackLossRecovery>(requester->GetLossRecovery());
    }

    /// Efficiency: bytes over the time of the last completion, over Capacity().
    double Efficiency() const
    {
        uint64_t bytes = 0;
        Time last(0);
        for (const auto& c : log.sends)
        {
            bytes += c.length;
            last = std::max(last, c.completionTime);
        }
        return bytes * 8.0 / last.GetSeconds() / Capacity();
    }

    /// Completions at both ends came in posting order with the posted lengths.
    void ExpectInOrder(uint64_t messages, uint64_t totalBytes, uint64_t messageBytes) const
    {
        ASSERT_EQ(log.sends.size(), messages);
        ASSERT_EQ(log.receives.size(), messages);
        uint64_t left = totalBytes;
        for (uint64_t i = 0; i < messages; ++i)
        {
            const uint64_t len = std::min(left, messageBytes);
            EXPECT_EQ(log.sends[i].wrId, i);
            EXPECT_EQ(log.receives[i].length, len) << "message " << i;
            left -= len;
        }
    }
};

/// Run go-back-N over loss rates (the first 0) and compare with (1 - p) / (1 + (K - 1) p).
void
CheckGoBackNCurve(Time delay, uint64_t bytes, const std::vector<double>& rates)
{
    const double k = GoBackNK(delay);
    const double rtt0 = BaseRtt(delay, false);
    std::cout << "go-back-N, delay " << delay.As(Time::US) << ": RTT0 " << rtt0 * 1e6 << " us, K "
              << k << "\n  p        efficiency  analytic  K measured  timeouts\n";
    double lossFree = 0;
    ASSERT_EQ(rates.front(), 0.0);
    for (double p : rates)
    {
        RngSeedManager::SetSeed(11);
        RngSeedManager::SetRun(1);
        LossFlow f(delay, "ns3::RdmaGoBackNLossRecovery");
        // The local ACK timeout recovers a lost retransmission of a NAK'd packet (the
        // responder NAKs a gap once). Restarted by every advance, it must outlast the
        // RTT0 + 3 T without one while a NAK'd packet is resent: 1.2 RTT0.
        f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(Seconds(1.2 * rtt0)));
        if (p > 0)
        {
            RdmaLossHelper loss;
            loss.Install("uniform:" + std::to_string(p), NetDeviceContainer(f.star.HostDevice(0)));
            loss.AssignStreams(5);
        }
        f.Connect();
        f.PostWrites(bytes, 1'000'000);
        Simulator::Run();
        const uint64_t messages = (bytes + 999'999) / 1'000'000;
        f.ExpectInOrder(messages, bytes, 1'000'000);
        const double eff = f.Efficiency();
        if (p == 0)
        {
            lossFree = eff; // start-up round trip: about RTT0 / transfer time below 1
            EXPECT_GT(eff, 0.99);
        }
        const double analytic = (1 - p) / (1 + (k - 1) * p);
        double kSum = 0;
        for (const auto& [seq, highest] : f.naks)
        {
            kSum += double(highest - seq);
        }
        const double kMeasured = f.naks.empty() ? 0 : kSum / f.naks.size();
        std::cout << "  " << std::setw(7) << p << "  " << std::setw(10) << eff / lossFree << "  "
                  << std::setw(8) << analytic << "  " << std::setw(10) << kMeasured << "  "
                  << f.requester->GetTimeouts() << "\n";
        EXPECT_NEAR(eff / lossFree / analytic, 1.0, 0.10) << "p = " << p;
        if (!f.naks.empty())
        {
            // Every NAK finds K packets sent from the NAK'd one (fewer at the very end of
            // the transfer, more when a resent packet is NAK'd again behind new data).
            EXPECT_NEAR(kMeasured, k, 0.05 * k) << "p = " << p;
        }
        Simulator::Destroy();
    }
}

} // namespace

TEST(RdmaLossRecovery, GoBackNFollowsAnalyticalCurveSmallBdp)
{
    // 0.5 us links: RTT0 = 2 (88.48 + 6.88 + 1000) ns = 2.19 us, K = 24 + 2 = 26.
    EXPECT_EQ(GoBackNK(NanoSeconds(500)), 26.0);
    CheckGoBackNCurve(NanoSeconds(500), 20'000'000, {0, 1e-4, 1e-3, 1e-2, 2e-2, 5e-2});
}

// 2 us links: RTT0 = 8.19 us, K = 92 + 2 = 94. 24 MB (23 438 packets) keep the count of
// NAKs, hence the efficiency, within a few percent of its mean; split in two for time.
TEST(RdmaLossRecovery, GoBackNFollowsAnalyticalCurveLargeBdpLowLoss)
{
    EXPECT_EQ(GoBackNK(MicroSeconds(2)), 94.0);
    CheckGoBackNCurve(MicroSeconds(2), 24'000'000, {0, 1e-4, 1e-3, 1e-2});
}

TEST(RdmaLossRecovery, GoBackNFollowsAnalyticalCurveLargeBdpHighLoss)
{
    CheckGoBackNCurve(MicroSeconds(2), 24'000'000, {0, 2e-2, 5e-2});
}

TEST(RdmaLossRecovery, SackKeepsGoodputUpToFivePercentLoss)
{
    // Selective repeat delivers a fraction (1 - p) of the packets sent at the line rate;
    // a RETH in every WRITE packet costs 16 bytes: h = (1024 + 82) / (1024 + 98).
    const Time delay = MicroSeconds(1);
    const double h = (MTU + 82.0) / (MTU + 98.0);
    const double rtt0 = BaseRtt(delay, true);
    const uint32_t bdp = uint32_t(std::ceil(rtt0 / DataPacketTime(true)));
    const uint64_t bytes = 10'000'000;
    std::cout << "SACK + RACK-TLP, delay 1 us, BDP " << bdp
              << " packets, cap 4 BDP\n  p        efficiency  0.9(1-p)h  retx  drops  probes\n";
    for (double p : {0.0, 1e-3, 1e-2, 2e-2, 5e-2})
    {
        RngSeedManager::SetSeed(12);
        RngSeedManager::SetRun(1);
        LossFlow f(delay, "ns3::RdmaSackLossRecovery");
        f.star.rdma.SetLossRecovery("ns3::RdmaSackLossRecovery",
                                    "ReceiverWindow",
                                    UintegerValue(4 * bdp),
                                    "MaxOutstanding",
                                    UintegerValue(4 * bdp));
        RdmaLossHelper loss;
        if (p > 0)
        {
            loss.Install("uniform:" + std::to_string(p), NetDeviceContainer(f.star.HostDevice(0)));
            loss.AssignStreams(7);
        }
        f.Connect();
        f.PostWrites(bytes, 1'000'000);
        Simulator::Run();
        f.ExpectInOrder(10, bytes, 1'000'000);
        const double eff = f.Efficiency();
        const uint64_t drops = f.star.HostDevice(0)->GetRxDropCount();
        const uint64_t retx = f.requester->GetRetransmissions();
        const uint64_t probes = f.Sack()->GetTlpProbes();
        std::cout << "  " << std::setw(7) << p << "  " << std::setw(10) << eff << "  "
                  << std::setw(9) << 0.9 * (1 - p) * h << "  " << retx << "  " << drops << "  "
                  << probes << "\n";
        EXPECT_GE(eff, 0.9 * (1 - p) * h) << "p = " << p;
        EXPECT_GE(eff, 0.97 * (1 - p) * h) << "p = " << p; // what it actually achieves
        // Only what is missing is resent: one retransmission per lost data packet, plus at
        // most the tail-loss probes (which may repeat a packet that was not lost).
        EXPECT_GE(retx, drops);
        EXPECT_LE(retx, drops + probes);
        EXPECT_EQ(f.requester->GetTimeouts(), 0u);
        EXPECT_EQ(f.responder->GetBytesReceived(), bytes);
        EXPECT_EQ(f.responder->GetReorderWindowDrops(), 0u);
        Simulator::Destroy();
    }
}

TEST(RdmaLossRecovery, OutOfOrderPlacementCompletesInOrder)
{
    // Every 7th data frame is lost: the responder places the packets after each hole at
    // once (each WRITE packet's RETH, each SEND packet's placement header says where) and
    // completes the messages in posting order when the holes are filled.
    LossFlow f(MicroSeconds(1), "ns3::RdmaSackLossRecovery");
    RdmaLossHelper loss;
    loss.Install("every:7", NetDeviceContainer(f.star.HostDevice(0)));
    f.Connect();

    struct Placed
    {
        uint64_t seq;
        uint64_t address;
        uint32_t bytes;
        bool outOfOrder;
    };

    std::vector<Placed> placed;
    f.responder->TraceConnectWithoutContext(
        "Placement",
        MakeBoundCallback(
            +[](std::vector<Placed>* v, uint64_t s, uint64_t a, uint32_t b, bool o) {
                v->push_back({s, a, b, o});
            },
            &placed));

    // WRITE and SEND messages of various sizes, zero included.
    struct Msg
    {
        RdmaWorkRequest::Opcode op;
        uint64_t length;
        uint64_t address;
    };

    const std::vector<Msg> msgs = {{RdmaWorkRequest::WRITE, 50'000, 0x100000},
                                   {RdmaWorkRequest::SEND, 20'000, 0},
                                   {RdmaWorkRequest::WRITE, 1, 0x200000},
                                   {RdmaWorkRequest::SEND, 0, 0},
                                   {RdmaWorkRequest::WRITE, 33'333, 0x300000},
                                   {RdmaWorkRequest::SEND, 4097, 0}};
    std::vector<uint64_t> firstSeq;
    uint64_t seq = 0;
    for (std::size_t i = 0; i < msgs.size(); ++i)
    {
        RdmaWorkRequest wr;
        wr.opcode = msgs[i].op;
        wr.wrId = i;
        wr.length = msgs[i].length;
        wr.remoteAddress = msgs[i].address;
        Simulator::ScheduleWithContext(f.star.hosts.Get(1)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       f.requester,
                                       wr);
        firstSeq.push_back(seq);
        seq += std::max<uint64_t>(1, (wr.length + MTU - 1) / MTU);
    }
    firstSeq.push_back(seq);
    Simulator::Run();

    ASSERT_EQ(f.log.receives.size(), msgs.size());
    ASSERT_EQ(f.log.sends.size(), msgs.size());
    for (std::size_t i = 0; i < msgs.size(); ++i)
    {
        EXPECT_EQ(f.log.sends[i].wrId, i);
        EXPECT_EQ(f.log.receives[i].length, msgs[i].length);
        EXPECT_EQ(f.log.receives[i].opcode, msgs[i].op);
        if (i > 0)
        {
            EXPECT_GE(f.log.receives[i].completionTime, f.log.receives[i - 1].completionTime);
        }
    }
    // Each packet placed once, at its own address, whatever the order.
    std::set<uint64_t> seen;
    uint64_t outOfOrder = 0;
    for (const Placed& p : placed)
    {
        EXPECT_TRUE(seen.insert(p.seq).second) << "seq " << p.seq << " placed twice";
        const std::size_t m =
            std::upper_bound(firstSeq.begin(), firstSeq.end(), p.seq) - firstSeq.begin() - 1;
        const uint64_t offset = (p.seq - firstSeq[m]) * MTU;
        EXPECT_EQ(p.address, msgs[m].address + offset) << "seq " << p.seq;
        EXPECT_EQ(p.bytes, std::min<uint64_t>(MTU, msgs[m].length - offset)) << "seq " << p.seq;
        outOfOrder += p.outOfOrder;
    }
    EXPECT_EQ(seen.size(), seq);
    EXPECT_EQ(outOfOrder, f.responder->GetOutOfOrderPlacements());
    // Every hole (a 7th frame) holds up the packets behind it for a round trip.
    const uint64_t drops = f.star.HostDevice(0)->GetRxDropCount();
    EXPECT_GE(drops, seq / 7);
    EXPECT_GT(outOfOrder, 5 * (seq / 7));
    EXPECT_EQ(f.requester->GetRetransmissions(), drops);
    EXPECT_EQ(f.responder->GetBytesPlaced(), f.responder->GetBytesReceived());
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, ExtensionsCountOnTheWire)
{
    // 10 full WRITE packets, no loss. Go-back-N: a RETH in the first packet only; SACK: in
    // every packet (16 bytes each), and 4 more bytes (the empty SACK extension) per ACK.
    for (bool sack : {false, true})
    {
        LossFlow f(MicroSeconds(1),
                   sack ? "ns3::RdmaSackLossRecovery" : "ns3::RdmaGoBackNLossRecovery");
        f.Connect();
        PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 10 * MTU);
        Simulator::Run();
        ASSERT_EQ(f.log.sends.size(), 1u);
        // data frame: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + payload + ICRC 4 (+ RETH 16)
        const uint64_t plain = RdmaNetDevice::WireBytes(14 + 44 + MTU);
        const uint64_t reth = RdmaNetDevice::WireBytes(14 + 44 + 16 + MTU);
        EXPECT_EQ(f.star.HostDevice(1)->GetTxWireBytes(), sack ? 10 * reth : reth + 9 * plain);
        EXPECT_EQ(reth - plain, 16u);
        const uint64_t ack = RdmaNetDevice::WireBytes(14 + 48 + (sack ? 4 : 0));
        EXPECT_EQ(f.star.HostDevice(0)->GetTxFrames(), 10u);
        EXPECT_EQ(f.star.HostDevice(0)->GetTxWireBytes(), 10 * ack);
        Simulator::Destroy();
    }
}

TEST(RdmaLossRecovery, SackHeaderFormat)
{
    RdmaSackHeader h;
    h.SetDuplicate(true);
    h.SetTriggerPsn(0x123456);
    h.SetReceived(0);
    h.SetReceived(31);
    h.SetReceived(32);
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    const uint8_t expected[] =
        {0x82, 0x12, 0x34, 0x56, 0x80, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x00};
    ASSERT_EQ(b.GetSize(), sizeof(expected));
    std::vector<uint8_t> bytes(b.GetSize());
    b.CopyData(bytes.data(), bytes.size());
    for (std::size_t i = 0; i < sizeof(expected); ++i)
    {
        EXPECT_EQ(bytes[i], expected[i]) << "byte " << i;
    }
    RdmaSackHeader d;
    EXPECT_EQ(d.Deserialize(b.Begin()), 12u);
    EXPECT_TRUE(d.GetDuplicate());
    EXPECT_EQ(d.GetTriggerPsn(), 0x123456u);
    for (uint32_t i = 0; i < 64; ++i)
    {
        EXPECT_EQ(d.IsReceived(i), i == 0 || i == 31 || i == 32) << i;
    }
    std::ostringstream os;
    d.Print(os);
    EXPECT_EQ(os.str(), "SACK D=1 trigger=1193046 received=[+1,+32..+33]");

    RdmaPlacementHeader ph;
    ph.SetMessageSequence(0xABCDEF);
    ph.SetOffset(0x01020304);
    Buffer pb;
    pb.AddAtStart(ph.GetSerializedSize());
    ph.Serialize(pb.Begin());
    const uint8_t pexp[] = {0x00, 0xAB, 0xCD, 0xEF, 0x01, 0x02, 0x03, 0x04};
    std::vector<uint8_t> pbytes(pb.GetSize());
    pb.CopyData(pbytes.data(), pbytes.size());
    ASSERT_EQ(pbytes.size(), sizeof(pexp));
    for (std::size_t i = 0; i < sizeof(pexp); ++i)
    {
        EXPECT_EQ(pbytes[i], pexp[i]) << "byte " << i;
    }
}

namespace
{

/// Sender -- switch -- receiver, the second link reordering.
struct ReorderedFlow
{
    NodeContainer hosts{2}; // 0 receiver, 1 sender
    Ptr<Node> sw = CreateObject<Node>();
    Ptr<ReorderingChannel> channel = CreateObject<ReorderingChannel>();
    Ptr<RdmaNetDevice> receiverPort;
    RdmaHelper rdma;
    Ptr<RdmaQueuePair> requester;
    Ptr<RdmaQueuePair> responder;
    CompletionLog log;

    /// reorderWindow: RdmaNoRetransmitLossRecovery's ReorderWindow (only for that scheme)
    ReorderedFlow(const std::string& lossRecovery,
                  uint32_t every,
                  Time extra,
                  uint32_t reorderWindow = 0)
    {
        RdmaLinkHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        link.Install(hosts.Get(1), sw);
        Ptr<RdmaNetDevice> swPort = CreateObject<RdmaNetDevice>();
        receiverPort = CreateObject<RdmaNetDevice>();
        for (const auto& [dev, node] :
             {std::make_pair(swPort, sw), std::make_pair(receiverPort, hosts.Get(0))})
        {
            dev->SetAttribute("DataRate", StringValue("100Gbps"));
            dev->SetAddress(Mac48Address::Allocate());
            node->AddDevice(dev);
        }
        channel->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        channel->delayedSender = swPort;
        channel->every = every;
        channel->extra = extra;
        swPort->Attach(channel);
        receiverPort->Attach(channel);
        rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
        if (reorderWindow > 0)
        {
            rdma.SetLossRecovery(lossRecovery, "ReorderWindow", UintegerValue(reorderWindow));
        }
        else
        {
            rdma.SetLossRecovery(lossRecovery);
        }
        rdma.InstallHosts(hosts);
        rdma.InstallSwitch(sw);
        RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, NodeContainer(sw)));
        std::tie(requester, responder) = rdma.Connect(hosts.Get(1), hosts.Get(0));
        log.Attach(requester, responder);
    }
};

} // namespace

TEST(RdmaLossRecovery, ReorderingWithoutLossIsNotLoss)
{
    // Every 10th frame into the receiver arrives 0.5 us late, overtaken by ~5 packets.
    // RACK waits min_RTT / 4 = 1.05 us past the RTT before calling a packet lost, so SACK
    // resends nothing; go-back-N's responder drops the overtaking packets and NAKs, and
    // the requester resends them all.
    const uint64_t bytes = 2'000'000;
    const Time extra = NanoSeconds(500);
    std::map<std::string, uint64_t> retx;
    for (const std::string lr : {"ns3::RdmaSackLossRecovery", "ns3::RdmaGoBackNLossRecovery"})
    {
        ReorderedFlow f(lr, 10, extra);
        PostWriteAt(f.requester, f.hosts.Get(1), Seconds(0), bytes);
        Simulator::Run();
        ASSERT_EQ(f.log.receives.size(), 1u) << lr;
        EXPECT_EQ(f.log.receives[0].length, bytes);
        EXPECT_EQ(f.receiverPort->GetRxDropCount(), 0u);
        EXPECT_GT(f.channel->delayed, 150u);
        retx[lr] = f.requester->GetRetransmissions();
        if (lr == "ns3::RdmaSackLossRecovery")
        {
            Ptr<RdmaSackLossRecovery> s =
                DynamicCast<RdmaSackLossRecovery>(f.requester->GetLossRecovery());
            EXPECT_EQ(f.requester->GetRetransmissions(), 0u);
            EXPECT_EQ(s->GetRackLosses() + s->GetRtoLosses(), 0u);
            EXPECT_EQ(f.responder->GetDuplicatesReceived(), 0u);
            // about 5 packets overtake each late one and are placed ahead of it
            EXPECT_GT(f.responder->GetOutOfOrderPlacements(), 4 * f.channel->delayed);
            EXPECT_GT(s->GetReorderingWindow(), extra);
            std::cout << "SACK: " << f.channel->delayed << " late packets, "
                      << f.responder->GetOutOfOrderPlacements()
                      << " placed out of order, 0 retransmissions; reo_wnd "
                      << s->GetReorderingWindow().As(Time::NS) << "\n";
        }
        else
        {
            EXPECT_GT(f.requester->GetNaksReceived(), 0u);
            EXPECT_GT(f.responder->GetOutOfOrderDiscards(), 0u);
            std::cout << "go-back-N: " << f.channel->delayed << " late packets, "
                      << f.requester->GetRetransmissions() << " spurious retransmissions\n";
        }
        Simulator::Destroy();
    }
    // Go-back-N resends far more than the late packets: every late packet costs at least the
    // packets that overtook it.
    EXPECT_GT(retx["ns3::RdmaGoBackNLossRecovery"], 5 * 150u);

    // RFC 8985's TCP setting, DupThresh 3: the window is zero until reordering is seen, so
    // the late packets of the first round trip are resent needlessly; the D-SACKs of those
    // duplicates (one round trip later) show the reordering and grow the window to
    // 2 min_RTT / 4 (one step per round trip), and nothing is resent after that.
    ReorderedFlow f("ns3::RdmaSackLossRecovery", 10, extra);
    Ptr<RdmaSackLossRecovery> s = DynamicCast<RdmaSackLossRecovery>(f.requester->GetLossRecovery());
    s->SetAttribute("DupThresh", UintegerValue(3));
    Time lastRetx(0);
    f.requester->TraceConnectWithoutContext("Tx",
                                            MakeBoundCallback(
                                                +[](Time* t, uint64_t, bool retx) {
                                                    if (retx)
                                                    {
                                                        *t = Simulator::Now();
                                                    }
                                                },
                                                &lastRetx));
    PostWriteAt(f.requester, f.hosts.Get(1), Seconds(0), bytes);
    Simulator::Run();
    ASSERT_EQ(f.log.receives.size(), 1u);
    const uint64_t spurious = f.requester->GetRetransmissions();
    EXPECT_GE(spurious, 1u);
    // late packets within about two round trips (one late packet per 10 T = 0.9 us)
    EXPECT_LE(spurious, 10u);
    EXPECT_EQ(s->GetDsacks(), spurious);
    EXPECT_LT(lastRetx, MicroSeconds(12)); // the transfer lasts 180 us
    EXPECT_EQ(s->GetReorderingWindow(), std::min(s->GetMinRtt() / 2, s->GetSrtt()));
    std::cout << "SACK with DupThresh 3: " << spurious << " spurious retransmissions, the last at "
              << lastRetx.As(Time::US) << "; then reo_wnd " << s->GetReorderingWindow().As(Time::NS)
              << "\n";
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, UnreliableResponderWithReorderWindowTakesReorderingAsNoLoss)
{
    // The unreliable mode (no retransmission) under the same reordering: every 10th frame
    // 0.5 us late, overtaken by about 5 packets. The in-order responder (ReorderWindow 0)
    // gives each gap up at once, so it counts the overtaken packet lost and its late
    // arrival a duplicate: data that arrived is not delivered. With a reorder window of 64
    // packets nothing is lost, nothing is late, and the message is delivered whole.
    const uint64_t bytes = 2'000'000;
    {
        ReorderedFlow f("ns3::RdmaNoRetransmitLossRecovery", 10, NanoSeconds(500));
        PostWriteAt(f.requester, f.hosts.Get(1), Seconds(0), bytes);
        Simulator::Run();
        EXPECT_GT(f.channel->delayed, 150u);
        EXPECT_EQ(f.responder->GetPacketsLost(), f.channel->delayed);
        EXPECT_EQ(f.responder->GetDuplicatesReceived(), f.channel->delayed);
        EXPECT_EQ(f.responder->GetBytesReceived(), bytes - f.channel->delayed * MTU);
        Simulator::Destroy();
    }
    ReorderedFlow f("ns3::RdmaNoRetransmitLossRecovery", 10, NanoSeconds(500), 64);
    PostWriteAt(f.requester, f.hosts.Get(1), Seconds(0), bytes);
    Simulator::Run();
    Ptr<RdmaNoRetransmitLossRecovery> lr =
        DynamicCast<RdmaNoRetransmitLossRecovery>(f.responder->GetLossRecovery());
    ASSERT_TRUE(lr);
    EXPECT_GT(f.channel->delayed, 150u);
    EXPECT_EQ(f.requester->GetRetransmissions(), 0u);
    EXPECT_EQ(f.responder->GetPacketsLost(), 0u);
    EXPECT_EQ(lr->GetLateArrivals(), 0u);
    EXPECT_EQ(f.responder->GetDuplicatesReceived(), 0u);
    ASSERT_EQ(f.log.receives.size(), 1u);
    EXPECT_EQ(f.log.receives[0].length, bytes);
    EXPECT_EQ(f.responder->GetBytesReceived(), bytes);
    // about 5 packets overtake each late one and are placed ahead of it
    EXPECT_GT(f.responder->GetOutOfOrderPlacements(), 4 * f.channel->delayed);
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, UnreliableResponderGivesUpHolesAtTheWindowAndAtTheTimeout)
{
    // 200 packets, reorder window 16, ReorderTimeout 10 us; data frames 50-52, 190 and 199
    // are lost (1-based; sequences 49-51, 189, 198). The first three are given up when a
    // packet 16 PSNs beyond each arrives. Fewer than 16 follow the last two: hole 189 is
    // given up when packet 191 has waited 10 us (the timer armed at its arrival), and hole
    // 198 when packet 200 has (the timer re-armed for the oldest packet still waiting), and
    // the message completes then: 5 packets counted lost, the rest delivered, nothing late.
    const Time timeout = MicroSeconds(10);
    LossFlow f(MicroSeconds(1), "ns3::RdmaNoRetransmitLossRecovery");
    f.star.rdma.SetLossRecovery("ns3::RdmaNoRetransmitLossRecovery",
                                "ReorderWindow",
                                UintegerValue(16),
                                "ReorderTimeout",
                                TimeValue(timeout));
    DropByNumber drop;
    drop.numbers = {50, 51, 52, 190, 199};
    drop.Install(f.star.HostDevice(1), f.star.SwitchDevice(1));
    f.Connect();
    Time lastArrival(0);
    f.responder->TraceConnectWithoutContext(
        "Placement",
        MakeBoundCallback(
            +[](Time* t, uint64_t, uint64_t, uint32_t, bool) { *t = Simulator::Now(); },
            &lastArrival));
    const uint64_t packets = 200;
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), packets * MTU);
    Simulator::Run();
    Ptr<RdmaNoRetransmitLossRecovery> lr =
        DynamicCast<RdmaNoRetransmitLossRecovery>(f.responder->GetLossRecovery());
    ASSERT_TRUE(lr);
    EXPECT_EQ(drop.uids.size(), 5u);
    EXPECT_EQ(f.responder->GetPacketsLost(), 5u);
    EXPECT_EQ(lr->GetLateArrivals(), 0u);
    EXPECT_EQ(f.requester->GetRetransmissions(), 0u);
    ASSERT_EQ(f.log.receives.size(), 1u);
    EXPECT_EQ(f.log.receives[0].length, (packets - 5) * MTU);
    // The last placement is packet 200's; the timer gives hole 199 up 10 us later.
    EXPECT_EQ(f.log.receives[0].completionTime, lastArrival + timeout);
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, TailLossProbeBeatsTheTimeout)
{
    // The last packet of a 10-packet message is lost. No later packet reveals it; the
    // tail-loss probe fires 2 SRTT after the last cumulative advance (the ACK of packet 9,
    // about RTT0 after it left) and resends packet 10, acknowledged one RTT0 later:
    // completion ~ 10 T + RTT0 + 2 SRTT + RTT0 ~ 4.3 RTT0 = 18 us, against the minimum RTO
    // of 100 us (and go-back-N's RetransmitTimeout of 1 ms).
    LossFlow f(MicroSeconds(1), "ns3::RdmaSackLossRecovery");
    f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MilliSeconds(1)));
    DropByNumber drop;
    drop.numbers = {10};
    drop.Install(f.star.HostDevice(1), f.star.HostDevice(0));
    f.Connect();
    Time probeAt;
    f.Sack()->TraceConnectWithoutContext("TlpProbe",
                                         MakeBoundCallback(
                                             +[](Time* t, uint64_t) { *t = Simulator::Now(); },
                                             &probeAt));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 10 * MTU);
    Simulator::Run();

    ASSERT_EQ(f.log.sends.size(), 1u);
    EXPECT_EQ(f.log.receives[0].length, 10u * MTU);
    EXPECT_EQ(f.Sack()->GetTlpProbes(), 1u);
    EXPECT_EQ(f.requester->GetRetransmissions(), 1u);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    const double rtt0 = BaseRtt(MicroSeconds(1), true);
    const double t = DataPacketTime(true);
    const double srtt = f.Sack()->GetSrtt().GetSeconds();
    EXPECT_NEAR(srtt / rtt0, 1.0, 0.05);
    // The probe: 2 SRTT after the ACK of packet 9 (sent at 8 T, back RTT0 later).
    const double expectedProbe = 8 * t + rtt0 + 2 * srtt;
    EXPECT_NEAR(probeAt.GetSeconds() * 1e6, expectedProbe * 1e6, 0.3);
    const double fct = (f.log.sends[0].completionTime - f.log.sends[0].postTime).GetSeconds();
    EXPECT_NEAR(fct * 1e6, (expectedProbe + rtt0) * 1e6, 0.3);
    EXPECT_LT(fct, 0.25 * 100e-6); // well before the minimum RTO
    std::cout << "tail loss: probe at " << probeAt.As(Time::US) << ", complete after " << fct * 1e6
              << " us (RTT0 " << rtt0 * 1e6 << " us, min RTO 100 us)\n";
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, GoBackZeroRestartsTheMessage)
{
    // Two messages of 100 packets; the 150th data frame (seq 149, message 2) is lost.
    // Go-back-0 resends from seq 100, the first packet of message 2; go-back-N from 149.
    for (bool zero : {true, false})
    {
        LossFlow f(MicroSeconds(1),
                   zero ? "ns3::RdmaGoBackZeroLossRecovery" : "ns3::RdmaGoBackNLossRecovery");
        f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MilliSeconds(1)));
        DropByNumber drop;
        drop.numbers = {150};
        drop.Install(f.star.HostDevice(1), f.star.HostDevice(0));
        f.Connect();
        std::vector<uint64_t> retransmitted;
        f.requester->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](std::vector<uint64_t>* v, uint64_t seq, bool retx) {
                    if (retx)
                    {
                        v->push_back(seq);
                    }
                },
                &retransmitted));
        f.PostWrites(200 * MTU, 100 * MTU);
        Simulator::Run();
        f.ExpectInOrder(2, 200 * MTU, 100 * MTU);
        ASSERT_EQ(f.naks.size(), 1u);
        ASSERT_FALSE(retransmitted.empty());
        EXPECT_EQ(f.requester->GetTimeouts(), 0u);
        const uint64_t sentAtNak = f.naks[0].second;
        if (zero)
        {
            EXPECT_EQ(f.naks[0].first, 100u); // the responder asks for the message again
            EXPECT_EQ(retransmitted.front(), 100u);
            // everything from the message start to what was sent when the NAK came
            EXPECT_EQ(retransmitted.size(), sentAtNak - 100);
            // the responder had placed 49 packets of message 2 and threw them away
            EXPECT_EQ(f.responder->GetBytesReceived(), 200u * MTU);
        }
        else
        {
            EXPECT_EQ(f.naks[0].first, 149u);
            EXPECT_EQ(retransmitted.front(), 149u);
            EXPECT_EQ(retransmitted.size(), sentAtNak - 149);
        }
        // K packets were sent from the lost one when the NAK arrived
        EXPECT_EQ(sentAtNak - 149, GoBackNK(MicroSeconds(1)));
        Simulator::Destroy();
    }
}

TEST(RdmaLossRecovery, GoBackZeroLivelock)
{
    // Guo et al. (SIGCOMM 2016): a deterministic drop of one frame in 256 and 4 MB messages
    // (1024 packets). Go-back-0 needs 1024 consecutive packets without a loss and never
    // gets them, although the link is busy all along; go-back-N completes; go-back-0 with
    // 128-packet messages completes too.
    struct Case
    {
        std::string lr;
        uint64_t messagePackets;
        bool completes;
    };

    for (const Case& c : {Case{"ns3::RdmaGoBackZeroLossRecovery", 1024, false},
                          Case{"ns3::RdmaGoBackNLossRecovery", 1024, true},
                          Case{"ns3::RdmaGoBackZeroLossRecovery", 128, true}})
    {
        LossFlow f(MicroSeconds(1), c.lr);
        // longer than a message and its round trip: the NAKs do the recovery
        f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(200)));
        RdmaLossHelper loss;
        loss.Install("every:256", NetDeviceContainer(f.star.HostDevice(0)));
        f.Connect();
        f.PostWrites(4 * c.messagePackets * MTU, c.messagePackets * MTU);
        Simulator::Stop(MilliSeconds(2)); // 2 ms: 22 600 packet times
        Simulator::Run();
        std::cout << c.lr << ", " << c.messagePackets << "-packet messages: " << f.log.sends.size()
                  << "/4 complete, " << f.requester->GetPacketsSent() << " packets sent\n";
        if (c.completes)
        {
            f.ExpectInOrder(4, 4 * c.messagePackets * MTU, c.messagePackets * MTU);
        }
        else
        {
            EXPECT_EQ(f.log.sends.size(), 0u);
            EXPECT_EQ(f.log.receives.size(), 0u);
            EXPECT_EQ(f.requester->GetBytesAcked(), 0u);
            EXPECT_EQ(f.requester->GetTimeouts(), 0u);
            // the link was busy all along: > 20 000 packets sent for nothing
            EXPECT_GT(f.requester->GetPacketsSent(), 20000u);
        }
        Simulator::Destroy();
    }
}

TEST(RdmaLossRecovery, ReorderBitmapBound)
{
    // A bitmap of 16 packets and a cap of 64 outstanding: while seq 5 is missing, packets
    // 21 and beyond do not fit and are dropped (and counted); each is resent once.
    LossFlow f(MicroSeconds(1), "ns3::RdmaSackLossRecovery");
    f.star.rdma.SetLossRecovery("ns3::RdmaSackLossRecovery",
                                "ReceiverWindow",
                                UintegerValue(16),
                                "MaxOutstanding",
                                UintegerValue(64));
    DropByNumber drop;
    drop.numbers = {6};
    drop.Install(f.star.HostDevice(1), f.star.HostDevice(0));
    f.Connect();
    std::vector<uint64_t> windowDrops;
    f.responder->TraceConnectWithoutContext(
        "ReorderWindowDrop",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t s) { v->push_back(s); },
            &windowDrops));
    std::vector<std::pair<uint64_t, bool>> placed; // (seq, out of order), in placement order
    f.responder->TraceConnectWithoutContext(
        "Placement",
        MakeBoundCallback(
            +[](std::vector<std::pair<uint64_t, bool>>* v, uint64_t s, uint64_t, uint32_t, bool o) {
                v->emplace_back(s, o);
            },
            &placed));
    f.PostWrites(200 * MTU, 200 * MTU);
    Simulator::Run();
    f.ExpectInOrder(1, 200 * MTU, 200 * MTU);
    ASSERT_FALSE(windowDrops.empty());
    EXPECT_EQ(windowDrops.front(), 21u); // 5 + 16
    EXPECT_EQ(windowDrops.size(), f.responder->GetReorderWindowDrops());
    // Until seq 5 arrives, only 6 .. 20 are placed ahead of it.
    ASSERT_GE(placed.size(), 21u);
    for (uint64_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(placed[i], std::make_pair(i, false));
    }
    for (uint64_t i = 5; i < 20; ++i)
    {
        EXPECT_EQ(placed[i], std::make_pair(i + 1, true));
    }
    EXPECT_EQ(placed[20], std::make_pair(uint64_t(5), false));
    // Every dropped packet is sent again once, nothing else is.
    EXPECT_EQ(f.requester->GetRetransmissions(), 1 + windowDrops.size());
    EXPECT_EQ(f.responder->GetDuplicatesReceived(), 0u);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    std::cout << "bitmap 16, cap 64: " << windowDrops.size() << " packets beyond the bitmap, "
              << f.requester->GetRetransmissions() << " retransmissions\n";
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, SackAcrossPsnWrap)
{
    // 1000 packets starting 100 PSNs before the 24-bit wrap, every 37th frame lost: SACK
    // bitmaps and trigger PSNs straddle the wrap.
    LossFlow f(MicroSeconds(1), "ns3::RdmaSackLossRecovery");
    f.star.rdma.SetQueuePairAttribute("InitialPsn", UintegerValue(0xFFFFFF - 100));
    RdmaLossHelper loss;
    loss.Install("every:37", NetDeviceContainer(f.star.HostDevice(0)));
    f.Connect();
    f.PostWrites(1000 * MTU, 100 * MTU);
    Simulator::Run();
    f.ExpectInOrder(10, 1000 * MTU, 100 * MTU);
    const uint64_t drops = f.star.HostDevice(0)->GetRxDropCount();
    EXPECT_GE(drops, 1000u / 37);
    EXPECT_EQ(f.requester->GetRetransmissions(), drops);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    EXPECT_EQ(f.responder->GetDuplicatesReceived(), 0u);
    EXPECT_EQ(f.requester->SeqToPsn(101), 0u);
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, LossModelsLoseWhatTheySay)
{
    constexpr uint32_t n = 100'000;
    auto lossOf = [](Ptr<ErrorModel> em) {
        uint32_t lost = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            lost += em->IsCorrupt(Create<Packet>(100));
        }
        return double(lost) / n;
    };
    RdmaLossHelper helper;
    // uniform: binomial, sd = sqrt(p (1 - p) / n) = 4.4e-4 at p = 0.02
    Ptr<ErrorModel> uniform = RdmaLossHelper::CreateErrorModel("uniform:0.02");
    DynamicCast<RateErrorModel>(uniform)->AssignStreams(1);
    EXPECT_NEAR(lossOf(uniform), 0.02, 4 * 4.4e-4);
    // burst: the start rate is solved so that the average loss is p
    const double r = RdmaLossHelper::BurstRateForLoss(0.05, 1, 4);
    EXPECT_NEAR(RdmaLossHelper::BurstLoss(r, 1, 4), 0.05, 1e-9);
    EXPECT_LT(r, 0.05 / 2.5 + 0.001); // mean burst 2.5 packets: r ~ p / 2.5
    Ptr<ErrorModel> burst = RdmaLossHelper::CreateErrorModel("burst:0.05,size=1-4");
    DynamicCast<BurstErrorModel>(burst)->AssignStreams(2);
    EXPECT_NEAR(lossOf(burst), 0.05, 0.004);
    Ptr<ErrorModel> fixedBurst = RdmaLossHelper::CreateErrorModel("burst:rate=0.01,size=3-3");
    DynamicCast<BurstErrorModel>(fixedBurst)->AssignStreams(3);
    EXPECT_NEAR(lossOf(fixedBurst), RdmaLossHelper::BurstLoss(0.01, 3, 3), 0.003);
    // every k-th: exact
    Ptr<ErrorModel> every = RdmaLossHelper::CreateErrorModel("every:100,first=7");
    std::vector<uint32_t> lost;
    for (uint32_t i = 1; i <= 300; ++i)
    {
        if (every->IsCorrupt(Create<Packet>(100)))
        {
            lost.push_back(i);
        }
    }
    EXPECT_EQ(lost, (std::vector<uint32_t>{7, 107, 207}));
    EXPECT_DOUBLE_EQ(lossOf(RdmaLossHelper::CreateErrorModel("every:p=0.01")), 0.01); // k = 100
    EXPECT_EQ(RdmaLossHelper::CreateErrorModel("none"), nullptr);
}

TEST(RdmaLossRecovery, LossSpecsInstallPerDeviceAndPerLink)
{
    Star star(2, "100Gbps", MicroSeconds(1));
    RdmaLossHelper helper;
    const std::string h0 = std::to_string(star.hosts.Get(0)->GetId());
    const std::string h1 = std::to_string(star.hosts.Get(1)->GetId());
    const std::string sw = std::to_string(star.switchNode->GetId());
    auto one = helper.Install("uniform:0.1@" + h0 + "/0");
    ASSERT_EQ(one.size(), 1u);
    PointerValue pv;
    star.HostDevice(0)->GetAttribute("ReceiveErrorModel", pv);
    EXPECT_EQ(pv.Get<ErrorModel>(), one[0]);
    auto link = helper.Install("every:5@" + h1 + "-" + sw);
    ASSERT_EQ(link.size(), 2u);
    star.HostDevice(1)->GetAttribute("ReceiveErrorModel", pv);
    EXPECT_EQ(pv.Get<ErrorModel>(), link[0]);
    star.SwitchDevice(1)->GetAttribute("ReceiveErrorModel", pv);
    EXPECT_EQ(pv.Get<ErrorModel>(), link[1]);
    EXPECT_EQ(helper.InstallOnLink("uniform:0.5", star.HostDevice(0)).size(), 2u);
    EXPECT_EQ(helper.AssignStreams(10), 3 * 1); // three RateErrorModels, one stream each
    Simulator::Destroy();
}

TEST(RdmaLossRecovery, BadLossSpecsAreExplained)
{
    Star star(2, "100Gbps", MicroSeconds(1));
    const std::string h0 = std::to_string(star.hosts.Get(0)->GetId());
    const std::string h1 = std::to_string(star.hosts.Get(1)->GetId());
    const std::string sw = std::to_string(star.switchNode->GetId());
    const uint32_t n = NodeList::GetNNodes();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"uniform", "uniform needs a loss probability"},
        {"uniform:1.5", "uniform loss probability p 1.5 is not a probability in [0, 1]"},
        {"uniform:abc", "'abc' is not a number"},
        {"gaussian:0.1", "unknown loss model 'gaussian'; valid: none, uniform"},
        {"", "no loss model"},
        {"burst:0.01,size=4-2", "burst size 4-2 must be <a>-<b> with 1 <= a <= b"},
        {"burst:0.01,rate=0.1", "either an average loss p"},
        {"every:0", "period k must be at least 1"},
        {"every:p=0", "every:p=0 would never drop; use none"},
        {"uniform:0.01,k=3", "unknown parameter 'k' of model 'uniform'; valid: p"},
        {"uniform:0.01@" + std::to_string(n) + "/0",
         "node " + std::to_string(n) + " does not exist (there are " + std::to_string(n) +
             " nodes, 0.." + std::to_string(n - 1) + ")"},
        {"uniform:0.01@" + h0 + "/3", "node " + h0 + " has no device 3 (it has 1)"},
        {"uniform:0.01@" + h0 + "-" + h1, "no link joins node " + h0 + " and node " + h1},
        {"uniform:0.01@0:1", "target '0:1' is neither <node>/<device> nor <nodeA>-<nodeB>"},
    };
    for (const auto& [spec, message] : cases)
    {
        const std::string error = RdmaLossHelper::Check(spec);
        EXPECT_NE(error.find("bad loss spec '" + spec + "'"), std::string::npos) << error;
        EXPECT_NE(error.find(message), std::string::npos) << spec << ": " << error;
    }
    for (const std::string& good :
         std::vector<std::string>{"none",
                                  "uniform:0.01",
                                  "uniform:p=1e-3@" + h0 + "/0",
                                  "burst:0.02",
                                  "burst:rate=0.01,size=2-8",
                                  "every:256",
                                  "every:p=0.01,first=3",
                                  "every:k=10@" + h0 + "-" + sw + "," + h1 + "/0"})
    {
        EXPECT_EQ(RdmaLossHelper::Check(good), "") << good;
    }
    Simulator::Destroy();
}

TEST(RdmaLossRecoveryDeathTest, BadLossSpecStops)
{
    EXPECT_DEATH(
        {
            RdmaLossHelper helper;
            helper.Install("uniform:2", NetDeviceContainer());
        },
        "bad loss spec 'uniform:2': uniform loss probability p 2 is not a probability");
    EXPECT_DEATH(
        {
            RdmaLossHelper helper;
            helper.Install("uniform:0.1");
        },
        "no target; append @<node>/<device>");
}
