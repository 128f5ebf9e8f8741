/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Switch egress processing: the RdmaEgressProcessor seam (hooks, filters, context, verdicts),
// the RED marker as its first stage, TTL decrement, and in-band telemetry insertion
// (RdmaIntInserter) checked record by record against hand-computed times, byte counters
// and queue lengths.
//
// Numbers used throughout (IEEE 802.3 framing, 100 Gb/s): a 1000-byte IPv4 packet is a
// 1014-byte frame, 1038 wire bytes with FCS, preamble/SFD and gap: 83.04 ns.

#include "rdma-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-bth-header.h"
#include "ns3/rdma-egress-processor.h"
#include "ns3/rdma-int-header.h"
#include "ns3/rdma-int-inserter.h"
#include "ns3/rdma-red-ecn-marker.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rng-stream.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t ROCE_CLASS = 3;
constexpr uint8_t ROCE_DSCP = 26;
constexpr uint32_t PKT = 1000;    // IPv4 bytes of every test packet
constexpr uint32_t WIRE = 1038;   // its wire bytes
constexpr uint32_t TAIL = 44 + 4; // INT area and ICRC

using rdmatest::SwitchStarHostAddress;

/**
 * A RoCEv2-shaped packet of PKT IPv4 bytes: IPv4 (TTL 64), UDP to 4791, BTH, zero payload
 * and, if telemetry, the BTH T bit and an empty INT area before the 4-byte ICRC.
 */
Ptr<Packet>
MakeRocePacket(Ipv4Address src,
               Ipv4Address dst,
               bool telemetry,
               Ipv4Header::EcnType ecn,
               bool checksum,
               uint8_t ttl = 64)
{
    const uint32_t payload = PKT - 20 - 8 - RdmaBthHeader::SIZE - (telemetry ? TAIL : 4);
    Ptr<Packet> p = Create<Packet>(payload);
    if (telemetry)
    {
        Ptr<Packet> area = Create<Packet>();
        area->AddHeader(RdmaIntHeader());
        p->AddAtEnd(area);
    }
    const uint8_t icrc[4] = {0, 0, 0, 0};
    p->AddAtEnd(Create<Packet>(icrc, 4));
    RdmaBthHeader bth;
    bth.SetOpcode(RC_WRITE_MIDDLE);
    bth.SetTelemetry(telemetry);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(src);
    ip.SetDestination(dst);
    ip.SetProtocol(17);
    ip.SetTtl(ttl);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTos(static_cast<uint8_t>((ROCE_DSCP << 2) | ecn));
    if (checksum)
    {
        ip.EnableChecksum();
    }
    p->AddHeader(ip);
    EXPECT_EQ(p->GetSize(), PKT);
    return p;
}

/// Sends `count` packets back to back from a host device, from time `at`.
struct Sender
{
    Ptr<RdmaNetDevice> dev;
    std::function<Ptr<Packet>(uint32_t)> make;
    uint32_t count{1};
    uint32_t sent{0};
    bool active{false};

    Ptr<Packet> Pull(uint8_t, uint8_t* cls)
    {
        if (!active || sent >= count)
        {
            return nullptr;
        }
        *cls = ROCE_CLASS;
        return make(sent++);
    }

    void Activate()
    {
        active = true;
        dev->TriggerTransmit();
    }

    void Start(Ptr<Node> host, Time at)
    {
        dev->SetTxPullCallback(MakeCallback(&Sender::Pull, this));
        Simulator::ScheduleWithContext(host->GetId(), at, &Sender::Activate, this);
    }
};

/// What a host receives: the IPv4 header and the INT area of each packet.
struct Receiver
{
    std::vector<Ipv4Header> ip;
    std::vector<RdmaIntHeader> area;
    std::vector<bool> telemetry;

    void Receive(Ptr<NetDevice>,
                 Ptr<const Packet> packet,
                 uint16_t,
                 const Address&,
                 const Address&,
                 NetDevice::PacketType)
    {
        Ptr<Packet> copy = packet->Copy();
        Ipv4Header h;
        h.EnableChecksum();
        copy->RemoveHeader(h);
        ip.push_back(h);
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        RdmaBthHeader bth;
        bth.Read(bytes.data() + 20 + 8);
        telemetry.push_back(bth.GetTelemetry());
        RdmaIntHeader a;
        if (bth.GetTelemetry())
        {
            a.Read(bytes.data() + bytes.size() - TAIL);
        }
        area.push_back(a);
    }

