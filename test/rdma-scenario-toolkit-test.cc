/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The scenario toolkit the examples share: the wire size of a message (RdmaWireSize), the
// option-list splitter (RdmaOptionChecker::SplitList), the flow-file replayer
// (RdmaFlowReplayer, RdmaFlowReplayerHelper) and the HPCC paper's fat-tree preset
// (FatTreeHelper::SetHpcc320), the bulk sender (RdmaBulkSendApplication) and the per-port
// time series (RdmaPortMonitor).

#include "rdma-test-utils.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <tuple>

using namespace ns3;
using namespace ns3::rdmatest;

// A WRITE of n bytes with MTU m: ceil(n / m) packets of 82 bytes besides the payload
// (Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble+SFD 8, gap 12) and one RETH.
TEST(RdmaScenarioToolkit, WireSizeOfAMessage)
{
    EXPECT_EQ(RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES, 82u);
    EXPECT_EQ(RdmaWireSize::Packets(100000, 1000), 100u);
    EXPECT_EQ(RdmaWireSize::Packets(100001, 1000), 101u);
    EXPECT_EQ(RdmaWireSize::Packets(1, 1000), 1u);
    EXPECT_EQ(RdmaWireSize::Packets(0, 1000), 1u); // a zero-byte WRITE is one packet
    EXPECT_EQ(RdmaWireSize::WriteMessage(100000, 1000), 100000u + 100 * 82 + 16);
    EXPECT_EQ(RdmaWireSize::WriteMessage(1, 1000), 1u + 82 + 16);
    EXPECT_EQ(RdmaWireSize::WriteMessage(4099, 1024), 4099u + 5 * 82 + 16);
    EXPECT_EQ(RdmaWireSize::FullPacket(1000), 1082u);
    // 100 Gb/s of 1000-byte packets carries 100 x 1000 / 1082 Gb/s of payload.
    EXPECT_DOUBLE_EQ(RdmaWireSize::PayloadRate(100e9, 1000), 100e9 * 1000 / 1082);
    EXPECT_DOUBLE_EQ(RdmaWireSize::PayloadRate(1, 4096), 4096.0 / 4178);
}

TEST(RdmaScenarioToolkit, SplitListDropsEmptyItems)
{
    using V = std::vector<std::string>;
    EXPECT_EQ(RdmaOptionChecker::SplitList("dcqcn,hpcc,timely"), (V{"dcqcn", "hpcc", "timely"}));
    EXPECT_EQ(RdmaOptionChecker::SplitList("a,,b,"), (V{"a", "b"}));
    EXPECT_EQ(RdmaOptionChecker::SplitList(",a"), (V{"a"}));
    EXPECT_EQ(RdmaOptionChecker::SplitList(""), V{});
    EXPECT_EQ(RdmaOptionChecker::SplitList(","), V{});
    EXPECT_EQ(RdmaOptionChecker::SplitList("0,1ms"), (V{"0", "1ms"}));
    EXPECT_EQ(RdmaOptionChecker::SplitList("1/2;3-4", ';'), (V{"1/2", "3-4"}));
}

namespace
{

/// What the replayer's traces recorded.
struct Replayed
{
    std::vector<uint16_t> sourcePorts;
    std::vector<uint32_t> dscps;
    std::vector<Time> fcts;
    std::vector<uint32_t> order; //!< flow indices in completion order
};

void
OnStarted(Replayed* r, uint32_t index, Ptr<RdmaQueuePair> qp, Ptr<RdmaQueuePair> peer)
{
    r->sourcePorts[index] = qp->GetSourcePort();
    UintegerValue dscp;
    peer->GetAttribute("Dscp", dscp);
    r->dscps[index] = dscp.Get();
}

void
OnCompleted(Replayed* r,
            Ptr<RdmaFlowReplayer> app,
            uint32_t index,
            const RdmaCompletion& completion)
{
    r->fcts[index] = completion.completionTime - app->GetFlows()[index].start;
    r->order.push_back(index);
}

HpccFlow
Flow(uint32_t src, uint32_t dst, uint8_t pg, uint64_t size, Time start)
{
    HpccFlow f;
    f.src = src;
    f.dst = dst;
    f.priorityGroup = pg;
    f.size = size;
    f.start = start;
    return f;
}

} // namespace

