/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Collectives (RdmaCollective and its algorithms): the schedules move the right data (checked
// symbolically, without a network), and on a non-blocking fabric (p hosts on one switch) the
// completion times equal the analytical bandwidth-and-latency times within 5 %.

#include "rdma-test-utils.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <set>

namespace ns3
{
namespace rdmatest
{
namespace
{

using Op = RdmaCollectiveAlgorithm::Operation;

constexpr uint32_t MTU = 1024;
constexpr double RATE = 100e9;

/// Wire bytes of a data packet with `payload` bytes (RETH 16 on a WRITE's first packet):
/// Ethernet 14, IPv4 20, UDP 8, BTH 12, payload padded to 4 bytes, ICRC 4, then FCS,
/// preamble/SFD and inter-frame gap (WireBytes).
double
DataWire(uint64_t payload, uint32_t reth)
{
    return RdmaNetDevice::WireBytes(14 + 20 + 8 + 12 + reth + (payload + 3) / 4 * 4 + 4);
}

/// Wire bytes of an ACK: Ethernet 14, IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4 (86 on the wire).
const double ACK_WIRE = RdmaNetDevice::WireBytes(14 + 48);

/// Packets of a message of b bytes.
uint64_t
Packets(uint64_t b)
{
    return (b + MTU - 1) / MTU;
}

/**
 * Seconds a message of b bytes keeps its sender's host link busy in a symmetric collective:
 * its data packets, plus the ACKs (one per packet, AckInterval 1) the same host sends for
 * the equal amount it receives meanwhile, which share the link.
 */
double
LinkTime(uint64_t b)
{
    const uint64_t n = Packets(b);
    double bytes = DataWire(std::min<uint64_t>(b, MTU), 16) + n * ACK_WIRE;
    if (n > 1)
    {
        bytes += (n - 2) * DataWire(MTU, 0) + DataWire(b - (n - 1) * MTU, 0);
    }
    return bytes * 8 / RATE;
}

/**
 * Latency added after the last packet of a message leaves its sender: propagation to the
 * switch, its store-and-forward serialization there, propagation to the receiver.
 */
double
Alpha(uint64_t b, double delay)
{
    const uint64_t n = Packets(b);
    return 2 * delay + DataWire(b - (n - 1) * MTU, n == 1 ? 16 : 0) * 8 / RATE;
}

/// p hosts on one switch, 100 Gb/s links of the given delay, MTU 1024, line-rate senders.
struct Pod
{
    Star star;

    Pod(uint32_t p, Time delay)
        : star(p, "100Gbps", delay)
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
        star.Install();
    }

    /// A prepared and connected job on hosts [first, first + ranks).
    Ptr<RdmaCollective> Job(const std::string& algorithm,
                            const std::string& op,
                            uint64_t bytes,
                            uint32_t ranks,
                            uint32_t first = 0,
                            uint64_t chunkBytes = 0,
                            uint32_t iterations = 1)
    {
        RdmaCollectiveHelper helper;
        helper.SetAlgorithm(algorithm);
        helper.SetAttribute("Operation", StringValue(op));
        helper.SetAttribute("Bytes", UintegerValue(bytes));
        helper.SetAttribute("ChunkBytes", UintegerValue(chunkBytes));
        helper.SetAttribute("Iterations", UintegerValue(iterations));
        NodeContainer hosts;
        for (uint32_t i = 0; i < ranks; ++i)
        {
            hosts.Add(star.hosts.Get(first + i));
        }
        return helper.Install(hosts, star.rdma);
    }

    uint64_t SwitchDrops() const
    {
        return star.Switch()->GetTotalDrops();
    }
};

/// Run one job alone and return its time in seconds (checks completion and conservation).
double
RunAlone(const std::string& algorithm,
         const std::string& op,
         uint64_t bytes,
         uint32_t p,
         double delay,
         uint64_t chunkBytes = 0)
{
    Pod pod(p, Seconds(delay));
    Ptr<RdmaCollective> job = pod.Job(algorithm, op, bytes, p, 0, chunkBytes);
    job->Start(Seconds(0));
    Simulator::Run();
    EXPECT_TRUE(job->IsComplete()) << job->Describe();
    EXPECT_EQ(job->GetBytesArrived(), job->GetBytesPosted()) << job->Describe();
    EXPECT_EQ(pod.SwitchDrops(), 0u);
    const double t = job->IsComplete() ? job->GetIterationTime(0).GetSeconds() : 0;
    Simulator::Destroy();
    return t;
}

/**
 * Run a schedule on sets of contributions (bit r = rank r's data) without a network: every
 * message carries, for each chunk it covers, what the sender held at the start of the step;
 * the receiver merges it (a reduction and a copy both merge the sets). Returns what every
 * rank holds of every chunk at the end.
 */
std::vector<std::vector<uint64_t>>
Execute(const RdmaCollectiveAlgorithm& algorithm, Op op, uint32_t p)
{
    const uint64_t unit = 1000; // bytes per chunk: S = p x unit
    auto schedule = algorithm.Build(op, p, p * unit);
    std::vector<std::vector<uint64_t>> held(p, std::vector<uint64_t>(p, 0));
    for (uint32_t r = 0; r < p; ++r)
    {
        for (uint32_t c = 0; c < p; ++c)
        {
            // All-gather: a rank starts with its own chunk; the others with a whole buffer.
            // All-to-all: held[r][c] is slot c of rank r's receive buffer, where rank c's
            // message lands (the message's offset); a rank's own slot is a local copy.
            const bool ownChunkOnly = op == RdmaCollectiveAlgorithm::ALL_GATHER ||
                                      op == RdmaCollectiveAlgorithm::ALL_TO_ALL;
            held[r][c] = ownChunkOnly ? (c == r ? 1ULL << r : 0) : 1ULL << r;
        }
    }
    std::size_t steps = 0;
    for (const auto& s : schedule)
    {
        steps = std::max(steps, s.size());
    }
    for (std::size_t s = 0; s < steps; ++s)
    {
        auto before = held;
        for (uint32_t r = 0; r < p; ++r)
        {
            if (s >= schedule[r].size())
            {
                continue;
            }
            for (const auto& m : schedule[r][s])
            {
                EXPECT_EQ(m.bytes % unit, 0u);
                EXPECT_EQ(m.offset % unit, 0u);
                const uint32_t first = m.offset / unit;
                for (uint32_t c = first; c < first + m.bytes / unit; ++c)
                {
                    if (op == RdmaCollectiveAlgorithm::ALL_TO_ALL)
                    {
                        held[m.peer][c] |= 1ULL << r; // slot r of the receiver
                    }
                    else
                    {
                        held[m.peer][c] |= before[r][c];
                    }
                }
            }
        }
    }
    return held;
}

} // namespace

TEST(RdmaCollective, SchedulesMoveTheRightData)
{
    // What each rank must hold at the end, as sets of contributions.
    for (uint32_t p : {2u, 3u, 4u, 5u, 8u, 16u})
    {
        const uint64_t all = (1ULL << p) - 1; // p <= 16: every contribution
        Ptr<RdmaRingCollectiveAlgorithm> ring = CreateObject<RdmaRingCollectiveAlgorithm>();
        Ptr<RdmaHalvingDoublingCollectiveAlgorithm> hd =
            CreateObject<RdmaHalvingDoublingCollectiveAlgorithm>();
        Ptr<RdmaDirectCollectiveAlgorithm> direct = CreateObject<RdmaDirectCollectiveAlgorithm>();
        std::vector<Ptr<RdmaCollectiveAlgorithm>> algorithms{ring, direct};
        if ((p & (p - 1)) == 0)
        {
            algorithms.push_back(hd);
        }
        for (auto alg : algorithms)
        {
            for (Op op : {RdmaCollectiveAlgorithm::ALL_REDUCE,
                          RdmaCollectiveAlgorithm::ALL_GATHER,
                          RdmaCollectiveAlgorithm::REDUCE_SCATTER,
                          RdmaCollectiveAlgorithm::ALL_TO_ALL})
            {
                if (!alg->CheckSupport(op, p).empty())
                {
                    continue;
                }
                SCOPED_TRACE(alg->GetName() + " " + RdmaCollectiveAlgorithm::OperationName(op) +
                             " p=" + std::to_string(p));
                const auto held = Execute(*alg, op, p);
                for (uint32_t r = 0; r < p; ++r)
                {
                    for (uint32_t c = 0; c < p; ++c)
                    {
                        switch (op)
                        {
                        case RdmaCollectiveAlgorithm::ALL_REDUCE:
                            EXPECT_EQ(held[r][c], all) << "rank " << r << " chunk " << c;
                            break;
                        case RdmaCollectiveAlgorithm::ALL_GATHER:
                            // Chunk c is rank c's data: every rank has it, unreduced.
                            EXPECT_EQ(held[r][c], 1ULL << c) << "rank " << r << " chunk " << c;
                            break;
                        case RdmaCollectiveAlgorithm::ALL_TO_ALL:
                            // Slot c holds what rank c sent to r.
                            EXPECT_EQ(held[r][c], 1ULL << c) << "rank " << r << " slot " << c;
                            break;
                        case RdmaCollectiveAlgorithm::REDUCE_SCATTER:
                            break;
                        }
                    }
                    if (op == RdmaCollectiveAlgorithm::REDUCE_SCATTER)
                    {
                        // The ring leaves the reduced chunk (r + 1) mod p at rank r,
                        // recursive halving chunk r.
                        const uint32_t mine = alg == ring ? (r + 1) % p : r;
                        EXPECT_EQ(held[r][mine], all) << "rank " << r;
                    }
                }
            }
        }
    }
}

TEST(RdmaCollective, StepCountsAndMessageSizesAreTheAlgorithms)
{
    const uint64_t s = 8 * 4096;
    auto ring =
        CreateObject<RdmaRingCollectiveAlgorithm>()->Build(RdmaCollectiveAlgorithm::ALL_REDUCE,
                                                           8,
                                                           s);
    ASSERT_EQ(ring[3].size(), 14u); // 2 (p - 1)
    for (const auto& step : ring[3])
    {
        ASSERT_EQ(step.size(), 1u);
        EXPECT_EQ(step[0].peer, 4u);
        EXPECT_EQ(step[0].bytes, s / 8);
    }
    auto hd = CreateObject<RdmaHalvingDoublingCollectiveAlgorithm>()->Build(
        RdmaCollectiveAlgorithm::ALL_REDUCE,
        8,
        s);
    ASSERT_EQ(hd[5].size(), 6u); // 2 log2 p
    const std::vector<uint64_t> sizes{s / 2, s / 4, s / 8, s / 8, s / 4, s / 2};
    const std::vector<uint32_t> partners{1, 7, 4, 4, 7, 1}; // 5 ^ 4, 5 ^ 2, 5 ^ 1, then back
    for (std::size_t k = 0; k < 6; ++k)
    {
        EXPECT_EQ(hd[5][k][0].bytes, sizes[k]) << "step " << k;
        EXPECT_EQ(hd[5][k][0].peer, partners[k]) << "step " << k;
    }
    // Uneven sizes: chunks differ by at most one byte and cover the buffer.
    uint64_t total = 0;
    for (uint32_t c = 0; c < 7; ++c)
    {
        total += RdmaCollectiveAlgorithm::ChunkBytes(1000, 7, c);
        EXPECT_EQ(RdmaCollectiveAlgorithm::ChunkOffset(1000, 7, c + 1),
                  RdmaCollectiveAlgorithm::ChunkOffset(1000, 7, c) +
                      RdmaCollectiveAlgorithm::ChunkBytes(1000, 7, c));
    }
    EXPECT_EQ(total, 1000u);
    EXPECT_NEAR(RdmaCollectiveAlgorithm::BusBandwidthFactor(RdmaCollectiveAlgorithm::ALL_REDUCE, 8),
                1.75,
                1e-12);
    EXPECT_NEAR(RdmaCollectiveAlgorithm::BusBandwidthFactor(RdmaCollectiveAlgorithm::ALL_GATHER, 8),
                0.875,
                1e-12);
}

TEST(RdmaCollective, RingTimesMatchTheAnalyticalTimeWithin5Percent)
{
    // Ring, unpipelined: each of the steps (2 (p - 1) for the all-reduce, p - 1 for the
    // all-gather and reduce-scatter) sends one chunk S/p to the successor and lasts
    // LinkTime(S/p) + Alpha: every host link carries its own chunk and the ACKs of the
    // chunk it receives; the next step begins when the last byte of the current one lands.
    const double d = 1e-6;
    for (uint32_t p : {4u, 8u})
    {
        for (uint64_t bytes : {256u * 1024, 4u * 1024 * 1024})
        {
            const uint64_t chunk = bytes / p;
            const double step = LinkTime(chunk) + Alpha(chunk, d);
            for (const auto& [op, steps] :
                 std::vector<std::pair<std::string, uint32_t>>{{"AllReduce", 2 * (p - 1)},
                                                               {"AllGather", p - 1},
                                                               {"ReduceScatter", p - 1}})
            {
                const double expected = steps * step;
                const double t = RunAlone("ns3::RdmaRingCollectiveAlgorithm", op, bytes, p, d);
                std::cout << "ring " << op << " p=" << p << " S=" << bytes << ": " << t * 1e6
                          << " us, analytical " << expected * 1e6 << " us\n";
                EXPECT_NEAR(t / expected, 1.0, 0.05)
                    << op << " p=" << p << " S=" << bytes << ": " << t * 1e6 << " us against "
                    << expected * 1e6 << " us";
            }
        }
    }
}

TEST(RdmaCollective, HalvingDoublingAndAllToAllMatchTheAnalyticalTimeWithin5Percent)
{
    const double d = 1e-6;
    for (uint32_t p : {4u, 8u})
    {
        for (uint64_t bytes : {256u * 1024, 4u * 1024 * 1024})
        {
            // Halving-doubling all-reduce: messages S/2, S/4, ..., S/p, then back up; every
            // step an exchange between two ranks, so every host link is symmetric as in the ring.
            double hd = 0;
            for (uint32_t d2 = p / 2, k = 1; d2 >= 1; d2 /= 2, ++k)
            {
                const uint64_t b = bytes >> k;
                hd += 2 * (LinkTime(b) + Alpha(b, d));
            }
            const double tHd =
                RunAlone("ns3::RdmaHalvingDoublingCollectiveAlgorithm", "AllReduce", bytes, p, d);
            std::cout << "halving-doubling AllReduce p=" << p << " S=" << bytes << ": " << tHd * 1e6
                      << " us, analytical " << hd * 1e6 << " us\n";
            EXPECT_NEAR(tHd / hd, 1.0, 0.05) << "halving-doubling p=" << p << " S=" << bytes << ": "
                                             << tHd * 1e6 << " us against " << hd * 1e6 << " us";

            // Direct all-to-all: p - 1 messages of S/p from every host, sent round robin;
            // every host link carries them and the ACKs of as much arriving: the last byte
            // leaves after (p - 1) LinkTime(S/p) and lands Alpha later.
            const uint64_t chunk = bytes / p;
            const double a2a = (p - 1) * LinkTime(chunk) + Alpha(chunk, d);
            const double tA2a =
                RunAlone("ns3::RdmaDirectCollectiveAlgorithm", "AllToAll", bytes, p, d);
            std::cout << "direct AllToAll p=" << p << " S=" << bytes << ": " << tA2a * 1e6
                      << " us, analytical " << a2a * 1e6 << " us\n";
            EXPECT_NEAR(tA2a / a2a, 1.0, 0.05)
                << "all-to-all p=" << p << " S=" << bytes << ": " << tA2a * 1e6 << " us against "
                << a2a * 1e6 << " us";
        }
    }
}

TEST(RdmaCollective, PipeliningShrinksTheRingLatencyTermAsDerived)
{
    // Ring all-reduce cut into P parts of S/P (ChunkBytes = S/(p P)): with t = LinkTime of
    // one part's chunk, every rank's step s begins at s x max(P t, t + alpha) (its link
    // either stays busy with the P parts of the previous step, or waits for the first part
    // to arrive), so T = (2 (p - 1) - 1) max(P t, t + alpha) + P t + alpha. With 10 us links
    // the latency term is large enough that the pipeline is visibly faster than the
    // unpipelined 2 (p - 1) (P t + alpha).
    const double d = 10e-6;
    const uint32_t p = 4;
    const uint64_t bytes = 4u * 1024 * 1024;
    for (uint32_t parts : {1u, 4u, 16u})
    {
        const uint64_t chunk = bytes / p / parts;
        const double t = LinkTime(chunk);
        const double alpha = Alpha(chunk, d);
        const double expected =
            (2 * (p - 1) - 1) * std::max(parts * t, t + alpha) + parts * t + alpha;
        const double measured = RunAlone("ns3::RdmaRingCollectiveAlgorithm",
                                         "AllReduce",
                                         bytes,
                                         p,
                                         d,
                                         parts == 1 ? 0 : chunk);
        std::cout << "ring AllReduce p=4 S=4 MiB, 10 us links, " << parts
                  << " part(s): " << measured * 1e6 << " us, analytical " << expected * 1e6
                  << " us\n";
        EXPECT_NEAR(measured / expected, 1.0, 0.05)
            << parts << " parts: " << measured * 1e6 << " us against " << expected * 1e6 << " us";
    }
    const double unpipelined =
        RunAlone("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, p, d);
    const double pipelined =
        RunAlone("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, p, d, bytes / p / 16);
    EXPECT_LT(pipelined, 0.9 * unpipelined);
}

TEST(RdmaCollective, IterationsAndConcurrentJobs)
{
    const double d = 1e-6;
    const uint64_t bytes = 1u << 20;
    const double alone = RunAlone("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, 4, d);
    {
        // Three iterations back to back: each takes the time of one alone (the first
        // iteration's trailing ACKs are on the wire when the second begins: within 1 %).
        Pod pod(4, Seconds(d));
        Ptr<RdmaCollective> job =
            pod.Job("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, 4, 0, 0, 3);

        // The trace reports each iteration once, in order; at the last one the job is
        // complete (a sink may stop the simulation there).
        struct Seen
        {
            Ptr<RdmaCollective> job;
            std::vector<Time> times;
            std::vector<bool> complete;
        } seen{job, {}, {}};

        job->TraceConnectWithoutContext("IterationComplete",
                                        MakeBoundCallback(
                                            +[](Seen* s, uint32_t i, Time t) {
                                                EXPECT_EQ(i, s->times.size());
                                                s->times.push_back(t);
                                                s->complete.push_back(s->job->IsComplete());
                                            },
                                            &seen));
        job->Start(Seconds(0));
        Simulator::Run();
        ASSERT_EQ(job->GetIterationsDone(), 3u);
        ASSERT_EQ(seen.times.size(), 3u);
        EXPECT_EQ(seen.complete, std::vector<bool>({false, false, true}));
        seen.job = nullptr;
        for (uint32_t i = 0; i < 3; ++i)
        {
            EXPECT_EQ(seen.times[i], job->GetIterationTime(i));
            EXPECT_NEAR(job->GetIterationTime(i).GetSeconds() / alone, 1.0, 0.01) << i;
        }
        EXPECT_EQ(job->GetBytesPosted(), job->GetBytesArrived());
        EXPECT_EQ(job->GetBytesPosted(), 3u * 4 * 6 * (bytes / 4)); // 3 x p x 2(p-1) x S/p
        Simulator::Destroy();
    }
    {
        // Two jobs on disjoint hosts of one non-blocking switch: each as fast as alone.
        // Two jobs on the same hosts: they share every host link, so each takes about twice.
        Pod pod(8, Seconds(d));
        Ptr<RdmaCollective> a =
            pod.Job("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, 4, 0);
        Ptr<RdmaCollective> b =
            pod.Job("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, 4, 4);
        Ptr<RdmaCollective> c =
            pod.Job("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", bytes, 4, 4);
        a->Start(Seconds(0));
        b->Start(Seconds(0));
        c->Start(Seconds(0));
        Simulator::Run();
        ASSERT_TRUE(a->IsComplete() && b->IsComplete() && c->IsComplete());
        EXPECT_NEAR(a->GetIterationTime(0).GetSeconds() / alone, 1.0, 0.01);
        EXPECT_NEAR(b->GetIterationTime(0).GetSeconds() / alone, 2.0, 0.1);
        EXPECT_NEAR(c->GetIterationTime(0).GetSeconds() / alone, 2.0, 0.1);
        EXPECT_EQ(pod.SwitchDrops(), 0u);
        Simulator::Destroy();
    }
}

TEST(RdmaCollective, BandwidthsFollowNcclTestsDefinitions)
{
    Pod pod(4, MicroSeconds(1));
    Ptr<RdmaCollective> job =
        pod.Job("ns3::RdmaRingCollectiveAlgorithm", "AllReduce", 1u << 20, 4, 0, 0, 2);
    job->Start(Seconds(0));
    Simulator::Run();
    ASSERT_TRUE(job->IsComplete());
    const double mean = (job->GetIterationTime(0) + job->GetIterationTime(1)).GetSeconds() / 2;
    EXPECT_NEAR(job->GetMeanIterationTime().GetSeconds(), mean, 1e-12);
    EXPECT_NEAR(job->GetAlgorithmBandwidth(), (1u << 20) / mean, 1e-3);
    EXPECT_NEAR(job->GetBusBandwidth(), (1u << 20) / mean * 1.5, 1e-3);
    // The bus bandwidth of a ring all-reduce is bounded by the goodput of a host link.
    EXPECT_LT(job->GetBusBandwidth() * 8, RATE * MTU / (MTU + 82.0));
    Simulator::Destroy();
}

TEST(RdmaCollective, RunsOnAFatTreeAndIsDeterministic)
{
    // Any topology: a k = 4 fat-tree (16 hosts, ECMP), a ring all-reduce on 8 hosts spread
    // over the pods and an all-to-all on the other 8, at once. Two identical runs give
    // identical times.
    auto run = [] {
        RdmaHelper rdma;
        rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
        FatTreeHelper ft;
        ft.SetThreeTier(4);
        ft.Install(rdma);
        rdma.AssignStreams(ft.GetSwitches(), 0);
        NodeContainer even;
        NodeContainer odd;
        for (uint32_t i = 0; i < 16; ++i)
        {
            (i % 2 == 0 ? even : odd).Add(ft.GetHosts().Get(i));
        }
        RdmaCollectiveHelper ring;
        ring.SetAttribute("Bytes", UintegerValue(1u << 20));
        RdmaCollectiveHelper a2a;
        a2a.SetAlgorithm("ns3::RdmaDirectCollectiveAlgorithm");
        a2a.SetAttribute("Operation", StringValue("AllToAll"));
        a2a.SetAttribute("Bytes", UintegerValue(1u << 20));
        Ptr<RdmaCollective> j1 = ring.Install(even, rdma);
        Ptr<RdmaCollective> j2 = a2a.Install(odd, rdma);
        j1->Start(Seconds(0));
        j2->Start(Seconds(0));
        Simulator::Run();
        EXPECT_TRUE(j1->IsComplete());
        EXPECT_TRUE(j2->IsComplete());
        EXPECT_EQ(j1->GetBytesPosted(), j1->GetBytesArrived());
        EXPECT_EQ(j2->GetBytesPosted(), j2->GetBytesArrived());
        EXPECT_EQ(j2->GetBytesPosted(), 8u * 7 * ((1u << 20) / 8));
        auto times = std::make_pair(j1->GetIterationTime(0), j2->GetIterationTime(0));
        Simulator::Destroy();
        return times;
    };
    const auto first = run();
    const auto second = run();
    EXPECT_EQ(first, second);
    EXPECT_GT(first.first, Seconds(0));
}

TEST(RdmaCollective, BadInputStopsWithAClearError)
{
    auto job = [](uint32_t hosts,
                  uint32_t ranks,
                  const std::string& algorithm,
                  const std::string& op,
                  uint64_t bytes,
                  uint32_t iterations = 1) {
        Pod pod(hosts, MicroSeconds(1));
        pod.Job(algorithm, op, bytes, ranks, 0, 0, iterations);
    };
    const std::string ring = "ns3::RdmaRingCollectiveAlgorithm";
    EXPECT_DEATH(job(2, 1, ring, "AllReduce", 4096), "at least 2 ranks; there is 1");
    EXPECT_DEATH(job(3, 3, "ns3::RdmaHalvingDoublingCollectiveAlgorithm", "AllReduce", 4096),
                 "power-of-two number of ranks .2, 4, 8, ....*not 3");
    EXPECT_DEATH(job(4, 4, ring, "AllToAll", 4096),
                 "Operation AllToAll is not valid here.*RdmaDirectCollectiveAlgorithm");
    EXPECT_DEATH(job(4, 4, "ns3::RdmaDirectCollectiveAlgorithm", "AllReduce", 4096),
                 "Operation AllReduce is not valid here");
    EXPECT_DEATH(job(4, 4, ring, "AllReduce", 3), "Bytes 3 is invalid; valid: at least .*4");
    EXPECT_DEATH(job(4, 4, ring, "AllReduce", 4096, 0), "Iterations 0 is invalid");
    EXPECT_DEATH(job(4, 4, "ns3::RdmaNic", "AllReduce", 4096),
                 "algorithm 'ns3::RdmaNic' is not valid; valid: ns3::RdmaRingCollectiveAlgorithm");
    EXPECT_DEATH(
        {
            Pod pod(4, MicroSeconds(1));
            RdmaCollectiveHelper helper;
            NodeContainer twice(pod.star.hosts.Get(0), pod.star.hosts.Get(0));
            helper.Install(twice, pod.star.rdma);
        },
        "node [0-9]+ is given twice .rank 1.; every rank is another host");
}

} // namespace rdmatest
} // namespace ns3
