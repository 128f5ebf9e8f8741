/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Flow-hash ECMP against per-packet spraying in a leaf-spine fabric (examples/ecmp-vs-spray.cc,
// doc/ecmp-vs-spray.rst): two leaves, four spines, four hosts per leaf, 100 Gb/s links of
// 1 us, host i of leaf 0 WRITEs one message to host i of leaf 1 (four flows posted at t = 0),
// fixed-rate (line-rate) senders, PFC on the RoCE class.
//
// The measured quantity is the aggregate throughput while all flows are active: the in-order
// bytes the four responders received between the moment the last of them received its first
// packet and the first message completion, over that time, as a fraction of the ideal
// 4 x C, C = 100 Gb/s x MTU / (wire bytes of a full data packet). A spine link that carries
// at least one flow stays busy (leaf 0's shared buffer holds the excess of colliding flows,
// PFC pausing the senders before it would overflow), and host links and spine links have the
// same rate, so this fraction is b / 4 for b busy spines, whatever the split between
// colliding flows.
//
// Balls into bins, k = 4 flows on k = 4 spines, each flow on a spine chosen uniformly and
// independently: P(b) = C(4, b) b! S(4, b) / 4^4, i.e. P(1..4) = 4, 84, 144, 24 out of 256.
//   E[b] / 4 = 1 - (3/4)^4 = 175/256 = 0.68359
//   Var[b]  = 2020/256 - (700/256)^2 = 0.41382, sd of b / 4 = 0.16082.

#include "rdma-test-utils.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr uint32_t K = 4; //!< spines, hosts per leaf, flows

/// What one leaf-spine run measured.
struct SprayRun
{
    double aggregateFraction{0}; //!< in-order throughput while all flows are active / (K x C)
    uint32_t busySpines{0};      //!< leaf 0 uplinks above 50 % utilization in that window
    uint32_t hashedSpines{0};    //!< distinct uplinks the ECMP formula assigns to the flows
    uint32_t completed{0};       //!< WRITEs acknowledged completely
    uint64_t dataPackets{0};     //!< distinct data packets (PSNs) the responders received
    uint64_t arrivals{0};        //!< data packets the responders received
    uint64_t reordered{0};       //!< first arrivals below the highest PSN already received
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t drops{0}; //!< switches, links and reorder bitmaps
};

/// Shared state of the trace callbacks of one run.
struct Probe
{
    std::vector<Ptr<RdmaQueuePair>> responders;
    std::vector<Ptr<RdmaNetDevice>> uplinks;
    std::vector<std::vector<uint8_t>> seen;
    std::vector<uint64_t> next;
    std::vector<bool> started;
    uint32_t nStarted{0};
    bool open{false};
    bool closed{false};
    Time start;
    Time end;
    uint64_t bytesAtStart{0};
    uint64_t bytesAtEnd{0};
    std::vector<uint64_t> uplinkAtStart;
    std::vector<uint64_t> uplinkAtEnd;
    uint64_t arrivals{0};
    uint64_t distinct{0};
    uint64_t reordered{0};

    uint64_t Received() const
    {
        uint64_t sum = 0;
        for (const auto& qp : responders)
        {
            sum += qp->GetBytesReceived();
        }
        return sum;
    }
};

void
OpenWindow(Probe* p)
{
    p->open = true;
    p->start = Simulator::Now();
    p->bytesAtStart = p->Received();
    for (uint32_t s = 0; s < K; ++s)
    {
        p->uplinkAtStart[s] = p->uplinks[s]->GetTxWireBytes();
    }
}

void
CloseWindow(Probe* p, const RdmaCompletion&)
{
    if (!p->open || p->closed)
    {
        return;
    }
    p->closed = true;
    p->end = Simulator::Now();
    p->bytesAtEnd = p->Received();
    for (uint32_t s = 0; s < K; ++s)
    {
        p->uplinkAtEnd[s] = p->uplinks[s]->GetTxWireBytes();
    }
}

/// A packet reached responder `flow` (IPv4 packet): track the PSNs of data packets.
void
OnRx(Probe* p, uint32_t flow, Ptr<const Packet> packet)
{
    uint8_t b[64];
    const uint32_t n = packet->CopyData(b, std::min<uint32_t>(packet->GetSize(), sizeof(b)));
    const uint32_t ihl = (b[0] & 0x0f) * 4u;
    const uint32_t bth = ihl + 8;
    if (n < bth + 12 || b[9] != 17 || b[bth] > 0x0B)
    {
        return; // not an RC SEND/WRITE packet
    }
    const uint32_t psn = (uint32_t(b[bth + 9]) << 16) | (uint32_t(b[bth + 10]) << 8) | b[bth + 11];
    const uint64_t seq = p->responders[flow]->PsnToSeq(psn, p->next[flow]);
    ++p->arrivals;
    auto& seen = p->seen[flow];
    if (seq >= seen.size())
    {
        seen.resize(std::max<std::size_t>(seq + 1, 2 * seen.size()), 0);
    }
    if (!seen[seq])
    {
        seen[seq] = 1;
        ++p->distinct;
        p->reordered += seq + 1 < p->next[flow] ? 1 : 0;
    }
    p->next[flow] = std::max(p->next[flow], seq + 1);
    if (!p->started[flow])
    {
        p->started[flow] = true;
        if (++p->nStarted == K)
        {
            Simulator::ScheduleNow(&OpenWindow, p);
        }
    }
}

/// Line-rate goodput of one flow (bit/s): payload over the wire bytes of a full data packet
/// (IPv4 20 + UDP 8 + BTH 12 + ICRC 4, a RETH of 16 in every packet with SACK, Ethernet 14;
/// WireBytes adds FCS, preamble and inter-frame gap).
double
LineGoodput(bool sack)
{
    return 100e9 * 1024.0 / RdmaNetDevice::WireBytes(1024 + 44 + (sack ? 16 : 0) + 14);
}

/**
 * The leaf-spine run of examples/ecmp-vs-spray.cc.
 * \param balancer load balancer TypeId
 * \param sack RdmaSackLossRecovery if true, else go-back-N
 * \param bytes WRITE size of each flow
 * \param run RngSeedManager run and ns3::RdmaSwitch::EcmpSeed
 */
SprayRun
RunLeafSpine(const std::string& balancer, bool sack, uint64_t bytes, uint32_t run)
{
    Simulator::SetScheduler(ObjectFactory("ns3::PriorityQueueScheduler"));
    RngSeedManager::SetRun(run);
    NodeContainer hosts(2 * K);
    NodeContainer leaves(2);
    NodeContainer spines(K);
    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer all;
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t h = 0; h < K; ++h)
        {
            all.Add(link.Install(hosts.Get(l * K + h), leaves.Get(l)));
        }
    }
    Probe p;
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t s = 0; s < K; ++s)
        {
            NetDeviceContainer d = link.Install(leaves.Get(l), spines.Get(s));
            all.Add(d);
            if (l == 0)
            {
                p.uplinks.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
            }
        }
    }
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    if (sack)
    {
        rdma.SetLossRecovery("ns3::RdmaSackLossRecovery");
    }
    else
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    }
    rdma.SetLoadBalancer(balancer);
    rdma.SetSwitchAttribute("EcmpSeed", UintegerValue(run));
    rdma.InstallHosts(hosts);
    NodeContainer switches(leaves, spines);
    rdma.InstallSwitches(switches);
    rdma.AssignStreams(switches, 1);
    RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, switches));

    p.seen.resize(K);
    p.next.assign(K, 0);
    p.started.assign(K, false);
    p.uplinkAtStart.assign(K, 0);
    p.uplinkAtEnd.assign(K, 0);
    std::vector<CompletionLog> logs(K);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::set<uint32_t> hashed;
    Ptr<RdmaSwitch> leaf0 = leaves.Get(0)->GetObject<RdmaSwitch>();
    for (uint32_t i = 0; i < K; ++i)
    {
        auto [qp, peer] = rdma.Connect(hosts.Get(i), hosts.Get(K + i));
        requesters.push_back(qp);
        p.responders.push_back(peer);
        qp->SetSendCompletionCallback(MakeCallback(&CompletionLog::OnSend, &logs[i]));
        peer->SetReceiveCompletionCallback(MakeBoundCallback(&CloseWindow, &p));
        RdmaHelper::GetNic(hosts.Get(K + i))
            ->GetDevice()
            ->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&OnRx, &p, i));
        // The uplink of the documented ECMP formula at leaf 0.
        const Ipv4Address src = RdmaHelper::GetNic(hosts.Get(i))->GetAddress();
        const Ipv4Address dst = RdmaHelper::GetNic(hosts.Get(K + i))->GetAddress();
        const std::vector<uint32_t>& routes = leaf0->GetRoutes(dst);
        const uint64_t h = RdmaLoadBalancer::FlowHash(src.Get(),
                                                      dst.Get(),
                                                      17,
                                                      qp->GetSourcePort(),
                                                      RdmaQueuePair::ROCEV2_PORT,
                                                      leaf0->GetEffectiveEcmpSeed());
        hashed.insert(routes[RdmaLoadBalancer::ReduceToRange(h, routes.size())]);
        PostWriteAt(qp, hosts.Get(i), Seconds(0), bytes, i);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    SprayRun r;
    r.hashedSpines = hashed.size();
    const double ideal = K * LineGoodput(sack);
    if (p.closed)
    {
        const double w = (p.end - p.start).GetSeconds();
        r.aggregateFraction = (p.bytesAtEnd - p.bytesAtStart) * 8.0 / w / ideal;
        for (uint32_t s = 0; s < K; ++s)
        {
            const double util = (p.uplinkAtEnd[s] - p.uplinkAtStart[s]) * 8.0 / (100e9 * w);
            r.busySpines += util > 0.5 ? 1 : 0;
        }
    }
    for (uint32_t i = 0; i < K; ++i)
    {
        r.completed += logs[i].sends.size() == 1 && logs[i].sends[0].length == bytes ? 1 : 0;
        r.retransmissions += requesters[i]->GetRetransmissions();
        r.timeouts += requesters[i]->GetTimeouts();
        r.drops += p.responders[i]->GetReorderWindowDrops();
    }
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        r.drops += switches.Get(i)->GetObject<RdmaSwitch>()->GetTotalDrops();
    }
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        r.drops += DynamicCast<RdmaNetDevice>(all.Get(i))->GetRxDropCount();
    }
    r.dataPackets = p.distinct;
    r.arrivals = p.arrivals;
    r.reordered = p.reordered;
    Simulator::Destroy();
    return r;
}

} // namespace

