/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * An N -> 1 incast and a victim flow that shares one hop with it, under any congestion
 * control (--cc: a short name such as dcqcn, hpcc, swift, or any TypeId name; --ccAttr
 * sets its attributes), with PFC on or off and any loss recovery (--lossRecovery).
 *
 *   victim sender V ----\
 *   incast senders 1-7 --+-- leaf 1 ==trunk==\         /-- R   (incast receiver)
 *   incast senders 8-15 --- leaf 2 ==trunk===+== B ==+
 *   ...                     leaf L ==trunk==/         \-- R2  (victim receiver)
 *
 * The senders sit --hostsPerLeaf (8) to a leaf switch, the victim first; every leaf has one
 * trunk to switch B, which holds both receivers. Host links run at --rate (100 Gb/s), the
 * trunks at --trunkRate, by default hostsPerLeaf x --rate (800 Gb/s), so every leaf is
 * non-blocking and the only congested port is B's downlink to R. The victim V -> R2 never
 * crosses that port: it shares only its leaf's trunk (the leaf's egress to B, B's ingress
 * from it) with seven incast flows. What hurts it is PFC. B's buffer fills with packets for
 * R, charged to B's ingress ports from the trunks; past its XOFF threshold B pauses the
 * trunks' RoCE class, which stops the victim's packets as well (head-of-line blocking: a
 * pause stops a class on a link, not a flow); the leaf's trunk queue then fills and the leaf
 * pauses its host ports, the victim's included. Without PFC, B drops instead (lossy
 * admission is per ingress queue too, so the victim's packets arriving on the trunk can be
 * dropped when the incast has used that trunk's share of the buffer), and the loss recovery
 * resends. A congestion control that keeps B's queue short spares the victim both. With
 * --trunkRate below the non-blocking figure the trunks congest too, and the victim shares
 * its leaf's trunk queue with the incast as well. Every rate has an in-band telemetry
 * line-rate code (10, 25, 40, 50, 100, 200, 400, 800 Gb/s) by default, as HPCC's switches
 * need.
 *
 * Figures (stdout and one row per run appended to <outputDir>/runs.csv):
 *  - incast flow completion times (mean, p99) and the last completion against the
 *    bottleneck bound N x wire(size) / C (wire: payload plus 82 bytes per packet of Ethernet,
 *    IPv4, UDP, BTH, ICRC, FCS, preamble and gap, plus the 16-byte RETH of the first packet);
 *  - the victim's completion time against its alone-time: the same run without the incast
 *    (--alone, simulated) and the line-rate bound wire(size) / C + base RTT - one frame's
 *    time on the host link (the last byte leaves after wire(size) / C; the rest of the
 *    round trip brings its ACK back);
 *  - B's bottleneck egress queue (RoCE class): peak and time-average up to the last incast
 *    completion, exact (from the switch's EgressQueue trace, not sampled);
 *  - PFC: XOFF frames sent by B and by the leaves, and how long the victim's trunk was
 *    paused (sampled);
 *  - drops (switches and links), retransmissions, timeouts; and conservation: payload bytes
 *    posted and delivered in order (equal when every flow completed).
 * The time series (<outputDir>/queue-<label>.csv, every --sampleInterval) holds B's
 * bottleneck queue, the victim leaf's trunk queue, whether that trunk is paused, the paused
 * host ports
 * and the bytes each side delivered. examples/plot-incast-window-vs-rate.py draws both.
 *
 * The queue pairs get the path's base RTT (RdmaQueuePair::BaseRtt: a full data packet
 * and its ACK stored and forwarded over host link, trunk and host link, plus propagation)
 * unless
 * --baseRtt=0, for the congestion controls that need it (HPCC's window C x T, Swift's
 * target).
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("IncastWindowVsRateExample");

