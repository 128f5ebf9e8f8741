/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ScaleUpHelper: node, link and port counts of single-tier scale-up pods, port p of every
// accelerator on plane switch p, all pairs reachable with exactly one next hop per switch
// and accelerator, a WRITE across the pod with its latency to the picosecond (serialization,
// propagation and switch latency), clear errors for bad parameters; and the
// scale-up-allreduce example's ring all-reduce time against the analytical
// T = 2 (N - 1) (alpha + (S/N) / B_eff).

#include "rdma-test-utils.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// \return the node at the other end of a device's link
Ptr<Node>
PeerNodeOf(Ptr<RdmaNetDevice> d)
{
    return d->GetRdmaChannel()->GetPeer(d)->GetNode();
}

/// Build a pod of n accelerators and p planes with default links.
void
CheckPod(uint32_t n, uint32_t p)
{
    SCOPED_TRACE("N = " + std::to_string(n) + ", P = " + std::to_string(p));
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(n);
    pod.SetPlanes(p);
    // Counts are known before Install.
    EXPECT_EQ(pod.GetNAccelerators(), n);
    EXPECT_EQ(pod.GetNPlanes(), p);
    EXPECT_EQ(pod.GetNLinks(), n * p);
    pod.Install(rdma);

    ASSERT_EQ(pod.GetAccelerators().GetN(), n);
    ASSERT_EQ(pod.GetSwitches().GetN(), p);
    EXPECT_EQ(pod.GetNodes().GetN(), n + p);
    EXPECT_EQ(pod.GetDevices().GetN(), 2 * n * p); // one device per link end

    // Every accelerator: P ports, port p (NIC port p, device p) cabled to switch p.
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> acc = pod.GetAccelerator(i);
        Ptr<RdmaNic> nic = RdmaHelper::GetNic(acc);
        ASSERT_EQ(acc->GetNDevices(), p);
        ASSERT_EQ(nic->GetNDevices(), p);
        EXPECT_EQ(acc->GetObject<RdmaSwitch>(), nullptr);
        for (uint32_t q = 0; q < p; ++q)
        {
            EXPECT_EQ(nic->GetDevice(q), pod.GetAcceleratorDevice(i, q));
            EXPECT_EQ(PeerNodeOf(nic->GetDevice(q)), pod.GetSwitch(q)) << "accelerator " << i;
            EXPECT_EQ(pod.GetAcceleratorDevice(i, q)->GetRdmaChannel()->GetPeer(
                          pod.GetAcceleratorDevice(i, q)),
                      pod.GetSwitchDevice(q, i));
        }
    }
    // Every switch: N ports, port i faces accelerator i; exactly one route (next hop) to each
    // accelerator, its port facing it.
    std::set<uint32_t> addresses;
    for (uint32_t q = 0; q < p; ++q)
    {
        Ptr<RdmaSwitch> sw = pod.GetSwitch(q)->GetObject<RdmaSwitch>();
        ASSERT_NE(sw, nullptr);
        ASSERT_EQ(sw->GetNPorts(), n);
        for (uint32_t i = 0; i < n; ++i)
        {
            EXPECT_EQ(sw->GetPort(i), pod.GetSwitchDevice(q, i));
            EXPECT_EQ(PeerNodeOf(sw->GetPort(i)), pod.GetAccelerator(i));
            const std::vector<uint32_t>& routes = sw->GetRoutes(pod.GetAcceleratorAddress(i));
            ASSERT_EQ(routes.size(), 1u) << "switch " << q << ", accelerator " << i;
            EXPECT_EQ(routes[0], i) << "switch " << q << ", accelerator " << i;
        }
    }
    // Distinct addresses, every ordered pair reachable in two hops.
    for (uint32_t i = 0; i < n; ++i)
    {
        addresses.insert(pod.GetAcceleratorAddress(i).Get());
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i != j)
            {
                EXPECT_TRUE(
                    RdmaRoutingHelper::IsReachable(pod.GetAccelerator(i), pod.GetAccelerator(j)))
                    << i << " -> " << j;
                EXPECT_EQ(
                    RdmaRoutingHelper::GetHopCount(pod.GetAccelerator(i), pod.GetAccelerator(j)),
                    2u)
                    << i << " -> " << j;
            }
        }
    }
    EXPECT_EQ(addresses.size(), n);
    Simulator::Destroy();
}

/// Wire bytes of a WRITE packet: payload + 82 (see rdma-test-utils.h) + 16 for the RETH of
/// a message's first packet.
constexpr double RETH_BYTES = 16;
/// Wire bytes of an ACK: 66-byte frame (Ethernet 14, IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4,
/// FCS 4) + preamble/SFD 8 + inter-frame gap 12.
constexpr double ACK_WIRE_BYTES = 86;