// ECMP over many seeds: the busy spines follow the balls-into-bins distribution, and the
// aggregate throughput while all flows are active is b / 4 of the ideal in every run.
TEST(RdmaEcmpSpray, EcmpAggregateFollowsBallsIntoBins)
{
    // N runs with EcmpSeed 1..N. The mean of b / 4 over N independent runs has standard error
    // 0.16082 / sqrt(N) = 0.01137 for N = 200; the bound is 4 standard errors (two-sided
    // probability 6e-5 for a correct hash) plus the per-run tolerance below. 256 KiB per flow
    // (256 packets) keep a run short; the window is then about 22 us long.
    const uint32_t n = 200;
    const uint64_t bytes = 256 * 1024;
    const double expected = 1 - std::pow(0.75, 4); // 175/256
    const double se = std::sqrt(2020.0 / 256 - std::pow(700.0 / 256, 2)) / 4 / std::sqrt(n);
    // Per run: the window's bytes are counted to within one packet per flow at each end,
    // 8 x 1024 B over 22 us at 4 x 92.6 Gb/s: 0.8 %; 1 % allowed.
    const double perRun = 0.01;
    double sum = 0;
    std::vector<uint32_t> histogram(K + 1, 0);
    for (uint32_t run = 1; run <= n; ++run)
    {
        const SprayRun r = RunLeafSpine("ns3::RdmaEcmpLoadBalancer", false, bytes, run);
        ASSERT_EQ(r.completed, K) << "run " << run;
        // One path per flow, FIFO queues: never reordered, never retransmitted, no loss.
        ASSERT_EQ(r.drops, 0u) << "run " << run;
        ASSERT_EQ(r.reordered, 0u) << "run " << run;
        ASSERT_EQ(r.retransmissions, 0u) << "run " << run;
        ASSERT_EQ(r.dataPackets, K * bytes / 1024) << "run " << run;
        // The busy uplinks are exactly those the documented hash assigns.
        ASSERT_EQ(r.busySpines, r.hashedSpines) << "run " << run;
        ASSERT_NEAR(r.aggregateFraction, r.hashedSpines / double(K), perRun) << "run " << run;
        sum += r.aggregateFraction;
        ++histogram[r.hashedSpines];
    }
    const double mean = sum / n;
    EXPECT_NEAR(mean, expected, 4 * se + perRun);

    // The distribution of b against the exact one: Pearson's chi-square with b = 1 and 2
    // merged (expected counts 68.75, 112.5, 18.75), 2 degrees of freedom, 0.999 quantile 13.82.
    const double expectedCount[3] = {n * 88.0 / 256, n * 144.0 / 256, n * 24.0 / 256};
    const double observed[3] = {double(histogram[1] + histogram[2]),
                                double(histogram[3]),
                                double(histogram[4])};
    double chi2 = 0;
    for (int i = 0; i < 3; ++i)
    {
        chi2 += std::pow(observed[i] - expectedCount[i], 2) / expectedCount[i];
    }
    EXPECT_LT(chi2, 13.82);
    std::cout << "[ ecmp-vs-spray ] ECMP, " << n << " seeds: aggregate / ideal " << mean
              << " (expected " << expected << " +- " << 4 * se + perRun
              << "); busy spines 1..4: " << histogram[1] << " " << histogram[2] << " "
              << histogram[3] << " " << histogram[4] << " (expected " << n * 4.0 / 256 << " "
              << n * 84.0 / 256 << " " << n * 144.0 / 256 << " " << n * 24.0 / 256
              << "), chi-square " << chi2 << "\n";
}

