/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Small transfers (64 B - 64 KB) between two accelerators, as verbs RDMA WRITEs with
 * completion polling against memory-semantic stores with a flag (put with signal) and flag
 * polling (issue 17): latency distribution, operations per second, and bytes on the wire per
 * useful byte.
 *
 * <b>The two ways.</b>
 * - verbs: the producer builds a work request and rings the doorbell (--postCost per WR,
 *   one posting thread: posts are serialized), the NIC sends one RDMA WRITE of the whole
 *   transfer (MTU-sized packets); the consumer learns of it from its completion queue (the
 *   WRITE's receive completion at the responder, as a WRITE with immediate gives), which it
 *   polls every --cqPollInterval: the transfer is seen at the first poll tick at or after
 *   the completion.
 * - stores: the producer's RdmaMemoryAgent puts the transfer as stores of up to 256 bytes
 *   (one instruction each: --issueInterval, default 0) followed by a release Fetch & Add on
 *   a flag word at the consumer (RdmaMemoryAgent::PutWithSignal, NVSHMEM's
 *   nvshmem_putmem_signal); the consumer polls the flag every --flagPollInterval
 *   (RdmaMemoryAgent::WaitFlag): seen at the first tick at or after the atomic executed.
 *   The release waits for every earlier store's acknowledgement (the agent's rule; a
 *   fabric that orders a flag behind its data in the network would save that round trip).
 * Poll ticks start when the transfer is requested (the consumer starts waiting then).
 *
 * <b>Runs.</b> For every size and way: a throughput run, --transfers transfers requested at
 * once: operations per second = transfers / time until the last is seen; then a latency
 * run, --transfers transfers requested as a Poisson process at --load of that saturation
 * rate (both ways equally loaded), latency = request to seen (p50, p99, mean). Wire bytes per
 * useful byte: the wire bytes (frames, preamble, IFG) the two accelerators' ports transmitted in
 * the throughput run (data, ACKs, atomics and their responses), counted by the devices
 * (RdmaNetDevice::GetTxWireBytes), over the useful bytes.
 *
 * <b>Defaults</b> (assumptions where marked): roce profile, 200 Gb/s, one plane, MTU 1024;
 * postCost 100 ns (assumption: an uncached MMIO doorbell write plus a WQE build; Kalia,
 * Kaminsky and Andersen, "Design Guidelines for High Performance RDMA Systems", USENIX ATC
 * 2016, measure MMIO doorbells as the dominant per-WR CPU cost); cqPollInterval and
 * flagPollInterval 100 ns (assumption: one read of local memory per poll); MaxOutstanding
 * 128 (RdmaMemoryAgent's default).
 *
 * <b>Output.</b> A table on stdout; --output DIR gets memory-semantics.csv (one line per
 * mode and size); examples/plot-memory-semantics.py draws it.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MemorySemanticsExample");

namespace
{

/// Where the transfers land (each its own size-aligned slot) and the flags.
constexpr uint64_t DATA_BASE = 0x10000000ULL;
constexpr uint64_t FLAG_BASE = 0x1000ULL;

/// Settings shared by every run.
struct Settings
{
    std::string profile{"roce"};
    std::string rate; //!< "": the profile's
    uint32_t planes{1};
    uint32_t mtu{1024};
    Time postCost{NanoSeconds(100)};
    Time cqPollInterval{NanoSeconds(100)};
    Time flagPollInterval{NanoSeconds(100)};
    Time issueInterval{Time(0)};
    uint32_t maxOutstanding{128};
    uint32_t transfers{200};
    double load{0.3};
};

/// What one run measured.
struct RunResult
{
    std::vector<double> latencyNs; //!< request to seen, per transfer
    Time lastSeen;                 //!< when the last transfer was seen
    uint64_t wireBytes{0};         //!< transmitted by both accelerators' ports
    uint32_t seen{0};              //!< transfers seen
    double lineBps{0};             //!< the port rate
};

/// First poll tick at or after t, ticks start + k period.
Time
FirstTick(Time start, Time t, Time period)
{
    const int64_t p = period.GetTimeStep();
    const int64_t k = ((t - start).GetTimeStep() + p - 1) / p;
    return start + TimeStep(k * p);
}

/// One run: transfers of `size` bytes from accelerator 0 to 1, requested at `times`.
class Run
{
  public:
    Run(const Settings& s, bool verbs, uint64_t size)
        : m_s(s),
          m_verbs(verbs),
          m_size(size)
    {
        m_rdma.SetNicAttribute("Mtu", UintegerValue(s.mtu));
        m_rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
        if (s.planes > 1)
        {
            m_rdma.SetPathSelector("ns3::RdmaAddressInterleavePathSelector",
                                   "Granularity",
                                   UintegerValue(s.mtu));
        }
        m_pod.SetProfile(s.profile);
        m_pod.SetAccelerators(2);
        m_pod.SetPlanes(s.planes);
        if (!s.rate.empty())
        {
            m_pod.SetLinkRate(DataRate(s.rate));
        }
        m_pod.Install(m_rdma);
        if (verbs)
        {
            std::tie(m_qp, m_peer) =
                m_rdma.Connect(m_pod.GetAccelerator(0), m_pod.GetAccelerator(1));
            m_peer->SetReceiveCompletionCallback(MakeCallback(&Run::WriteArrived, this));
        }
        else
        {
            m_agents.SetAgentAttribute("MaxOutstanding", UintegerValue(s.maxOutstanding));
            m_agents.SetAgentAttribute("IssueInterval", TimeValue(s.issueInterval));
            m_agents.SetAgentAttribute("PollInterval", TimeValue(s.flagPollInterval));
            m_agents.Install(m_pod.GetAccelerators(), m_rdma);
        }
    }

    /// Request transfer k at time t (in accelerator 0's context).
    void RequestAt(uint32_t k, Time t)
    {
        m_requested.push_back(t);
        Simulator::ScheduleWithContext(m_pod.GetAccelerator(0)->GetId(), t, &Run::Request, this, k);
    }

    RunResult Execute()
    {
        m_seen.assign(m_requested.size(), Time(-1));
        Simulator::Run();
        RunResult r;
        r.lineBps = m_pod.GetLinkRate().GetBitRate();
        for (std::size_t k = 0; k < m_requested.size(); ++k)
        {
            if (m_seen[k].IsNegative())
            {
                continue;
            }
            ++r.seen;
            r.latencyNs.push_back((m_seen[k] - m_requested[k]).GetSeconds() * 1e9);
            r.lastSeen = std::max(r.lastSeen, m_seen[k]);
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint32_t p = 0; p < m_s.planes; ++p)
            {
                r.wireBytes += m_pod.GetAcceleratorDevice(i, p)->GetTxWireBytes();
            }
        }
        Simulator::Destroy();
        return r;
    }

  private:
    /// The producer starts transfer k.
    void Request(uint32_t k)
    {
        const uint64_t address = DATA_BASE + uint64_t(k) * m_size;
        if (m_verbs)
        {
            // One posting thread: this WR is posted postCost after the previous post ended.
            const Time start = std::max(Simulator::Now(), m_postFree);
            m_postFree = start + m_s.postCost;
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::WRITE;
            wr.wrId = k;
            wr.length = m_size;
            wr.remoteAddress = address;
            Simulator::Schedule(m_postFree - Simulator::Now(), &RdmaQueuePair::PostSend, m_qp, wr);
            m_writeOf.push_back(k); // WRITEs complete at the responder in posting order
            return;
        }
        const uint64_t flag = FLAG_BASE + 8ULL * k;
        Ptr<RdmaMemoryAgent> consumer = m_agents.Get(1);
        Simulator::ScheduleWithContext(m_pod.GetAccelerator(1)->GetId(),
                                       Time(0),
                                       &RdmaMemoryAgent::WaitFlag,
                                       consumer,
                                       flag,
                                       1,
                                       MakeCallback(&Run::FlagSeen, this));
        m_agents.Get(0)->PutWithSignal(1, address, m_size, flag, 1);
    }

    /// verbs: a WRITE was placed at the consumer; seen at its next CQ poll.
    void WriteArrived(const RdmaCompletion& c)
    {
        const uint32_t k = m_writeOf[m_writesArrived++];
        m_seen[k] = FirstTick(m_requested[k], c.completionTime, m_s.cqPollInterval);
    }

    /// stores: the consumer saw flag word of transfer k.
    void FlagSeen(uint64_t address, uint64_t /* value */, Time when)
    {
        m_seen[(address - FLAG_BASE) / 8] = when;
    }

    Settings m_s;
    bool m_verbs;
    uint64_t m_size;
    RdmaHelper m_rdma;
    ScaleUpHelper m_pod;
    RdmaMemoryAgentHelper m_agents;
    Ptr<RdmaQueuePair> m_qp;
    Ptr<RdmaQueuePair> m_peer;
    Time m_postFree;
    std::vector<uint32_t> m_writeOf;
    std::size_t m_writesArrived{0};
    std::vector<Time> m_requested;
    std::vector<Time> m_seen;
};

/// Parse a comma-separated list of sizes.
std::vector<uint64_t>
ParseSizes(const std::string& text)
{
    std::vector<uint64_t> values;
    for (const std::string& item : RdmaOptionChecker::SplitList(text))
    {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(item.c_str(), &end, 10);
        RdmaOptionChecker::Require(!item.empty() && *end == '\0' && v >= 64 && v % 64 == 0 &&
                                       v <= (1ULL << 24),
                                   "sizes",
                                   item,
                                   "multiples of 64 bytes from 64 to 16 MiB, comma-separated");
        values.push_back(v);
    }
    return values;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator();

    Settings s;
    std::string sizes = "64,256,1024,4096,16384,65536";
    std::string output = "results";
    uint32_t seed = 0;
    uint32_t run = 0;
    CommandLine cmd(__FILE__);
    cmd.Usage("Small transfers as verbs WRITEs with completion polling against stores with a "
              "flag (put with signal) and flag polling: latency, operations per second, wire "
              "bytes per useful byte.");
    cmd.AddValue("sizes", "transfer sizes in bytes, comma-separated (multiples of 64)", sizes);
    cmd.AddValue("profile",
                 std::string("ScaleUpHelper profile: ") + ScaleUpHelper::PROFILES,
                 s.profile);
    cmd.AddValue("rate", "port rate (default: the profile's)", s.rate);
    cmd.AddValue("planes", "planes (ports per accelerator; > 1: address interleave)", s.planes);
    cmd.AddValue("mtu", "RoCE path MTU (verbs WRITE packets)", s.mtu);
    cmd.AddValue("postCost", "verbs: WQE build + doorbell per work request", s.postCost);
    cmd.AddValue("cqPollInterval", "verbs: completion-queue poll period", s.cqPollInterval);
    cmd.AddValue("flagPollInterval", "stores: flag poll period", s.flagPollInterval);
    cmd.AddValue("issueInterval", "stores: least time between two issues", s.issueInterval);
    cmd.AddValue("maxOutstanding", "stores: the agent's MaxOutstanding", s.maxOutstanding);
    cmd.AddValue("transfers", "transfers per run", s.transfers);
    cmd.AddValue("load",
                 "latency runs: offered load, fraction of the way's saturation rate",
                 s.load);
    cmd.AddValue("seed", "random seed (0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("output", "directory for memory-semantics.csv (created if needed)", output);
    cmd.Parse(argc, argv);

    using Check = RdmaOptionChecker;
    const std::vector<uint64_t> sz = ParseSizes(sizes);
    Check::Require(s.profile == "roce" || s.profile == "sue" || s.profile == "sue-pfc",
                   "profile",
                   s.profile,
                   "roce, sue, sue-pfc (loads and atomics need a reliable transport)");
    if (!s.rate.empty())
    {
        Check::Rate("rate", s.rate);
    }
    Check::Range<uint32_t>("planes", s.planes, 1, 64);
    Check::Attribute("mtu", std::to_string(s.mtu), "ns3::RdmaNic", "Mtu");
    Check::NonNegative("postCost", s.postCost);
    Check::Positive("cqPollInterval", s.cqPollInterval);
    Check::Positive("flagPollInterval", s.flagPollInterval);
    Check::NonNegative("issueInterval", s.issueInterval);
    Check::Range<uint32_t>("maxOutstanding", s.maxOutstanding, 1, 1 << 20);
    Check::Range<uint32_t>("transfers", s.transfers, 1, 1 << 20);
    Check::Require(s.load > 0 && s.load < 1, "load", s.load, "a fraction in (0, 1)");
    Check::OutputDirectory("output", output);
    Check::Seed(seed, run);

    std::ofstream csv(output + "/memory-semantics.csv");
    csv << std::fixed;
    csv << "mode,size,transfers,p50_ns,p99_ns,mean_ns,ops_per_s,goodput_gbps,wire_bytes,"
           "wire_per_useful\n";
    std::cout << std::fixed << "memory-semantics: profile " << s.profile << ", " << s.planes
              << " plane(s), MTU " << s.mtu << ", postCost " << s.postCost.As(Time::NS)
              << ", CQ poll " << s.cqPollInterval.As(Time::NS) << ", flag poll "
              << s.flagPollInterval.As(Time::NS) << ", load " << s.load << ", " << s.transfers
              << " transfers per run\n";
    std::cout << "mode     size(B)   p50(ns)   p99(ns)  mean(ns)      ops/s  goodput(Gb/s)  "
                 "wire/useful\n";
    Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
    gap->SetStream(1);
    for (uint64_t size : sz)
    {
        for (bool verbs : {true, false})
        {
            // Throughput run: every transfer requested at once.
            Run thr(s, verbs, size);
            for (uint32_t k = 0; k < s.transfers; ++k)
            {
                thr.RequestAt(k, Time(0));
            }
            const RunResult t = thr.Execute();
            const double ops = t.seen / t.lastSeen.GetSeconds();
            // Latency run: Poisson requests at `load` of this mode's saturation rate.
            RunResult lat;
            {
                Run real(s, verbs, size);
                gap->SetAttribute("Mean", DoubleValue(1.0 / (s.load * ops)));
                Time at(0);
                for (uint32_t k = 0; k < s.transfers; ++k)
                {
                    real.RequestAt(k, at);
                    at += Seconds(gap->GetValue());
                }
                lat = real.Execute();
            }
            const double useful = double(size) * s.transfers;
            RdmaSampleSummary latency; // nearest-rank percentiles, as the module's
            latency.Add(lat.latencyNs);
            const double mean = latency.GetMean();
            const double p50 = latency.GetNearestRankPercentile(0.5);
            const double p99 = latency.GetNearestRankPercentile(0.99);
            const char* mode = verbs ? "verbs" : "stores";
            std::cout << std::left << std::setw(7) << mode << std::right << std::setw(10) << size
                      << std::setprecision(1) << std::setw(10) << p50 << std::setw(10) << p99
                      << std::setw(10) << mean << std::setprecision(0) << std::setw(11) << ops
                      << std::setprecision(2) << std::setw(15) << ops * size * 8 / 1e9
                      << std::setprecision(3) << std::setw(13) << t.wireBytes / useful
                      << (lat.seen == s.transfers && t.seen == s.transfers ? "" : "  INCOMPLETE")
                      << "\n";
            csv << mode << "," << size << "," << s.transfers << "," << std::setprecision(3) << p50
                << "," << p99 << "," << mean << "," << std::setprecision(1) << ops << ","
                << std::setprecision(4) << ops * size * 8 / 1e9 << "," << t.wireBytes << ","
                << t.wireBytes / useful << "\n";
        }
    }
    std::cout << "csv: " << output << "/memory-semantics.csv\n";
    return 0;
}