namespace
{

/// RoCE traffic class (DSCP 26 >> 3).
constexpr uint8_t ROCE_CLASS = 3;

/// Everything the command line chooses.
struct Options
{
    uint32_t senders{32};
    uint64_t size{100000};
    uint64_t victimSize{1000000};
    Time victimStart{Seconds(0)};
    std::string rate{"100Gbps"};
    std::string trunkRate{"0"};
    uint32_t hostsPerLeaf{8};
    Time delay{MicroSeconds(1)};
    uint64_t buffer{4 * 1024 * 1024};
    bool pfc{true};
    bool ecn{true};
    uint64_t kmin{5000};
    uint64_t kmax{200000};
    double pmax{0.01};
    uint32_t mtu{1024};
    std::string cc{"dcqcn"};
    std::string ccAttr;
    std::string lossRecovery{"gbn"};
    std::string lossRecoveryAttr;
    Time baseRtt{Seconds(-1)};
    Time rto{Seconds(0)};
    bool alone{true};
    Time sampleInterval{MicroSeconds(1)};
    Time stopTime{Seconds(2)};
    std::string outputDir{"results/incast-window-vs-rate"};
    std::string label;
    uint32_t seed{1};
    uint32_t run{1};
};

/// One flow.
struct Flow
{
    Ptr<RdmaQueuePair> qp;
    Ptr<RdmaQueuePair> rx;
    uint64_t bytes{0};
    Time start;
    Time finish;
    bool done{false};
};

/// The results of one simulation.
struct Result
{
    std::vector<double> incastFctUs;
    uint32_t incastCompleted{0};
    double lastIncastUs{0};
    double victimFctUs{-1};
    double queuePeak{0};
    double queueMean{0};
    uint64_t xoffB{0};
    uint64_t xoffA{0}; //!< sent by the leaves
    double trunkPausedUs{0};
    uint64_t switchDrops{0};
    uint64_t linkDrops{0};
    uint64_t retransmissions{0};
    uint64_t timeouts{0};
    uint64_t bytesPosted{0};
    uint64_t bytesDelivered{0};
    uint64_t ecnMarks{0};
    uint64_t events{0};
};

/// The time-weighted bottleneck queue, from the switch's EgressQueue trace.
struct QueueTracker
{
    uint32_t port{0};
    uint32_t bytes{0};
    uint32_t peak{0};
    Time last;
    double integral{0}; //!< byte-seconds
    Time until{Time::Max()};