// Per-packet spraying with selective repeat: at least 95 % of the ideal aggregate.
TEST(RdmaEcmpSpray, SprayingWithSackReachesLineRate)
{
    // Random spraying loads each of leaf 0's uplinks with Binomial(4, 1/4) packets per packet
    // time, at exactly its capacity: its queue is a zero-drift random walk (variance 3/4 per
    // packet time), whose idle time after n packet times is about sqrt(3/4) sqrt(2 n / pi),
    // 1.1 % for n = 4096 (4 MiB per flow); leaf 1's host ports see the same walk; and SACK
    // resends about 1 % of the packets while RACK's reordering window adapts (all spurious:
    // no drop). About 97 % of the ideal is expected. Over 20 seeds (the example) the runs
    // gave 0.969 on average with a standard deviation of 0.013 and a tail (0.930 once, with
    // 4.5 % of the packets resent), so the mean of 6 runs (standard error 0.0053) must reach
    // the 95 % to be shown, 3.6 standard errors below the expectation, each run 90 %, and
    // the retransmissions stay under 3 % of the packets in all.
    const uint64_t bytes = 4 * 1024 * 1024;
    const uint32_t runs = 6;
    double sum = 0;
    uint64_t retransmissions = 0;
    uint64_t packets = 0;
    for (uint32_t run = 1; run <= runs; ++run)
    {
        const SprayRun r = RunLeafSpine("ns3::RdmaRandomSprayLoadBalancer", true, bytes, run);
        EXPECT_EQ(r.completed, K) << "run " << run;
        EXPECT_EQ(r.drops, 0u) << "run " << run;
        EXPECT_EQ(r.timeouts, 0u) << "run " << run;
        EXPECT_EQ(r.dataPackets, K * bytes / 1024) << "run " << run;
        EXPECT_GE(r.aggregateFraction, 0.90) << "run " << run;
        EXPECT_EQ(r.busySpines, K) << "run " << run;
        // Heavily reordered: every packet picks one of 4 queues of different lengths.
        EXPECT_GT(double(r.reordered) / r.dataPackets, 0.3) << "run " << run;
        sum += r.aggregateFraction;
        retransmissions += r.retransmissions;
        packets += r.dataPackets;
        std::cout << "[ ecmp-vs-spray ] random spray + SACK, run " << run << ": aggregate / ideal "
                  << r.aggregateFraction << ", reordered " << double(r.reordered) / r.dataPackets
                  << ", spurious retransmissions " << r.retransmissions << " of " << r.dataPackets
                  << " packets\n";
    }
    EXPECT_GE(sum / runs, 0.95);
    EXPECT_LT(double(retransmissions) / packets, 0.03);
    // Round-robin spraying: the k-th packet of every flow takes spine k mod 4; the four flows
    // are synchronized, so each uplink receives one packet of every flow every fourth packet
    // time and stays busy: the ideal, within the 1 % of the window's granularity.
    const SprayRun rr = RunLeafSpine("ns3::RdmaRoundRobinSprayLoadBalancer", true, bytes, 1);
    EXPECT_EQ(rr.completed, K);
    EXPECT_EQ(rr.drops, 0u);
    EXPECT_GE(rr.aggregateFraction, 0.99);
    std::cout << "[ ecmp-vs-spray ] round-robin spray + SACK: aggregate / ideal "
              << rr.aggregateFraction << "\n";
}

