/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Flow-hash ECMP against per-packet spraying (and flowlets, adaptive routing) in a leaf-spine
 * fabric, each with go-back-N and with selective repeat (SACK + RACK-TLP).
 *
 *   host 0 --\            /-- spine 0 --\            /-- host k
 *   host 1 ---+- leaf 0 -+--- spine 1 ---+- leaf 1 -+--- host k+1
 *   ...      /            \   ...       /            \   ...
 *   host k-1/              \- spine k-1/              \- host 2k-1
 *
 * Two leaves, k spines, k hosts per leaf (FatTreeHelper::SetLeafSpine(2, k, k)), every link
 * --rate and --delay. Host i of leaf 0
 * WRITEs --bytes to host i of leaf 1 (k flows, all posted at t = 0). Host links and spine
 * links have the same rate, so a flow is limited only by the other flows that share its
 * spine: with a non-blocking choice of paths every flow runs at the line-rate goodput
 * C = rate x MTU / wire bytes per packet, and the ideal aggregate is k x C.
 *
 * What is measured (per run; every (policy, scheme) pair runs --seeds times, run r with
 * RngSeedManager run r and ns3::RdmaSwitch::EcmpSeed r):
 *  - aggregate throughput while all flows are active: the in-order bytes the k responders
 *    received between the moment the last of them received its first packet and the first
 *    message completion, over that time, divided by k x C ("aggregate fraction"). Every
 *    spine link that carries at least one flow is kept busy (leaf 0's shared buffer holds
 *    the colliding flows' excess, and PFC pauses the senders before it would overflow), so
 *    this is (busy spines) x C / (k x C) whatever the split among colliding flows: for
 *    ECMP, b / k. k flows hashed independently and uniformly over k
 *    spines leave (1 - 1/k)^k of them empty on average (balls into bins): E[b / k] =
 *    1 - (1 - 1/k)^k, 0.684 for k = 4.
 *  - per-flow goodput, bytes / FCT (FCT from posting to the last acknowledgement); their
 *    sum over k x C equals b / k too when colliding flows share fairly, and k x bytes / (last
 *    FCT) over k x C is 1 / (largest number of flows on one spine) (expectation 131/256 =
 *    0.512 for k = 4);
 *  - spine link utilization: wire bytes each uplink of leaf 0 sent during that window over
 *    rate x window; busy spines are those above 1/2;
 *  - reordering at the responders, from the PSNs of the data packets they receive
 *    (RFC 4737): a packet is reordered if its PSN is below the highest PSN already received
 *    and arrives for the first time; its displacement is that highest PSN minus its own.
 *    The reordered fraction is reordered packets over distinct packets;
 *  - retransmissions. The RoCE class is lossless (PFC): the example counts every drop
 *    (switches, links, reorder bitmaps) and when there is none every retransmission is
 *    spurious: the packet had only been overtaken.
 *
 * Output: a summary per (policy, scheme) with means and standard errors over the seeds,
 * the ECMP expectation beside it, one CSV line per run in --output and one per flow in
 * --flowOutput. examples/plot-ecmp-vs-spray.py draws the CSV.
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("EcmpVsSprayExample");

namespace
{

/// Scenario parameters (one set for all runs).
struct SprayConfig
{
    uint32_t k{4};                        //!< spines = hosts per leaf = flows
    std::string rate{"100Gbps"};          //!< every link
    Time delay{MicroSeconds(1)};          //!< every link
    uint32_t mtu{1024};                   //!< RoCE path MTU
    uint64_t bytes{2 * 1024 * 1024};      //!< WRITE size of every flow
    uint64_t buffer{32 * 1024 * 1024};    //!< switch shared buffer
    bool pfc{true};                       //!< lossless class 3
    Time rto{NanoSeconds(4096ULL << 14)}; //!< go-back-N RetransmitTimeout
    uint32_t sackWindow{512};             //!< SACK reorder bitmap, packets
    Time stopTime{MilliSeconds(50)};      //!< give up after this
    std::string scheduler{RdmaHelper::FASTEST_SCHEDULER};
};

/// Reordering seen by one responder, from the PSNs of the data packets it receives.
struct RxTracker
{
    Ptr<RdmaQueuePair> qp;     //!< the responder queue pair
    std::vector<uint8_t> seen; //!< sequence -> received at least once
    uint64_t next{0};          //!< one past the highest sequence received
    uint64_t arrivals{0};      //!< data packets received
    uint64_t distinct{0};      //!< distinct sequences received
    uint64_t reordered{0};     //!< first arrivals below the highest sequence received
    uint64_t displacementSum{0};
    uint64_t maxDisplacement{0};
    bool started{false};
    Time first; //!< first data packet
};

/// What one flow measured.
struct FlowResult
{
    double fctUs{-1};      //!< posting to last acknowledgement
    double goodputBps{0};  //!< bytes / FCT
    int32_t ecmpSpine{-1}; //!< ECMP: the spine the hash assigns (else -1)
    uint64_t retransmissions{0};
    uint64_t packetsSent{0};
    uint64_t timeouts{0};
    uint64_t reordered{0};
    uint64_t distinct{0};
    bool done{false};
};

/// What one run measured.
struct RunResult
{
    std::string policy;
    std::string scheme;
    uint32_t run{0};
    double lineGoodputBps{0}; //!< C of the scheme's wire format
    std::vector<FlowResult> flows;
    std::vector<double> uplinkUtil; //!< leaf 0's uplinks, during the window
    double windowStartUs{0};
    double windowEndUs{0};
    double aggregateBps{0}; //!< in-order bytes during the window over its length
    double aggregateFraction{0};
    double sumGoodputFraction{0};
    double lastFctFraction{0};
    double lastFctUs{0};
    uint32_t busySpines{0};
    int32_t hashedSpines{-1}; //!< ECMP: distinct spines the hash assigns (else -1)
    uint32_t completed{0};
    uint64_t distinct{0};
    uint64_t arrivals{0};
    uint64_t reordered{0};
    double meanDisplacement{0};
    uint64_t maxDisplacement{0};
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t naks{0};        //!< NAKs the requesters received
    uint64_t oooDiscards{0}; //!< out-of-order packets the responders discarded (go-back-N)
    uint64_t duplicates{0};  //!< duplicates the responders received
    uint64_t drops{0};
    uint64_t pfcFrames{0};
    uint64_t dataWireBytes{0};   //!< wire bytes leaf 0's uplinks sent in the whole run
    uint64_t senderWireBytes{0}; //!< wire bytes the senders sent
};

/// State the trace callbacks of one run share.
struct RunContext
{
    std::vector<RxTracker> rx;
    std::vector<Ptr<RdmaNetDevice>> uplinks;
    std::vector<uint64_t> uplinkBytesAtStart;
    std::vector<uint64_t> uplinkBytesAtEnd;
    uint32_t started{0};
    bool windowOpen{false};
    bool windowClosed{false};
    Time windowStart;
    Time windowEnd;
    uint64_t bytesAtStart{0};
    uint64_t bytesAtEnd{0};
    std::vector<FlowResult>* flows{nullptr};
    std::vector<Time> sendDone;
};

uint64_t
ReceivedBytes(const RunContext* ctx)
{
    uint64_t sum = 0;
    for (const auto& r : ctx->rx)
    {
        sum += r.qp->GetBytesReceived();
    }
    return sum;
}

/// All responders have received a packet: the window opens (after the event that delivered
/// the last first packet, so that its bytes count before the window).
void
OpenWindow(RunContext* ctx)
{
    ctx->windowOpen = true;
    ctx->windowStart = Simulator::Now();
    ctx->bytesAtStart = ReceivedBytes(ctx);
    for (std::size_t s = 0; s < ctx->uplinks.size(); ++s)
    {
        ctx->uplinkBytesAtStart[s] = ctx->uplinks[s]->GetTxWireBytes();
    }
}

/// A packet reached a responder's port (IPv4 packet, Ethernet header removed).
void
OnResponderRx(RunContext* ctx, uint32_t flow, Ptr<const Packet> p)
{
    uint8_t b[64];
    const uint32_t n = p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b)));
    if (n < 20)
    {
        return;
    }
    const uint32_t ihl = (b[0] & 0x0f) * 4u;
    const uint32_t bth = ihl + 8; // UDP header
    if (b[9] != 17 || n < bth + 12 ||
        ((b[ihl + 2] << 8) | b[ihl + 3]) != RdmaQueuePair::ROCEV2_PORT || b[bth] > 0x0B)
    {
        return; // not an RC SEND/WRITE data packet
    }
    RxTracker& t = ctx->rx[flow];
    const uint32_t psn = (uint32_t(b[bth + 9]) << 16) | (uint32_t(b[bth + 10]) << 8) | b[bth + 11];
    const uint64_t seq = t.qp->PsnToSeq(psn, t.next);
    ++t.arrivals;
    if (seq >= t.seen.size())
    {
        t.seen.resize(std::max<std::size_t>(seq + 1, 2 * t.seen.size()), 0);
    }
    if (!t.seen[seq])
    {
        t.seen[seq] = 1;
        ++t.distinct;
        if (seq + 1 < t.next)
        {
            const uint64_t d = t.next - 1 - seq;
            ++t.reordered;
            t.displacementSum += d;
            t.maxDisplacement = std::max(t.maxDisplacement, d);
        }
    }
    t.next = std::max(t.next, seq + 1);
    if (!t.started)
    {
        t.started = true;
        t.first = Simulator::Now();
        if (++ctx->started == ctx->rx.size())
        {
            Simulator::ScheduleNow(&OpenWindow, ctx);
        }
    }
}

