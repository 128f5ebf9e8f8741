/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * N long flows share one bottleneck under DCQCN (Zhu et al., SIGCOMM 2015):
 *
 *   sender 1 --\
 *   sender 2 ---+-- switch ---- receiver      every link --rate, --delay
 *   sender N --/
 *
 * Each sender WRITEs to the receiver without end from its start time (--startTimes, or
 * flow i at i x --startInterval). The switch marks ECN by RED on the egress queue to the
 * receiver (--kmin, --kmax, --pmax), when a packet leaves the queue (--ecnMarkingPoint
 * dequeue, the default: the DCQCN papers' switches mark at egress, so the mark carries the
 * queue at departure and the loop delay is the propagation delay; Zhu et al., CoNEXT
 * 2016, §5.1) or when it enters it (enqueue: the mark is delayed by the queueing delay,
 * about 27 us at 135 KB and 40 Gb/s); the receiver's NIC sends CNPs (--cnpInterval); the
 * senders run ns3::DcqcnCongestionControl with the parameters of --preset (paper or
 * connectx, RdmaCcHelper::ApplyDcqcnPaperPreset / ApplyDcqcnConnectXPreset), each of which
 * a command-line option overrides (--g, --timer, --rai, ...; --PrintHelp lists them).
 *
 * Output
 *  - --output: time series CSV, one row per --sampleInterval: time_us, queue_bytes (the
 *    bottleneck egress queue, class 3), then per flow i rate_gbps_i (DCQCN current rate),
 *    tput_gbps_i (wire throughput received in the last interval), alpha_i.
 *  - --summaryOutput: key,value CSV of the figures below.
 *  - stdout: steady-state (from --measureFrom, default half-way between the last start and
 *    the end) per-flow wire throughput, Jain's fairness index, mean and 99th percentile
 *    queue, time to converge within 10 % of the fair share C/N (windows of
 *    --convergenceWindow after the last start), and the fixed point of the DCQCN fluid
 *    model (Zhu et al., CoNEXT 2016, equations (5)-(9) of SIGCOMM 2015) for comparison.
 * examples/plot-dcqcn-convergence.py renders the CSV as a PNG.
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
#include <tuple>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DcqcnConvergenceExample");

namespace
{

/// Wire bytes of a data packet besides its payload (82: Ethernet, IPv4, UDP, BTH, ICRC, FCS,
/// preamble, inter-frame gap).

/// One flow of the experiment.
struct Flow
{
    Ptr<RdmaQueuePair> qp;
    Ptr<RdmaQueuePair> responder;
    Ptr<DcqcnCongestionControl> cc;
    Ptr<Node> node;
    Time start;
    uint64_t nextWrId{0};
};

/// Time series kept in memory for the summary.
struct Samples
{
    std::vector<double> timeUs;
    std::vector<uint32_t> queue;
    std::vector<std::vector<uint64_t>> bytes; //!< cumulative payload received, per flow
    std::vector<uint64_t> marks;              //!< cumulative CE marks of the switch
    std::vector<std::vector<uint64_t>> cnps;  //!< cumulative CNPs received, per flow
    std::vector<double> alphaSum;             //!< sum of sampled alpha, per flow
    std::vector<std::size_t> alphaCount;      //!< samples in alphaSum (steady state)
    double measureFromUs{0};                  //!< start of the steady-state window
};

/// Post one more 1 GB WRITE (the flows never end).
void
PostChunk(Flow* f)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = f->nextWrId++;
    wr.length = 1000000000ULL;
    wr.remoteAddress = 0x1000;
    f->qp->PostSend(wr);
}

void
OnComplete(Flow* f, const RdmaCompletion& /* c */)
{
    PostChunk(f);
}

/// What the periodic sampler reads and writes.
struct Sampler
{
    std::ofstream* csv;
    Samples* samples;
    std::vector<Flow>* flows;
    Ptr<RdmaNetDevice> bottleneck; //!< switch port to the receiver
    Ptr<RdmaSwitch> sw;
    Time interval;
    double wireFactor; //!< wire bytes per payload byte
};