    void Attach(Ptr<Node> host, Ptr<RdmaNetDevice> dev)
    {
        host->RegisterProtocolHandler(MakeCallback(&Receiver::Receive, this),
                                      RdmaNetDevice::ETHERTYPE_IPV4,
                                      dev);
    }
};

/// An egress stage that records what it is told and marks every packet it sees.
class RecordingStage : public RdmaEgressProcessor
{
  public:
    uint8_t hooks{HOOK_ENQUEUE | HOOK_DEQUEUE};
    uint8_t filter{FILTER_ALL};
    std::vector<RdmaEgressContext> enqueued;
    std::vector<RdmaEgressContext> dequeued;
    Verdict verdict{PASS};

    uint8_t GetHooks() const override
    {
        return hooks;
    }

    uint8_t GetPacketFilter() const override
    {
        return filter;
    }

  private:
    Verdict DoEnqueue(const Ptr<Packet>&, const RdmaEgressContext& c) override
    {
        enqueued.push_back(c);
        return verdict;
    }

    Verdict DoDequeue(const Ptr<Packet>&, const RdmaEgressContext& c) override
    {
        dequeued.push_back(c);
        return verdict;
    }
};

using Star = rdmatest::SwitchStar<Receiver>;

} // namespace

// ---------------------------------------------------------------------------------------------
// TTL

