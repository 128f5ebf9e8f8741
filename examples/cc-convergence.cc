/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Flows joining and leaving one bottleneck under any congestion control (--cc: a short
 * name such as dcqcn, hpcc, swift, or any TypeId name; --ccAttr sets its attributes):
 *
 *   sender 0 --\
 *   sender 1 ---+-- switch ---- receiver      every link --rate, --delay
 *   sender N-1 /
 *
 * Flow i starts at i x T and stops at (2N - i) x T (T = --interval), so the number of
 * flows steps up 1, 2, ..., N (the N-flow phase lasts 2T) and back down to 1: every phase
 * starts with a join or a leave, and the congestion control must re-converge to the new
 * fair share. A flow keeps --depth WRITEs of --chunk bytes posted; at its stop time it
 * stops posting, and what it had posted (at most depth x chunk) drains. The posted bytes
 * also cap the bytes a flow has in flight: keep depth x chunk above what the congestion
 * control would have in flight (a bandwidth-delay product plus its queue share), or the
 * posting, not the congestion control, limits the flow (as with the fixed-rate scheme at
 * line rate: its flows then send a chunk whenever one completes). dcqcn-convergence is the
 * DCQCN-only relative of this example, with the DCQCN fluid model's fixed point.
 *
 * Per phase (the time between two consecutive joins or leaves) it prints, over the last
 * (1 - --settle) of the phase: each active flow's goodput (payload bytes delivered in
 * order), their sum against the goodput of the link C x MTU / (MTU + 82) (utilisation),
 * Jain's fairness index (sum x)^2 / (k sum x^2) over the k active flows, the bottleneck
 * queue's time-average (exact, from the switch's EgressQueue trace) and peak, and how long
 * after the phase began every active flow's goodput came and stayed within 10 % of the
 * fair share (windows of --convergenceWindow).
 *
 * Output (under --outputDir): series-<label>.csv every --sampleInterval: time_us,
 * queue_bytes, then per flow i rate_gbps_i (the queue pair's Rate trace: the congestion
 * control's pacing rate), window_bytes_i (its Window trace; 0: no window), tput_gbps_i
 * (goodput in the interval); phases-<label>.csv, one row per phase; runs.csv, one summary
 * row appended per run. examples/plot-cc-convergence.py draws them.
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

NS_LOG_COMPONENT_DEFINE("CcConvergenceExample");

namespace
{

/// RoCE traffic class (DSCP 26 >> 3).
constexpr uint8_t ROCE_CLASS = 3;

/// One flow.
struct Flow
{
    Ptr<RdmaQueuePair> qp;
    Ptr<RdmaQueuePair> rx;
    Time start;
    Time stop;
    uint64_t chunk{0};
    uint64_t nextWrId{0};
    DataRate rate;      //!< latest value of the Rate trace
    uint64_t window{0}; //!< latest value of the Window trace
};

void
PostChunk(Flow* f)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = f->nextWrId++;
    wr.length = f->chunk;
    wr.remoteAddress = 0x1000;
    f->qp->PostSend(wr);
}

void
StartFlow(Flow* f, uint32_t depth)
{
    for (uint32_t i = 0; i < depth; ++i)
    {
        PostChunk(f);
    }
}

void
OnComplete(Flow* f, const RdmaCompletion& /* c */)
{
    if (Simulator::Now() < f->stop)
    {
        PostChunk(f);
    }
}

void
OnRate(Flow* f, DataRate /* old */, DataRate rate)
{
    f->rate = rate;
}

void
OnWindow(Flow* f, uint64_t /* old */, uint64_t window)
{
    f->window = window;
}

/// The bottleneck queue, exact: its integral over time and its peak since a reset.
struct QueueTracker
{
    uint32_t port{0};
    uint32_t bytes{0};
    Time last;
    double integral{0}; //!< byte-seconds since the start
    uint32_t peak{0};   //!< since the last ResetPeak

    void Advance()
    {
        integral += bytes * (Simulator::Now() - last).GetSeconds();
        last = Simulator::Now();
    }
};

void
OnEgressQueue(QueueTracker* q, uint32_t port, uint8_t cls, uint32_t bytes)
{
    if (port == q->port && cls == ROCE_CLASS)
    {
        q->Advance();
        q->bytes = bytes;
        q->peak = std::max(q->peak, bytes);
    }
}

/// One phase: the time between two consecutive joins or leaves.
struct Phase
{
    Time start;
    Time end;
    Time measureFrom;
    std::vector<uint32_t> active;
    std::vector<uint64_t> bytesFrom; //!< per flow, at measureFrom
    std::vector<uint64_t> bytesTo;   //!< per flow, at end
    double integralFrom{0};
    double integralTo{0};
    uint32_t peak{0};
};

/// What the snapshots and the sampler share.
struct State
{
    std::vector<Flow> flows;
    std::vector<Phase> phases;
    QueueTracker queue;
    std::ofstream* series{nullptr};
    Time interval;
    std::vector<double> sampleTimes;              //!< seconds
    std::vector<std::vector<uint64_t>> delivered; //!< per sample, per flow
};

void
PhaseBegin(State* s, uint32_t p)
{
    Phase& ph = s->phases[p];
    s->queue.Advance();
    ph.integralFrom = s->queue.integral;
    s->queue.peak = s->queue.bytes;
    for (const Flow& f : s->flows)
    {
        ph.bytesFrom.push_back(f.rx->GetBytesReceived());
    }
}

void
PhaseEnd(State* s, uint32_t p)
{
    Phase& ph = s->phases[p];
    s->queue.Advance();
    ph.integralTo = s->queue.integral;
    ph.peak = s->queue.peak;
    for (const Flow& f : s->flows)
    {
        ph.bytesTo.push_back(f.rx->GetBytesReceived());
    }
}

void
Sample(State* s, Ptr<RdmaNetDevice> bottleneck)
{
    const double now = Simulator::Now().GetSeconds();
    std::vector<uint64_t> bytes;
    for (const Flow& f : s->flows)
    {
        bytes.push_back(f.rx->GetBytesReceived());
    }
    *s->series << now * 1e6 << "," << bottleneck->GetQueueBytes(ROCE_CLASS);
    for (const Flow& f : s->flows)
    {
        *s->series << "," << f.rate.GetBitRate() * 1e-9;
    }
    for (const Flow& f : s->flows)
    {
        *s->series << "," << f.window;
    }
    for (std::size_t i = 0; i < s->flows.size(); ++i)
    {
        const uint64_t prev = s->delivered.empty() ? 0 : s->delivered.back()[i];
        *s->series << "," << (bytes[i] - prev) * 8.0 / s->interval.GetSeconds() * 1e-9;
    }
    *s->series << "\n";
    s->sampleTimes.push_back(now);
    s->delivered.push_back(std::move(bytes));
    Simulator::Schedule(s->interval, &Sample, s, bottleneck);
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    uint32_t nFlows = 4;
    Time interval = MilliSeconds(1);
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    uint32_t mtu = 1024;
    uint64_t chunk = 65536;
    uint32_t depth = 4;
    uint64_t bufferBytes = 32 * 1024 * 1024;
    bool pfc = true;
    bool ecn = true;
    uint64_t kmin = 5000;
    uint64_t kmax = 200000;
    double pmax = 0.01;
    std::string cc = "dcqcn";
    std::string ccAttr;
    std::string lossRecovery = "gbn";
    Time baseRtt = Seconds(-1);
    double settle = 0.5;
    Time convergenceWindow = MicroSeconds(100);
    Time sampleInterval = MicroSeconds(10);
    std::string outputDir = "results/cc-convergence";
    std::string label;
    uint32_t seed = 1;
    uint32_t run = 1;

    std::ostringstream ccNames;
    for (const auto& [shortName, typeId] : RdmaCcHelper::GetCongestionControlNames())
    {
        ccNames << (ccNames.tellp() > 0 ? ", " : "") << shortName;
    }
    CommandLine cmd(__FILE__);
    cmd.Usage("Flows joining and leaving one bottleneck under any congestion control: rates, "
              "windows, queue, Jain's index and re-convergence per phase.");
    cmd.AddValue("flows", "number of flows N (1..64)", nFlows);
    cmd.AddValue("interval", "T: flow i runs from i x T to (2N - i) x T", interval);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("chunk", "bytes of each WRITE", chunk);
    cmd.AddValue("depth", "WRITEs each flow keeps posted", depth);
    cmd.AddValue("buffer", "switch shared buffer, bytes", bufferBytes);
    cmd.AddValue("pfc", "PFC on the RoCE class (false: lossy)", pfc);
    cmd.AddValue("ecn", "RED/ECN marking at the switch", ecn);
    cmd.AddValue("kmin", "RED Kmin, bytes", kmin);
    cmd.AddValue("kmax", "RED Kmax, bytes", kmax);
    cmd.AddValue("pmax", "RED Pmax", pmax);
    cmd.AddValue("cc", "congestion control: " + ccNames.str() + ", or a TypeId name", cc);
    cmd.AddValue("ccAttr", "its attributes, Name=Value,Name=Value", ccAttr);
    cmd.AddValue("lossRecovery", "loss recovery: gbn, gb0, sack, or a TypeId name", lossRecovery);
    cmd.AddValue("baseRtt",
                 "RdmaQueuePair::BaseRtt of every queue pair (negative: the path's, computed; "
                 "0: none, measured)",
                 baseRtt);
    cmd.AddValue("settle", "fraction of each phase left out of its averages (0..0.95)", settle);
    cmd.AddValue("convergenceWindow",
                 "averaging window of the convergence time",
                 convergenceWindow);
    cmd.AddValue("sampleInterval", "time-series sampling interval", sampleInterval);
    cmd.AddValue("outputDir", "folder of the CSV files", outputDir);
    cmd.AddValue("label", "name of the run (default: the congestion control's short name)", label);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager)", seed);
    cmd.AddValue("run", "random run number", run);
    cmd.Parse(argc, argv);

    // Every option checked before anything is built (helper/rdma-option-checker.h).
    RdmaOptionChecker::Range<uint32_t>("flows", nFlows, 1, 64);
    RdmaOptionChecker::Positive("interval", interval);
    RdmaOptionChecker::Require(settle >= 0 && settle <= 0.95, "settle", settle, "0 .. 0.95");
    RdmaOptionChecker::Range<uint64_t>("chunk", chunk, 1, 1ULL << 31, "bytes");
    RdmaOptionChecker::Range<uint32_t>("depth", depth, 1, 1U << 20);
    RdmaOptionChecker::Require(sampleInterval.IsStrictlyPositive() && sampleInterval <= interval,
                               "sampleInterval",
                               sampleInterval.As(Time::US),
                               "a time > 0 and at most --interval");
    RdmaOptionChecker::Require(convergenceWindow.IsStrictlyPositive() &&
                                   convergenceWindow <= interval,
                               "convergenceWindow",
                               convergenceWindow.As(Time::US),
                               "a time > 0 and at most --interval");
    RdmaOptionChecker::OutputDirectory("outputDir", outputDir);
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    // Topology: receiver = host 0, senders 1..N, one switch; switch port 0 faces the receiver.
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
    const DataRate lineRate(rate);
    // Base RTT: a full data packet and its ACK stored and forwarded over two links.
    const uint32_t wire =
        RdmaNetDevice::WireBytes(mtu + 44 + 14) + RdmaNetDevice::WireBytes(48 + 14);
    const Time pathRtt = 2 * lineRate.CalculateBytesTxTime(wire) + 4 * delay;
    if (baseRtt.IsNegative())
    {
        baseRtt = pathRtt;
    }

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    const std::string ccTypeId = RdmaCcHelper::SetCongestionControl(rdma, cc, ccAttr);
    const std::string lrTypeId = RdmaCcHelper::SetLossRecovery(rdma, lossRecovery, "");
    if (baseRtt.IsStrictlyPositive())
    {
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    }
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    rdma.SetSwitchAttribute("EcnKmin", UintegerValue(kmin));
    rdma.SetSwitchAttribute("EcnKmax", UintegerValue(kmax));
    rdma.SetSwitchAttribute("EcnPmax", DoubleValue(pmax));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
    rdma.InstallHosts(hosts);
    Ptr<RdmaSwitch> theSwitch = rdma.InstallSwitch(sw);
    rdma.AssignStreams(NodeContainer(sw), 0);
    RdmaRoutingHelper::PopulateRoutingTables();
    if (label.empty())
    {
        label = RdmaCcHelper::GetShortName(ccTypeId);
    }

    State s;
    s.flows.resize(nFlows);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        Flow& f = s.flows[i];
        std::tie(f.qp, f.rx) = rdma.Connect(hosts.Get(i + 1), hosts.Get(0));
        f.start = interval * i;
        f.stop = interval * (2 * nFlows - i);
        f.chunk = chunk;
        f.rate = f.qp->GetCcState().rate;
        f.window = f.qp->GetCcState().window;
        f.qp->TraceConnectWithoutContext("Rate", MakeBoundCallback(&OnRate, &f));
        f.qp->TraceConnectWithoutContext("Window", MakeBoundCallback(&OnWindow, &f));
        f.qp->SetSendCompletionCallback(MakeBoundCallback(&OnComplete, &f));
        Simulator::ScheduleWithContext(hosts.Get(i + 1)->GetId(), f.start, &StartFlow, &f, depth);
    }

    // Phases: between consecutive distinct start/stop times.
    std::vector<Time> edges;
    for (const Flow& f : s.flows)
    {
        edges.push_back(f.start);
        edges.push_back(f.stop);
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (std::size_t e = 0; e + 1 < edges.size(); ++e)
    {
        Phase ph;
        ph.start = edges[e];
        ph.end = edges[e + 1];
        ph.measureFrom = ph.start + (ph.end - ph.start) * settle;
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            if (s.flows[i].start <= ph.start && s.flows[i].stop >= ph.end)
            {
                ph.active.push_back(i);
            }
        }
        s.phases.push_back(ph);
    }
    for (uint32_t p = 0; p < s.phases.size(); ++p)
    {
        Simulator::Schedule(s.phases[p].measureFrom, &PhaseBegin, &s, p);
        Simulator::Schedule(s.phases[p].end, &PhaseEnd, &s, p);
    }

    Ptr<RdmaNetDevice> bottleneck = DynamicCast<RdmaNetDevice>(devices.Get(1));
    NS_ABORT_MSG_UNLESS(theSwitch->GetPort(0) == bottleneck, "port 0 does not face the receiver");
    s.queue.port = 0;
    theSwitch->TraceConnectWithoutContext("EgressQueue",
                                          MakeBoundCallback(&OnEgressQueue, &s.queue));

    RdmaOutputHelper::CreateDirectories(outputDir);
    const std::string seriesPath = outputDir + "/series-" + label + ".csv";
    std::ofstream series(seriesPath);
    NS_ABORT_MSG_IF(!series, "cannot write " << seriesPath << " (--outputDir, --label)");
    series << "time_us,queue_bytes";
    for (const char* col : {"rate_gbps_", "window_bytes_", "tput_gbps_"})
    {
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            series << "," << col << i;
        }
    }
    series << "\n" << std::setprecision(10);
    s.series = &series;
    s.interval = sampleInterval;
    Simulator::ScheduleWithContext(sw->GetId(), Seconds(0), &Sample, &s, bottleneck);

    const Time end = edges.back();
    Simulator::Stop(end + sampleInterval / 2);
    Simulator::Run();
    series.close();

    // ---- summary
    const double goodputBps = RdmaWireSize::PayloadRate(lineRate.GetBitRate(), mtu);
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "cc-convergence: " << nFlows << " flows -> 1, " << rate << ", delay "
              << delay.As(Time::US) << ", MTU " << mtu << ", T " << interval.As(Time::MS)
              << ", PFC " << (pfc ? "on" : "off") << ", ECN " << (ecn ? "on" : "off") << " ("
              << kmin << "/" << kmax << " B, " << pmax << ")\n";
    std::cout << "  congestion control " << ccTypeId << (ccAttr.empty() ? "" : " ") << ccAttr
              << "; loss recovery " << lrTypeId << "; base RTT " << baseRtt.As(Time::NS)
              << "; link goodput C x MTU / (MTU + 82) = " << goodputBps * 1e-9 << " Gb/s\n";
    std::cout << "  phase  from(us)    to(us)  flows  fair(Gb/s)  total(Gb/s)  util    Jain  "
                 "queue mean/peak (KB)  converged after (us)\n";

    const std::string phasesPath = outputDir + "/phases-" + label + ".csv";
    std::ofstream phasesCsv(phasesPath);
    NS_ABORT_MSG_IF(!phasesCsv, "cannot write " << phasesPath);
    phasesCsv << "phase,start_us,end_us,active_flows,fair_gbps,total_gbps,utilisation,jain,"
                 "queue_mean_bytes,queue_peak_bytes,converged_after_us";
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        phasesCsv << ",goodput_gbps_" << i;
    }
    phasesCsv << "\n" << std::setprecision(10);

    double jainSum = 0;
    double jainMin = 1;
    uint32_t jainPhases = 0;
    double utilSum = 0;
    double queueSum = 0;
    uint32_t queuePeak = 0;
    double convergedSum = 0;
    uint32_t convergedPhases = 0;
    uint32_t notConverged = 0;
    for (uint32_t p = 0; p < s.phases.size(); ++p)
    {
        const Phase& ph = s.phases[p];
        const uint32_t k = ph.active.size();
        const double span = (ph.end - ph.measureFrom).GetSeconds();
        std::vector<double> x(nFlows, 0.0);
        double sum = 0;
        double sumSq = 0;
        for (uint32_t i : ph.active)
        {
            x[i] = (ph.bytesTo[i] - ph.bytesFrom[i]) * 8.0 / span;
            sum += x[i];
            sumSq += x[i] * x[i];
        }
        const double fair = k > 0 ? goodputBps / k : 0;
        const double jain = sumSq > 0 ? sum * sum / (k * sumSq) : 0;
        const double qMean = (ph.integralTo - ph.integralFrom) / span;
        // Convergence: windows of convergenceWindow from the phase start; converged at the
        // start of the first window from which on every active flow stays within 10 %.
        double convergedAt = -1;
        const double w = convergenceWindow.GetSeconds();
        for (double t = ph.start.GetSeconds(); t + w <= ph.end.GetSeconds() + 1e-12; t += w)
        {
            auto at = [&](double time) {
                return static_cast<std::size_t>(
                    std::lower_bound(s.sampleTimes.begin(), s.sampleTimes.end(), time - 1e-12) -
                    s.sampleTimes.begin());
            };
            const std::size_t a = at(t);
            const std::size_t b = at(t + w);
            if (b >= s.sampleTimes.size() || b <= a)
            {
                break;
            }
            bool ok = k > 0;
            for (uint32_t i : ph.active)
            {
                const double r = (s.delivered[b][i] - s.delivered[a][i]) * 8.0 /
                                 (s.sampleTimes[b] - s.sampleTimes[a]);
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
        const double convergedAfterUs =
            convergedAt >= 0 ? (convergedAt - ph.start.GetSeconds()) * 1e6 : -1;
        if (k >= 2)
        {
            jainSum += jain;
            jainMin = std::min(jainMin, jain);
            ++jainPhases;
        }
        utilSum += sum / goodputBps;
        queueSum += qMean;
        queuePeak = std::max(queuePeak, ph.peak);
        if (convergedAfterUs >= 0)
        {
            convergedSum += convergedAfterUs;
            ++convergedPhases;
        }
        else
        {
            ++notConverged;
        }
        std::cout << std::setw(7) << p << std::setw(10) << ph.start.GetSeconds() * 1e6
                  << std::setw(10) << ph.end.GetSeconds() * 1e6 << std::setw(7) << k
                  << std::setw(12) << fair * 1e-9 << std::setw(13) << sum * 1e-9 << std::setw(6)
                  << sum / goodputBps << std::setw(8) << std::setprecision(4) << jain
                  << std::setprecision(3) << std::setw(12) << qMean / 1e3 << " / " << std::setw(8)
                  << ph.peak / 1e3 << std::setw(14)
                  << (convergedAfterUs >= 0 ? std::to_string(std::lround(convergedAfterUs))
                                            : std::string("no"))
                  << "\n";
        phasesCsv << p << "," << ph.start.GetSeconds() * 1e6 << "," << ph.end.GetSeconds() * 1e6
                  << "," << k << "," << fair * 1e-9 << "," << sum * 1e-9 << "," << sum / goodputBps
                  << "," << jain << "," << qMean << "," << ph.peak << "," << convergedAfterUs;
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            phasesCsv << "," << x[i] * 1e-9;
        }
        phasesCsv << "\n";
    }
    uint64_t retransmissions = 0;
    uint64_t timeouts = 0;
    for (const Flow& f : s.flows)
    {
        retransmissions += f.qp->GetRetransmissions();
        timeouts += f.qp->GetTimeouts();
    }
    const uint32_t nPhases = s.phases.size();
    const double jainMean = jainPhases ? jainSum / jainPhases : 1.0;
    std::cout << "  over " << nPhases << " phases: Jain mean " << std::setprecision(4) << jainMean
              << ", min " << (jainPhases ? jainMin : 1.0) << std::setprecision(3)
              << " (phases of 2+ flows); utilisation mean " << utilSum / nPhases << "; queue mean "
              << queueSum / nPhases / 1e3 << " KB, peak " << queuePeak / 1e3 << " KB; converged in "
              << convergedPhases << "/" << nPhases << " phases"
              << (convergedPhases ? ", mean " : "")
              << (convergedPhases ? std::to_string(std::lround(convergedSum / convergedPhases))
                                  : std::string())
              << (convergedPhases ? " us" : "") << "\n";
    std::cout << "  switch: drops " << theSwitch->GetTotalDrops() << ", XOFF "
              << theSwitch->GetPfcPausesSent() << ", ECN marks " << theSwitch->GetEcnMarks()
              << "; retransmissions " << retransmissions << ", timeouts " << timeouts << "; events "
              << Simulator::GetEventCount() << "\n";

    const std::string runsPath = outputDir + "/runs.csv";
    std::ifstream existing(runsPath);
    const bool header = !existing || existing.peek() == std::ifstream::traits_type::eof();
    existing.close();
    std::ofstream runs(runsPath, std::ios::app);
    NS_ABORT_MSG_IF(!runs, "cannot write " << runsPath << " (--outputDir)");
    if (header)
    {
        runs << "label,cc,cc_attr,flows,interval_us,rate_gbps,pfc,ecn,phases,jain_mean,jain_min,"
                "utilisation_mean,queue_mean_bytes,queue_peak_bytes,converged_phases,"
                "converged_after_mean_us,switch_drops,xoff,ecn_marks,retransmissions,timeouts,"
                "events\n";
    }
    runs << std::setprecision(10) << label << "," << ccTypeId << ",\"" << ccAttr << "\"," << nFlows
         << "," << interval.GetSeconds() * 1e6 << "," << lineRate.GetBitRate() * 1e-9 << "," << pfc
         << "," << ecn << "," << nPhases << "," << jainMean << "," << (jainPhases ? jainMin : 1.0)
         << "," << utilSum / nPhases << "," << queueSum / nPhases << "," << queuePeak << ","
         << convergedPhases << "," << (convergedPhases ? convergedSum / convergedPhases : -1.0)
         << "," << theSwitch->GetTotalDrops() << "," << theSwitch->GetPfcPausesSent() << ","
         << theSwitch->GetEcnMarks() << "," << retransmissions << "," << timeouts << ","
         << Simulator::GetEventCount() << "\n";
    std::cout << "  CSV " << seriesPath << ", " << phasesPath << ", " << runsPath << "\n";
    Simulator::Destroy();
    return 0;
}