void
Sample(Sampler* x)
{
    Samples* s = x->samples;
    std::ofstream& csv = *x->csv;
    const std::vector<Flow>& flows = *x->flows;
    const double now = Simulator::Now().GetSeconds() * 1e6;
    const uint32_t q = x->bottleneck->GetQueueBytes(3);
    s->timeUs.push_back(now);
    s->queue.push_back(q);
    s->marks.push_back(x->sw->GetEcnMarks());
    csv << now << "," << q;
    const std::size_t k = s->timeUs.size() - 1;
    for (const Flow& f : flows)
    {
        csv << "," << f.cc->GetCurrentRate().GetBitRate() * 1e-9;
    }
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const uint64_t b = flows[i].responder->GetBytesReceived();
        const uint64_t prev = k == 0 ? 0 : s->bytes[i].back();
        s->bytes[i].push_back(b);
        csv << "," << (b - prev) * 8.0 * x->wireFactor / x->interval.GetSeconds() * 1e-9;
    }
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const double alpha = flows[i].cc->GetAlpha();
        csv << "," << alpha;
        s->cnps[i].push_back(flows[i].cc->GetCnpsReceived());
        if (now >= s->measureFromUs)
        {
            s->alphaSum[i] += alpha;
            ++s->alphaCount[i];
        }
    }
    csv << "\n";
    Simulator::Schedule(x->interval, &Sample, x);
}