/// Post-to-receive-completion and post-to-send-completion times of one WRITE.
struct WriteTimes
{
    double receive{-1}; //!< seconds
    double send{-1};    //!< seconds
};

/// One WRITE of `bytes` from accelerator 0 to accelerator 2 of a 4 x 2 pod.
WriteTimes
OneWrite(uint64_t bytes, Time linkLatency, Time switchLatency, const std::string& rate)
{
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(4);
    pod.SetPlanes(2);
    pod.SetLinkRate(DataRate(rate));
    pod.SetLinkLatency(linkLatency);
    pod.SetSwitchLatency(switchLatency);
    pod.Install(rdma);
    auto [qp, peer] = rdma.Connect(pod.GetAccelerator(0), pod.GetAccelerator(2));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, pod.GetAccelerator(0), Seconds(0), bytes);
    Simulator::Run();
    WriteTimes t;
    if (log.receives.size() == 1 && log.sends.size() == 1)
    {
        t.receive = (log.receives[0].completionTime - log.sends[0].postTime).GetSeconds();
        t.send = (log.sends[0].completionTime - log.sends[0].postTime).GetSeconds();
    }
    Simulator::Destroy();
    return t;
}

/// A CSV file of a header line and one data line, as a map.
std::map<std::string, std::string>
ReadSummary(const std::string& path)
{
    const std::vector<CsvRow> rows = ReadCsvRows(path);
    EXPECT_FALSE(rows.empty()) << path << " has no data line";
    return rows.empty() ? CsvRow() : rows.front();
}

} // namespace

TEST(RdmaScaleUp, CountsPortsAndRoutes)
{
    CheckPod(2, 1);
    CheckPod(4, 2);
    CheckPod(8, 4);
    CheckPod(5, 3);
}

TEST(RdmaScaleUp, DefaultsAreDocumented)
{
    ScaleUpHelper pod;
    EXPECT_EQ(pod.GetNAccelerators(), 8u);
    EXPECT_EQ(pod.GetNPlanes(), 4u);
    EXPECT_EQ(pod.GetLinkRate(), DataRate("200Gbps"));
    EXPECT_EQ(pod.GetLinkLatency(), NanoSeconds(10));
    EXPECT_EQ(pod.GetSwitchLatency(), NanoSeconds(150));
    // Half the switch latency on each link: 10 + 75 ns; a path has 2 x 10 + 150 ns.
    EXPECT_EQ(pod.GetChannelDelay(), NanoSeconds(85));
    EXPECT_EQ(pod.GetPathDelay(), NanoSeconds(170));
    // ACK coalescing: one ACK per 16 packets (the hfi1 driver's HFI1_PSN_CREDIT).
    EXPECT_EQ(pod.GetAckInterval(), 16u);
}

TEST(RdmaScaleUp, ChannelsCarryLinkPlusHalfSwitchLatency)
{
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(3);
    pod.SetPlanes(2);
    pod.SetLinkLatency(NanoSeconds(7));
    pod.SetSwitchLatency(NanoSeconds(300));
    pod.SetLinkRate(DataRate("400Gbps"));
    pod.Install(rdma);
    for (uint32_t d = 0; d < pod.GetDevices().GetN(); ++d)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(pod.GetDevices().Get(d));
        EXPECT_EQ(dev->GetRdmaChannel()->GetDelay(), NanoSeconds(157));
        EXPECT_EQ(dev->GetDataRate(), DataRate("400Gbps"));
    }
    Simulator::Destroy();
}

TEST(RdmaScaleUp, SmallWriteLatencyIsSerializationPropagationAndSwitch)
{
    // A 512-byte WRITE is one packet of 512 + 82 + 16 (RETH) = 610 wire bytes. It is
    // serialized by the NIC (610 x 8 / R), propagates d + L/2, is stored and forwarded by
    // the plane switch (610 x 8 / R again), propagates d + L/2 and is placed: the receive
    // completion comes 2 x 610 x 8 / R + 2 d + L after posting. The ACK (86 wire bytes)
    // takes 2 x 86 x 8 / R + 2 d + L back. At 200 Gb/s a bit lasts 5 ps, every time is a
    // whole number of picoseconds: exact to the picosecond (tolerance 1 ps for rounding).
    const double bit = 1.0 / 200e9;
    const double d = 10e-9;
    for (double switchNs : {0.0, 150.0, 300.0})
    {
        SCOPED_TRACE("switch latency " + std::to_string(switchNs) + " ns");
        const WriteTimes t = OneWrite(512, NanoSeconds(10), NanoSeconds(switchNs), "200Gbps");
        ASSERT_GT(t.receive, 0) << "the WRITE did not complete";
        const double oneWay = 2 * (512 + 82 + RETH_BYTES) * 8 * bit + 2 * d + switchNs * 1e-9;
        const double ack = 2 * ACK_WIRE_BYTES * 8 * bit + 2 * d + switchNs * 1e-9;
        EXPECT_NEAR(t.receive, oneWay, 1e-12); // 218.8 ns with the default 150 ns switch
        EXPECT_NEAR(t.send, oneWay + ack, 1e-12);
    }
}