/// A responder completed its message: the first one closes the window.
void
OnReceiveComplete(RunContext* ctx, const RdmaCompletion& /* c */)
{
    if (!ctx->windowOpen || ctx->windowClosed)
    {
        return;
    }
    ctx->windowClosed = true;
    ctx->windowEnd = Simulator::Now();
    ctx->bytesAtEnd = ReceivedBytes(ctx);
    for (std::size_t s = 0; s < ctx->uplinks.size(); ++s)
    {
        ctx->uplinkBytesAtEnd[s] = ctx->uplinks[s]->GetTxWireBytes();
    }
}

/// The flow monitor's record of a WRITE acknowledged completely (wrId = the flow's index).
void
OnFlowComplete(RunContext* ctx, const RdmaFlowMonitor::FlowRecord& r)
{
    FlowResult& f = (*ctx->flows)[r.wrId];
    f.done = true;
    f.fctUs = r.GetFct().GetSeconds() * 1e6;
    f.goodputBps = r.bytes * 8.0 / r.GetFct().GetSeconds();
}

/// Short policy names of the command line -> load balancer TypeIds.
const std::map<std::string, std::string>&
PolicyTypeIds()
{
    static const std::map<std::string, std::string> m{
        {"ecmp", "ns3::RdmaEcmpLoadBalancer"},
        {"spray", "ns3::RdmaRandomSprayLoadBalancer"},
        {"rr", "ns3::RdmaRoundRobinSprayLoadBalancer"},
        {"flowlet", "ns3::RdmaFlowletLoadBalancer"},
        {"adaptive", "ns3::RdmaAdaptiveLoadBalancer"},
    };
    return m;
}