/// Parse "0,1ms,2.5ms" into times.
std::vector<Time>
ParseTimes(const std::string& text)
{
    std::vector<Time> out;
    for (const std::string& item : RdmaOptionChecker::SplitList(text))
    {
        out.push_back(item == "0" ? Time(0) : Time(item));
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    uint32_t nFlows = 2;
    std::string rate = "40Gbps";
    Time delay = MicroSeconds(1);
    std::string startTimes;
    Time startInterval = Seconds(0);
    Time duration = MilliSeconds(70);
    uint32_t mtu = 1024;
    uint32_t ackInterval = 1;
    uint64_t bufferBytes = 32 * 1024 * 1024;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    std::string ecnMarkingPoint = "dequeue";
    std::string preset = "paper";
    uint32_t seed = 0; // 0: ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t run = 0;  // 0: ns-3's RngRun (default 1, or --RngRun)
    Time sampleInterval = MicroSeconds(10);
    Time measureFrom = Seconds(-1);
    Time convergenceWindow = MilliSeconds(5);
    std::string output = "results/dcqcn-convergence.csv";
    std::string summaryOutput = "results/dcqcn-convergence-summary.csv";
    // DCQCN parameters: "" keeps the preset's value.
    std::string g;
    std::string initialAlpha;
    std::string alphaInterval;
    std::string alphaMode;
    std::string rateDecreaseInterval;
    std::string rateDecreaseDivisor;
    std::string minDecreaseFactor;
    std::string timer;
    std::string byteCounter;
    std::string fastRecovery;
    std::string rai;
    std::string rhai;
    std::string minRate;
    std::string clampTargetRate;
    std::string clampAfterTimeInc;
    std::string cnpInterval;

    CommandLine cmd(__FILE__);
    cmd.Usage("N long flows share one bottleneck under DCQCN: rates, queue, fairness and "
              "convergence, against the DCQCN fluid model's fixed point.");
    cmd.AddValue("flows", "number of flows N", nFlows);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("startTimes", "comma-separated start times, e.g. 0,5ms,10ms", startTimes);
    cmd.AddValue("startInterval",
                 "flow i starts at i x this (without --startTimes)",
                 startInterval);
    cmd.AddValue("duration", "simulated time", duration);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("ackInterval", "ns3::RdmaNic::AckInterval (ACK every n packets)", ackInterval);
    cmd.AddValue("buffer", "switch shared buffer, bytes", bufferBytes);
    cmd.AddValue("kmin", "RED Kmin, bytes (ns3::RdmaSwitch::EcnKmin)", kmin);
    cmd.AddValue("kmax", "RED Kmax, bytes (ns3::RdmaSwitch::EcnKmax)", kmax);
    cmd.AddValue("pmax", "RED Pmax (ns3::RdmaSwitch::EcnPmax)", pmax);
    cmd.AddValue("ecnMarkingPoint",
                 "where the switch marks (ns3::RdmaSwitch::EcnMarkingPoint): dequeue (egress, "
                 "as the DCQCN papers' switches) or enqueue",
                 ecnMarkingPoint);
    cmd.AddValue("preset", "DCQCN parameter set: paper or connectx", preset);
    cmd.AddValue("g", "G: alpha gain", g);
    cmd.AddValue("initialAlpha", "InitialAlpha", initialAlpha);
    cmd.AddValue("alphaInterval", "AlphaUpdateInterval (K), e.g. 55us", alphaInterval);
    cmd.AddValue("alphaMode", "AlphaUpdateMode: PerCnp or Periodic", alphaMode);
    cmd.AddValue("rateDecreaseInterval", "RateDecreaseInterval, e.g. 4us", rateDecreaseInterval);
    cmd.AddValue("rateDecreaseDivisor", "RateDecreaseDivisor", rateDecreaseDivisor);
    cmd.AddValue("minDecreaseFactor", "MinDecreaseFactor", minDecreaseFactor);
    cmd.AddValue("timer", "RateIncreaseInterval (T), e.g. 55us", timer);
    cmd.AddValue("byteCounter", "ByteCounter (B), bytes", byteCounter);
    cmd.AddValue("fastRecovery", "FastRecoverySteps (F)", fastRecovery);
    cmd.AddValue("rai", "AdditiveIncreaseRate, e.g. 40Mbps", rai);
    cmd.AddValue("rhai", "HyperIncreaseRate, e.g. 200Mbps", rhai);
    cmd.AddValue("minRate", "MinRate, e.g. 100Mbps", minRate);
    cmd.AddValue("clampTargetRate", "ClampTargetRate (true/false)", clampTargetRate);
    cmd.AddValue("clampAfterTimeInc", "ClampTargetRateAfterTimeIncrease", clampAfterTimeInc);
    cmd.AddValue("cnpInterval", "ns3::RdmaNic::CnpInterval (NP), e.g. 50us", cnpInterval);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("sampleInterval", "time series sampling interval", sampleInterval);
    cmd.AddValue("measureFrom",
                 "start of the steady-state window (default: half-way)",
                 measureFrom);
    cmd.AddValue("convergenceWindow",
                 "averaging window of the convergence test",
                 convergenceWindow);
    cmd.AddValue("output", "time series CSV", output);
    cmd.AddValue("summaryOutput", "summary CSV (key,value)", summaryOutput);
    cmd.Parse(argc, argv);

    // Every option checked before anything is built (helper/rdma-option-checker.h).
    using Check = RdmaOptionChecker;
    Check::Range<uint32_t>("flows", nFlows, 1, 100000);
    Check::Require(preset == "paper" || preset == "connectx", "preset", preset, "paper, connectx");
    Check::Rate("rate", rate);
    Check::NonNegative("delay", delay);
    Check::Positive("duration", duration);
    Check::NonNegative("startInterval", startInterval);
    Check::Attribute("mtu", std::to_string(mtu), "ns3::RdmaNic", "Mtu");
    Check::Attribute("ackInterval", std::to_string(ackInterval), "ns3::RdmaNic", "AckInterval");
    Check::Range<uint64_t>("buffer", bufferBytes, 1, 1ULL << 40, "bytes");
    Check::Range<uint64_t>("kmax", kmax, 0, bufferBytes, "bytes (at most --buffer)");
    Check::Range<uint64_t>("kmin", kmin, 0, kmax, "bytes (at most --kmax)");
    Check::Require(pmax >= 0 && pmax <= 1, "pmax", pmax, "a probability 0 .. 1");
    Check::Positive("sampleInterval", sampleInterval);
    Check::Positive("convergenceWindow", convergenceWindow);
    Check::OutputFile("output", output);
    Check::OutputFile("summaryOutput", summaryOutput);
    // The DCQCN options are attributes: their own checkers say what is valid.
    const std::vector<std::tuple<const char*, const char*, std::string*>> dcqcnOptions = {
        {"g", "G", &g},
        {"initialAlpha", "InitialAlpha", &initialAlpha},
        {"alphaInterval", "AlphaUpdateInterval", &alphaInterval},
        {"alphaMode", "AlphaUpdateMode", &alphaMode},
        {"rateDecreaseInterval", "RateDecreaseInterval", &rateDecreaseInterval},
        {"rateDecreaseDivisor", "RateDecreaseDivisor", &rateDecreaseDivisor},
        {"minDecreaseFactor", "MinDecreaseFactor", &minDecreaseFactor},
        {"timer", "RateIncreaseInterval", &timer},
        {"byteCounter", "ByteCounter", &byteCounter},
        {"fastRecovery", "FastRecoverySteps", &fastRecovery},
        {"rai", "AdditiveIncreaseRate", &rai},
        {"rhai", "HyperIncreaseRate", &rhai},
        {"minRate", "MinRate", &minRate},
        {"clampTargetRate", "ClampTargetRate", &clampTargetRate},
        {"clampAfterTimeInc", "ClampTargetRateAfterTimeIncrease", &clampAfterTimeInc},
    };
    for (const auto& [option, attribute, value] : dcqcnOptions)
    {
        if (!value->empty())
        {
            Check::Attribute(option, *value, "ns3::DcqcnCongestionControl", attribute);
        }
    }
    if (!cnpInterval.empty())
    {
        Check::Attribute("cnpInterval", cnpInterval, "ns3::RdmaNic", "CnpInterval");
    }
    Check::Seed(seed, run);

    std::vector<Time> starts = ParseTimes(startTimes);
    RdmaOptionChecker::Require(starts.empty() || starts.size() == nFlows,
                               "startTimes",
                               startTimes,
                               "one time per flow (" + std::to_string(nFlows) + ", --flows)");
    if (starts.empty())
    {
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            starts.push_back(startInterval * i);
        }
    }
    const Time lastStart = *std::max_element(starts.begin(), starts.end());
    std::ostringstream durationValid;
    durationValid << "a time after the last flow's start, " << lastStart.As(Time::MS);
    RdmaOptionChecker::Require(lastStart < duration,
                               "duration",
                               duration.As(Time::MS),
                               durationValid.str());
    if (measureFrom.IsNegative())
    {
        measureFrom = lastStart + (duration - lastStart) / 2;
    }

    // Topology: receiver = host 0, senders 1..N, one switch.
    NodeContainer hosts(nFlows + 1);
    Ptr<Node> sw = CreateObject<Node>();
    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devices;
    for (uint32_t i = 0; i <= nFlows; ++i)
    {
        devices.Add(link.Install(hosts.Get(i), sw));
    }

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetNicAttribute("AckInterval", UintegerValue(ackInterval));
    // One call selects every RP parameter and the NP's CNP interval ...
    if (preset == "paper")
    {
        RdmaCcHelper::ApplyDcqcnPaperPreset(rdma);
    }
    else
    {
        RdmaCcHelper::ApplyDcqcnConnectXPreset(rdma);
    }
    // ... and each option overrides one of them.
    for (const auto& [option, name, value] : dcqcnOptions)
    {
        if (!value->empty())
        {
            rdma.SetCongestionControl("ns3::DcqcnCongestionControl", name, StringValue(*value));
        }
    }
    if (!cnpInterval.empty())
    {
        rdma.SetNicAttribute("CnpInterval", StringValue(cnpInterval));
    }
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
    rdma.SetSwitchAttribute("EcnKmin", UintegerValue(kmin));
    rdma.SetSwitchAttribute("EcnKmax", UintegerValue(kmax));
    rdma.SetSwitchAttribute("EcnPmax", DoubleValue(pmax));
    RdmaOptionChecker::Require(ecnMarkingPoint == "dequeue" || ecnMarkingPoint == "enqueue",
                               "ecnMarkingPoint",
                               ecnMarkingPoint,
                               "dequeue, enqueue");
    rdma.SetSwitchAttribute("EcnMarkingPoint",
                            StringValue(ecnMarkingPoint == "dequeue" ? "Dequeue" : "Enqueue"));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
    rdma.InstallHosts(hosts);
    rdma.InstallSwitch(sw);
    rdma.AssignStreams(NodeContainer(sw), 0);
    RdmaRoutingHelper::PopulateRoutingTables();

    std::vector<Flow> flows(nFlows);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        Flow& f = flows[i];
        f.node = hosts.Get(i + 1);
        std::tie(f.qp, f.responder) = rdma.Connect(f.node, hosts.Get(0));
        f.cc = DynamicCast<DcqcnCongestionControl>(f.qp->GetCongestionControl());
        f.start = starts[i];
        f.qp->SetSendCompletionCallback(MakeBoundCallback(&OnComplete, &f));
        Simulator::ScheduleWithContext(f.node->GetId(), f.start, &PostChunk, &f);
    }

    // The effective parameters, read back from the first flow's congestion control.
    Ptr<RdmaNic> receiverNic = RdmaHelper::GetNic(hosts.Get(0));
    TimeValue cnpIntervalValue;
    receiverNic->GetAttribute("CnpInterval", cnpIntervalValue);
    auto attr = [&](const std::string& name) {
        StringValue v;
        flows[0].cc->GetAttribute(name, v);
        return v.Get();
    };

    RdmaOutputHelper::CreateParentDirectories(output);
    std::ofstream csv(output);
    NS_ABORT_MSG_IF(!csv, "cannot write --output " << output);
    csv << "time_us,queue_bytes";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        csv << ",rate_gbps_" << i;
    }
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        csv << ",tput_gbps_" << i;
    }
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        csv << ",alpha_" << i;
    }
    csv << "\n" << std::setprecision(10);
    const double lineBps = static_cast<double>(DataRate(rate).GetBitRate());
    const double wireBytes = RdmaWireSize::FullPacket(mtu);
    const double wireFactor = wireBytes / mtu; // payload bytes -> wire bytes
    Samples samples;
    samples.bytes.resize(nFlows);
    samples.cnps.resize(nFlows);
    samples.alphaSum.assign(nFlows, 0.0);
    samples.alphaCount.assign(nFlows, 0);
    samples.measureFromUs = measureFrom.GetSeconds() * 1e6;
    Sampler sampler{&csv,
                    &samples,
                    &flows,
                    DynamicCast<RdmaNetDevice>(devices.Get(1)),
                    sw->GetObject<RdmaSwitch>(),
                    sampleInterval,
                    wireFactor};
    Simulator::ScheduleWithContext(sw->GetId(), Seconds(0), &Sample, &sampler);

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Stop(duration);
    Simulator::Run();
    conservation.Print(std::cout); // long flows: still sending at the end

    // ---- summary
    const double fair = lineBps / nFlows;
    const double endUs = samples.timeUs.back();
    auto indexAt = [&](double us) {
        return static_cast<std::size_t>(
            std::lower_bound(samples.timeUs.begin(), samples.timeUs.end(), us) -
            samples.timeUs.begin());
    };
    // Steady-state wire throughput per flow.
    const std::size_t m0 = indexAt(measureFrom.GetSeconds() * 1e6);
    const std::size_t m1 = samples.timeUs.size() - 1;
    NS_ABORT_MSG_IF(m0 >= m1, "--measureFrom leaves no samples to measure");
    const double windowS = (samples.timeUs[m1] - samples.timeUs[m0]) * 1e-6;
    std::vector<double> tput(nFlows);
    double sum = 0;
    double sumSq = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        tput[i] = (samples.bytes[i][m1] - samples.bytes[i][m0]) * 8.0 * wireFactor / windowS;
        sum += tput[i];
        sumSq += tput[i] * tput[i];
    }
    const double jain = sum * sum / (nFlows * sumSq);
    // Marking probability seen by the packets: CE marks per data packet in the window
    // (the fluid model's p), and RED's p of the mean queue for comparison.
    uint64_t packets = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        packets += (samples.bytes[i][m1] - samples.bytes[i][m0]) / mtu;
    }
    const double markFraction =
        packets == 0 ? 0.0 : double(samples.marks[m1] - samples.marks[m0]) / packets;
    // Mean alpha and CNP rate per flow in the window (the fluid model's alpha and a / tau).
    double alphaMean = 0;
    double cnpRate = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        alphaMean += samples.alphaSum[i] / std::max<std::size_t>(1, samples.alphaCount[i]);
        cnpRate += (samples.cnps[i][m1] - samples.cnps[i][m0]) / windowS;
    }
    alphaMean /= nFlows;
    cnpRate /= nFlows;
    std::vector<uint32_t> q(samples.queue.begin() + m0, samples.queue.begin() + m1 + 1);
    double qMean = 0;
    for (uint32_t v : q)
    {
        qMean += v;
    }
    qMean /= q.size();
    std::sort(q.begin(), q.end());
    const double q99 = q[std::min(q.size() - 1, static_cast<std::size_t>(0.99 * q.size()))];

    // Convergence: windows of convergenceWindow from the last start; converged at the
    // start of the first window from which on every flow stays within 10 % of C/N.
    const double w = convergenceWindow.GetSeconds() * 1e6;
    double convergedAt = -1;
    for (double t = lastStart.GetSeconds() * 1e6; t + w <= endUs + 1e-9; t += w)
    {
        const std::size_t a = indexAt(t);
        const std::size_t b = indexAt(t + w);
        if (b >= samples.timeUs.size() || b <= a)
        {
            break;
        }
        bool ok = true;
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            const double r = (samples.bytes[i][b] - samples.bytes[i][a]) * 8.0 * wireFactor /
                             ((samples.timeUs[b] - samples.timeUs[a]) * 1e-6);
            ok = ok && std::fabs(r - fair) <= 0.1 * fair;
        }
        if (!ok)
        {
            convergedAt = -1;
        }
        else if (convergedAt < 0)
        {
            convergedAt = t;
        }
    }

    DcqcnFluidModel::Parameters fluid;
    fluid.lineBps = lineBps;
    fluid.flows = nFlows;
    fluid.wireBytes = wireBytes;
    fluid.tau = cnpIntervalValue.Get().GetSeconds();
    fluid.tauPrime = Time(attr("AlphaUpdateInterval")).GetSeconds();
    fluid.timer = Time(attr("RateIncreaseInterval")).GetSeconds();
    fluid.byteCounterBytes = std::stod(attr("ByteCounter"));
    fluid.fastRecovery = std::stoul(attr("FastRecoverySteps"));
    fluid.raiBps = DataRate(attr("AdditiveIncreaseRate")).GetBitRate();
    fluid.g = std::stod(attr("G"));
    fluid.kmin = kmin;
    fluid.kmax = kmax;
    fluid.pmax = pmax;
    const DcqcnFluidModel::FixedPoint fp = DcqcnFluidModel::SolveFixedPoint(fluid);

    std::cout << std::fixed << std::setprecision(3);
    std::cout << "dcqcn-convergence: " << nFlows << " flows -> 1, " << rate << ", delay "
              << delay.As(Time::US) << ", MTU " << mtu << ", " << duration.As(Time::MS)
              << ", preset " << preset << "\n";
    // Times in microseconds (the attribute's string form is +5.5e+07ps).
    auto timeAttr = [&](const std::string& name) {
        TimeValue v;
        flows[0].cc->GetAttribute(name, v);
        return v.Get().As(Time::US);
    };
    std::cout << "  DCQCN: G " << attr("G") << ", InitialAlpha " << attr("InitialAlpha") << ", K "
              << timeAttr("AlphaUpdateInterval") << " (" << attr("AlphaUpdateMode")
              << "), RateDecreaseInterval " << timeAttr("RateDecreaseInterval") << ", T "
              << timeAttr("RateIncreaseInterval") << ", B " << attr("ByteCounter") << " B, F "
              << attr("FastRecoverySteps") << ", R_AI " << attr("AdditiveIncreaseRate")
              << ", R_HAI " << attr("HyperIncreaseRate") << ", MinRate " << attr("MinRate")
              << ", MinDecreaseFactor " << attr("MinDecreaseFactor") << ", ClampTargetRate "
              << attr("ClampTargetRate") << "; CNP interval " << cnpIntervalValue.Get().As(Time::US)
              << "; RED " << kmin << "/" << kmax << " B, " << pmax << " at " << ecnMarkingPoint
              << "\n";
    std::cout << "  steady state from " << measureFrom.As(Time::MS) << ": fair share C/N "
              << fair * 1e-9 << " Gb/s\n";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        std::cout << "    flow " << i << " (start " << flows[i].start.As(Time::MS)
                  << "): " << tput[i] * 1e-9 << " Gb/s = " << tput[i] / fair
                  << " x fair share, CNPs " << flows[i].cc->GetCnpsReceived() << "\n";
    }
    std::cout << "  total " << sum * 1e-9 << " Gb/s (" << 100 * sum / lineBps
              << " % of the link), Jain's fairness index " << std::setprecision(4) << jain
              << std::setprecision(3) << "\n";
    std::cout << "  queue: mean " << qMean / 1e3 << " KB, p99 " << q99 / 1e3
              << " KB; CE-marked packets " << std::setprecision(5) << markFraction
              << std::setprecision(3) << " (RED at the mean queue: " << std::setprecision(5)
              << RdmaSwitch::MarkProbability(static_cast<uint64_t>(qMean), kmin, kmax, pmax)
              << std::setprecision(3) << ")\n";
    if (convergedAt >= 0)
    {
        std::cout << "  converged within 10 % of C/N "
                  << (convergedAt - lastStart.GetSeconds() * 1e6)
                  << " us after the last start (windows of " << convergenceWindow.As(Time::US)
                  << ")\n";
    }
    else
    {
        std::cout << "  not converged within 10 % of C/N by the end (windows of "
                  << convergenceWindow.As(Time::US) << ")\n";
    }
    std::cout << "  per flow: mean alpha " << std::setprecision(4) << alphaMean << ", "
              << std::setprecision(3) << cnpRate / 1e3 << " CNPs/ms\n";
    std::cout << "  fluid model fixed point: p* " << std::setprecision(5) << fp.p << ", alpha* "
              << fp.alpha << ", RT*/RC* " << fp.rtOverRc << std::setprecision(3)
              << ", CNPs/ms per flow " << fp.cnpRate / 1e3 << ", queue q* " << fp.queueBytes / 1e3
              << " KB"
              << (attr("AlphaUpdateMode") == "PerCnp" ? "" : " (model of the paper's alpha)")
              << "\n";

    RdmaOutputHelper::CreateParentDirectories(summaryOutput);
    std::ofstream summary(summaryOutput);
    NS_ABORT_MSG_IF(!summary, "cannot write --summaryOutput " << summaryOutput);
    summary << std::setprecision(10) << "key,value\n"
            << "flows," << nFlows << "\n"
            << "line_rate_gbps," << lineBps * 1e-9 << "\n"
            << "fair_share_gbps," << fair * 1e-9 << "\n"
            << "measure_from_us," << measureFrom.GetSeconds() * 1e6 << "\n"
            << "last_start_us," << lastStart.GetSeconds() * 1e6 << "\n"
            << "jain," << jain << "\n"
            << "queue_mean_bytes," << qMean << "\n"
            << "queue_p99_bytes," << q99 << "\n"
            << "mark_fraction," << markFraction << "\n"
            << "converged_after_us,"
            << (convergedAt >= 0 ? convergedAt - lastStart.GetSeconds() * 1e6 : -1) << "\n"
            << "fixed_point_p," << fp.p << "\n"
            << "fixed_point_alpha," << fp.alpha << "\n"
            << "fixed_point_queue_bytes," << fp.queueBytes << "\n"
            << "fixed_point_cnp_per_ms," << fp.cnpRate / 1e3 << "\n"
            << "alpha_mean," << alphaMean << "\n"
            << "cnp_per_ms," << cnpRate / 1e3 << "\n"
            << "preset," << preset << "\n";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        summary << "tput_gbps_" << i << "," << tput[i] * 1e-9 << "\n";
    }
    Simulator::Destroy();
    return 0;
}