TEST(RdmaScaleUp, SprayedWriteUsesEveryPlaneAtAggregateRate)
{
    // 64 KiB = 64 packets of 1024, sprayed round robin over 4 planes of 100 Gb/s (the queue
    // pair's line rate is 400 Gb/s, one packet of W = 1106 wire bytes every W x 8 / 400 Gb/s):
    // 16 packets per plane. The first packet is 16 bytes longer (RETH); its port is busy
    // 16 x 8 / 100 Gb/s longer, packet 4 waits for that port, and the pacing after it shifts
    // the rest of the stream: the RETH costs 16 bytes at the port rate, not at 400 Gb/s. The
    // last packet (63) starts 63 W x 8 / 400 Gb/s + 16 x 8 / 100 Gb/s after posting, takes
    // W x 8 / 100 Gb/s on its port, is stored and forwarded by the switch (W x 8 / 100 Gb/s
    // again) and has the path delay: exact to the picosecond.
    RdmaHelper rdma;
    rdma.SetPathSelector("ns3::RdmaSprayPathSelector", "Mode", StringValue("RoundRobin"));
    ScaleUpHelper pod;
    pod.SetAccelerators(2);
    pod.SetPlanes(4);
    pod.SetLinkRate(DataRate("100Gbps"));
    pod.Install(rdma);
    auto [qp, peer] = rdma.Connect(pod.GetAccelerator(0), pod.GetAccelerator(1));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, pod.GetAccelerator(0), Seconds(0), 64 * 1024);
    Simulator::Run();
    ASSERT_EQ(log.receives.size(), 1u);
    Ptr<RdmaNic> nic = RdmaHelper::GetNic(pod.GetAccelerator(0));
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_EQ(nic->GetDataPacketsSent(p), 16u) << "plane " << p;
    }
    const double w = 1024 + 82;
    const double expected =
        63 * w * 8 / 400e9 + 16 * 8 / 100e9 + 2 * w * 8 / 100e9 + pod.GetPathDelay().GetSeconds();
    const double t = (log.receives[0].completionTime - log.sends[0].postTime).GetSeconds();
    EXPECT_NEAR(t, expected, 1e-12);
    EXPECT_EQ(qp->GetRetransmissions(), 0u);
    Simulator::Destroy();
}

TEST(RdmaScaleUpDeathTest, BadParametersAreRejected)
{
    ScaleUpHelper pod;
    EXPECT_DEATH(pod.SetAccelerators(1),
                 "1 accelerators is invalid; a scale-up pod needs at "
                 "least 2");
    EXPECT_DEATH(pod.SetAccelerators(0), "0 accelerators is invalid");
    EXPECT_DEATH(pod.SetPlanes(0), "0 planes is invalid; need at least 1");
    EXPECT_DEATH(pod.SetLinkRate(DataRate(0)), "link rate 0 is invalid");
    EXPECT_DEATH(pod.SetLinkLatency(NanoSeconds(-1)), "negative link latency");
    EXPECT_DEATH(pod.SetSwitchLatency(NanoSeconds(-5)), "negative switch latency");
    EXPECT_DEATH(pod.SetAckInterval(0), "ACK interval 0 is invalid; need at least 1");
    EXPECT_DEATH(pod.SetChannelAttribute("Delay", TimeValue(NanoSeconds(1))),
                 "SetLinkLatency and SetSwitchLatency");
    EXPECT_DEATH(pod.GetAccelerator(0),
                 "accelerator 0 does not exist; the pod has 0 "
                 "accelerators .call Install first");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            ScaleUpHelper twice;
            twice.SetAccelerators(2);
            twice.SetPlanes(1);
            twice.Install(rdma);
            twice.Install(rdma);
        },
        "ScaleUpHelper::Install: the pod is already installed");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            ScaleUpHelper late;
            late.SetAccelerators(2);
            late.SetPlanes(2);
            late.Install(rdma);
            late.GetSwitch(2);
        },
        "plane 2 does not exist; the pod has 2 planes");
}