/// Line-rate goodput of one flow: payload over wire bytes of a full data packet.
double
LineGoodput(const SprayConfig& cfg, bool sack)
{
    // IPv4 20 + UDP 8 + BTH 12 + ICRC 4 (+ RETH 16 in every WRITE packet with SACK), Ethernet
    // header 14; WireBytes adds FCS, preamble and inter-frame gap.
    const uint32_t wire = RdmaNetDevice::WireBytes(cfg.mtu + 44 + (sack ? 16 : 0) + 14);
    return DataRate(cfg.rate).GetBitRate() * double(cfg.mtu) / wire;
}

/// Byte conservation over all runs (RdmaConservationMonitor per run).
struct ConservationTotals
{
    uint64_t runs{0};       //!< runs checked
    uint64_t imbalanced{0}; //!< runs whose bytes did not balance
    uint64_t sent{0};       //!< IPv4 bytes the hosts sent, all runs
    uint64_t delivered{0};  //!< delivered to hosts
    uint64_t dropped{0};    //!< dropped (switches by reason, links)
    uint64_t inFlight{0};   //!< still in flight when a run ended
};

ConservationTotals g_conservation; //!< filled by RunOnce

RunResult
RunOnce(const SprayConfig& cfg, const std::string& policy, const std::string& scheme, uint32_t run)
{
    Simulator::SetScheduler(ObjectFactory(cfg.scheduler));
    RngSeedManager::SetRun(run);
    const uint32_t k = cfg.k;
    RunResult res;
    res.policy = policy;
    res.scheme = scheme;
    res.run = run;
    res.lineGoodputBps = LineGoodput(cfg, scheme == "sack");

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(cfg.mtu));
    rdma.SetNicAttribute("RetransmitTimeout", TimeValue(cfg.rto));
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    if (scheme == "sack")
    {
        rdma.SetLossRecovery("ns3::RdmaSackLossRecovery",
                             "ReceiverWindow",
                             UintegerValue(cfg.sackWindow));
    }
    else
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    }
    rdma.SetLoadBalancer(PolicyTypeIds().at(policy));
    rdma.SetSwitchAttribute("EcmpSeed", UintegerValue(run));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(cfg.buffer));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(cfg.pfc));

    // Two leaves of k hosts each, k spines, every link --rate and --delay.
    FatTreeHelper fabric;
    fabric.SetLeafSpine(2, k, k);
    for (auto tier : {FatTreeHelper::HOST_EDGE, FatTreeHelper::EDGE_AGGREGATION})
    {
        fabric.SetLinkRate(tier, DataRate(cfg.rate));
        fabric.SetLinkDelay(tier, cfg.delay);
    }
    fabric.Install(rdma);
    const NodeContainer hosts = fabric.GetHosts();
    const NodeContainer switches = fabric.GetSwitches();
    rdma.AssignStreams(switches, 1);
    NetDeviceContainer all(fabric.GetDevices(FatTreeHelper::HOST_EDGE),
                           fabric.GetDevices(FatTreeHelper::EDGE_AGGREGATION));
    RunContext ctx;
    // Leaf 0's uplinks: its links to the spines are the first k leaf-spine links, each with
    // the leaf's device first.
    const NetDeviceContainer leafSpine = fabric.GetDevices(FatTreeHelper::EDGE_AGGREGATION);
    for (uint32_t s = 0; s < k; ++s)
    {
        ctx.uplinks.push_back(DynamicCast<RdmaNetDevice>(leafSpine.Get(2 * s)));
    }

    res.flows.resize(k);
    ctx.flows = &res.flows;
    ctx.rx.resize(k);
    ctx.uplinkBytesAtStart.assign(k, 0);
    ctx.uplinkBytesAtEnd.assign(k, 0);
    // The flow monitor times every WRITE and ends the run at the last completion.
    RdmaFlowMonitor monitor;
    monitor.ConnectFlowComplete(MakeBoundCallback(&OnFlowComplete, &ctx));
    monitor.SetStopAfterFlows(k);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    Ptr<RdmaSwitch> leaf0 = fabric.GetEdgeSwitches().Get(0)->GetObject<RdmaSwitch>();
    for (uint32_t i = 0; i < k; ++i)
    {
        Ptr<Node> src = hosts.Get(i);
        Ptr<Node> dst = hosts.Get(k + i);
        auto [qp, peer] = rdma.Connect(src, dst);
        requesters.push_back(qp);
        ctx.rx[i].qp = peer;
        monitor.Watch(qp, peer);
        peer->SetReceiveCompletionCallback(MakeBoundCallback(&OnReceiveComplete, &ctx));
        RdmaHelper::GetNic(dst)->GetDevice()->TraceConnectWithoutContext(
            "MacRx",
            MakeBoundCallback(&OnResponderRx, &ctx, i));
        if (policy == "ecmp")
        {
            // The uplink the hash assigns at leaf 0 (RdmaEcmpLoadBalancer's formula).
            const Ipv4Address a = RdmaHelper::GetNic(src)->GetAddress();
            const Ipv4Address b = RdmaHelper::GetNic(dst)->GetAddress();
            const std::vector<uint32_t>& routes = leaf0->GetRoutes(b);
            const uint64_t h = RdmaLoadBalancer::FlowHash(a.Get(),
                                                          b.Get(),
                                                          17,
                                                          qp->GetSourcePort(),
                                                          RdmaQueuePair::ROCEV2_PORT,
                                                          leaf0->GetEffectiveEcmpSeed());
            const uint32_t port = routes[RdmaLoadBalancer::ReduceToRange(h, routes.size())];
            for (uint32_t s = 0; s < k; ++s)
            {
                if (leaf0->GetPort(port) == ctx.uplinks[s])
                {
                    res.flows[i].ecmpSpine = s;
                }
            }
        }
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = i;
        wr.length = cfg.bytes;
        wr.remoteAddress = 0x10000000ULL;
        Simulator::ScheduleWithContext(src->GetId(), Seconds(0), &RdmaQueuePair::PostSend, qp, wr);
    }

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Stop(cfg.stopTime);
    Simulator::Run();
    ++g_conservation.runs;
    g_conservation.imbalanced += conservation.GetImbalance() != 0;
    g_conservation.sent += conservation.GetSent();
    g_conservation.delivered += conservation.GetDelivered();
    g_conservation.dropped += conservation.GetDropped();
    g_conservation.inFlight += conservation.GetInFlight();
    if (conservation.GetImbalance() != 0)
    {
        std::cout << policy << "/" << scheme << " run " << run << ": ";
        conservation.Print(std::cout);
    }

    if (ctx.windowOpen && !ctx.windowClosed)
    {
        OnReceiveComplete(&ctx, RdmaCompletion()); // nothing completed: up to the stop
    }
    const double rate = DataRate(cfg.rate).GetBitRate();
    const double ideal = k * res.lineGoodputBps;
    if (ctx.windowOpen && ctx.windowEnd > ctx.windowStart)
    {
        const double w = (ctx.windowEnd - ctx.windowStart).GetSeconds();
        res.windowStartUs = ctx.windowStart.GetSeconds() * 1e6;
        res.windowEndUs = ctx.windowEnd.GetSeconds() * 1e6;
        res.aggregateBps = (ctx.bytesAtEnd - ctx.bytesAtStart) * 8.0 / w;
        res.aggregateFraction = res.aggregateBps / ideal;
        for (uint32_t s = 0; s < k; ++s)
        {
            const double u =
                (ctx.uplinkBytesAtEnd[s] - ctx.uplinkBytesAtStart[s]) * 8.0 / (rate * w);
            res.uplinkUtil.push_back(u);
            res.busySpines += u > 0.5 ? 1 : 0;
        }
    }
    else
    {
        res.uplinkUtil.assign(k, 0);
    }
    double sumGoodput = 0;
    for (uint32_t i = 0; i < k; ++i)
    {
        FlowResult& f = res.flows[i];
        const RxTracker& t = ctx.rx[i];
        Ptr<RdmaQueuePair> qp = requesters[i];
        f.retransmissions = qp->GetRetransmissions();
        f.packetsSent = qp->GetPacketsSent();
        f.timeouts = qp->GetTimeouts();
        f.reordered = t.reordered;
        f.distinct = t.distinct;
        sumGoodput += f.goodputBps;
        res.completed += f.done ? 1 : 0;
        res.lastFctUs = std::max(res.lastFctUs, f.done ? f.fctUs : cfg.stopTime.GetSeconds() * 1e6);
        res.retransmissions += f.retransmissions;
        res.timeouts += f.timeouts;
        res.naks += qp->GetNaksReceived();
        res.distinct += t.distinct;
        res.arrivals += t.arrivals;
        res.reordered += t.reordered;
        res.meanDisplacement += t.displacementSum;
        res.maxDisplacement = std::max(res.maxDisplacement, t.maxDisplacement);
        res.drops += t.qp->GetReorderWindowDrops();
        res.oooDiscards += t.qp->GetOutOfOrderDiscards();
        res.duplicates += t.qp->GetDuplicatesReceived();
        res.senderWireBytes += RdmaHelper::GetNic(hosts.Get(i))->GetDevice()->GetTxWireBytes();
    }
    if (policy == "ecmp")
    {
        std::vector<bool> used(k, false);
        res.hashedSpines = 0;
        for (const FlowResult& f : res.flows)
        {
            if (f.ecmpSpine >= 0 && !used[f.ecmpSpine])
            {
                used[f.ecmpSpine] = true;
                ++res.hashedSpines;
            }
        }
    }
    res.meanDisplacement = res.reordered > 0 ? res.meanDisplacement / res.reordered : 0;
    res.sumGoodputFraction = sumGoodput / ideal;
    res.lastFctFraction =
        res.completed == k ? k * cfg.bytes * 8.0 / (res.lastFctUs * 1e-6) / ideal : 0;
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        res.drops += switches.Get(i)->GetObject<RdmaSwitch>()->GetTotalDrops();
    }
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(all.Get(i));
        res.drops += d->GetRxDropCount();
        res.pfcFrames += d->GetPfcFramesSent();
    }
    for (const auto& u : ctx.uplinks)
    {
        res.dataWireBytes += u->GetTxWireBytes();
    }
    Simulator::Destroy();
    return res;
}