// Three hosts on a switch, 100 Gb/s and 1 us links; flows that never overlap, so each has
// the analytical FCT of a flow alone (RdmaHpccCompat.ExampleWritesFctInThePeersFormat
// derives it): (packets x 1082 + 16) x 0.08 ns of serialization + one first packet (1098 B,
// 87.84 ns) of store-and-forward + the ACK (86 B, 6.88 ns) over two links + 4 us of
// propagation: 100 kB 12758.88 ns, 50 kB 8430.88 ns. Source ports are numbered per
// destination from 10000 in list order, the DSCP is (priority group << 3) | 2.
TEST(RdmaScenarioToolkit, ReplayerPostsEachFlowAtItsStartTime)
{
    Star star(3, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    star.Install();
    const std::vector<HpccFlow> flows{Flow(0, 1, 3, 100000, MicroSeconds(10)),
                                      Flow(1, 0, 3, 50000, MicroSeconds(100)),
                                      Flow(0, 1, 5, 100000, MicroSeconds(200)),
                                      Flow(0, 2, 3, 50000, MicroSeconds(300))};
    RdmaFlowReplayerHelper replay(flows);
    ApplicationContainer apps = replay.Install(star.hosts);
    ASSERT_EQ(apps.GetN(), 2u); // hosts 0 and 1 send
    Ptr<RdmaFlowReplayer> host0 = DynamicCast<RdmaFlowReplayer>(apps.Get(0));
    Ptr<RdmaFlowReplayer> host1 = DynamicCast<RdmaFlowReplayer>(apps.Get(1));
    ASSERT_EQ(host0->GetFlows().size(), 3u);
    ASSERT_EQ(host1->GetFlows().size(), 1u);
    EXPECT_EQ(host0->GetNode(), star.hosts.Get(0));
    RdmaFlowMonitor monitor; // any traffic application with a QueuePairCreated trace
    monitor.Watch(apps);
    Replayed r0;
    Replayed r1;
    for (auto [app, r] : {std::make_pair(host0, &r0), std::make_pair(host1, &r1)})
    {
        const std::size_t n = app->GetFlows().size();
        r->sourcePorts.resize(n);
        r->dscps.resize(n);
        r->fcts.resize(n);
        app->TraceConnectWithoutContext("FlowStarted", MakeBoundCallback(&OnStarted, r));
        app->TraceConnectWithoutContext("FlowCompleted", MakeBoundCallback(&OnCompleted, r, app));
    }
    Simulator::Run();
    EXPECT_EQ(host0->GetFlowsStarted(), 3u);
    EXPECT_EQ(host0->GetFlowsCompleted(), 3u);
    EXPECT_EQ(host0->GetBytesCompleted(), 250000u);
    EXPECT_EQ(host1->GetFlowsCompleted(), 1u);
    EXPECT_EQ(r0.fcts[0], PicoSeconds(12758880));
    EXPECT_EQ(r0.fcts[1], PicoSeconds(12758880));
    EXPECT_EQ(r0.fcts[2], PicoSeconds(8430880));
    EXPECT_EQ(r1.fcts[0], PicoSeconds(8430880));
    EXPECT_EQ(r0.order, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(r0.sourcePorts, (std::vector<uint16_t>{10000, 10001, 10000}));
    EXPECT_EQ(r1.sourcePorts, (std::vector<uint16_t>{10000}));
    EXPECT_EQ(r0.dscps, (std::vector<uint32_t>{26, 42, 26}));
    // The monitor saw every flow, each alone: slowdown 1 (its ideal FCT is the same formula).
    EXPECT_EQ(monitor.GetFlows(), 4u);
    EXPECT_NEAR(monitor.GetMinSlowdown(), 1.0, 1e-3);
    Simulator::Destroy();
}

// RdmaBulkSendApplication on the two-host star of 100 Gb/s, 1 us links, MTU 1000: a
// one-shot WRITE of 100 kB completes at the analytical time of a flow alone, 12758.88 ns
// (ReplayerPostsEachFlowAtItsStartTime derives it); three messages one after the other
// (Outstanding 1) take three times that, each posted at the previous one's completion; two
// posted at once (Outstanding 2) go back to back: (200 x 1082 + 2 x 16) x 0.08 ns + 87.84 ns
// + 13.76 ns + 4 us = 21416.16 ns.
TEST(RdmaScenarioToolkit, BulkSenderOneShotAndBulk)
{
    struct Case
    {
        uint64_t messages;
        uint32_t outstanding;
        Time last; //!< last completion, from the start at 1 us
    };

    for (const Case& c : {Case{1, 1, PicoSeconds(12758880)},
                          Case{3, 1, PicoSeconds(3 * 12758880)},
                          Case{2, 2, PicoSeconds(21416160)}})
    {
        Star star(2, "100Gbps", MicroSeconds(1));
        star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
        star.Install();
        RdmaBulkSendHelper bulk(star.hosts.Get(1));
        bulk.SetAttribute("MessageSize", UintegerValue(100000));
        bulk.SetAttribute("Messages", UintegerValue(c.messages));
        bulk.SetAttribute("Outstanding", UintegerValue(c.outstanding));
        ApplicationContainer apps = bulk.Install(star.hosts.Get(0));
        apps.Start(MicroSeconds(1));
        RdmaFlowMonitor monitor;
        monitor.Watch(apps);
        Simulator::Run();
        Ptr<RdmaBulkSendApplication> app = DynamicCast<RdmaBulkSendApplication>(apps.Get(0));
        EXPECT_EQ(app->GetMessagesCompleted(), c.messages);
        EXPECT_EQ(app->GetBytesCompleted(), c.messages * 100000);
        EXPECT_EQ(monitor.GetFlows(), c.messages);
        EXPECT_EQ(monitor.GetLastCompletion() - MicroSeconds(1), c.last)
            << c.messages << " messages, " << c.outstanding << " outstanding";
        Simulator::Destroy();
    }
}

// Messages 0 sends until the application stops: the messages posted by then complete, no
// more are posted.
TEST(RdmaScenarioToolkit, BulkSenderRunsUntilStopped)
{
    Star star(2, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    star.Install();
    RdmaBulkSendHelper bulk(star.hosts.Get(1));
    bulk.SetAttribute("MessageSize", UintegerValue(100000));
    bulk.SetAttribute("Messages", UintegerValue(0));
    ApplicationContainer apps = bulk.Install(star.hosts.Get(0));
    apps.Start(MicroSeconds(1));
    // One message every 12758.88 ns: the fourth is posted at 39.28 us, before the stop.
    apps.Stop(MicroSeconds(45));
    Simulator::Run();
    EXPECT_EQ(DynamicCast<RdmaBulkSendApplication>(apps.Get(0))->GetMessagesCompleted(), 4u);
    Simulator::Destroy();
}

// A flow list that names a node beyond the container stops before the run, naming the line.
TEST(RdmaScenarioToolkitDeathTest, ReplayerRefusesAFlowToAMissingNode)
{
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    HpccFlow f = Flow(0, 5, 3, 1000, MicroSeconds(1));
    f.line = 7;
    RdmaFlowReplayerHelper replay({f});
    EXPECT_DEATH(replay.Install(star.hosts), "flow of line 7 \\(0 -> 5\\) names a node beyond");
    Simulator::Destroy();
}

// FatTreeHelper::SetHpcc320 is the HPCC simulator's simulation/mix/fat.txt: 376 nodes (56
// switches), 480 links (320 host-ToR at 100 Gb/s, 80 ToR-aggregation and 80
// aggregation-core at 400 Gb/s, 1 us each), host i under ToR 320 + i / 16, ToR t linked to
// the aggregation switches 340 + 4 (t / 4) .. + 3 of its pod, aggregation switch a to the
// cores 360 + 4 (a % 4) .. + 3 (node indices as in the file).
TEST(RdmaScenarioToolkit, Hpcc320FatTreeIsThePapersTopology)
{
    FatTreeHelper ft;
    ft.SetHpcc320();
    EXPECT_EQ(ft.GetNHosts(), 320u);
    EXPECT_EQ(ft.GetNPods(), 5u);
    EXPECT_EQ(ft.GetNLinks(FatTreeHelper::HOST_EDGE), 320u);
    EXPECT_EQ(ft.GetNLinks(FatTreeHelper::EDGE_AGGREGATION), 80u);
    EXPECT_EQ(ft.GetNLinks(FatTreeHelper::AGGREGATION_CORE), 80u);
    RdmaHelper rdma;
    ft.Install(rdma);
    const NodeContainer nodes = ft.GetNodes();
    ASSERT_EQ(nodes.GetN(), 376u);
    EXPECT_EQ(ft.GetSwitches().GetN(), 56u);
    EXPECT_EQ(ft.GetCoreSwitches().GetN(), 16u);
    std::map<uint32_t, uint32_t> indexOf; // node id -> index in the file's numbering
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        indexOf[nodes.Get(i)->GetId()] = i;
    }
    // (lower, upper, rate in Gb/s) of every link, as the file lists them.
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> expected;
    for (uint32_t h = 0; h < 320; ++h)
    {
        expected.emplace_back(h, 320 + h / 16, 100);
    }
    for (uint32_t t = 0; t < 20; ++t)
    {
        for (uint32_t j = 0; j < 4; ++j)
        {
            expected.emplace_back(320 + t, 340 + 4 * (t / 4) + j, 400);
        }
    }
    for (uint32_t a = 0; a < 20; ++a)
    {
        for (uint32_t c = 0; c < 4; ++c)
        {
            expected.emplace_back(340 + a, 360 + 4 * (a % 4) + c, 400);
        }
    }
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> built;
    for (auto tier : {FatTreeHelper::HOST_EDGE,
                      FatTreeHelper::EDGE_AGGREGATION,
                      FatTreeHelper::AGGREGATION_CORE})
    {
        const NetDeviceContainer d = ft.GetDevices(tier);
        for (uint32_t i = 0; i + 1 < d.GetN(); i += 2)
        {
            Ptr<RdmaNetDevice> lower = DynamicCast<RdmaNetDevice>(d.Get(i));
            EXPECT_EQ(lower->GetRdmaChannel()->GetDelay(), MicroSeconds(1));
            built.emplace_back(indexOf.at(d.Get(i)->GetNode()->GetId()),
                               indexOf.at(d.Get(i + 1)->GetNode()->GetId()),
                               lower->GetDataRate().GetBitRate() / 1000000000);
        }
    }
    EXPECT_EQ(built, expected);
    Simulator::Destroy();
}

TEST(RdmaScenarioToolkitDeathTest, PodsOutOfRangeAreRefused)
{
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    EXPECT_DEATH(ft.SetPods(5), "pods = 5 is invalid for k = 4; valid: 1 .. 4");
    EXPECT_DEATH(ft.SetPods(0), "pods = 0 is invalid");
    ft.SetLeafSpine(2, 2, 2);
    EXPECT_DEATH(ft.SetPods(1), "a leaf-spine has no pods");
}

namespace
{

/// One line of RdmaPortMonitor's CSV.
struct PortSample
{
    double timeUs;
    uint32_t node;
    uint32_t port;
    double utilisation;
    uint64_t queueBytes;
    double pausedUs;
};

std::vector<PortSample>
ReadPortSamples(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "time_us,node,port,utilisation,queue_bytes,paused_us");
    std::vector<PortSample> samples;
    while (std::getline(in, line))
    {
        const auto f = RdmaOptionChecker::SplitList(line);
        samples.push_back({std::stod(f.at(0)),
                           static_cast<uint32_t>(std::stoul(f.at(1))),
                           static_cast<uint32_t>(std::stoul(f.at(2))),
                           std::stod(f.at(3)),
                           std::stoull(f.at(4)),
                           std::stod(f.at(5))});
    }
    return samples;
}

} // namespace

// RdmaPortMonitor on the 8 -> 1 incast of RdmaIncast.PfcMakesEightToOneLossless (8 x 500 KB
// into one 100 Gb/s port, 2 MiB buffer, PFC, no ECN), sampled every 10 us until 500 us:
//  - conservation: the utilisation samples of every port add up to its wire bytes
//    (sum u x rate x period / 8 = GetTxWireBytes, the traffic being over by 500 us);
//  - the bottleneck (the switch's port to the receiver) is busy while the senders are
//    backlogged: utilisation >= 0.95 in every period from 20 to 300 us (4 MB at the 92.6
//    Gb/s goodput take 346 us), and never above 1 + one frame (1122 B in 10 us: 0.009);
//  - the switch pauses the senders: their ports report paused time, never more than the
//    period; the receiver is never paused.
TEST(RdmaScenarioToolkit, PortMonitorSeesTheIncastsBottleneckAndPauses)
{
    Star star(9, "100Gbps", MicroSeconds(1));
    star.rdma.SetMmuAttribute("BufferSize", UintegerValue(2 * 1024 * 1024));
    star.rdma.SetMmuAttribute("PfcEnabled", BooleanValue(true));
    star.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    star.Install();
    RdmaBulkSendHelper bulk(star.hosts.Get(8));
    bulk.SetAttribute("MessageSize", UintegerValue(500000));
    NodeContainer senders;
    for (uint32_t i = 0; i < 8; ++i)
    {
        senders.Add(star.hosts.Get(i));
    }
    bulk.Install(senders).Start(Seconds(0));
    const std::string csv = rdmatest::OutputDir() + "/ports.csv";
    const Time period = MicroSeconds(10);
    NodeContainer all(star.hosts, NodeContainer(star.switchNode));
    {
        RdmaPortMonitor ports(csv, period, MicroSeconds(500));
        ports.Install(all);
        Simulator::Run();
        EXPECT_EQ(ports.GetSamples(), 50u * 18); // 18 ports (9 host links, both ends)
    }
    const std::vector<PortSample> samples = ReadPortSamples(csv);
    ASSERT_EQ(samples.size(), 50u * 18);
    const uint32_t switchId = star.switchNode->GetId();
    std::map<std::pair<uint32_t, uint32_t>, double> wireBytes;
    double sendersPaused = 0;
    for (const PortSample& s : samples)
    {
        wireBytes[{s.node, s.port}] += s.utilisation * 100e9 * period.GetSeconds() / 8;
        EXPECT_LE(s.pausedUs, 10.0 + 1e-6);
        EXPECT_LE(s.utilisation, 1 + 1122 * 8 / (100e9 * 1e-5) + 1e-9);
        if (s.node == switchId && s.port == 8 && s.timeUs >= 20 && s.timeUs <= 300)
        {
            EXPECT_GE(s.utilisation, 0.95) << "at " << s.timeUs << " us";
        }
        if (s.node != switchId && s.node != star.hosts.Get(8)->GetId())
        {
            sendersPaused += s.pausedUs;
        }
        if (s.node == star.hosts.Get(8)->GetId())
        {
            EXPECT_EQ(s.pausedUs, 0.0);
        }
    }
    EXPECT_GT(sendersPaused, 0.0);
    for (uint32_t n = 0; n < all.GetN(); ++n)
    {
        for (uint32_t d = 0; d < all.Get(n)->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(all.Get(n)->GetDevice(d));
            if (dev)
            {
                const double sampled = wireBytes[std::make_pair(all.Get(n)->GetId(), d)];
                EXPECT_NEAR(sampled,
                            static_cast<double>(dev->GetTxWireBytes()),
                            1e-6 * dev->GetTxWireBytes() + 1)
                    << "node " << all.Get(n)->GetId() << " port " << d;
            }
        }
    }
    Simulator::Destroy();
}
