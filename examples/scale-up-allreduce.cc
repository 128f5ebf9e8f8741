/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Ring all-reduce over a single-tier scale-up pod (ScaleUpHelper): N accelerators, each with
 * P ports, port p on plane switch p (NVLink/NVSwitch, UALink style).
 *
 * <b>Algorithm.</b> The buffer of S bytes (--bytes) is cut into N chunks of S/N. Ring
 * all-reduce (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
 * workstations", JPDC 2009; NCCL's ring) is a reduce-scatter followed by an all-gather:
 * 2 (N - 1) steps; in every step each accelerator i WRITEs one chunk to its ring successor
 * i + 1 (mod N) through one queue pair, and starts its next step as soon as the chunk of the
 * current step from its predecessor i - 1 has arrived (the responder's receive completion:
 * the last packet placed in order). Reduce-scatter step s sends chunk (i - s) mod N; after
 * N - 1 steps accelerator i holds the fully reduced chunk (i + 1) mod N, and all-gather step
 * t sends chunk (i + 1 - t) mod N. Chunk c is written at the successor's buffer address
 * base + c S/N. The reduction itself is modelled as taking no time: a step's chunk is
 * posted at the instant the predecessor's chunk is complete.
 *
 * <b>Paths.</b> --pathSelector chooses the NICs' RdmaPathSelector: "interleave" (default,
 * RdmaAddressInterleavePathSelector with --granularity G: plane = (remote address / G) mod
 * P, so one queue pair per ring neighbour uses all planes), "spray"
 * (RdmaSprayPathSelector, round robin: packet i on plane i mod P) or "qp"
 * (RdmaQpPathSelector: the whole queue pair on one plane).
 *
 * <b>Analytical time.</b> With MTU m, a full data packet occupies W = m + 82 bytes on the
 * wire (Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 +
 * inter-frame gap 12; the first packet of a WRITE carries a 16-byte RETH too) and an ACK
 * A = 86 (the same headers with an AETH of 4 and no payload: a 66-byte frame). The
 * responder acknowledges every k-th packet and the last of the chunk (--ackInterval k,
 * ns3::RdmaNic::AckInterval; default ScaleUpHelper's coalescing, 16, doc/scale-up.rst):
 * ceil(n/k) ACKs for a chunk of n packets. ACKs leave through the port the packet came in
 * on, so in the ring each direction of every link carries one hop's data and the ACKs of
 * the opposite hop. With coalescing the ACKs need not spread evenly over the planes:
 * packet j of a chunk takes plane j mod P' (interleave with G = MTU, spray), so with k a
 * multiple of P' every ACK leaves on one plane, which then carries m ACKs against n/P'
 * data packets. The busiest plane sets the pace: each of its data packets costs W + a wire
 * bytes, a = A m P' / n (a = A for an ACK per packet). With P' planes per queue pair (P for
 * interleave and spray, 1 for qp), port rate R, link propagation delay d and switch latency L:
 *
 *   B_eff = P' R m / (W + a)
 *   alpha = 2 d + L + (2 - 1/P') W / R
 *   T     = 2 (N - 1) (alpha + (S/N) / B_eff)
 *
 * The last packet of a step leaves the NIC (S/N)/B_eff after the step begins, except that
 * its own serialization takes W/R on its port instead of W/(P'R); then it propagates
 * (d + L/2), is stored and forwarded by the plane switch (W/R) and propagates again
 * (d + L/2): alpha. T charges every data packet of a step with an ACK, but accelerator i
 * starts acknowledging its predecessor's chunk only when that chunk's first packet has
 * arrived, t1 = 2 d + L + 2 (W + 16) 8 / R after the step began; the packets it sent before
 * (t1 P'R / (8W), or the whole chunk if it is shorter) had no ACKs between them, so the
 * simulation is faster than T by about min(t1 a / W, (S/N)/m x 8 a / (P'R)) per step
 * ("refined" in the output; 1.3 ns per step with the defaults, 20.2 ns with k = 1).
 * With qp, a queue pair's ACKs share its plane only if the predecessor's queue pair hashed
 * to the same plane; T is then an upper bound. Reduction compute is zero. Bus bandwidth is
 * NCCL's: busbw = algbw x 2 (N - 1) / N, algbw = S / time (nccl-tests, doc/PERFORMANCE.md).
 *
 * <b>Granularity.</b> A queue pair sends its packets in PSN order and a packet waits for
 * the port its address maps to, so with G = MTU (the default here) consecutive packets take
 * consecutive planes and one queue pair fills all P ports; with G = k MTU the queue pair
 * sends k packets in a row on one plane while the others idle (about 3x slower for G =
 * 4096, MTU 1024, P = 4).
 *
 * <b>Profiles.</b> --profile chooses ScaleUpHelper::SetProfile: "roce" (default, RoCEv2 over
 * PFC, 200 Gb/s, 150 ns switches), "ualink" (800 Gb/s x4 ports, 640-byte FLITs, credits,
 * link-level retry, no end-to-end retransmission), "sue" (800 Gb/s Ethernet, compressed header,
 * credits, link-level retry) or "sue-pfc" (as sue, with PFC); --rate and --switchLatency, if
 * given, override the profile's. The analytical time above counts RoCEv2 Ethernet frames: it
 * is the roce profile's; for the others it is printed as a reference only (their frames are
 * FLITs or compressed, see doc/scale-up-link.rst).
 *
 * <b>Output.</b> A summary on stdout; --output DIR gets scale-up-allreduce.csv (one summary
 * line) and scale-up-allreduce-steps.csv (one line per step). examples/
 * plot-scale-up-allreduce.py runs a sweep of message sizes and draws bus bandwidth against
 * size beside the analytical curve.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("ScaleUpAllReduceExample");

namespace
{

/// Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 + IFG 12.
/// The RETH of a WRITE's first packet.
constexpr double RETH_BYTES = 16;
/// An ACK: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + AETH 4 + ICRC 4 + FCS 4 + 8 + 12.
constexpr double ACK_WIRE_BYTES = 86;

/**
 * ACK bytes charged per data packet on the busiest plane. The responder acknowledges
 * packets k, 2k, ... and the last of a chunk of n (1-based), each ACK leaving on the plane
 * its packet arrived on; packet j (0-based) takes plane (j / block) mod P' (block: packets
 * per interleave block, 1 for spray). The busiest plane carries m ACKs against n / P' data
 * packets: A m P' / n bytes per data packet (A for an ACK per packet; A ceil(n/k) / n when
 * the ACKs spread evenly; with k a multiple of P' and block 1 every ACK is on one plane).
 */
double
AckBytesPerPacket(uint32_t n, uint32_t k, uint32_t planes, uint32_t block)
{
    std::vector<uint32_t> acks(planes, 0);
    for (uint32_t j = k - 1; j < n; j += k)
    {
        ++acks[(j / block) % planes];
    }
    if (n % k != 0)
    {
        ++acks[((n - 1) / block) % planes];
    }
    const uint32_t busiest = *std::max_element(acks.begin(), acks.end());
    return ACK_WIRE_BYTES * busiest * planes / n;
}

/// Where each accelerator's buffer starts in its (virtual) memory; 1 MiB aligned.
constexpr uint64_t BUFFER_BASE = 0x10000000ULL;

/// The ring and its progress.
struct Ring
{
    uint32_t n{0};                             //!< accelerators
    uint32_t steps{0};                         //!< 2 (N - 1)
    uint64_t chunk{0};                         //!< S / N bytes
    std::vector<Ptr<Node>> nodes;              //!< accelerator nodes
    std::vector<Ptr<RdmaQueuePair>> send;      //!< accelerator i -> i + 1
    std::vector<Ptr<RdmaQueuePair>> recv;      //!< accelerator i's responder, from i - 1
    std::vector<uint32_t> done;                //!< steps received per accelerator
    std::vector<std::vector<Time>> postTime;   //!< [i][s]: accelerator i posted step s
    std::vector<std::vector<Time>> arriveTime; //!< [i][s]: step s chunk complete at i
    uint32_t finished{0};                      //!< accelerators done with all steps
};

/// \return the chunk accelerator i sends at step s
uint32_t
ChunkOf(const Ring& ring, uint32_t i, uint32_t s)
{
    const uint32_t n = ring.n;
    if (s < n - 1)
    {
        return (i + n - s % n) % n; // reduce-scatter: (i - s) mod N
    }
    const uint32_t t = s - (n - 1);
    return (i + 1 + n - t % n) % n; // all-gather: (i + 1 - t) mod N
}

/// Accelerator i posts its WRITE of step s to its successor.
void
PostStep(Ring* ring, uint32_t i, uint32_t s)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = s;
    wr.length = ring->chunk;
    wr.remoteAddress = BUFFER_BASE + uint64_t(ChunkOf(*ring, i, s)) * ring->chunk;
    ring->postTime[i][s] = Simulator::Now();
    ring->send[i]->PostSend(wr);
}

/// Accelerator i's chunk from its predecessor is complete: reduce (zero time), go on.
void
OnChunkArrived(Ring* ring, uint32_t i, const RdmaCompletion&)
{
    const uint32_t s = ring->done[i]++;
    ring->arriveTime[i][s] = Simulator::Now();
    if (s + 1 < ring->steps)
    {
        PostStep(ring, i, s + 1);
    }
    else if (++ring->finished == ring->n)
    {
        Simulator::Stop(); // the collective is complete; ACKs still in flight do not matter
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    uint32_t accelerators = 8;
    uint32_t planes = 4;
    uint64_t bytes = 4 * 1024 * 1024;
    std::string profile = "roce";
    std::string rate; // "": the profile's
    Time linkLatency = NanoSeconds(10);
    std::string switchLatencyText; // "": the profile's
    std::string pathSelector = "interleave";
    uint32_t mtu = 1024;
    uint32_t granularity = 0; // 0: the MTU
    uint32_t ackInterval = ScaleUpHelper::DEFAULT_ACK_INTERVAL;
    uint32_t seed = 0; // 0: ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t run = 0;  // 0: ns-3's RngRun (default 1, or --RngRun)
    std::string output = "results";
    Time stopTime = Seconds(1);

    CommandLine cmd(__FILE__);
    cmd.Usage("Ring all-reduce (reduce-scatter + all-gather of RDMA WRITEs) over a single-tier "
              "scale-up pod of N accelerators with P plane switches.");
    cmd.AddValue("accelerators", "number of accelerators N (>= 2)", accelerators);
    cmd.AddValue("planes", "planes P: ports per accelerator and plane switches (>= 1)", planes);
    cmd.AddValue("bytes", "all-reduce buffer size S in bytes (a multiple of N)", bytes);
    cmd.AddValue("profile",
                 std::string("ScaleUpHelper profile: ") + ScaleUpHelper::PROFILES,
                 profile);
    cmd.AddValue("rate", "line rate of every port (default: the profile's)", rate);
    cmd.AddValue("linkLatency", "propagation delay of every cable", linkLatency);
    cmd.AddValue("switchLatency",
                 "forwarding latency of the plane switches, an ns-3 time such as 150ns "
                 "(default: the profile's)",
                 switchLatencyText);
    cmd.AddValue("pathSelector", "qp | spray | interleave", pathSelector);
    cmd.AddValue("granularity",
                 "interleave block in bytes (power of two, >= MTU; 0: the MTU)",
                 granularity);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("ackInterval",
                 "packets per ACK (ns3::RdmaNic::AckInterval; 1: an ACK per packet; default "
                 "ScaleUpHelper's coalescing)",
                 ackInterval);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("output", "directory for the CSV files (created if needed)", output);
    cmd.AddValue("stopTime", "give up at this simulated time", stopTime);
    cmd.Parse(argc, argv);

    // Every option checked before anything is built (helper/rdma-option-checker.h).
    using Check = RdmaOptionChecker;
    Check::Range<uint32_t>("accelerators", accelerators, 2, 100000);
    Check::Range<uint32_t>("planes", planes, 1, 1024);
    Check::Require(bytes > 0 && bytes % accelerators == 0,
                   "bytes",
                   bytes,
                   "a positive multiple of --accelerators=" + std::to_string(accelerators) +
                       " (N chunks of S/N bytes)");
    Check::Require(profile == "roce" || profile == "ualink" || profile == "sue" ||
                       profile == "sue-pfc",
                   "profile",
                   profile,
                   ScaleUpHelper::PROFILES);
    if (!rate.empty())
    {
        Check::Rate("rate", rate);
    }
    Check::NonNegative("linkLatency", linkLatency);
    if (!switchLatencyText.empty())
    {
        TypeId::AttributeInformation delay;
        TypeId::LookupByName("ns3::RdmaChannel").LookupAttributeByName("Delay", &delay);
        Check::Require(Check::IsWellFormed(delay, switchLatencyText),
                       "switchLatency",
                       switchLatencyText,
                       Check::DescribeFormat(delay));
        Check::Require(!Time(switchLatencyText).IsNegative(),
                       "switchLatency",
                       switchLatencyText,
                       "a time >= 0, such as 150ns");
    }
    Check::Require(pathSelector == "qp" || pathSelector == "spray" || pathSelector == "interleave",
                   "pathSelector",
                   pathSelector,
                   "qp, spray, interleave");
    Check::Attribute("mtu", std::to_string(mtu), "ns3::RdmaNic", "Mtu");
    Check::Positive("stopTime", stopTime);
    Check::OutputDirectory("output", output);
    if (granularity == 0)
    {
        granularity = mtu;
    }
    Check::Seed(seed, run);

    ScaleUpHelper pod;
    pod.SetProfile(profile);           // first: the options below override its values
    pod.SetAccelerators(accelerators); // checks N >= 2
    pod.SetPlanes(planes);             // checks P >= 1
    if (!rate.empty())
    {
        pod.SetLinkRate(DataRate(rate));
    }
    if (rate.empty())
    {
        const uint64_t bps = pod.GetLinkRate().GetBitRate();
        rate = bps % 1000000000 == 0 ? std::to_string(bps / 1000000000) + "Gbps"
                                     : std::to_string(bps) + "bps";
    }
    pod.SetLinkLatency(linkLatency);
    if (!switchLatencyText.empty())
    {
        pod.SetSwitchLatency(Time(switchLatencyText));
    }
    const Time switchLatency = pod.GetSwitchLatency();
    pod.SetAckInterval(ackInterval); // checks >= 1

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl"); // line rate
    uint32_t planesPerQp = planes;
    if (pathSelector == "interleave")
    {
        rdma.SetPathSelector("ns3::RdmaAddressInterleavePathSelector",
                             "Granularity",
                             UintegerValue(granularity));
    }
    else if (pathSelector == "spray")
    {
        rdma.SetPathSelector("ns3::RdmaSprayPathSelector", "Mode", StringValue("RoundRobin"));
    }
    else if (pathSelector == "qp")
    {
        rdma.SetPathSelector("ns3::RdmaQpPathSelector");
        planesPerQp = 1;
    }
    else
    {
        RdmaOptionChecker::Fail("pathSelector", pathSelector, "qp, spray, interleave");
    }
    pod.Install(rdma);
    rdma.AssignStreams(pod.GetSwitches(), 0);

    Ring ring;
    ring.n = accelerators;
    ring.steps = 2 * (accelerators - 1);
    ring.chunk = bytes / accelerators;
    ring.done.assign(accelerators, 0);
    ring.postTime.assign(accelerators, std::vector<Time>(ring.steps));
    ring.arriveTime.assign(accelerators, std::vector<Time>(ring.steps));
    ring.send.resize(accelerators);
    ring.recv.resize(accelerators);
    for (uint32_t i = 0; i < accelerators; ++i)
    {
        ring.nodes.push_back(pod.GetAccelerator(i));
    }
    for (uint32_t i = 0; i < accelerators; ++i)
    {
        const uint32_t next = (i + 1) % accelerators;
        auto [qp, peer] = rdma.Connect(ring.nodes[i], ring.nodes[next]);
        ring.send[i] = qp;
        ring.recv[next] = peer;
        peer->SetReceiveCompletionCallback(MakeBoundCallback(&OnChunkArrived, &ring, next));
    }
    for (uint32_t i = 0; i < accelerators; ++i)
    {
        Simulator::ScheduleWithContext(ring.nodes[i]->GetId(), Seconds(0), &PostStep, &ring, i, 0u);
    }

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Stop(stopTime); // in case a step never completes
    Simulator::Run();
    conservation.Print(std::cout);

    // Step s ends when the last accelerator has its chunk of step s.
    std::vector<Time> stepEnd(ring.steps, Time(0));
    std::vector<Time> stepEndMin(ring.steps, Time::Max());
    bool complete = ring.finished == accelerators;
    for (uint32_t i = 0; i < accelerators; ++i)
    {
        for (uint32_t s = 0; s < ring.done[i]; ++s)
        {
            stepEnd[s] = std::max(stepEnd[s], ring.arriveTime[i][s]);
            stepEndMin[s] = std::min(stepEndMin[s], ring.arriveTime[i][s]);
        }
    }
    uint64_t retransmissions = 0;
    uint64_t timeouts = 0;
    for (const auto& qp : ring.send)
    {
        retransmissions += qp->GetRetransmissions();
        timeouts += qp->GetTimeouts();
    }
    uint64_t packetsLost = 0; // counted by responders in the unreliable end-to-end mode
    for (const auto& qp : ring.recv)
    {
        packetsLost += qp->GetPacketsLost();
    }
    std::vector<uint64_t> perPlane(planes, 0);
    for (uint32_t i = 0; i < accelerators; ++i)
    {
        Ptr<RdmaNic> nic = RdmaHelper::GetNic(ring.nodes[i]);
        for (uint32_t p = 0; p < planes; ++p)
        {
            perPlane[p] += nic->GetDataPacketsSent(p);
        }
    }

    // Analytical time (see the file comment).
    const double r = DataRate(rate).GetBitRate();
    const double w = RdmaWireSize::FullPacket(mtu);
    const double chunkPackets = std::ceil(double(ring.chunk) / mtu);
    // ACK bytes per data packet on the busiest plane (see the file comment).
    const double ackPerPacket =
        AckBytesPerPacket(static_cast<uint32_t>(chunkPackets),
                          ackInterval,
                          planesPerQp,
                          pathSelector == "interleave" ? granularity / mtu : 1);
    const double wirePerPacket = w + ackPerPacket;
    const double beff = planesPerQp * r * mtu / wirePerPacket; // bit/s of payload
    const double alpha = 2 * linkLatency.GetSeconds() + switchLatency.GetSeconds() +
                         (2.0 - 1.0 / planesPerQp) * w * 8 / r;
    const double stepAnalytical = alpha + ring.chunk * 8.0 / beff;
    const double totalAnalytical = ring.steps * stepAnalytical;
    // Refinement: the packets sent before the step's first packet has arrived (t1 after the
    // step began; all of the chunk's packets if it is shorter) have no ACKs between them; T
    // charges each of them A bytes at P' R.
    const double t1 =
        2 * linkLatency.GetSeconds() + switchLatency.GetSeconds() + 2 * (w + RETH_BYTES) * 8 / r;
    const double ackFree = std::min(chunkPackets, t1 * planesPerQp * r / (8 * w));
    const double totalRefined =
        totalAnalytical - ring.steps * ackFree * ackPerPacket * 8 / (planesPerQp * r);
    const double total = complete ? stepEnd.back().GetSeconds() : -1;
    const double busFactor = 2.0 * (accelerators - 1) / accelerators;
    const double algbw = complete ? bytes / total : 0; // bytes/s
    const double busbw = algbw * busFactor;
    const double busbwAnalytical = bytes / totalAnalytical * busFactor;

    std::cout << std::fixed << std::setprecision(3);
    std::cout << "scale-up-allreduce: profile " << profile << ", N = " << accelerators
              << " accelerators, P = " << planes << " planes of " << rate << ", link "
              << linkLatency.As(Time::NS) << ", switch " << switchLatency.As(Time::NS)
              << ", S = " << bytes << " B (chunk " << ring.chunk << " B), MTU " << mtu
              << ", path selector " << pathSelector;
    if (pathSelector == "interleave")
    {
        std::cout << " (granularity " << granularity << " B)";
    }
    std::cout << "\nstep  phase            end(us)   duration(us)  skew(ns)\n";
    for (uint32_t s = 0; s < ring.steps; ++s)
    {
        const Time start = s == 0 ? Time(0) : stepEnd[s - 1];
        std::cout << std::setw(4) << s << "  " << std::left << std::setw(15)
                  << (s < accelerators - 1 ? "reduce-scatter" : "all-gather") << std::right
                  << std::setw(9) << stepEnd[s].GetSeconds() * 1e6 << std::setw(15)
                  << (stepEnd[s] - start).GetSeconds() * 1e6 << std::setw(10)
                  << (complete ? (stepEnd[s] - stepEndMin[s]).GetSeconds() * 1e9 : -1) << "\n";
    }
    std::cout << "total time        " << total * 1e6 << " us (analytical " << totalAnalytical * 1e6
              << " us, ratio " << (complete ? total / totalAnalytical : 0) << "; refined "
              << totalRefined * 1e6 << " us)"
              << (profile == "roce" ? "" : " [analytical: RoCEv2 framing, reference only]") << "\n";
    std::cout << "per step          " << total / ring.steps * 1e6 << " us (analytical "
              << stepAnalytical * 1e6 << " us = alpha " << alpha * 1e9 << " ns + chunk / B_eff "
              << ring.chunk * 8.0 / beff * 1e9 << " ns)\n";
    std::cout << "B_eff             " << beff / 1e9 << " Gb/s (" << planesPerQp << " x " << rate
              << " x " << mtu << " / (" << w << " + " << ackPerPacket
              << ": ACK bytes per data packet on the busiest plane, an ACK per " << ackInterval
              << " packets))\n";
    std::cout << "algbw             " << algbw / 1e9 << " GB/s\n";
    std::cout << "busbw             " << busbw / 1e9 << " GB/s (analytical "
              << busbwAnalytical / 1e9 << " GB/s)\n";
    std::cout << "data packets per plane:";
    for (uint32_t p = 0; p < planes; ++p)
    {
        std::cout << " " << perPlane[p];
    }
    std::cout << "\nretransmissions " << retransmissions << ", timeouts " << timeouts
              << ", packets lost " << packetsLost
              << (complete ? "" : "; NOT COMPLETE at --stopTime") << "\n";

    RdmaOutputHelper::CreateDirectories(output);
    const std::string summaryFile = output + "/scale-up-allreduce.csv";
    std::ofstream summary(summaryFile);
    NS_ABORT_MSG_IF(!summary, "cannot write " << summaryFile);
    summary << std::setprecision(12);
    summary
        << "accelerators,planes,bytes,rate_bps,link_latency_ns,switch_latency_ns,"
           "path_selector,granularity,mtu,ack_interval,steps,total_us,analytical_us,"
           "ratio,refined_us,alpha_ns,beff_gbps,algbw_gbytes,busbw_gbytes,analytical_busbw_gbytes,"
           "min_plane_packets,max_plane_packets,retransmissions,timeouts,completed,profile,"
           "packets_lost\n";
    summary << accelerators << "," << planes << "," << bytes << "," << r << ","
            << linkLatency.GetPicoSeconds() / 1e3 << "," << switchLatency.GetPicoSeconds() / 1e3
            << "," << pathSelector << "," << granularity << "," << mtu << "," << ackInterval << ","
            << ring.steps << "," << total * 1e6 << "," << totalAnalytical * 1e6 << ","
            << (complete ? total / totalAnalytical : 0) << "," << totalRefined * 1e6 << ","
            << alpha * 1e9 << "," << beff / 1e9 << "," << algbw / 1e9 << "," << busbw / 1e9 << ","
            << busbwAnalytical / 1e9 << "," << *std::min_element(perPlane.begin(), perPlane.end())
            << "," << *std::max_element(perPlane.begin(), perPlane.end()) << "," << retransmissions
            << "," << timeouts << "," << complete << "," << profile << "," << packetsLost << "\n";

    const std::string stepsFile = output + "/scale-up-allreduce-steps.csv";
    std::ofstream steps(stepsFile);
    NS_ABORT_MSG_IF(!steps, "cannot write " << stepsFile);
    steps << std::setprecision(12);
    steps << "step,phase,start_us,end_us,duration_us,first_end_us,analytical_duration_us\n";
    const uint32_t stepsByAll = *std::min_element(ring.done.begin(), ring.done.end());
    for (uint32_t s = 0; s < stepsByAll; ++s)
    {
        const Time start = s == 0 ? Time(0) : stepEnd[s - 1];
        steps << s << "," << (s < accelerators - 1 ? "reduce-scatter" : "all-gather") << ","
              << start.GetSeconds() * 1e6 << "," << stepEnd[s].GetSeconds() * 1e6 << ","
              << (stepEnd[s] - start).GetSeconds() * 1e6 << "," << stepEndMin[s].GetSeconds() * 1e6
              << "," << stepAnalytical * 1e6 << "\n";
    }

    Simulator::Destroy();
    return complete ? 0 : 1;
}