/// Distribution of the number of non-empty bins when k balls fall into k bins uniformly:
/// P(b) = C(k, b) S(k, b) b! / k^k, S the Stirling numbers of the second kind.
std::vector<double>
BusyBinsDistribution(uint32_t k)
{
    // surj[b] = b! S(k, b), the surjections of k balls onto b bins, by inclusion-exclusion.
    std::vector<double> p(k + 1, 0);
    for (uint32_t b = 1; b <= k; ++b)
    {
        double surj = 0;
        double choose = 1; // C(b, j)
        for (uint32_t j = 0; j <= b; ++j)
        {
            surj += (j % 2 ? -1 : 1) * choose * std::pow(double(b - j), double(k));
            choose = choose * (b - j) / (j + 1);
        }
        double chooseKb = 1;
        for (uint32_t j = 0; j < b; ++j)
        {
            chooseKb = chooseKb * (k - j) / (j + 1);
        }
        p[b] = chooseKb * surj / std::pow(double(k), double(k));
    }
    return p;
}

/// E[1 / (largest number of balls in one bin)] for k balls in k bins, by enumerating the k^k
/// equally likely assignments (k <= 8); -1 for larger k.
double
ExpectedInverseMaxLoad(uint32_t k)
{
    if (k > 8)
    {
        return -1;
    }
    uint64_t total = 1;
    for (uint32_t i = 0; i < k; ++i)
    {
        total *= k;
    }
    double sum = 0;
    std::vector<uint32_t> load(k);
    for (uint64_t a = 0; a < total; ++a)
    {
        std::fill(load.begin(), load.end(), 0);
        uint32_t top = 0;
        for (uint64_t x = a, i = 0; i < k; ++i, x /= k)
        {
            top = std::max(top, ++load[x % k]);
        }
        sum += 1.0 / top;
    }
    return sum / total;
}