/**
 * The ring all-reduce of examples/scale-up-allreduce.cc against the analytical time
 *
 *   T = 2 (N - 1) (alpha + (S/N) / B_eff),
 *   B_eff = P R m / (W + a),  alpha = 2 d + L + (2 - 1/P) W / R,
 *
 * computed here independently of the example (m = 1024, W = m + 82, A = 86; the responder
 * acknowledges packets k, 2k, ... and the last of a chunk of n, each ACK on the plane its
 * packet came in on, for the opposite hop; packet j takes plane j mod P, so the busiest
 * plane carries m ACKs, all ceil(n/k) of them when P divides k, and a = A m P / n ACK bytes
 * per data packet: BusiestPlaneAckBytes). Tolerance, derived:
 *  - below T: T charges every data packet of a step with an ACK, but an accelerator starts
 *    acknowledging its predecessor's chunk only when the chunk's first packet has arrived,
 *    t1 = 2 d + L + 2 (W + 16) 8 / R after the step began (16: the RETH); the t1 P R / (8 W)
 *    packets it sent before had no ACKs between them, which saves t1 a / W per step (20.2 ns
 *    with k = 1, 1.1 % of a 1.76 us step for N = 4, S = 256 KiB). Allow that plus
 *    one data packet at the aggregate rate, W 8 / (P R), for where the ACK stream starts;
 *  - above T: the RETH of a step's first packet (16 x 8 / R: the port that sends it is busy
 *    longer and the round-robin pacing waits for it) and an ACK already on the wire when a
 *    step's data is posted (A 8 / R) are not in T; with coalesced ACKs (k > 1) an ACK frame
 *    is still indivisible: the step's last data packet can wait behind a whole ACK, of
 *    which T charges it only a, so (A - a) 8 / R more (0 for k = 1).
 * So  T - 2 (N - 1) (t1 a / W + W 8 / (P R))  <=  T_sim  <=  T + 2 (N - 1) (16 + 2A - a) 8 / R.
 * A run that loses a plane's worth of bandwidth, a packet per step or the switch latency
 * falls outside (e.g. omitting L moves T by 150 ns per step, well beyond the 31 ns band).
 */
/// a: ACK bytes per data packet on the busiest plane (see CheckAllReduce).
double
BusiestPlaneAckBytes(uint32_t packets, uint32_t k, uint32_t planes)
{
    std::vector<uint32_t> acks(planes, 0);
    for (uint32_t j = 1; j <= packets; ++j)
    {
        if (j % k == 0 || j == packets)
        {
            ++acks[(j - 1) % planes];
        }
    }
    return ACK_WIRE_BYTES * *std::max_element(acks.begin(), acks.end()) * planes / packets;
}