TEST(RdmaEgress, IncrementalChecksumMatchesAFullRecompute)
{
    // RFC 1624's update against ns-3's own full checksum of the header after the change,
    // over TTLs and addresses that exercise the end-around carry.
    uint32_t checked = 0;
    for (uint32_t ttl = 2; ttl <= 255; ttl += 7)
    {
        for (uint32_t a : {0x0a000001U, 0xffffff00U, 0x00000000U, 0x80808080U})
        {
            for (uint8_t proto : {uint8_t(17), uint8_t(6), uint8_t(255)})
            {
                Ipv4Header ip;
                ip.SetSource(Ipv4Address(a));
                ip.SetDestination(Ipv4Address(~a));
                ip.SetProtocol(proto);
                ip.SetPayloadSize(980);
                ip.SetTtl(static_cast<uint8_t>(ttl));
                ip.EnableChecksum();
                uint8_t before[20];
                Ptr<Packet> p = Create<Packet>();
                p->AddHeader(ip);
                p->CopyData(before, 20);
                ip.SetTtl(static_cast<uint8_t>(ttl - 1));
                uint8_t after[20];
                Ptr<Packet> q = Create<Packet>();
                q->AddHeader(ip);
                q->CopyData(after, 20);
                const uint16_t c = RdmaNetDevice::TtlDecrementChecksum(
                    static_cast<uint16_t>((before[10] << 8) | before[11]),
                    static_cast<uint8_t>(ttl),
                    proto);
                EXPECT_EQ(c, (after[10] << 8) | after[11]) << "ttl " << ttl << " addr " << a;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 37u * 4 * 3);
}

TEST(RdmaEgress, SwitchDecrementsTtlAndDropsExpiredPackets)
{
    Star star(2, MicroSeconds(1));
    std::vector<std::string> reasons;
    star.sw->TraceConnectWithoutContext("Drop",
                                        MakeBoundCallback(
                                            +[](std::vector<std::string>* log,
                                                Ptr<const Packet>,
                                                const char* r,
                                                uint32_t,
                                                uint8_t) { log->emplace_back(r); },
                                            &reasons));
    // Packets 0-3: TTL 64, 2, 1, 0; with and without a header checksum alternately.
    const uint8_t ttls[] = {64, 2, 1, 0};
    Sender s;
    s.dev = star.hostDev[0];
    s.count = 4;
    s.make = [&](uint32_t i) {
        return MakeRocePacket(SwitchStarHostAddress(0),
                              SwitchStarHostAddress(1),
                              false,
                              Ipv4Header::ECN_ECT0,
                              i % 2 == 0,
                              ttls[i]);
    };
    s.Start(star.hosts.Get(0), MicroSeconds(1));
    Simulator::Run();
    const Receiver& r = star.sinks[1];
    ASSERT_EQ(r.ip.size(), 2u);
    EXPECT_EQ(r.ip[0].GetTtl(), 63);
    EXPECT_TRUE(r.ip[0].IsChecksumOk()); // updated incrementally
    EXPECT_EQ(r.ip[1].GetTtl(), 1);
    EXPECT_EQ(star.sw->GetDropCount(RdmaSwitch::TTL_EXPIRED), 2u);
    // The ports' IPv4 byte counters (what RdmaConservationMonitor reads): host 0 handed
    // over and sent four packets, the switch forwarded two, host 1 received two.
    const uint64_t size = s.make(0)->GetSize();
    EXPECT_EQ(star.hostDev[0]->GetMacTxBytes(), 4 * size);
    EXPECT_EQ(star.hostDev[0]->GetIpv4TxBytes(), 4 * size);
    EXPECT_EQ(star.sw->GetPort(1)->GetIpv4TxBytes(), 2 * size);
    EXPECT_EQ(star.sw->GetPort(0)->GetIpv4RxBytes(), 4 * size);
    EXPECT_EQ(star.hostDev[1]->GetIpv4RxBytes(), 2 * size);
    EXPECT_EQ(star.hostDev[1]->GetIpv4CorruptedBytes(), 0u);
    EXPECT_TRUE(star.sw->GetPort(1)->GetDecrementTtl());
    EXPECT_FALSE(star.hostDev[0]->GetDecrementTtl());
    EXPECT_EQ(reasons, (std::vector<std::string>{"TTL_EXPIRED", "TTL_EXPIRED"}));
    EXPECT_EQ(star.sw->GetMmu()->GetTotalUsed(), 0u);
    Simulator::Destroy();
}

// The port rewrites the TTL from the IPv4 head the switch read at arrival (no second read of
// the packet), unless a stage changed the header since: a CE mark made at enqueue or at
// dequeue must reach the receiver together with the lower TTL and a valid checksum.
TEST(RdmaEgress, TtlRewriteKeepsACeMarkMadeAtEnqueueOrDequeue)
{
    for (uint8_t hook : {RdmaEgressProcessor::HOOK_ENQUEUE, RdmaEgressProcessor::HOOK_DEQUEUE})
    {
        for (auto verdict : {RdmaEgressProcessor::PASS, RdmaEgressProcessor::MARK_CE})
        {
            Star star(2, MicroSeconds(1));
            Ptr<RecordingStage> stage = CreateObject<RecordingStage>();
            stage->hooks = hook;
            stage->verdict = verdict;
            star.sw->AddEgressProcessor(stage);
            Sender s;
            s.dev = star.hostDev[0];
            s.count = 2; // with and without a header checksum
            s.make = [&](uint32_t i) {
                return MakeRocePacket(SwitchStarHostAddress(0),
                                      SwitchStarHostAddress(1),
                                      false,
                                      Ipv4Header::ECN_ECT0,
                                      i % 2 == 0,
                                      64);
            };
            s.Start(star.hosts.Get(0), MicroSeconds(1));
            Simulator::Run();
            const Receiver& r = star.sinks[1];
            ASSERT_EQ(r.ip.size(), 2u) << "hook " << unsigned(hook) << " verdict " << verdict;
            for (std::size_t i = 0; i < r.ip.size(); ++i)
            {
                EXPECT_EQ(r.ip[i].GetTtl(), 63) << "hook " << unsigned(hook) << " packet " << i;
                EXPECT_EQ(r.ip[i].GetEcn(),
                          verdict == RdmaEgressProcessor::MARK_CE ? Ipv4Header::ECN_CE
                                                                  : Ipv4Header::ECN_ECT0)
                    << "hook " << unsigned(hook) << " packet " << i;
                if (i % 2 == 0) // the packet that carries a checksum
                {
                    EXPECT_TRUE(r.ip[i].IsChecksumOk()) << "hook " << unsigned(hook);
                }
            }
            EXPECT_EQ(star.sw->GetEcnMarks(), verdict == RdmaEgressProcessor::MARK_CE ? 2u : 0u);
            Simulator::Destroy();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The seam

// The marker makes its random stream at the first draw (a stream costs ~150,000 instructions
// to make; most switches of a large fabric never draw before the run ends), but draws what a
// UniformRandomVariable(0, 1) with the same stream gives: RED at p = 1/2 marks exactly when
// that variable's draw is below 1/2, after AssignStreams and with the automatic stream,
// which the marker takes at construction as the variable did (one stream index).
TEST(RdmaEgress, RedMarkerDrawsAsAUniformVariableOfTheSameStream)
{
    Ptr<RdmaRedEcnMarker> red = CreateObject<RdmaRedEcnMarker>();
    red->SetKmin(0);
    red->SetKmax(2);
    red->SetPmax(1.0); // q = 1 B: p = 1/2
    EXPECT_EQ(red->AssignStreams(77), 1);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(77);
    uint32_t marks = 0;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        const bool expected = u->GetValue() < 0.5;
        ASSERT_EQ(red->DecideMark(1), expected) << "draw " << i;
        marks += expected;
    }
    EXPECT_GT(marks, 400u); // both outcomes occur (binomial(1000, 1/2): 500 +- 16)
    EXPECT_LT(marks, 600u);
    // q <= Kmin and q > Kmax decide without drawing: the stream stays in step.
    EXPECT_FALSE(red->DecideMark(0));
    EXPECT_TRUE(red->DecideMark(3));
    EXPECT_EQ(red->DecideMark(1), u->GetValue() < 0.5);
    // A new AssignStreams restarts the stream.
    red->AssignStreams(5);
    u->SetStream(5);
    for (uint32_t i = 0; i < 100; ++i)
    {
        ASSERT_EQ(red->DecideMark(1), u->GetValue() < 0.5) << "draw " << i;
    }
    // The automatic stream: one index, taken at construction.
    const uint64_t before = RngSeedManager::GetNextStreamIndex();
    Ptr<RdmaRedEcnMarker> automatic = CreateObject<RdmaRedEcnMarker>();
    EXPECT_EQ(RngSeedManager::GetNextStreamIndex(), before + 2);
    // RandomVariableStream's Stream -1: RngStream(seed, that index, run).
    automatic->SetKmin(0);
    automatic->SetKmax(2);
    automatic->SetPmax(1.0);
    RngStream reference(RngSeedManager::GetSeed(), before + 1, RngSeedManager::GetRun());
    for (uint32_t i = 0; i < 100; ++i)
    {
        ASSERT_EQ(automatic->DecideMark(1), reference.RandU01() < 0.5) << "draw " << i;
    }
}

TEST(RdmaEgress, RedMarkerIsTheFirstStageAndFollowsTheSwitchAttributes)
{
    Ptr<RdmaSwitch> sw = CreateObject<RdmaSwitch>();
    ASSERT_EQ(sw->GetNEgressProcessors(), 1u);
    Ptr<RdmaRedEcnMarker> red = sw->GetEcnMarker();
    EXPECT_EQ(sw->GetEgressProcessor(0), red);
    EXPECT_EQ(red->GetKmin(), 5000u);
    EXPECT_EQ(red->GetKmax(), 200000u);
    EXPECT_DOUBLE_EQ(red->GetPmax(), 0.01);
    // The default marks at egress, as the DCQCN papers' switches do (doc/dcqcn.rst).
    EnumValue point;
    sw->GetAttribute("EcnMarkingPoint", point);
    EXPECT_EQ(point.Get(), RdmaSwitch::ECN_AT_DEQUEUE);
    EXPECT_EQ(red->GetMarkingPoint(), RdmaRedEcnMarker::AT_DEQUEUE);
    EXPECT_EQ(red->GetHooks(), RdmaEgressProcessor::HOOK_DEQUEUE);
    sw->SetAttribute("EcnKmin", UintegerValue(1000));
    sw->SetAttribute("EcnKmax", UintegerValue(3000));
    sw->SetAttribute("EcnPmax", DoubleValue(0.5));
    sw->SetAttribute("EcnMarkingPoint", StringValue("Enqueue"));
    EXPECT_EQ(red->GetKmin(), 1000u);
    EXPECT_EQ(red->GetKmax(), 3000u);
    EXPECT_DOUBLE_EQ(red->GetPmax(), 0.5);
    EXPECT_EQ(red->GetMarkingPoint(), RdmaRedEcnMarker::AT_ENQUEUE);
    EXPECT_EQ(red->GetHooks(), RdmaEgressProcessor::HOOK_ENQUEUE);
    sw->SetAttribute("EcnMarkingPoint", StringValue("Dequeue"));
    EXPECT_EQ(red->GetMarkingPoint(), RdmaRedEcnMarker::AT_DEQUEUE);
    EXPECT_EQ(red->GetHooks(), RdmaEgressProcessor::HOOK_DEQUEUE);
    EXPECT_EQ(RdmaSwitch::MarkProbability(2000, 1000, 3000, 0.5), 0.25);
    EXPECT_EQ(RdmaRedEcnMarker::MarkProbability(2000, 1000, 3000, 0.5), 0.25);
    BooleanValue telemetry;
    sw->GetAttribute("Telemetry", telemetry);
    EXPECT_FALSE(telemetry.Get());
    EXPECT_EQ(sw->GetIntInserter(), nullptr);
    sw->SetAttribute("Telemetry", BooleanValue(true));
    ASSERT_EQ(sw->GetNEgressProcessors(), 2u);
    EXPECT_EQ(sw->GetEgressProcessor(1), sw->GetIntInserter());
    sw->SetAttribute("Telemetry", BooleanValue(false));
    EXPECT_EQ(sw->GetNEgressProcessors(), 1u);
    sw->Dispose();
}

TEST(RdmaEgress, StagesSeeQueueAndPortStateAndTheirVerdictsAreAccounted)
{
    // Hosts 0 and 1 send one packet each to host 2, host 1 10 ns after host 0: host 0's
    // packet reaches the switch at 1 us + 83.04 ns + 1 us = 2083.04 ns and leaves at once;
    // host 1's arrives 10 ns later, waits behind it and leaves at 2166.08 ns. Host 0's is
    // ECN-capable, host 1's is not.
    Ptr<RecordingStage> all = CreateObject<RecordingStage>();
    Ptr<RecordingStage> ect = CreateObject<RecordingStage>();
    ect->filter = RdmaEgressProcessor::FILTER_ECN_CAPABLE;
    ect->hooks = RdmaEgressProcessor::HOOK_DEQUEUE;
    ect->verdict = RdmaEgressProcessor::MARK_CE;
    Star star(3, MicroSeconds(1), [&](Ptr<RdmaSwitch> sw) {
        sw->SetAttribute("EcnEnabled", BooleanValue(false));
        sw->AddEgressProcessor(all);
        sw->AddEgressProcessor(ect);
    });
    Sender s0;
    s0.dev = star.hostDev[0];
    s0.make = [](uint32_t) {
        return MakeRocePacket(SwitchStarHostAddress(0),
                              SwitchStarHostAddress(2),
                              false,
                              Ipv4Header::ECN_ECT0,
                              true);
    };
    s0.Start(star.hosts.Get(0), MicroSeconds(1));
    Sender s1;
    s1.dev = star.hostDev[1];
    s1.make = [](uint32_t) {
        return MakeRocePacket(SwitchStarHostAddress(1),
                              SwitchStarHostAddress(2),
                              false,
                              Ipv4Header::ECN_NotECT,
                              false);
    };
    s1.Start(star.hosts.Get(1), NanoSeconds(1010));
    Simulator::Run();

    ASSERT_EQ(all->enqueued.size(), 2u);
    ASSERT_EQ(all->dequeued.size(), 2u);
    // Enqueue: both find an empty queue (the idle port dequeued the first at once; it is
    // being serialized, no longer queued).
    EXPECT_EQ(all->enqueued[0].queueBytes, 0u);
    EXPECT_TRUE(all->enqueued[0].ecnCapable);
    EXPECT_TRUE(all->enqueued[0].checksum);
    EXPECT_EQ(all->enqueued[1].queueBytes, 0u);
    EXPECT_FALSE(all->enqueued[1].ecnCapable);
    EXPECT_EQ(all->enqueued[1].port, 2u);
    EXPECT_EQ(all->enqueued[1].cls, ROCE_CLASS);
    EXPECT_EQ(all->enqueued[1].now, NanoSeconds(2093) + PicoSeconds(40));
    EXPECT_EQ(all->enqueued[1].txBytes, WIRE); // the first frame has started
    EXPECT_EQ(all->enqueued[1].portQueueBytes, 0u);
    // Dequeue: times of the two departures, the port's wire bytes including each frame.
    EXPECT_EQ(all->dequeued[0].now, NanoSeconds(2083) + PicoSeconds(40));
    EXPECT_EQ(all->dequeued[0].txBytes, WIRE);
    EXPECT_EQ(all->dequeued[1].now, NanoSeconds(2166) + PicoSeconds(80));
    EXPECT_EQ(all->dequeued[1].txBytes, 2u * WIRE);
    EXPECT_EQ(all->dequeued[1].lineRateBps, 100000000000ULL);
    // The ECN-capable-only stage saw one packet, and its MARK_CE verdict was applied by the
    // switch (counted, CE at the receiver, checksum still right).
    ASSERT_EQ(ect->dequeued.size(), 1u);
    EXPECT_TRUE(ect->enqueued.empty());
    EXPECT_EQ(star.sw->GetEcnMarks(), 1u);
    const Receiver& r = star.sinks[2];
    ASSERT_EQ(r.ip.size(), 2u);
    EXPECT_EQ(r.ip[0].GetEcn(), Ipv4Header::ECN_CE);
    EXPECT_TRUE(r.ip[0].IsChecksumOk()); // marked at dequeue, TTL decremented after it
    EXPECT_EQ(r.ip[0].GetTtl(), 63);
    EXPECT_EQ(r.ip[1].GetEcn(), Ipv4Header::ECN_NotECT);
    EXPECT_EQ(r.ip[1].GetTtl(), 63);
    Simulator::Destroy();
}

TEST(RdmaEgress, DisabledEcnCallsNoStage)
{
    Star star(2, MicroSeconds(1), [](Ptr<RdmaSwitch> sw) {
        sw->SetAttribute("EcnEnabled", BooleanValue(false));
        sw->SetAttribute("EcnKmin", UintegerValue(0));
        sw->SetAttribute("EcnKmax", UintegerValue(0)); // would mark everything
    });
    Sender s;
    s.dev = star.hostDev[0];
    s.count = 20;
    s.make = [](uint32_t) {
        return MakeRocePacket(SwitchStarHostAddress(0),
                              SwitchStarHostAddress(1),
                              false,
                              Ipv4Header::ECN_ECT0,
                              false);
    };
    s.Start(star.hosts.Get(0), MicroSeconds(1));
    Simulator::Run();
    EXPECT_EQ(star.sinks[1].ip.size(), 20u);
    EXPECT_EQ(star.sw->GetEcnMarks(), 0u);
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------------------------
// Telemetry

TEST(RdmaEgress, TwoSwitchesWriteTwoHandCheckedRecords)
{
    // Hosts A, B, C on switch 0, host D on switch 1, switch 0 port 3 to switch 1 port 0,
    // every link 100 Gb/s and 1 us. A, B and C send one 1000-byte packet with a telemetry
    // area each, at 1.000, 1.010 and 1.020 us. They reach switch 0 at 2083.04, 2093.04 and
    // 2103.04 ns (83.04 ns serialization + 1 us) and leave it back to back at
    //   a: 2083.04 ns, nothing behind, port wire bytes 1038;
    //   b: 2166.08 ns, c's 1000 bytes behind, 2076;
    //   c: 2249.12 ns, nothing behind, 3114;
    // and switch 1 forwards each at once, 1083.04 ns later: 3166.08, 3249.12, 3332.16 ns,
    // with port wire bytes 1038, 2076, 3114 and empty queues.
    // Records keep ns (truncated), tx bytes in 128-byte units and the queue in 80-byte
    // units: 1038 -> 8 units = 1024 B, 2076 -> 16 = 2048 B, 3114 -> 24 = 3072 B;
    // 1000 -> 12 units = 960 B.
    NodeContainer hosts;
    hosts.Create(4);
    NodeContainer switches;
    switches.Create(2);
    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::vector<Ptr<RdmaNetDevice>> hostDev;
    std::vector<Ptr<RdmaNetDevice>> sw0Dev;
    for (uint32_t i = 0; i < 3; ++i)
    {
        NetDeviceContainer d = link.Install(hosts.Get(i), switches.Get(0));
        hostDev.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
        sw0Dev.push_back(DynamicCast<RdmaNetDevice>(d.Get(1)));
    }
    NetDeviceContainer trunk = link.Install(switches.Get(0), switches.Get(1));
    NetDeviceContainer last = link.Install(switches.Get(1), hosts.Get(3));
    hostDev.push_back(DynamicCast<RdmaNetDevice>(last.Get(1)));
    std::vector<Ptr<RdmaSwitch>> sw;
    for (uint32_t i = 0; i < 2; ++i)
    {
        sw.push_back(CreateObject<RdmaSwitch>());
        switches.Get(i)->AggregateObject(sw[i]);
        sw[i]->SetAttribute("Telemetry", BooleanValue(true));
    }
    for (uint32_t i = 0; i < 3; ++i)
    {
        sw[0]->AddPort(sw0Dev[i]);
        sw[0]->AddRoute(SwitchStarHostAddress(i), i);
    }
    EXPECT_EQ(sw[0]->AddPort(DynamicCast<RdmaNetDevice>(trunk.Get(0))), 3u);
    sw[0]->AddRoute(SwitchStarHostAddress(3), 3);
    EXPECT_EQ(sw[1]->AddPort(DynamicCast<RdmaNetDevice>(trunk.Get(1))), 0u);
    EXPECT_EQ(sw[1]->AddPort(DynamicCast<RdmaNetDevice>(last.Get(0))), 1u);
    sw[1]->AddRoute(SwitchStarHostAddress(3), 1);
    Receiver rx;
    rx.Attach(hosts.Get(3), hostDev[3]);
    std::vector<Sender> senders(3);
    for (uint32_t i = 0; i < 3; ++i)
    {
        senders[i].dev = hostDev[i];
        senders[i].make = [i](uint32_t) {
            return MakeRocePacket(SwitchStarHostAddress(i),
                                  SwitchStarHostAddress(3),
                                  true,
                                  Ipv4Header::ECN_ECT0,
                                  true);
        };
        senders[i].Start(hosts.Get(i), NanoSeconds(1000 + 10 * i));
    }
    Simulator::Run();

    struct Expected
    {
        uint64_t t0, tx0, q0, t1, tx1;
    };

    const Expected expected[3] = {{2083, 1024, 0, 3166, 1024},
                                  {2166, 2048, 960, 3249, 2048},
                                  {2249, 3072, 0, 3332, 3072}};
    ASSERT_EQ(rx.area.size(), 3u);
    for (uint32_t k = 0; k < 3; ++k)
    {
        SCOPED_TRACE(k);
        EXPECT_EQ(rx.ip[k].GetTtl(), 62); // two switches
        EXPECT_TRUE(rx.ip[k].IsChecksumOk());
        const RdmaIntHeader& a = rx.area[k];
        ASSERT_EQ(a.GetNHops(), 2);
        EXPECT_EQ(a.GetHop(0).GetLineRateBps(), 100000000000ULL);
        EXPECT_EQ(a.GetHop(0).GetTimeNs(), expected[k].t0);
        EXPECT_EQ(a.GetHop(0).GetTxBytes(), expected[k].tx0);
        EXPECT_EQ(a.GetHop(0).GetQueueBytes(), expected[k].q0);
        EXPECT_EQ(a.GetHop(1).GetTimeNs(), expected[k].t1);
        EXPECT_EQ(a.GetHop(1).GetTxBytes(), expected[k].tx1);
        EXPECT_EQ(a.GetHop(1).GetQueueBytes(), 0u);
        // HPCC's per-hop estimate from one packet's record: hop 1 - hop 0 is the one-hop
        // latency, 83.04 + 1000 ns, truncated: 1083.
        EXPECT_EQ(a.GetHop(1).GetTimeDeltaNs(a.GetHop(0)), 1083u);
    }
    // The rate a receiver infers from consecutive records of switch 1's port: 2 x 1038 wire
    // bytes in 166.08 ns, i.e. 100 Gb/s, quantized to 16 units of 128 B over 166 ns.
    EXPECT_EQ(rx.area[2].GetHop(1).GetTxBytesDelta(rx.area[0].GetHop(1)), 2048u);
    EXPECT_EQ(rx.area[2].GetHop(1).GetTimeDeltaNs(rx.area[0].GetHop(1)), 166u);
    EXPECT_EQ(sw[0]->GetIntInserter()->GetRecordsWritten(), 3u);
    EXPECT_EQ(sw[1]->GetIntInserter()->GetRecordsWritten(), 3u);
    EXPECT_EQ(sw[0]->GetIntInserter()->GetFullAreas(), 0u);
    Simulator::Destroy();
}

TEST(RdmaEgress, FullAreaTakesNoMoreRecordsAndPacketsWithoutTheBitAreLeftAlone)
{
    Star star(2, MicroSeconds(1), [](Ptr<RdmaSwitch> sw) {
        sw->SetAttribute("Telemetry", BooleanValue(true));
    });
    Sender s;
    s.dev = star.hostDev[0];
    s.count = 2;
    s.make = [](uint32_t i) {
        if (i == 1)
        {
            return MakeRocePacket(SwitchStarHostAddress(0),
                                  SwitchStarHostAddress(1),
                                  false,
                                  Ipv4Header::ECN_ECT0,
                                  false);
        }
        // A packet whose area already holds five records.
        Ptr<Packet> p = MakeRocePacket(SwitchStarHostAddress(0),
                                       SwitchStarHostAddress(1),
                                       true,
                                       Ipv4Header::ECN_ECT0,
                                       false);
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        uint8_t* area = bytes.data() + bytes.size() - TAIL;
        for (int h = 0; h < 5; ++h)
        {
            RdmaIntHeader::PushHopInPlace(area, 25000000000ULL, 7 + h, 0, 0);
        }
        return Create<Packet>(bytes.data(), bytes.size());
    };
    s.Start(star.hosts.Get(0), MicroSeconds(1));
    Simulator::Run();
    const Receiver& r = star.sinks[1];
    ASSERT_EQ(r.area.size(), 2u);
    EXPECT_EQ(r.area[0].GetNHops(), 5);
    EXPECT_EQ(r.area[0].GetHop(4).GetTimeNs(), 11u); // the sender's, not overwritten
    EXPECT_FALSE(r.telemetry[1]);
    EXPECT_EQ(star.sw->GetIntInserter()->GetFullAreas(), 1u);
    EXPECT_EQ(star.sw->GetIntInserter()->GetRecordsWritten(), 0u);
    Simulator::Destroy();
}

TEST(RdmaEgressDeathTest, TelemetryOnAPortWithoutARateCodeIsNamed)
{
    EXPECT_DEATH(
        {
            NodeContainer n;
            n.Create(2);
            RdmaLinkHelper link;
            link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
            NetDeviceContainer d = link.Install(n.Get(0), n.Get(1));
            Ptr<RdmaSwitch> sw = CreateObject<RdmaSwitch>();
            n.Get(1)->AggregateObject(sw);
            sw->SetAttribute("Telemetry", BooleanValue(true));
            sw->AddPort(DynamicCast<RdmaNetDevice>(d.Get(1)));
            sw->Initialize();
        },
        "RdmaIntInserter: port 0 runs at 1000000000 bit/s, which has no INT line-rate code");
}

TEST(RdmaEgress, HelperAddsStagesAndTelemetryToTheSwitchesItInstalls)
{
    NodeContainer n;
    n.Create(2);
    RdmaLinkHelper link;
    link.Install(n.Get(0), n.Get(1));
    RdmaHelper rdma;
    rdma.EnableTelemetry();
    rdma.AddEgressProcessor("ns3::RdmaRedEcnMarker",
                            "Kmin",
                            UintegerValue(1),
                            "Kmax",
                            UintegerValue(2));
    Ptr<RdmaSwitch> sw = rdma.InstallSwitch(n.Get(1));
    ASSERT_EQ(sw->GetNEgressProcessors(), 3u);
    EXPECT_EQ(sw->GetEgressProcessor(0), sw->GetEcnMarker());
    EXPECT_EQ(sw->GetEgressProcessor(1), sw->GetIntInserter());
    Ptr<RdmaRedEcnMarker> extra = DynamicCast<RdmaRedEcnMarker>(sw->GetEgressProcessor(2));
    ASSERT_TRUE(extra);
    EXPECT_EQ(extra->GetKmin(), 1u);
    EXPECT_EQ(extra->GetKmax(), 2u);
    EXPECT_EQ(extra->GetMarkingPoint(), RdmaRedEcnMarker::AT_DEQUEUE); // as the switch's own
    Simulator::Destroy();
}

TEST(RdmaEgressDeathTest, HelperNamesAnUnknownStage)
{
    RdmaHelper rdma;
    EXPECT_DEATH(rdma.AddEgressProcessor("ns3::RdmaFixedRateCongestionControl"),
                 "unknown egress processor TypeId 'ns3::RdmaFixedRateCongestionControl'; "
                 "valid: .*ns3::RdmaRedEcnMarker");
}
