/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Kingman's argument for fixed-size FLITs, made measurable: one switch egress port driven at
 * utilisation rho by open-loop Poisson arrivals, with fixed-size frames (M/D/1), exponential
 * sizes (M/M/1-like) and a bimodal small/large mix, all of the same mean size. The mean and
 * 99th-percentile queueing delay Wq (arrival in the egress queue to start of transmission,
 * RdmaSwitch's EgressQueueDelay trace) are measured against Pollaczek-Khinchine,
 *   Wq = rho E[S^2] / (2 E[S] (1 - rho)),
 * and Kingman's G/G/1 approximation Wq = E[S] rho / (1 - rho) (ca^2 + cs^2) / 2 with the
 * measured arrival variability ca^2 (equal to P-K when arrivals are Poisson, ca^2 = 1).
 *
 * Traffic: --senders hosts send IPv4 packets to one sink host through one switch. The
 * arrivals are one Poisson process of rate lambda = rho C / E[wire bits], each packet given
 * to a sender chosen at random (so each sender is Poisson at lambda / senders). The sender
 * links run at --ingressRate (4x the egress by default): a sender's own link is loaded at
 * rho / (4 senders), so it hardly ever delays a packet and the arrivals at the switch are a
 * Poisson process shifted by a per-packet constant (reception time), which stays Poisson
 * (the displacement theorem); the measured ca^2 shows how close. Service time S = the
 * frame's Ethernet wire bytes (preamble, FCS, gap included) x 8 / C. The moments E[S],
 * E[S^2] are those of the sizes actually drawn (printed), so the comparison is exact for
 * the offered sequence. The class is lossy (class 0) with a 32 MiB buffer: no drop happens
 * at these loads (counted and printed).
 *
 *   kingman [--rhos=0.5,0.6,0.7,0.8,0.9,0.95] [--dists=deterministic,exponential,bimodal]
 *           [--packets=200000] [--senders=16] [--meanBytes=1000] [--smallBytes=64]
 *           [--largeBytes=4000] [--rate=100Gbps] [--ingressRate=400Gbps] [--seed=1]
 *           [--output=results/kingman.csv]
 */

#include "ns3/core-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("Kingman");

namespace
{

constexpr uint32_t MIN_IPV4 = 46;   //!< smallest IPv4 packet: a 64-byte frame with FCS
constexpr uint32_t MAX_IPV4 = 9000; //!< the device's MTU
constexpr uint32_t WARMUP = 1000;   //!< packets left out of the statistics (empty start)
constexpr uint32_t BATCHES = 20;    //!< batch means for the confidence interval

/// The wire bytes of an IPv4 packet of b bytes in an Ethernet frame.
uint32_t
Wire(uint32_t b)
{
    return RdmaNetDevice::WireBytes(b + RdmaNetDevice::ETHERNET_HEADER_BYTES);
}

/// One point of the sweep.
struct Result
{
    std::string dist;
    double rho{0};
    uint64_t packets{0};
    double meanS{0};       //!< E[S], ns
    double cs2{0};         //!< squared coefficient of variation of S
    double ca2{0};         //!< ... of the interarrival times at the switch
    double wq{0};          //!< measured mean Wq, ns
    double wqCi{0};        //!< its 95 % confidence half-width (batch means), ns
    double pk{0};          //!< Pollaczek-Khinchine, ns
    double kingman{0};     //!< Kingman with the measured ca2, ns
    double p99{0};         //!< measured 99th percentile of Wq, ns
    double p99Mm1{0};      //!< M/M/1's 99th percentile (exponential only; else NaN), ns
    double utilisation{0}; //!< busy fraction of the egress link
    uint64_t drops{0};
};

/// What the run records.
struct Recorder
{
    uint32_t port{0};
    std::vector<double> wq; //!< ns, per transmitted packet, in order
    Time lastArrival{-1};
    double sumA{0};
    double sumA2{0};
    uint64_t nA{0};

    void Delay(uint32_t p, uint8_t, Time d)
    {
        if (p == port)
        {
            wq.push_back(d.GetDouble() / Time(NanoSeconds(1)).GetDouble());
        }
    }

    void Arrival(Ptr<const Packet>)
    {
        const Time now = Simulator::Now();
        if (lastArrival >= Time(0))
        {
            const double a = (now - lastArrival).GetSeconds() * 1e9;
            sumA += a;
            sumA2 += a * a;
            ++nA;
        }
        lastArrival = now;
    }
};

/// The open-loop source: Poisson arrivals, each to a random sender.
struct Source
{
    std::vector<Ptr<RdmaNetDevice>> senders;
    std::vector<uint32_t> sizes; //!< IPv4 bytes of every packet, drawn in advance
    Ipv4Address sink;
    Ptr<ExponentialRandomVariable> gap;
    Ptr<UniformRandomVariable> pick;
    uint64_t next{0};
    double at{0}; //!< the next arrival, ns, kept exact (not rounded gap by gap)

    /// Schedule the next arrival at `at` + an exponential gap, rounded to the nearest time
    /// step (NanoSeconds(double) truncates: every gap 0.5 ns short at 1 ns resolution would
    /// raise rho by 0.5 %, and Wq by 2.4 %, at rho 0.8).
    void ScheduleNext()
    {
        at += gap->GetValue();
        const double stepsPerNs = Seconds(1).GetTimeStep() / 1e9;
        const Time t = TimeStep(static_cast<uint64_t>(std::llround(at * stepsPerNs)));
        Simulator::Schedule(t - Simulator::Now(), &Source::Send, this);
    }

    void Send()
    {
        const uint32_t b = sizes[next++];
        Ptr<Packet> p = Create<Packet>(b - 20);
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(sink);
        h.SetProtocol(17);
        h.SetTtl(64);
        h.SetPayloadSize(b - 20);
        p->AddHeader(h);
        const auto s = static_cast<uint32_t>(pick->GetInteger(0, senders.size() - 1));
        senders[s]->Enqueue(p, 0);
        if (next < sizes.size())
        {
            ScheduleNext();
        }
    }
};

/// Draw n IPv4 sizes of a distribution with the given mean.
std::vector<uint32_t>
DrawSizes(const std::string& dist,
          uint64_t n,
          uint32_t mean,
          uint32_t small,
          uint32_t large,
          int64_t stream)
{
    std::vector<uint32_t> sizes(n, mean);
    if (dist == "exponential")
    {
        auto e = CreateObject<ExponentialRandomVariable>();
        e->SetAttribute("Mean", DoubleValue(mean));
        e->SetStream(stream);
        for (auto& s : sizes)
        {
            s = std::clamp<uint32_t>(static_cast<uint32_t>(std::lround(e->GetValue())),
                                     MIN_IPV4,
                                     MAX_IPV4);
        }
    }
    else if (dist == "bimodal")
    {
        // P(large) so that the mean is `mean`: p = (mean - small) / (large - small).
        const double p = double(mean - small) / double(large - small);
        auto u = CreateObject<UniformRandomVariable>();
        u->SetStream(stream);
        for (auto& s : sizes)
        {
            s = u->GetValue() < p ? large : small;
        }
    }
    return sizes;
}

Result
RunPoint(const std::string& dist,
         double rho,
         uint64_t packets,
         uint32_t nSenders,
         uint32_t meanBytes,
         uint32_t smallBytes,
         uint32_t largeBytes,
         const std::string& rate,
         const std::string& ingressRate)
{
    Result r;
    r.dist = dist;
    r.rho = rho;
    const double c = DataRate(rate).GetBitRate();

    Source src;
    src.sizes = DrawSizes(dist, packets, meanBytes, smallBytes, largeBytes, 100);
    double s1 = 0;
    double s2 = 0;
    for (uint32_t b : src.sizes)
    {
        const double s = Wire(b) * 8e9 / c; // ns
        s1 += s;
        s2 += s * s;
    }
    const double es = s1 / packets;
    const double es2 = s2 / packets;
    r.meanS = es;
    r.cs2 = es2 / (es * es) - 1;
    const double lambda = rho / es; // per ns

    NodeContainer hosts(nSenders + 1);
    Ptr<Node> swNode = CreateObject<Node>();
    RdmaLinkHelper in;
    in.SetDeviceAttribute("DataRate", StringValue(ingressRate));
    in.SetChannelAttribute("Delay", TimeValue(NanoSeconds(100)));
    RdmaLinkHelper out;
    out.SetDeviceAttribute("DataRate", StringValue(rate));
    out.SetChannelAttribute("Delay", TimeValue(NanoSeconds(100)));
    std::vector<Ptr<RdmaNetDevice>> swDevs;
    for (uint32_t i = 0; i < nSenders; ++i)
    {
        NetDeviceContainer d = in.Install(hosts.Get(i), swNode);
        src.senders.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
        swDevs.push_back(DynamicCast<RdmaNetDevice>(d.Get(1)));
    }
    NetDeviceContainer d = out.Install(hosts.Get(nSenders), swNode);
    Ptr<RdmaNetDevice> sinkDev = DynamicCast<RdmaNetDevice>(d.Get(0));
    swDevs.push_back(DynamicCast<RdmaNetDevice>(d.Get(1)));
    uint64_t received = 0;
    sinkDev->SetRdmaReceiveCallback(MakeBoundCallback(
        +[](uint64_t* n, Ptr<RdmaNetDevice>, Ptr<Packet>) { ++*n; },
        &received));

    Ptr<RdmaSwitch> sw = CreateObject<RdmaSwitch>();
    swNode->AggregateObject(sw);
    Recorder rec;
    for (uint32_t i = 0; i < swDevs.size(); ++i)
    {
        sw->AddPort(swDevs[i]);
        if (i < nSenders)
        {
            swDevs[i]->TraceConnectWithoutContext("PhyRxEnd",
                                                  MakeCallback(&Recorder::Arrival, &rec));
        }
    }
    rec.port = nSenders;
    src.sink = Ipv4Address(0x0a000001U + nSenders);
    sw->AddRoute(src.sink, nSenders);
    sw->AssignStreams(11);
    uint64_t drops = 0;
    sw->TraceConnectWithoutContext(
        "Drop",
        MakeBoundCallback(
            +[](uint64_t* n, Ptr<const Packet>, const char*, uint32_t, uint8_t) { ++*n; },
            &drops));
    sw->TraceConnectWithoutContext("EgressQueueDelay", MakeCallback(&Recorder::Delay, &rec));

    src.gap = CreateObject<ExponentialRandomVariable>();
    src.gap->SetAttribute("Mean", DoubleValue(1.0 / lambda));
    src.gap->SetStream(200);
    src.pick = CreateObject<UniformRandomVariable>();
    src.pick->SetStream(300);
    rec.wq.reserve(packets);
    src.ScheduleNext();
    Simulator::Run();
    const Time end = Simulator::Now();
    r.utilisation = swDevs.back()->GetTxWireBytes() * 8.0 / c / end.GetSeconds();
    Simulator::Destroy();

    r.packets = rec.wq.size();
    r.drops = drops;
    NS_ABORT_MSG_IF(received != packets - drops || rec.wq.size() <= WARMUP + BATCHES,
                    "kingman: " << received << " of " << packets << " packets arrived");
    const std::vector<double> w(rec.wq.begin() + WARMUP, rec.wq.end());
    double sum = 0;
    for (double x : w)
    {
        sum += x;
    }
    r.wq = sum / w.size();
    // 95 % confidence half-width of the mean from BATCHES batch means (t quantile 2.093).
    const std::size_t per = w.size() / BATCHES;
    double bm2 = 0;
    for (uint32_t k = 0; k < BATCHES; ++k)
    {
        double b = 0;
        for (std::size_t i = k * per; i < (k + 1) * per; ++i)
        {
            b += w[i];
        }
        b /= per;
        bm2 += (b - r.wq) * (b - r.wq);
    }
    r.wqCi = 2.093 * std::sqrt(bm2 / (BATCHES - 1) / BATCHES);
    std::vector<double> sorted = w;
    const std::size_t k99 = static_cast<std::size_t>(0.99 * (sorted.size() - 1));
    std::nth_element(sorted.begin(), sorted.begin() + k99, sorted.end());
    r.p99 = sorted[k99];
    const double ea = rec.sumA / rec.nA;
    r.ca2 = (rec.sumA2 / rec.nA - ea * ea) / (ea * ea);
    r.pk = rho * es2 / (2 * es * (1 - rho));
    r.kingman = es * rho / (1 - rho) * (r.ca2 + r.cs2) / 2;
    // M/M/1: P(Wq > t) = rho exp(-(1 - rho) t / E[S]), so t99 = E[S] ln(100 rho) / (1 - rho).
    r.p99Mm1 = dist == "exponential" ? es * std::log(100 * rho) / (1 - rho) : std::nan("");
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string rhos = "0.5,0.6,0.7,0.8,0.9,0.95";
    std::string dists = "deterministic,exponential,bimodal";
    uint64_t packets = 200000;
    uint32_t senders = 16;
    uint32_t meanBytes = 1000;
    uint32_t smallBytes = 64;
    uint32_t largeBytes = 4000;
    std::string rate = "100Gbps";
    std::string ingressRate = "400Gbps";
    uint32_t seed = 0;
    uint32_t run = 0;
    std::string output = "results/kingman.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("rhos", "utilisations of the egress port, comma-separated, in (0, 1)", rhos);
    cmd.AddValue("dists", "size distributions: deterministic, exponential, bimodal", dists);
    cmd.AddValue("packets", "packets per point", packets);
    cmd.AddValue("senders", "hosts whose arrivals merge at the port", senders);
    cmd.AddValue("meanBytes", "mean IPv4 packet size, bytes (every distribution)", meanBytes);
    cmd.AddValue("smallBytes", "bimodal: the small IPv4 packet, bytes", smallBytes);
    cmd.AddValue("largeBytes", "bimodal: the large IPv4 packet, bytes", largeBytes);
    cmd.AddValue("rate", "the egress port's rate", rate);
    cmd.AddValue("ingressRate", "the senders' links' rate", ingressRate);
    cmd.AddValue("seed", "random seed (0: ns-3's RngSeed)", seed);
    cmd.AddValue("run", "random run (0: ns-3's RngRun)", run);
    cmd.AddValue("output", "CSV file", output);
    cmd.Parse(argc, argv);
    RdmaOptionChecker::Rate("rate", rate);
    RdmaOptionChecker::Rate("ingressRate", ingressRate);
    RdmaOptionChecker::Range<uint64_t>("packets", packets, 10 * (WARMUP + BATCHES), 1u << 30);
    RdmaOptionChecker::Range<uint32_t>("senders", senders, 1, 1000);
    RdmaOptionChecker::Range<uint32_t>("meanBytes", meanBytes, MIN_IPV4, MAX_IPV4, "bytes");
    RdmaOptionChecker::Range<uint32_t>("smallBytes", smallBytes, MIN_IPV4, meanBytes, "bytes");
    RdmaOptionChecker::Range<uint32_t>("largeBytes", largeBytes, meanBytes + 1, MAX_IPV4, "bytes");
    RdmaOptionChecker::Require(smallBytes < meanBytes,
                               "smallBytes",
                               smallBytes,
                               "below meanBytes " + std::to_string(meanBytes));
    std::vector<double> rhoList;
    for (const std::string& s : RdmaOptionChecker::SplitList(rhos))
    {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        RdmaOptionChecker::Require(end && *end == '\0' && v > 0 && v < 1,
                                   "rhos",
                                   s,
                                   "numbers in (0, 1)");
        rhoList.push_back(v);
    }
    std::vector<std::string> distList = RdmaOptionChecker::SplitList(dists);
    for (const std::string& s : distList)
    {
        RdmaOptionChecker::Require(s == "deterministic" || s == "exponential" || s == "bimodal",
                                   "dists",
                                   s,
                                   "deterministic, exponential, bimodal");
    }
    RdmaOptionChecker::OutputFile("output", output);
    RdmaOptionChecker::Seed(seed, run);

    std::ofstream csv(output);
    csv << "dist,rho,packets,mean_service_ns,cs2,ca2,wq_mean_ns,wq_ci95_ns,wq_pk_ns,"
           "wq_kingman_ns,wq_error_vs_pk,wq_p99_ns,wq_p99_mm1_ns,utilisation,drops\n";
    std::cout << "kingman: one " << rate << " egress port, " << senders
              << " Poisson senders, mean IPv4 packet " << meanBytes << " B; Wq in ns\n"
              << std::setw(14) << "dist" << std::setw(6) << "rho" << std::setw(7) << "cs2"
              << std::setw(7) << "ca2" << std::setw(10) << "Wq" << std::setw(9) << "+-95%"
              << std::setw(10) << "P-K" << std::setw(10) << "Kingman" << std::setw(8) << "err"
              << std::setw(10) << "p99" << std::setw(9) << "util"
              << "\n";
    for (const std::string& dist : distList)
    {
        for (double rho : rhoList)
        {
            const Result r = RunPoint(dist,
                                      rho,
                                      packets,
                                      senders,
                                      meanBytes,
                                      smallBytes,
                                      largeBytes,
                                      rate,
                                      ingressRate);
            const double err = (r.wq - r.pk) / r.pk;
            csv << r.dist << "," << r.rho << "," << r.packets << "," << r.meanS << "," << r.cs2
                << "," << r.ca2 << "," << r.wq << "," << r.wqCi << "," << r.pk << "," << r.kingman
                << "," << err << "," << r.p99 << "," << r.p99Mm1 << "," << r.utilisation << ","
                << r.drops << "\n";
            std::cout << std::fixed << std::setprecision(2) << std::setw(14) << r.dist
                      << std::setw(6) << r.rho << std::setw(7) << r.cs2 << std::setw(7) << r.ca2
                      << std::setw(10) << r.wq << std::setw(9) << r.wqCi << std::setw(10) << r.pk
                      << std::setw(10) << r.kingman << std::setw(7) << 100 * err << "%"
                      << std::setw(10) << r.p99 << std::setprecision(4) << std::setw(9)
                      << r.utilisation << "\n";
        }
    }
    std::cout << "kingman: wrote " << output << "\n";
    return 0;
}