    void Advance(Time now)
    {
        const Time t = std::min(now, until);
        if (t > last)
        {
            integral += bytes * (t - last).GetSeconds();
            last = t;
        }
    }
};

void
OnEgressQueue(QueueTracker* q, uint32_t port, uint8_t cls, uint32_t bytes)
{
    if (port != q->port || cls != ROCE_CLASS)
    {
        return;
    }
    q->Advance(Simulator::Now());
    q->bytes = bytes;
    if (Simulator::Now() <= q->until)
    {
        q->peak = std::max(q->peak, bytes);
    }
}

/// What the completions and the sampler share.
struct RunState
{
    std::vector<Flow> flows; //!< incast flows first, the victim last (if any)
    uint32_t incastRemaining{0};
    uint32_t incastFlows{0};
    QueueTracker queue;
    std::ofstream* series{nullptr};
    Ptr<RdmaNetDevice> bottleneck;             //!< B's port to R
    Ptr<RdmaNetDevice> trunkA;                 //!< the victim's leaf's port to B
    std::vector<Ptr<RdmaNetDevice>> hostPorts; //!< senders' NIC ports
    Time interval;
    uint64_t trunkPausedSamples{0};
    std::string lastRow;    //!< the last sample, written or not
    bool lastWritten{true}; //!< whether lastRow was written
};

/// The flow monitor's record of a completed flow (wrId = the flow's index).
void
OnFlowComplete(RunState* s, const RdmaFlowMonitor::FlowRecord& r)
{
    Flow& f = s->flows[r.wrId];
    f.finish = r.finish;
    f.done = true;
    if (r.wrId < s->incastFlows && --s->incastRemaining == 0)
    {
        s->queue.Advance(Simulator::Now());
        s->queue.until = Simulator::Now();
    }
}

void
Sample(RunState* s)
{
    const bool trunkPaused = s->trunkA->IsClassPaused(ROCE_CLASS);
    s->trunkPausedSamples += trunkPaused;
    if (s->series)
    {
        uint32_t paused = 0;
        for (const auto& d : s->hostPorts)
        {
            paused += d->IsClassPaused(ROCE_CLASS);
        }
        uint64_t incast = 0;
        for (uint32_t i = 0; i < s->incastFlows; ++i)
        {
            incast += s->flows[i].rx->GetBytesReceived();
        }
        const uint64_t victim =
            s->flows.size() > s->incastFlows ? s->flows.back().rx->GetBytesReceived() : 0;
        std::ostringstream row;
        row << s->bottleneck->GetQueueBytes(ROCE_CLASS) << ","
            << s->trunkA->GetQueueBytes(ROCE_CLASS) << "," << trunkPaused << "," << paused << ","
            << incast << "," << victim << "\n";
        // Idle stretches (a lossy run waiting for its retransmission timer) write only their
        // first and last rows.
        const std::string now = std::to_string(Simulator::Now().GetSeconds() * 1e6) + ",";
        if (row.str() != s->lastRow || Simulator::Now().IsZero())
        {
            if (!s->lastWritten)
            {
                *s->series << std::to_string((Simulator::Now() - s->interval).GetSeconds() * 1e6)
                           << "," << s->lastRow;
            }
            *s->series << now << row.str();
            s->lastWritten = true;
        }
        else
        {
            s->lastWritten = false;
        }
        s->lastRow = row.str();
    }
    Simulator::Schedule(s->interval, &Sample, s);
}

/// \return the unloaded round trip of a full data packet and its ACK over host link, trunk,
/// host link (store and forward), plus propagation
Time
PathBaseRtt(const Options& o, DataRate host, DataRate trunk)
{
    const uint32_t dataFrame = o.mtu + 44 + 14; // IPv4 20, UDP 8, BTH 12, ICRC 4; Ethernet 14
    const uint32_t ackFrame = 48 + 14;          // IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4
    const uint32_t wire = RdmaNetDevice::WireBytes(dataFrame) + RdmaNetDevice::WireBytes(ackFrame);
    return 2 * host.CalculateBytesTxTime(wire) + trunk.CalculateBytesTxTime(wire) + 6 * o.delay;
}

/**
 * Build the fabric, run it, collect the figures.
 * \param o the options
 * \param withIncast false: the victim alone
 * \param series time-series file (nullptr: none)
 * \param baseRtt the base RTT given to the queue pairs (0: none)
 * \param trunkRate the trunk's rate
 * \return the figures
 */
Result
RunScenario(const Options& o, bool withIncast, std::ofstream* series, Time baseRtt, DataRate trunk)
{
    const uint32_t n = withIncast ? o.senders : 0;
    const bool victim = o.victimSize > 0;
    NodeContainer receivers(2); // R, R2
    NodeContainer senders(n + (victim ? 1 : 0));
    // Leaves: the victim first, then the incast senders, hostsPerLeaf to a leaf.
    const uint32_t nLeaves = (senders.GetN() + o.hostsPerLeaf - 1) / o.hostsPerLeaf;
    NodeContainer leaves(nLeaves);
    Ptr<Node> bNode = CreateObject<Node>();
    NodeContainer switches(leaves, NodeContainer(bNode));

    RdmaLinkHelper hostLink;
    hostLink.SetDeviceAttribute("DataRate", StringValue(o.rate));
    hostLink.SetChannelAttribute("Delay", TimeValue(o.delay));
    RdmaLinkHelper trunkLink;
    trunkLink.SetDeviceAttribute("DataRate", DataRateValue(trunk));
    trunkLink.SetChannelAttribute("Delay", TimeValue(o.delay));
    // Port numbers follow the device order: B's ports 0..L-1 are the trunks from the leaves,
    // port L faces R, port L + 1 faces R2; a leaf's port 0 is its trunk.
    std::vector<Ptr<RdmaNetDevice>> trunkUp; // each leaf's port to B
    for (uint32_t l = 0; l < nLeaves; ++l)
    {
        NetDeviceContainer d = trunkLink.Install(leaves.Get(l), bNode);
        trunkUp.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
    }
    NetDeviceContainer toR = hostLink.Install(receivers.Get(0), bNode);
    hostLink.Install(receivers.Get(1), bNode);
    std::vector<Ptr<RdmaNetDevice>> hostPorts;
    for (uint32_t i = 0; i < senders.GetN(); ++i)
    {
        const uint32_t place = victim ? (i == n ? 0 : i + 1) : i; // the victim first
        NetDeviceContainer d = hostLink.Install(senders.Get(i), leaves.Get(place / o.hostsPerLeaf));
        hostPorts.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
    }

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(o.mtu));
    RdmaCcHelper::SetCongestionControl(rdma, o.cc, o.ccAttr);
    RdmaCcHelper::SetLossRecovery(rdma, o.lossRecovery, o.lossRecoveryAttr);
    if (baseRtt.IsStrictlyPositive())
    {
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    }
    if (o.rto.IsStrictlyPositive())
    {
        rdma.SetNicAttribute("RetransmitTimeout", TimeValue(o.rto));
    }
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(o.ecn));
    rdma.SetSwitchAttribute("EcnKmin", UintegerValue(o.kmin));
    rdma.SetSwitchAttribute("EcnKmax", UintegerValue(o.kmax));
    rdma.SetSwitchAttribute("EcnPmax", DoubleValue(o.pmax));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(o.buffer));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(o.pfc));
    rdma.InstallHosts(NodeContainer(receivers, senders));
    rdma.InstallSwitches(switches);
    rdma.AssignStreams(switches, 0);
    RdmaRoutingHelper::PopulateRoutingTables();

    RunState s;
    s.incastFlows = n;
    s.flows.resize(senders.GetN());
    // The flow monitor times every WRITE and stops the run at the last completion (the
    // sampler never ends by itself).
    RdmaFlowMonitor monitor;
    monitor.ConnectFlowComplete(MakeBoundCallback(&OnFlowComplete, &s));
    monitor.SetStopAfterFlows(senders.GetN());
    for (uint32_t i = 0; i < senders.GetN(); ++i)
    {
        const bool isVictim = i == n;
        Flow& f = s.flows[i];
        std::tie(f.qp, f.rx) = rdma.Connect(senders.Get(i), receivers.Get(isVictim ? 1 : 0));
        f.bytes = isVictim ? o.victimSize : o.size;
        f.start = isVictim ? o.victimStart : Seconds(0);
        monitor.Watch(f.qp, f.rx);
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = i;
        wr.length = f.bytes;
        wr.remoteAddress = 0x10000000ULL * (i + 1);
        Simulator::ScheduleWithContext(senders.Get(i)->GetId(),
                                       f.start,
                                       &RdmaQueuePair::PostSend,
                                       f.qp,
                                       wr);
    }
    s.incastRemaining = n;

    Ptr<RdmaSwitch> b = bNode->GetObject<RdmaSwitch>();
    s.bottleneck = DynamicCast<RdmaNetDevice>(toR.Get(1));
    s.trunkA = trunkUp[0]; // the victim's leaf
    NS_ABORT_MSG_UNLESS(b->GetPort(nLeaves) == s.bottleneck, "B's port L is not the port to R");
    s.queue.port = nLeaves;
    b->TraceConnectWithoutContext("EgressQueue", MakeBoundCallback(&OnEgressQueue, &s.queue));
    s.hostPorts = hostPorts;
    s.series = series;
    s.interval = o.sampleInterval;
    Simulator::ScheduleWithContext(bNode->GetId(), Seconds(0), &Sample, &s);

    Simulator::Stop(o.stopTime);
    Simulator::Run();

    Result r;
    for (uint32_t i = 0; i < s.flows.size(); ++i)
    {
        const Flow& f = s.flows[i];
        const double fct = f.done ? (f.finish - f.start).GetSeconds() * 1e6 : -1;
        if (i < n)
        {
            if (f.done)
            {
                r.incastFctUs.push_back(fct);
                r.lastIncastUs = std::max(r.lastIncastUs, f.finish.GetSeconds() * 1e6);
            }
        }
        else
        {
            r.victimFctUs = fct;
        }
        r.retransmissions += f.qp->GetRetransmissions();
        r.timeouts += f.qp->GetTimeouts();
        r.bytesPosted += f.bytes;
        r.bytesDelivered += f.rx->GetBytesReceived();
    }
    r.incastCompleted = r.incastFctUs.size();
    s.queue.Advance(Simulator::Now());
    const double span = std::min(s.queue.until, Simulator::Now()).GetSeconds();
    r.queuePeak = s.queue.peak;
    r.queueMean = span > 0 ? s.queue.integral / span : 0;
    r.xoffB = b->GetPfcPausesSent();
    r.trunkPausedUs = s.trunkPausedSamples * o.sampleInterval.GetSeconds() * 1e6;
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<RdmaSwitch> sw = switches.Get(i)->GetObject<RdmaSwitch>();
        r.xoffA += sw == b ? 0 : sw->GetPfcPausesSent();
        r.switchDrops += sw->GetTotalDrops();
        r.ecnMarks += sw->GetEcnMarks();
    }
    for (NodeContainer c : {switches, receivers, senders})
    {
        for (uint32_t i = 0; i < c.GetN(); ++i)
        {
            for (uint32_t d = 0; d < c.Get(i)->GetNDevices(); ++d)
            {
                if (auto dev = DynamicCast<RdmaNetDevice>(c.Get(i)->GetDevice(d)))
                {
                    r.linkDrops += dev->GetRxDropCount();
                }
            }
        }
    }
    r.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    Options o;
    std::ostringstream ccNames;
    for (const auto& [shortName, typeId] : RdmaCcHelper::GetCongestionControlNames())
    {
        ccNames << (ccNames.tellp() > 0 ? ", " : "") << shortName;
    }
    CommandLine cmd(__FILE__);
    cmd.Usage("N -> 1 incast plus a victim flow sharing the trunk, under any congestion "
              "control, PFC on or off: completion times, queue, pauses, drops.");
    cmd.AddValue("senders", "incast senders N (1..256)", o.senders);
    cmd.AddValue("size", "bytes each incast sender WRITEs", o.size);
    cmd.AddValue("victimSize", "bytes the victim WRITEs (0: no victim)", o.victimSize);
    cmd.AddValue("victimStart", "when the victim posts its WRITE", o.victimStart);
    cmd.AddValue("rate", "rate of every host link", o.rate);
    cmd.AddValue("hostsPerLeaf",
                 "senders per leaf switch (the victim's leaf included)",
                 o.hostsPerLeaf);
    cmd.AddValue("trunkRate",
                 "rate of each leaf's trunk to B (0: hostsPerLeaf x --rate, non-blocking)",
                 o.trunkRate);
    cmd.AddValue("delay", "propagation delay of every link", o.delay);
    cmd.AddValue("buffer", "shared buffer of each switch, bytes", o.buffer);
    cmd.AddValue("pfc", "PFC on the RoCE class (false: lossy)", o.pfc);
    cmd.AddValue("ecn", "RED/ECN marking at the switches", o.ecn);
    cmd.AddValue("kmin", "RED Kmin, bytes", o.kmin);
    cmd.AddValue("kmax", "RED Kmax, bytes", o.kmax);
    cmd.AddValue("pmax", "RED Pmax", o.pmax);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", o.mtu);
    cmd.AddValue("cc", "congestion control: " + ccNames.str() + ", or a TypeId name", o.cc);
    cmd.AddValue("ccAttr", "its attributes, Name=Value,Name=Value", o.ccAttr);
    cmd.AddValue("lossRecovery", "loss recovery: gbn, gb0, sack, or a TypeId name", o.lossRecovery);
    cmd.AddValue("lossRecoveryAttr", "its attributes, Name=Value,...", o.lossRecoveryAttr);
    cmd.AddValue("baseRtt",
                 "RdmaQueuePair::BaseRtt given to every queue pair (negative: the path's, "
                 "computed; 0: none, the congestion control measures it)",
                 o.baseRtt);
    cmd.AddValue("rto",
                 "RdmaNic::RetransmitTimeout (0: the NIC's default, IBTA 4.096 us x 2^14 = "
                 "67.1 ms)",
                 o.rto);
    cmd.AddValue("alone", "also simulate the victim alone, for its alone-time", o.alone);
    cmd.AddValue("sampleInterval", "time-series sampling interval", o.sampleInterval);
    cmd.AddValue("stopTime", "simulation stop time, if flows have not completed", o.stopTime);
    cmd.AddValue("outputDir", "folder of runs.csv and the time series", o.outputDir);
    cmd.AddValue("label", "name of the run (default: cc-pfc|lossy-lossRecovery)", o.label);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager)", o.seed);
    cmd.AddValue("run", "random run number", o.run);
    cmd.Parse(argc, argv);

    // Every option checked before anything is built (helper/rdma-option-checker.h).
    RdmaOptionChecker::Range<uint32_t>("senders", o.senders, 1, 256);
    RdmaOptionChecker::Range<uint32_t>("hostsPerLeaf", o.hostsPerLeaf, 1, 64);
    RdmaOptionChecker::Range<uint64_t>("size", o.size, 1, 1ULL << 40, "bytes");
    RdmaOptionChecker::Range<uint32_t>("mtu", o.mtu, 256, 4096, "bytes");
    RdmaOptionChecker::Positive("sampleInterval", o.sampleInterval);
    RdmaOptionChecker::NonNegative("rto", o.rto);
    RdmaOptionChecker::NonNegative("victimStart", o.victimStart);
    RdmaOptionChecker::OutputDirectory("outputDir", o.outputDir);
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(o.run);

    const DataRate host(o.rate);
    DataRate trunk(o.trunkRate);
    if (trunk.GetBitRate() == 0)
    {
        trunk = DataRate(host.GetBitRate() * o.hostsPerLeaf);
    }
    const std::string ccTypeId = RdmaCcHelper::ResolveCongestionControl(o.cc);
    const std::string lrTypeId = RdmaCcHelper::ResolveLossRecovery(o.lossRecovery);
    if (o.label.empty())
    {
        o.label = RdmaCcHelper::GetShortName(ccTypeId) + (o.pfc ? "-pfc-" : "-lossy-") +
                  RdmaCcHelper::GetShortName(lrTypeId);
    }
    const Time pathRtt = PathBaseRtt(o, host, trunk);
    const Time baseRtt = o.baseRtt.IsNegative() ? pathRtt : o.baseRtt;

    RdmaOutputHelper::CreateDirectories(o.outputDir);
    const std::string seriesPath = o.outputDir + "/queue-" + o.label + ".csv";
    std::ofstream series(seriesPath);
    NS_ABORT_MSG_IF(!series, "cannot write " << seriesPath << " (--outputDir, --label)");
    series << "time_us,bottleneck_queue_bytes,trunk_queue_bytes,trunk_paused,paused_host_ports,"
              "incast_delivered_bytes,victim_delivered_bytes\n";

    const Result r = RunScenario(o, true, &series, baseRtt, trunk);
    series.close();
    Result alone;
    if (o.alone && o.victimSize > 0)
    {
        alone = RunScenario(o, false, nullptr, baseRtt, trunk);
    }

    const double lineBps = host.GetBitRate();
    const double boundUs =
        o.senders * double(RdmaWireSize::WriteMessage(o.size, o.mtu)) * 8 / lineBps * 1e6;
    // The victim alone: its last byte leaves the NIC after wire(size) / C; the rest of the
    // base RTT minus the one frame's serialization on the host link already counted brings
    // its ACK back.
    const Time frameTime = host.CalculateBytesTxTime(RdmaNetDevice::WireBytes(o.mtu + 44 + 14));
    const double victimBoundUs =
        double(RdmaWireSize::WriteMessage(o.victimSize, o.mtu)) * 8 / lineBps * 1e6 +
        (pathRtt - frameTime).GetSeconds() * 1e6;
    RdmaSampleSummary incastFcts;
    incastFcts.Add(r.incastFctUs);
    const double fctMean = incastFcts.GetCount() == 0 ? -1 : incastFcts.GetMean();
    const double fctP99 = incastFcts.GetNearestRankPercentile(0.99);
    const bool victimDone = o.victimSize == 0 || r.victimFctUs >= 0;
    const bool complete = r.incastCompleted == o.senders && victimDone;

    std::cout << std::fixed << std::setprecision(2);
    std::cout << "incast-window-vs-rate: " << o.senders << " x " << o.size << " B -> 1, victim "
              << o.victimSize << " B; " << o.rate << " hosts, " << o.hostsPerLeaf
              << " per leaf, trunks " << trunk.GetBitRate() / 1e9 << " Gb/s, delay "
              << o.delay.As(Time::US) << ", MTU " << o.mtu << ", buffer " << o.buffer << " B, PFC "
              << (o.pfc ? "on" : "off") << ", ECN " << (o.ecn ? "on" : "off") << "\n";
    std::cout << "  congestion control " << ccTypeId << (o.ccAttr.empty() ? "" : " ") << o.ccAttr
              << "; loss recovery " << lrTypeId << "; base RTT " << baseRtt.As(Time::NS)
              << " (path " << pathRtt.As(Time::NS) << ")\n";
    std::cout << "  incast: completed " << r.incastCompleted << "/" << o.senders << "; FCT mean "
              << fctMean << " us, p99 " << fctP99 << " us; last completion " << r.lastIncastUs
              << " us = " << std::setprecision(4) << r.lastIncastUs / boundUs
              << std::setprecision(2) << " x the bound N x wire(size) / C = " << boundUs << " us\n";
    if (o.victimSize > 0)
    {
        std::cout << "  victim: FCT " << r.victimFctUs << " us; alone "
                  << (o.alone ? alone.victimFctUs : -1.0) << " us (line-rate bound "
                  << victimBoundUs << " us); slowdown " << std::setprecision(3)
                  << (o.alone && alone.victimFctUs > 0 ? r.victimFctUs / alone.victimFctUs : -1.0)
                  << std::setprecision(2) << "\n";
    }
    std::cout << "  bottleneck queue (B -> R): peak " << r.queuePeak / 1e3 << " KB, mean "
              << r.queueMean / 1e3 << " KB (to the last incast completion); ECN marks "
              << r.ecnMarks << "\n";
    std::cout << "  PFC: XOFF sent by B " << r.xoffB << ", by the leaves " << r.xoffA
              << "; the victim's trunk paused " << r.trunkPausedUs << " us\n";
    std::cout << "  drops: switches " << r.switchDrops << ", links " << r.linkDrops
              << "; retransmissions " << r.retransmissions << ", timeouts " << r.timeouts << "\n";
    std::cout << "  bytes posted " << r.bytesPosted << ", delivered " << r.bytesDelivered
              << "; events " << r.events << "\n";

    const std::string runsPath = o.outputDir + "/runs.csv";
    std::ifstream existing(runsPath);
    const bool header = !existing || existing.peek() == std::ifstream::traits_type::eof();
    existing.close();
    std::ofstream runs(runsPath, std::ios::app);
    NS_ABORT_MSG_IF(!runs, "cannot write " << runsPath << " (--outputDir)");
    if (header)
    {
        runs << "label,cc,cc_attr,loss_recovery,pfc,ecn,senders,size,victim_size,rate_gbps,"
                "trunk_gbps,buffer,incast_completed,incast_fct_mean_us,incast_fct_p99_us,"
                "last_completion_us,bound_us,last_over_bound,victim_fct_us,victim_alone_us,"
                "victim_bound_us,queue_peak_bytes,queue_mean_bytes,xoff_b,xoff_leaves,"
                "trunk_paused_us,switch_drops,link_drops,retransmissions,timeouts,ecn_marks,"
                "bytes_posted,bytes_delivered,events\n";
    }
    runs << std::setprecision(10) << o.label << "," << ccTypeId << ",\"" << o.ccAttr << "\","
         << lrTypeId << "," << o.pfc << "," << o.ecn << "," << o.senders << "," << o.size << ","
         << o.victimSize << "," << lineBps / 1e9 << "," << trunk.GetBitRate() / 1e9 << ","
         << o.buffer << "," << r.incastCompleted << "," << fctMean << "," << fctP99 << ","
         << r.lastIncastUs << "," << boundUs << "," << r.lastIncastUs / boundUs << ","
         << r.victimFctUs << "," << (o.alone ? alone.victimFctUs : -1.0) << "," << victimBoundUs
         << "," << r.queuePeak << "," << r.queueMean << "," << r.xoffB << "," << r.xoffA << ","
         << r.trunkPausedUs << "," << r.switchDrops << "," << r.linkDrops << ","
         << r.retransmissions << "," << r.timeouts << "," << r.ecnMarks << "," << r.bytesPosted
         << "," << r.bytesDelivered << "," << r.events << "\n";
    std::cout << "  CSV " << runsPath << " (one row per run), time series " << seriesPath << "\n";
    return complete && r.bytesDelivered == r.bytesPosted ? 0 : 1;
}
