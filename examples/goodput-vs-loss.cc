/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Goodput against packet loss for the three loss recoveries: go-back-N (IBTA RoCE),
 * go-back-0 (restart the message) and selective repeat with out-of-order placement and
 * RACK-TLP (RdmaSackLossRecovery, IRN-style).
 *
 *   sender --- switch 1 --- ... --- switch H --- receiver
 *
 * One sender WRITEs --bytes in messages of --messageSize over --flows queue pairs (they
 * share the sender's port round-robin). Every link has the same rate and delay; the loss
 * model (--lossModel: uniform, burst or every, at each rate of --lossRates) is installed on
 * the receiver's port, so only data packets are lost, or where --lossTarget says
 * (RdmaLossHelper syntax, e.g. "@2/0" or "@0-2"; node 0 is the sender, 1 the receiver,
 * 2 .. H+1 the switches from the sender's side). For every scheme and loss rate the
 * simulation runs until all messages complete or --stopFactor times the loss-free
 * transfer time, and goodput is the bytes of completed messages over the time the last
 * one completed.
 *
 * Analytical curves, as efficiencies (goodput over the loss-free goodput with standard
 * headers, C = rate x MTU / (MTU + 82)):
 *  - go-back-N: (1 - p) / (1 + (K - 1) p), K the packets in flight when the NAK arrives:
 *    the lost packet, those sent until the NAK (sent one packet time after it by the next
 *    packet's arrival) comes back, and the one being serialized then:
 *    K = floor(RTT0 / T) + 2, RTT0 = (H + 1)(T + Ta + 2 delay), T and Ta the wire times of
 *    a data packet and of an ACK;
 *    under periodic loss (--lossModel=every, every P = round(1/p)-th packet): 1 - K / P for
 *    P > K (each loss wastes the lost packet and the K - 1 behind it once per P packets;
 *    GoBackNPeriodicEfficiency has the general case);
 *  - selective repeat: (1 - p) x h, h = (MTU + 82) / (MTU + 98) the header efficiency with
 *    a RETH in every WRITE packet;
 *  - go-back-0 with N-packet messages: N / (N + (1/q - 1)(E[j | loss] + K - 1)), q = (1-p)^N
 *    the chance of a loss-free pass and j the position of the first loss in a pass.
 * The printout and the CSV show K, measured (packets sent from the NAK'd PSN when a NAK
 * arrives) and analytical. examples/plot-goodput-vs-loss.py draws the CSV.
 *
 * Congestion control (--ccs, TypeIds, each run with every scheme): by default
 * ns3::RdmaFixedRateCongestionControl (line rate, no reaction). A window congestion control,
 * e.g. ns3::FalconCongestionControl with --schemes=sack, completes the lossy-fabric story:
 * selective repeat under a delay-based window on a fabric without PFC. Falcon's window
 * follows the delay only (a NACK or an early retransmission is processed like an ACK, OCP
 * Falcon 10.3.1), so random loss costs the lost packets and not the window; Swift also cuts
 * the window by max_mdf once per RTT on each fast recovery (Swift Algorithm 1) and loses
 * much more. The "relative" column is goodput over the same scheme's and CC's loss-free
 * goodput (the claim: at least 0.9 at 5 % loss for selective repeat with Falcon).
 *
 * Timeouts: go-back-N uses RetransmitTimeout = --rtoRtts x RTT0 (the IBTA local ACK
 * timeout; a lost retransmission of the NAK'd packet is recovered only by it), go-back-0
 * that plus the transmission time of one message (it acknowledges whole messages). The
 * selective scheme uses its own RTO (SRTT + 4 RTTVAR, at least --minRto) and caps
 * outstanding packets at --bdpCap x BDP (IRN's BDP cap; the reorder bitmap is as large).
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("GoodputVsLossExample");

namespace
{

/// Parameters of one run.
struct LossRunConfig
{
    std::string rate{"100Gbps"};
    Time delay{MicroSeconds(1)};
    uint32_t hops{1};
    uint32_t mtu{1024};
    uint32_t flows{1};
    uint64_t bytes{10'000'000};
    uint64_t messageSize{1'000'000};
    double rtoRtts{1.2};
    double bdpCap{4};
    Time minRto{MicroSeconds(100)};
    double stopFactor{10};
    std::string lossModel{"uniform"};
    std::string lossTarget;
    std::string pcapPrefix;
};

/// What one run measured.
struct Result
{
    double goodputBps{0};
    double fctUs{0};
    uint64_t messages{0};
    uint64_t completed{0};
    bool inOrder{true};
    uint64_t packetsSent{0};
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t naks{0};
    uint64_t probes{0};
    uint64_t drops{0};
    double kMeasured{0};
    uint64_t kSamples{0};
};

/// Per-queue-pair bookkeeping.
struct FlowState
{
    uint64_t highest{0};      //!< one past the highest sequence sent
    double kSum{0};           //!< sum of K samples
    uint64_t kSamples{0};     //!< K samples
    uint64_t expectWrId{0};   //!< next wrId expected at completion
    uint64_t lastWrId{0};     //!< last wrId posted
    bool inOrder{true};       //!< completions came in posting order with the right length
    uint64_t receiveCount{0}; //!< messages completed at the responder
    uint64_t messageSize{0};  //!< bytes per message (last may be shorter)
    uint64_t lastSize{0};     //!< bytes of the last message
    uint64_t completedBytes{0};
    Time lastCompletion;
};

void
OnTx(FlowState* f, uint64_t seq, bool /* retransmission */)
{
    f->highest = std::max(f->highest, seq + 1);
}

void
OnNak(FlowState* f, uint64_t seq)
{
    // Packets sent from the NAK'd one: the one on the wire now is sent in full too.
    f->kSum += double(f->highest - seq);
    ++f->kSamples;
}

/// The flow monitor's record of a completed message: check it came in posting order.
void
OnFlowComplete(std::map<RdmaQueuePair*, FlowState*>* flowOf, const RdmaFlowMonitor::FlowRecord& r)
{
    FlowState* f = flowOf->at(PeekPointer(r.requester));
    if (r.wrId != f->expectWrId)
    {
        f->inOrder = false;
    }
    ++f->expectWrId;
    f->completedBytes += r.bytes;
    f->lastCompletion = r.finish;
}

void
OnReceiveComplete(FlowState* f, const RdmaCompletion& c)
{
    const bool last = f->receiveCount == f->lastWrId;
    if (c.length != (last ? f->lastSize : f->messageSize))
    {
        f->inOrder = false;
    }
    ++f->receiveCount;
}

/// \return a congestion control's TypeId name without "ns3::" and "CongestionControl"
std::string
CcLabel(const std::string& typeId)
{
    std::string s = typeId.rfind("ns3::", 0) == 0 ? typeId.substr(5) : typeId;
    const std::string tail = "CongestionControl";
    if (s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0)
    {
        s.resize(s.size() - tail.size());
    }
    return s;
}

/// Wire time of a frame carrying ipBytes of IPv4 packet.
double
WireSeconds(const LossRunConfig& cfg, uint32_t ipBytes)
{
    return RdmaNetDevice::WireBytes(ipBytes + 14) * 8.0 / DataRate(cfg.rate).GetBitRate();
}

/// Loss-free round trip of a data packet and its ACK.
double
BaseRtt(const LossRunConfig& cfg, bool sack)
{
    const double t = WireSeconds(cfg, cfg.mtu + 44 + (sack ? 16 : 0));
    const double ta = WireSeconds(cfg, 48 + (sack ? 4 : 0));
    return (cfg.hops + 1) * (t + ta + 2 * cfg.delay.GetSeconds());
}

/// Go-back-N's K: packets from the lost one until the sender resumes at it.
double
AnalyticalK(const LossRunConfig& cfg)
{
    const double t = WireSeconds(cfg, cfg.mtu + 44);
    return std::floor(BaseRtt(cfg, false) / t) + 2;
}

double
GoBackNEfficiency(double p, double k)
{
    return (1 - p) / (1 + (k - 1) * p);
}

/**
 * Go-back-N under periodic loss (--lossModel=every, period P = round(1/p) of the packets
 * arriving at the receiver's port). A loss at arrival a costs the lost packet and the K - 1
 * sent behind it (discarded out of order, but counted by the loss model); the sender
 * resumes with the lost packet at arrival a + K. The next loss that hits a useful packet is
 * the first multiple of P at or after a + K, a + P ceil(K / P): a cycle of P ceil(K / P)
 * arrivals of which K are wasted, efficiency 1 - K / (P ceil(K / P)); for P > K, 1 - K / P.
 * When K is a multiple of P the retransmission itself is lost every time and only the
 * timeout recovers it: no closed form (NaN).
 */
double
GoBackNPeriodicEfficiency(double p, double k)
{
    if (p <= 0)
    {
        return 1;
    }
    const double period = std::round(1 / p);
    const double cycle = period * std::ceil(k / period);
    if (cycle == k)
    {
        return std::nan("");
    }
    return 1 - k / cycle;
}

double
GoBackZeroEfficiency(double p, double k, double n)
{
    if (p <= 0)
    {
        return 1;
    }
    const double q = std::pow(1 - p, n);
    if (q < 1e-300)
    {
        return 0;
    }
    // E[j | first loss within the pass], j = 1..n, P(j) = p (1-p)^(j-1)
    double ej = 0;
    double pj = p;
    for (uint64_t j = 1; j <= uint64_t(n); ++j)
    {
        ej += j * pj;
        pj *= 1 - p;
    }
    ej /= (1 - q);
    return n / (n + (1 / q - 1) * (ej + k - 1));
}

Result
RunOnce(const LossRunConfig& cfg,
        const std::string& scheme,
        const std::string& cc,
        double lossRate,
        uint32_t run)
{
    RngSeedManager::SetRun(run); // run = the first run (--run or ns-3's RngRun) + the case index
    Result res;
    NodeContainer sender(1);
    NodeContainer receiver(1);
    NodeContainer switches(cfg.hops);

    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(cfg.rate));
    link.SetChannelAttribute("Delay", TimeValue(cfg.delay));
    link.Install(sender.Get(0), switches.Get(0));
    for (uint32_t i = 0; i + 1 < cfg.hops; ++i)
    {
        link.Install(switches.Get(i), switches.Get(i + 1));
    }
    NetDeviceContainer last = link.Install(switches.Get(cfg.hops - 1), receiver.Get(0));
    if (!cfg.pcapPrefix.empty())
    {
        std::ostringstream prefix;
        prefix << cfg.pcapPrefix << "-" << scheme << "-" << CcLabel(cc) << "-" << lossRate;
        RdmaOutputHelper::CreateParentDirectories(prefix.str());
        link.EnablePcap(prefix.str(), last.Get(1));
    }

    const double rtt0 = BaseRtt(cfg, scheme == "sack");
    const double packetTime = WireSeconds(cfg, cfg.mtu + 44 + (scheme == "sack" ? 16 : 0));
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(cfg.mtu));
    // Go-back-0 acknowledges whole messages only: its timeout must outlast one message.
    const double messagePackets = std::ceil(double(cfg.messageSize) / cfg.mtu);
    const double rto = cfg.rtoRtts * rtt0 + (scheme == "gb0" ? messagePackets * packetTime : 0);
    rdma.SetNicAttribute("RetransmitTimeout", TimeValue(Seconds(rto)));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    rdma.SetCongestionControl(cc);
    if (scheme == "gbn")
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    }
    else if (scheme == "gb0")
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackZeroLossRecovery");
    }
    else
    {
        const uint32_t cap =
            std::max<uint32_t>(16, uint32_t(std::ceil(cfg.bdpCap * rtt0 / packetTime)));
        rdma.SetLossRecovery("ns3::RdmaSackLossRecovery",
                             "ReceiverWindow",
                             UintegerValue(std::min(cap, RdmaSackHeader::MAX_BITS)),
                             "MaxOutstanding",
                             UintegerValue(cap),
                             "MinRto",
                             TimeValue(cfg.minRto));
    }
    NodeContainer hosts(sender, receiver);
    rdma.InstallHosts(hosts);
    rdma.InstallSwitches(switches);
    RdmaRoutingHelper::PopulateRoutingTables();

    RdmaLossHelper loss;
    std::ostringstream model;
    model.precision(10);
    if (lossRate > 0)
    {
        model << cfg.lossModel << ":p=" << lossRate;
        if (cfg.lossTarget.empty())
        {
            loss.Install(model.str(), NetDeviceContainer(last.Get(1)));
        }
        else
        {
            loss.Install(model.str() + cfg.lossTarget);
        }
        loss.AssignStreams(1000);
    }

    std::vector<FlowState> flows(cfg.flows);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    const uint64_t perFlow = cfg.bytes / cfg.flows;
    // The flow monitor times every message (one WRITE each) and stops the run at the last.
    RdmaFlowMonitor monitor;
    std::map<RdmaQueuePair*, FlowState*> flowOf;
    monitor.ConnectFlowComplete(MakeBoundCallback(&OnFlowComplete, &flowOf));
    uint64_t messages = 0;
    for (uint32_t i = 0; i < cfg.flows; ++i)
    {
        auto [qp, peer] = rdma.Connect(sender.Get(0), receiver.Get(0));
        FlowState& f = flows[i];
        f.messageSize = cfg.messageSize;
        qp->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, &f));
        qp->TraceConnectWithoutContext("NakReceived", MakeBoundCallback(&OnNak, &f));
        monitor.Watch(qp, peer);
        flowOf[PeekPointer(qp)] = &f;
        peer->SetReceiveCompletionCallback(MakeBoundCallback(&OnReceiveComplete, &f));
        uint64_t left = perFlow;
        uint64_t wrId = 0;
        while (left > 0)
        {
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::WRITE;
            wr.wrId = wrId;
            wr.length = std::min(left, cfg.messageSize);
            wr.remoteAddress = 0x10000000ULL * (i + 1) + wrId * cfg.messageSize;
            f.lastWrId = wrId;
            f.lastSize = wr.length;
            Simulator::ScheduleWithContext(sender.Get(0)->GetId(),
                                           Seconds(0),
                                           &RdmaQueuePair::PostSend,
                                           qp,
                                           wr);
            left -= wr.length;
            ++wrId;
            ++messages;
        }
        res.messages += wrId;
        requesters.push_back(qp);
    }
    monitor.SetStopAfterFlows(messages);

    const double capacity = DataRate(cfg.rate).GetBitRate() * cfg.mtu /
                            (cfg.mtu + RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES); // bit/s
    const Time stop = Seconds(cfg.stopFactor * cfg.bytes * 8.0 / capacity + 20 * rtt0);
    Simulator::Stop(stop);
    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Run();
    std::cout << "  " << scheme << " p=" << lossRate << ": ";
    conservation.Print(std::cout);

    uint64_t bytes = 0;
    Time lastDone(0);
    for (uint32_t i = 0; i < cfg.flows; ++i)
    {
        const FlowState& f = flows[i];
        bytes += f.completedBytes;
        lastDone = std::max(lastDone, f.lastCompletion);
        res.completed += f.expectWrId;
        res.inOrder = res.inOrder && f.inOrder && f.receiveCount == f.expectWrId;
        res.kMeasured += f.kSum;
        res.kSamples += f.kSamples;
        Ptr<RdmaQueuePair> qp = requesters[i];
        res.packetsSent += qp->GetPacketsSent();
        res.retransmissions += qp->GetRetransmissions();
        res.timeouts += qp->GetTimeouts();
        res.naks += qp->GetNaksReceived();
        if (Ptr<RdmaSackLossRecovery> s = DynamicCast<RdmaSackLossRecovery>(qp->GetLossRecovery()))
        {
            res.probes += s->GetTlpProbes();
        }
    }
    if (res.kSamples > 0)
    {
        res.kMeasured /= res.kSamples;
    }
    for (const auto& em : std::vector<Ptr<NetDevice>>{last.Get(1)})
    {
        res.drops += DynamicCast<RdmaNetDevice>(em)->GetRxDropCount();
    }
    const Time end = res.completed == res.messages ? lastDone : Simulator::Now();
    res.fctUs = end.GetSeconds() * 1e6;
    res.goodputBps = end.IsPositive() ? bytes * 8.0 / end.GetSeconds() : 0;
    Simulator::Destroy();
    return res;
}