/// Mean and standard error of a sample.
std::pair<double, double>
MeanSe(const std::vector<double>& x)
{
    if (x.empty())
    {
        return {0, 0};
    }
    double m = 0;
    for (double v : x)
    {
        m += v;
    }
    m /= x.size();
    double ss = 0;
    for (double v : x)
    {
        ss += (v - m) * (v - m);
    }
    const double se = x.size() > 1 ? std::sqrt(ss / (x.size() - 1) / x.size()) : 0;
    return {m, se};
}

} // namespace

int
main(int argc, char* argv[])
{
    // 100 Gb/s: simulate in picoseconds, as the other examples.
    Time::SetResolution(Time::PS);
    RdmaHelper::SetSimulatorImplementation(); // the fastest; the command line overrides it

    SprayConfig cfg;
    std::string policies = "ecmp,spray,rr,flowlet,adaptive";
    std::string schemes = "gbn,sack";
    uint32_t seeds = 40;
    uint32_t firstRun = 0; // 0: ns-3's RngRun (default 1, or --RngRun)
    uint32_t seed = 0;     // 0: ns-3's RngSeed (default 1, or --RngSeed)
    std::string output = "results/ecmp-vs-spray.csv";
    std::string flowOutput = "results/ecmp-vs-spray-flows.csv";

    CommandLine cmd(__FILE__);
    cmd.Usage("Leaf-spine with k spines and k flows between the two leaves: ECMP against packet "
              "spraying, flowlets and adaptive routing, with go-back-N and with SACK.");
    cmd.AddValue("k", "spines, hosts per leaf and flows", cfg.k);
    cmd.AddValue("policies",
                 "comma-separated load balancers: ecmp, spray (random), rr (round robin), "
                 "flowlet, adaptive",
                 policies);
    cmd.AddValue("schemes", "comma-separated loss recoveries: gbn, sack", schemes);
    cmd.AddValue("seeds",
                 "runs per (policy, scheme), each with its own ECMP seed and RNG run",
                 seeds);
    cmd.AddValue("run",
                 "first run number (RngSeedManager run and ns3::RdmaSwitch::EcmpSeed; 0: ns-3's "
                 "--RngRun)",
                 firstRun);
    cmd.AddValue("seed", "random seed (RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("bytes", "WRITE size of every flow, bytes", cfg.bytes);
    cmd.AddValue("rate", "rate of every link", cfg.rate);
    cmd.AddValue("delay", "propagation delay of every link", cfg.delay);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", cfg.mtu);
    cmd.AddValue("buffer", "switch shared buffer, bytes", cfg.buffer);
    cmd.AddValue("pfc", "PFC on the RoCE class (lossless fabric)", cfg.pfc);
    cmd.AddValue("rto", "go-back-N RetransmitTimeout (IBTA local ACK timeout)", cfg.rto);
    cmd.AddValue("sackWindow", "SACK: ReceiverWindow (reorder bitmap), packets", cfg.sackWindow);
    cmd.AddValue("stopTime", "simulated time limit of one run", cfg.stopTime);
    cmd.AddValue("scheduler", "ns-3 scheduler TypeId", cfg.scheduler);
    cmd.AddValue("output", "CSV file, one line per run", output);
    cmd.AddValue("flowOutput", "CSV file, one line per flow and run", flowOutput);
    cmd.Parse(argc, argv);

    // Every option checked before the first run (helper/rdma-option-checker.h).
    using Check = RdmaOptionChecker;
    Check::Range<uint32_t>("k", cfg.k, 2, 1024);
    Check::Range<uint32_t>("seeds", seeds, 1, 1000000);
    Check::Range<uint64_t>("bytes", cfg.bytes, 1, 1ULL << 31, "bytes");
    Check::Rate("rate", cfg.rate);
    Check::NonNegative("delay", cfg.delay);
    Check::Attribute("mtu", std::to_string(cfg.mtu), "ns3::RdmaNic", "Mtu");
    Check::Range<uint64_t>("buffer", cfg.buffer, 1, 1ULL << 40, "bytes");
    Check::Positive("rto", cfg.rto);
    Check::Attribute("sackWindow",
                     std::to_string(cfg.sackWindow),
                     "ns3::RdmaSackLossRecovery",
                     "ReceiverWindow");
    Check::Positive("stopTime", cfg.stopTime);
    const std::vector<std::string> policyList = RdmaOptionChecker::SplitList(policies);
    const std::vector<std::string> schemeList = RdmaOptionChecker::SplitList(schemes);
    for (const std::string& p : policyList)
    {
        Check::Require(PolicyTypeIds().count(p) > 0,
                       "policies",
                       policies,
                       "a comma-separated list of ecmp, spray, rr, flowlet, adaptive");
    }
    for (const std::string& s : schemeList)
    {
        Check::Require(s == "gbn" || s == "sack",
                       "schemes",
                       schemes,
                       "a comma-separated list of gbn, sack");
    }
    Check::OutputFile("output", output);
    Check::OutputFile("flowOutput", flowOutput);
    Check::Seed(seed, 0);
    if (firstRun == 0)
    {
        firstRun = RngSeedManager::GetRun();
    }

    const std::vector<double> pBusy = BusyBinsDistribution(cfg.k);
    double eBusy = 0;
    double eBusy2 = 0;
    for (uint32_t b = 1; b <= cfg.k; ++b)
    {
        eBusy += b * pBusy[b];
        eBusy2 += double(b) * b * pBusy[b];
    }
    const double expectFraction = 1 - std::pow(1 - 1.0 / cfg.k, double(cfg.k));
    const double sdFraction = std::sqrt(eBusy2 - eBusy * eBusy) / cfg.k;
    const double expectLast = ExpectedInverseMaxLoad(cfg.k);

    RdmaOutputHelper::CreateParentDirectories(output);
    std::ofstream csv(output);
    NS_ABORT_MSG_IF(!csv, "cannot write --output " << output);
    RdmaOutputHelper::CreateParentDirectories(flowOutput);
    std::ofstream flowCsv(flowOutput);
    NS_ABORT_MSG_IF(!flowCsv, "cannot write --flowOutput " << flowOutput);
    csv << "policy,scheme,run,k,bytes,line_goodput_gbps,aggregate_gbps,aggregate_fraction,"
           "sum_goodput_fraction,last_fct_fraction,busy_spines,ecmp_hashed_spines,uplink_util,"
           "window_start_us,"
           "window_end_us,last_fct_us,completed,distinct_packets,arrivals,reordered_fraction,"
           "mean_displacement,max_displacement,retransmissions,spurious_retransmissions,"
           "timeouts,naks,ooo_discards,duplicates,drops,pfc_frames,uplink_wire_bytes,sender_wire_"
           "bytes,"
           "ecmp_expected_fraction\n";
    flowCsv << "policy,scheme,run,flow,ecmp_spine,fct_us,goodput_gbps,packets_sent,"
               "retransmissions,timeouts,reordered,distinct,completed\n";

    std::cout << std::fixed << std::setprecision(3);
    std::cout << "ecmp-vs-spray: 2 leaves, " << cfg.k << " spines, " << cfg.k << " flows of "
              << cfg.bytes << " B, " << cfg.rate << ", delay " << cfg.delay.As(Time::US) << ", MTU "
              << cfg.mtu << ", PFC " << (cfg.pfc ? "on" : "off") << ", " << seeds << " seeds\n";
    std::cout << "line-rate goodput per flow C: go-back-N " << LineGoodput(cfg, false) / 1e9
              << " Gb/s, SACK " << LineGoodput(cfg, true) / 1e9
              << " Gb/s (RETH in every packet); ideal aggregate k x C\n";
    std::cout << "balls into bins: E[busy spines] / k = 1 - (1 - 1/k)^k = " << expectFraction
              << " (sd of one run " << sdFraction << "); P(busy = 1.." << cfg.k << ") =";
    for (uint32_t b = 1; b <= cfg.k; ++b)
    {
        std::cout << " " << std::setprecision(4) << pBusy[b];
    }
    std::cout << std::setprecision(3) << "\n";
    if (expectLast > 0)
    {
        std::cout << "ECMP with fair sharing: k x bytes / last FCT over k x C has expectation "
                     "E[1 / most flows on one spine] = "
                  << expectLast << "\n";
    }
    std::cout << "\n";
    std::cout << "policy    scheme  aggregate/ideal  sum-goodput  last-FCT  busy   uplink-util  "
                 "reordered  displ.  spurious-retx  timeouts  drops  last-FCT(us)  done\n";

    bool anyDrop = false;
    for (const std::string& policy : policyList)
    {
        for (const std::string& scheme : schemeList)
        {
            std::vector<double> agg;
            std::vector<double> sum;
            std::vector<double> last;
            std::vector<double> busy;
            std::vector<double> util;
            std::vector<double> fct;
            uint64_t reordered = 0;
            uint64_t distinct = 0;
            double displacement = 0;
            uint64_t retx = 0;
            uint64_t timeouts = 0;
            uint64_t drops = 0;
            uint32_t completed = 0;
            for (uint32_t r = 0; r < seeds; ++r)
            {
                const RunResult res = RunOnce(cfg, policy, scheme, firstRun + r);
                agg.push_back(res.aggregateFraction);
                sum.push_back(res.sumGoodputFraction);
                last.push_back(res.lastFctFraction);
                busy.push_back(res.busySpines);
                double u = 0;
                std::ostringstream utilList;
                utilList << std::setprecision(4);
                for (uint32_t s = 0; s < cfg.k; ++s)
                {
                    u += res.uplinkUtil[s];
                    utilList << (s ? ";" : "") << res.uplinkUtil[s];
                }
                util.push_back(u / cfg.k);
                fct.push_back(res.lastFctUs);
                reordered += res.reordered;
                distinct += res.distinct;
                displacement += res.meanDisplacement * res.reordered;
                retx += res.retransmissions;
                timeouts += res.timeouts;
                drops += res.drops;
                completed += res.completed;
                csv << policy << "," << scheme << "," << res.run << "," << cfg.k << "," << cfg.bytes
                    << "," << res.lineGoodputBps / 1e9 << "," << res.aggregateBps / 1e9 << ","
                    << res.aggregateFraction << "," << res.sumGoodputFraction << ","
                    << res.lastFctFraction << "," << res.busySpines << "," << res.hashedSpines
                    << "," << utilList.str() << "," << res.windowStartUs << "," << res.windowEndUs
                    << "," << res.lastFctUs << "," << res.completed << "," << res.distinct << ","
                    << res.arrivals << ","
                    << (res.distinct ? double(res.reordered) / res.distinct : 0) << ","
                    << res.meanDisplacement << "," << res.maxDisplacement << ","
                    << res.retransmissions << ","
                    << (res.drops == 0 ? int64_t(res.retransmissions) : int64_t(-1)) << ","
                    << res.timeouts << "," << res.naks << "," << res.oooDiscards << ","
                    << res.duplicates << "," << res.drops << "," << res.pfcFrames << ","
                    << res.dataWireBytes << "," << res.senderWireBytes << "," << expectFraction
                    << "\n";
                for (uint32_t i = 0; i < cfg.k; ++i)
                {
                    const FlowResult& f = res.flows[i];
                    flowCsv << policy << "," << scheme << "," << res.run << "," << i << ","
                            << f.ecmpSpine << "," << f.fctUs << "," << f.goodputBps / 1e9 << ","
                            << f.packetsSent << "," << f.retransmissions << "," << f.timeouts << ","
                            << f.reordered << "," << f.distinct << "," << f.done << "\n";
                }
                csv.flush();
                flowCsv.flush();
            }
            anyDrop = anyDrop || drops > 0;
            const auto [aggM, aggSe] = MeanSe(agg);
            const auto [sumM, sumSe] = MeanSe(sum);
            const auto [lastM, lastSe] = MeanSe(last);
            const auto [busyM, busySe] = MeanSe(busy);
            const auto [utilM, utilSe] = MeanSe(util);
            const auto [fctM, fctSe] = MeanSe(fct);
            std::ostringstream aggText;
            aggText << std::fixed << std::setprecision(3) << aggM << " +- " << aggSe;
            std::cout << std::left << std::setw(10) << policy << std::setw(8) << scheme
                      << std::right << std::setw(15) << aggText.str() << std::setw(13) << sumM
                      << std::setw(10) << lastM << std::setw(6) << std::setprecision(2) << busyM
                      << std::setprecision(3) << std::setw(13) << utilM << std::setw(11)
                      << (distinct ? double(reordered) / distinct : 0) << std::setw(8)
                      << std::setprecision(1) << (reordered ? displacement / reordered : 0)
                      << std::setw(15) << double(retx) / seeds << std::setw(10)
                      << double(timeouts) / seeds << std::setw(7) << drops << std::setw(14) << fctM
                      << "  " << completed << "/" << seeds * cfg.k << "\n"
                      << std::setprecision(3);
        }
    }
    std::cout << "\naggregate/ideal: in-order bytes while all flows are active over k x C "
                 "(mean +- standard error over the seeds); ECMP expectation "
              << expectFraction << " +- " << sdFraction / std::sqrt(double(seeds))
              << " (standard error of " << seeds << " seeds)\n";
    std::cout << "sum-goodput: sum of bytes / FCT over k x C; last-FCT: k x bytes / last FCT "
                 "over k x C; busy: uplinks of leaf 0 above 50 % utilization while all flows "
                 "are active; reordered: fraction of packets first received below the highest "
                 "PSN already received, displ.: mean PSN distance behind it; spurious-retx: "
                 "retransmissions per run ("
              << (anyDrop ? "WARNING: drops occurred, not all retransmissions are spurious"
                          : "no drop anywhere: all are spurious")
              << ")\n";
    std::cout << "conservation: " << g_conservation.runs << " runs; sent " << g_conservation.sent
              << " B = delivered " << g_conservation.delivered << " + dropped "
              << g_conservation.dropped << " + in flight " << g_conservation.inFlight << ": "
              << (g_conservation.imbalanced == 0
                      ? std::string("balanced")
                      : "IMBALANCE in " + std::to_string(g_conservation.imbalanced) + " runs")
              << "\n";
    std::cout << "CSV " << output << ", " << flowOutput << "\n";
    return 0;
}