void
CheckAllReduce(uint32_t n,
               uint32_t p,
               uint64_t bytes,
               const std::string& selector,
               uint32_t ackInterval = ScaleUpHelper::DEFAULT_ACK_INTERVAL)
{
    SCOPED_TRACE("N = " + std::to_string(n) + ", P = " + std::to_string(p) +
                 ", S = " + std::to_string(bytes) + ", " + selector + ", ACK every " +
                 std::to_string(ackInterval));
    const std::string exe = RDMA_SCALE_UP_EXAMPLE;
    if (exe.empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir() + "/scale-up-" + std::to_string(n) + "x" +
                            std::to_string(p) + "-" + selector + "-" + std::to_string(ackInterval);
    std::remove((dir + "/scale-up-allreduce.csv").c_str());
    const std::string cmd = exe + " --accelerators=" + std::to_string(n) +
                            " --planes=" + std::to_string(p) + " --bytes=" + std::to_string(bytes) +
                            " --pathSelector=" + selector +
                            " --ackInterval=" + std::to_string(ackInterval) + " --output=" + dir +
                            " > " + dir + ".log 2>&1";
    RdmaOutputHelper::CreateDirectories(dir);
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto s = ReadSummary(dir + "/scale-up-allreduce.csv");
    ASSERT_EQ(s["completed"], "1");
    EXPECT_EQ(s["retransmissions"], "0");

    // The example's defaults: 200 Gb/s, 10 ns links, 150 ns switches, MTU 1024.
    const double r = 200e9;
    const double m = 1024;
    const double w = m + 82;
    const double a =
        BusiestPlaneAckBytes(static_cast<uint32_t>(std::ceil(bytes / n / m)), ackInterval, p);
    const double beff = p * r * m / (w + a);
    const double alpha = 2 * 10e-9 + 150e-9 + (2.0 - 1.0 / p) * w * 8 / r;
    const uint32_t steps = 2 * (n - 1);
    const double step = alpha + bytes / n * 8.0 / beff;
    const double analytical = steps * step;
    const double simulated = std::stod(s["total_us"]) * 1e-6;
    const double t1 = 2 * 10e-9 + 150e-9 + 2 * (w + RETH_BYTES) * 8 / r;
    const double below = steps * (t1 * a / w + w * 8 / (p * r));
    const double above = steps * (RETH_BYTES + 2 * ACK_WIRE_BYTES - a) * 8 / r;
    EXPECT_NEAR(std::stod(s["analytical_us"]) * 1e-6, analytical, 1e-12);
    EXPECT_GE(simulated, analytical - below) << "T = " << analytical * 1e6 << " us";
    EXPECT_LE(simulated, analytical + above) << "T = " << analytical * 1e6 << " us";
    // Every plane carries the same number of data packets (chunks of whole MTUs, interleaved
    // or sprayed one packet per plane in turn).
    EXPECT_EQ(s["min_plane_packets"], s["max_plane_packets"]);
    const double busbw = std::stod(s["busbw_gbytes"]) * 1e9;
    EXPECT_NEAR(busbw, 2.0 * (n - 1) / n * bytes / simulated, busbw * 1e-9);
}

TEST(RdmaScaleUpAllReduce, FourAcceleratorsTwoPlanesMatchesAnalyticalTime)
{
    CheckAllReduce(4, 2, 256 * 1024, "interleave");
}

TEST(RdmaScaleUpAllReduce, EightAcceleratorsFourPlanesMatchesAnalyticalTime)
{
    CheckAllReduce(8, 4, 1024 * 1024, "interleave");
}

TEST(RdmaScaleUpAllReduce, SprayMatchesAnalyticalTime)
{
    CheckAllReduce(8, 4, 1024 * 1024, "spray");
}

TEST(RdmaScaleUpAllReduce, AckPerPacketMatchesAnalyticalTime)
{
    CheckAllReduce(4, 2, 256 * 1024, "interleave", 1);
}

TEST(RdmaScaleUpAllReduce, CoalescedAcksAreFasterByTheirWireShare)
{
    // Same ring with an ACK per packet and with the default coalescing (16): the chunk
    // term of T scales with (W + a), so the coalesced run is faster by the difference of
    // the chunk terms, (86 - 10.75) of 1192 wire bytes per packet (N = 4, P = 2,
    // S = 256 KiB: n = 64 packets per chunk, 4 ACKs instead of 64, all on plane 1, which
    // carries 32 data packets: a = 86 x 4 / 32), less the ACK-free start of each step
    // (t1 a / W, see CheckAllReduce) that the ACK per packet does not pay either.
    const std::string exe = RDMA_SCALE_UP_EXAMPLE;
    if (exe.empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    std::map<uint32_t, double> total;
    for (uint32_t k : {1u, 16u})
    {
        const std::string dir = rdmatest::OutputDir() + "/scale-up-ack-" + std::to_string(k);
        RdmaOutputHelper::CreateDirectories(dir);
        const std::string cmd =
            exe + " --accelerators=4 --planes=2 --bytes=262144 --ackInterval=" + std::to_string(k) +
            " --output=" + dir + " > " + dir + ".log 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        auto s = ReadSummary(dir + "/scale-up-allreduce.csv");
        ASSERT_EQ(s["completed"], "1");
        EXPECT_EQ(s["ack_interval"], std::to_string(k));
        total[k] = std::stod(s["total_us"]);
    }
    // Chunk time per step: 65536 B at 2 x 200 Gb/s x 1024 / (1106 + a).
    const double chunkTime1 = 65536 * 8.0 / (2 * 200e9 * 1024 / (1106 + 86)) * 1e6;
    const double a16 = BusiestPlaneAckBytes(64, 16, 2);
    EXPECT_DOUBLE_EQ(a16, 86 * 4.0 / 32);
    const double chunkTime16 = 65536 * 8.0 / (2 * 200e9 * 1024 / (1106 + a16)) * 1e6;
    const double t1 = (2 * 10e-9 + 150e-9 + 2 * (1106 + 16) * 8 / 200e9) * 1e6;
    const double ackFreeStart = t1 * (86 - a16) / 1106;
    const double expectedSaving = 6 * (chunkTime1 - chunkTime16 - ackFreeStart); // 2 (N-1) steps
    EXPECT_NEAR(total[1] - total[16], expectedSaving, 0.1 * expectedSaving)
        << "ACK per packet " << total[1] << " us, coalesced " << total[16] << " us";
}