/**
 * Check --lossTarget before the first case runs: its syntax (RdmaLossHelper::Check) and
 * that it names nodes and devices of this chain: node 0 the sender (device 0), 1 the
 * receiver (device 0), 2 .. hops + 1 the switches from the sender's side (devices 0 and 1),
 * and links between neighbours of the chain.
 */
void
CheckLossTarget(const LossRunConfig& cfg)
{
    if (cfg.lossTarget.empty())
    {
        return;
    }
    // (RdmaLossHelper::Check would look the nodes up in the NodeList, empty before a run.)
    const uint32_t nodes = cfg.hops + 2;
    std::ostringstream valid;
    valid << "'@<node>/<device>' or '@<nodeA>-<nodeB>' with nodes 0 (sender), 1 (receiver), 2 .. "
          << nodes - 1
          << " (switches), devices 0 (hosts) or 0 .. 1 (switches), links between "
             "neighbours of the chain";
    // Position of each node along the chain: sender 0, switches 1 .. hops, receiver hops + 1.
    auto position = [&cfg](uint32_t node) {
        return node == 0 ? 0 : node == 1 ? cfg.hops + 1 : node - 1;
    };
    RdmaOptionChecker::Require(cfg.lossTarget[0] == '@', "lossTarget", cfg.lossTarget, valid.str());
    for (const std::string& target : RdmaOptionChecker::SplitList(cfg.lossTarget.substr(1)))
    {
        uint32_t a = 0;
        uint32_t b = 0;
        char sep = 0;
        std::istringstream t(target);
        t >> a >> sep >> b;
        bool ok =
            !t.fail() && t.peek() == EOF && (sep == '/' || sep == '-') && a < nodes && b < nodes;
        if (ok && sep == '/')
        {
            ok = b < (a <= 1 ? 1U : 2U);
        }
        else if (ok)
        {
            const uint32_t pa = position(a);
            const uint32_t pb = position(b);
            ok = (pa > pb ? pa - pb : pb - pa) == 1;
        }
        RdmaOptionChecker::Require(ok, "lossTarget", cfg.lossTarget, valid.str());
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    LossRunConfig cfg;
    std::string schemes = "gbn,gb0,sack";
    std::string ccs = "ns3::RdmaFixedRateCongestionControl";
    std::string lossRates = "0,1e-4,1e-3,1e-2,2e-2,5e-2";
    std::string output = "results/goodput-vs-loss.csv";
    uint32_t seed = 0; // 0: ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t run = 0;  // 0: ns-3's RngRun (default 1, or --RngRun)

    CommandLine cmd(__FILE__);
    cmd.Usage("Goodput against packet loss for go-back-N, go-back-0 and SACK with RACK-TLP.");
    cmd.AddValue("schemes", "comma-separated schemes: gbn, gb0, sack", schemes);
    cmd.AddValue("ccs",
                 "comma-separated congestion controls (TypeIds), each run with every scheme, "
                 "e.g. ns3::FalconCongestionControl,ns3::SwiftCongestionControl",
                 ccs);
    cmd.AddValue("lossRates", "comma-separated loss probabilities", lossRates);
    cmd.AddValue("lossModel", "uniform, burst or every (RdmaLossHelper)", cfg.lossModel);
    cmd.AddValue("lossTarget",
                 "where the loss goes, RdmaLossHelper syntax (\"@<node>/<dev>\", "
                 "\"@<nodeA>-<nodeB>\"; nodes: 0 sender, 1 receiver, 2.. switches from the "
                 "sender's side); default: the receiver's port",
                 cfg.lossTarget);
    cmd.AddValue("rate", "rate of every link", cfg.rate);
    cmd.AddValue("delay", "propagation delay of every link", cfg.delay);
    cmd.AddValue("hops", "switches between sender and receiver", cfg.hops);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", cfg.mtu);
    cmd.AddValue("flows", "queue pairs sharing the sender's port", cfg.flows);
    cmd.AddValue("bytes", "bytes to transfer, all flows together", cfg.bytes);
    cmd.AddValue("messageSize", "bytes per WRITE message", cfg.messageSize);
    cmd.AddValue("rtoRtts", "go-back-N/0 RetransmitTimeout in loss-free RTTs", cfg.rtoRtts);
    cmd.AddValue("bdpCap", "SACK: outstanding-packet cap and reorder bitmap, in BDPs", cfg.bdpCap);
    cmd.AddValue("minRto", "SACK: MinRto", cfg.minRto);
    cmd.AddValue("stopFactor", "give up after this many loss-free transfer times", cfg.stopFactor);
    cmd.AddValue("seed", "random seed (0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "first random run number, one per simulation (0: ns-3's --RngRun)", run);
    cmd.AddValue("output", "CSV file", output);
    cmd.AddValue("pcapPrefix",
                 "write a pcap of the receiver's port per run, <prefix>-<scheme>-<loss>-... "
                 "('' = none)",
                 cfg.pcapPrefix);
    cmd.Parse(argc, argv);

    // Every option checked before the first case runs (helper/rdma-option-checker.h).
    using Check = RdmaOptionChecker;
    Check::Range<uint32_t>("hops", cfg.hops, 1, 1000);
    Check::Range<uint32_t>("flows", cfg.flows, 1, 100000);
    Check::Range<uint64_t>("bytes", cfg.bytes, cfg.flows, 1ULL << 40, "bytes (at least --flows)");
    Check::Range<uint64_t>("messageSize", cfg.messageSize, 1, 1ULL << 31, "bytes");
    Check::Rate("rate", cfg.rate);
    Check::NonNegative("delay", cfg.delay);
    Check::Attribute("mtu", std::to_string(cfg.mtu), "ns3::RdmaNic", "Mtu");
    Check::Require(cfg.rtoRtts > 0 && std::isfinite(cfg.rtoRtts),
                   "rtoRtts",
                   cfg.rtoRtts,
                   "a number of RTTs > 0, such as 1.2");
    // A cap of 0 BDPs would leave SACK its floor of 16 packets: not what was asked for.
    Check::Require(cfg.bdpCap > 0 && std::isfinite(cfg.bdpCap),
                   "bdpCap",
                   cfg.bdpCap,
                   "a number of bandwidth-delay products > 0, such as 4");
    Check::Positive("minRto", cfg.minRto);
    Check::Require(cfg.stopFactor >= 1 && std::isfinite(cfg.stopFactor),
                   "stopFactor",
                   cfg.stopFactor,
                   "a number >= 1");
    std::vector<double> rates;
    for (const std::string& r : RdmaOptionChecker::SplitList(lossRates))
    {
        const std::string problem =
            RdmaLossHelper::Check(r == "0" ? std::string("none") : cfg.lossModel + ":p=" + r);
        Check::Require(problem.empty(), "lossRates", lossRates, problem);
        rates.push_back(std::stod(r));
    }
    Check::Require(!rates.empty(), "lossRates", lossRates, "comma-separated probabilities");
    CheckLossTarget(cfg);
    const std::vector<std::string> schemeList = RdmaOptionChecker::SplitList(schemes);
    for (const std::string& s : schemeList)
    {
        Check::Require(s == "gbn" || s == "gb0" || s == "sack",
                       "schemes",
                       schemes,
                       "a comma-separated list of gbn, gb0, sack");
    }
    Check::OutputFile("output", output);
    Check::Seed(seed, 0);
    if (run == 0)
    {
        run = RngSeedManager::GetRun();
    }
    const std::vector<std::string> ccList = RdmaOptionChecker::SplitList(ccs);
    RdmaOptionChecker::Require(!ccList.empty(),
                               "ccs",
                               ccs,
                               "at least one congestion control (short name or TypeId)");
    for (const std::string& c : ccList)
    {
        RdmaHelper check;
        check.SetCongestionControl(c); // aborts naming the value and the valid TypeIds
    }

    const double k = AnalyticalK(cfg);
    const double n = std::ceil(double(std::min(cfg.messageSize, cfg.bytes / cfg.flows)) / cfg.mtu);
    const double capacity = RdmaWireSize::PayloadRate(DataRate(cfg.rate).GetBitRate(), cfg.mtu);
    // A RETH (16 bytes) in every SACK WRITE packet.
    const double fullPacket = RdmaWireSize::FullPacket(cfg.mtu); // MTU + 82 bytes
    const double sackHeader = fullPacket / (fullPacket + RdmaWireSize::RETH_BYTES);

    RdmaOutputHelper::CreateParentDirectories(output);
    std::ofstream csv(output);
    NS_ABORT_MSG_IF(!csv, "cannot write --output " << output);
    csv << "scheme,cc,loss_rate,goodput_gbps,efficiency,relative,analytic_efficiency,analytic_gbn,"
           "analytic_sr,analytic_gb0,k_analytic,k_measured,rtt0_us,delay_us,mtu,message_packets,"
           "sack_header_efficiency,messages,completed,in_order,packets_sent,retransmissions,"
           "timeouts,naks,tlp_probes,drops,fct_us\n";
    std::cout << std::fixed << std::setprecision(4);
    std::cout << "goodput-vs-loss: " << cfg.rate << ", delay " << cfg.delay.As(Time::US) << " x "
              << cfg.hops + 1 << " links, MTU " << cfg.mtu << ", " << cfg.bytes << " B in "
              << cfg.messageSize << " B messages over " << cfg.flows << " QP(s), loss "
              << cfg.lossModel << "; RTT0 " << BaseRtt(cfg, false) * 1e6 << " us, K " << k << ", C "
              << capacity / 1e9 << " Gb/s\n";
    std::cout << "scheme  cc              loss      goodput  effic.  relat.  analytic  K_meas  "
                 "retx      timeouts  probes  done\n";
    for (const std::string& cc : ccList)
    {
        for (const std::string& scheme : schemeList)
        {
            double lossFree = 0; // goodput at loss 0 of this scheme and CC, if in the sweep
            for (double p : rates)
            {
                const Result r = RunOnce(cfg, scheme, cc, p, run++);
                const double eff = r.goodputBps / capacity;
                if (p == 0)
                {
                    lossFree = r.goodputBps;
                }
                const double relative = lossFree > 0 ? r.goodputBps / lossFree : 0;
                // Periodic loss has its own closed form (GoBackNPeriodicEfficiency).
                const double gbn = cfg.lossModel == "every" ? GoBackNPeriodicEfficiency(p, k)
                                                            : GoBackNEfficiency(p, k);
                const double sr = (1 - p) * sackHeader;
                const double gb0 = GoBackZeroEfficiency(p, k, n);
                const double analytic = scheme == "gbn" ? gbn : scheme == "sack" ? sr : gb0;
                std::cout << std::setw(6) << scheme << "  " << std::left << std::setw(14)
                          << CcLabel(cc) << std::right << std::setw(8) << p << std::setw(10)
                          << r.goodputBps / 1e9 << std::setw(8) << eff << std::setw(8) << relative
                          << std::setw(10) << analytic << std::setw(8) << std::setprecision(1)
                          << r.kMeasured << std::setprecision(4) << std::setw(8)
                          << r.retransmissions << std::setw(10) << r.timeouts << std::setw(8)
                          << r.probes << "  " << r.completed << "/" << r.messages
                          << (r.inOrder ? "" : " OUT OF ORDER") << "\n";
                csv << scheme << "," << CcLabel(cc) << "," << p << "," << r.goodputBps / 1e9 << ","
                    << eff << "," << relative << "," << analytic << "," << gbn << "," << sr << ","
                    << gb0 << "," << k << "," << r.kMeasured << "," << BaseRtt(cfg, false) * 1e6
                    << "," << cfg.delay.GetSeconds() * 1e6 << "," << cfg.mtu << "," << n << ","
                    << sackHeader << "," << r.messages << "," << r.completed << "," << r.inOrder
                    << "," << r.packetsSent << "," << r.retransmissions << "," << r.timeouts << ","
                    << r.naks << "," << r.probes << "," << r.drops << "," << r.fctUs << "\n";
            }
        }
    }
    std::cout << "CSV " << output << "\n";
    return 0;
}