// Per-packet spraying with go-back-N: the responder discards every packet that overtook
// another and the requester resends everything from the NAK'd PSN; without a single drop,
// every retransmission is spurious and most of the capacity carries them.
TEST(RdmaEcmpSpray, SprayingWithGoBackNCollapses)
{
    const uint64_t bytes = 1024 * 1024;
    const SprayRun gbn = RunLeafSpine("ns3::RdmaRandomSprayLoadBalancer", false, bytes, 1);
    const SprayRun sack = RunLeafSpine("ns3::RdmaRandomSprayLoadBalancer", true, bytes, 1);
    EXPECT_EQ(gbn.completed, K);
    EXPECT_EQ(gbn.drops, 0u); // lossless: all retransmissions are spurious
    EXPECT_EQ(gbn.timeouts, 0u);
    EXPECT_EQ(gbn.dataPackets, K * bytes / 1024);
    EXPECT_GT(gbn.reordered, 0u);
    // Collapse: more spurious retransmissions than data packets, so that less than half of
    // what reaches the responders is new.
    EXPECT_GT(gbn.retransmissions, gbn.dataPackets);
    // In a lossless fabric whose host ports are busy, the aggregate goodput is the ideal times
    // the useful share of the arrivals, distinct / arrivals (within 25 %: the window is a
    // part of the run).
    const double useful = double(gbn.dataPackets) / gbn.arrivals;
    EXPECT_LT(useful, 0.5);
    EXPECT_NEAR(gbn.aggregateFraction, useful, 0.25 * useful);
    // A clear margin: less than half the goodput of the same spraying with SACK.
    EXPECT_LT(gbn.aggregateFraction, 0.5 * sack.aggregateFraction);
    EXPECT_EQ(sack.drops, 0u);
    std::cout << "[ ecmp-vs-spray ] random spray, 1 MiB: go-back-N aggregate / ideal "
              << gbn.aggregateFraction << " (useful share of arrivals " << useful << ", "
              << gbn.retransmissions << " spurious retransmissions for " << gbn.dataPackets
              << " packets); SACK " << sack.aggregateFraction << " (" << sack.retransmissions
              << " retransmissions)\n";
}
