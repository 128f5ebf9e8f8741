/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the Ethernet link: RdmaNetDevice, RdmaChannel and RdmaLinkHelper.
// Expected values are computed by hand from IEEE 802.3 framing (preamble+SFD 8 bytes,
// FCS 4, inter-frame gap 12, 64-byte minimum frame) and IEEE 802.1Qbb (a pause quantum
// is 512 bit times).

#include "rdma-test-environment.h"

#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pointer.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-link-helper.h"
#include "ns3/rdma-net-device.h"
#include "ns3/simulator.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// Picosecond resolution: see rdma-test-environment.h.

// Times are built after the resolution is set (functions, not static constants).

/// \return 1000-byte IPv4 packet: 1014-byte frame, 1038 wire bytes = 83.04 ns at 100 Gb/s
Time
Frame1000()
{
    return PicoSeconds(83040);
}

/// \return PFC frame: 14 + 46 = 60 bytes, padded to 64 with FCS, + 20 = 84 wire bytes
Time
PfcFrame()
{
    return PicoSeconds(6720);
}

/// \return one pause quantum at 100 Gb/s: 512 bits = 5.12 ns
Time
Quantum()
{
    return PicoSeconds(5120);
}

/// \return the default channel delay
Time
Delay()
{
    return MicroSeconds(1);
}

/// An IPv4/UDP packet of totalBytes bytes (IPv4 header included) with the given DSCP.
Ptr<Packet>
MakeIpv4(uint32_t totalBytes, uint8_t dscp)
{
    Ptr<Packet> p = Create<Packet>(totalBytes - 20);
    Ipv4Header h;
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.0.2"));
    h.SetProtocol(17);
    h.SetTtl(64);
    h.SetPayloadSize(totalBytes - 20);
    h.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
    p->AddHeader(h);
    return p;
}

/// DSCP of the traffic class used for class cls in these tests (DSCP >> 3 == cls).
uint8_t
DscpOf(uint8_t cls)
{
    return static_cast<uint8_t>(cls << 3 | 2);
}

/// \return the traffic class (DSCP >> 3) of an IPv4 packet
uint8_t
ClassOfIpv4(Ptr<const Packet> p)
{
    Ipv4Header h;
    p->PeekHeader(h);
    return static_cast<uint8_t>(h.GetDscp() >> 3);
}

/// \return the traffic class of an Ethernet frame carrying IPv4, 0xFF for other frames
uint8_t
ClassOfFrame(Ptr<const Packet> frame)
{
    Ptr<Packet> c = frame->Copy();
    EthernetHeader eth(false);
    c->RemoveHeader(eth);
    if (eth.GetLengthType() != 0x0800)
    {
        return 0xFF;
    }
    return ClassOfIpv4(c);
}

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

std::vector<uint8_t>
MacBytes(Address a)
{
    uint8_t buf[6];
    Mac48Address::ConvertFrom(a).CopyTo(buf);
    return {buf, buf + 6};
}

/// Records what a device delivers up the stack.
struct RxRecorder
{
    struct Arrival
    {
        Time time;
        uint8_t cls;
        uint32_t size;
        uint16_t protocol;
        Address from;
        uint64_t uid;
    };

    std::vector<Arrival> arrivals;

    bool Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address& from)
    {
        arrivals.push_back(
            {Simulator::Now(), ClassOfIpv4(p), p->GetSize(), protocol, from, p->GetUid()});
        return true;
    }
};

/// Records packets seen by a Ptr<const Packet> trace source.
struct PacketRecorder
{
    std::vector<Time> times;
    std::vector<Ptr<const Packet>> packets;

    void Record(Ptr<const Packet> p)
    {
        times.push_back(Simulator::Now());
        packets.push_back(p->Copy());
    }

    /// \return start times of frames of class cls
    std::vector<Time> TimesOfClass(uint8_t cls) const
    {
        std::vector<Time> out;
        for (std::size_t i = 0; i < packets.size(); ++i)
        {
            if (ClassOfFrame(packets[i]) == cls)
            {
                out.push_back(times[i]);
            }
        }
        return out;
    }
};

/// Records PfcTx / PfcRx.
struct PfcRecorder
{
    struct Event
    {
        Time time;
        uint8_t cls;
        uint16_t quanta;
    };

    std::vector<Event> events;

    void Record(uint8_t cls, uint16_t quanta)
    {
        events.push_back({Simulator::Now(), cls, quanta});
    }
};

/// Two nodes joined by one link; a's device transmits, b's receives.
struct TestLink
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    Ptr<RdmaNetDevice> da;
    Ptr<RdmaNetDevice> db;
    RxRecorder rxB;
    PacketRecorder txBeginA;

    explicit TestLink(RdmaNetDevice::SchedulingPolicy policy = RdmaNetDevice::STRICT_PRIORITY)
    {
        RdmaLinkHelper helper;
        helper.SetDeviceAttribute("SchedulingPolicy", EnumValue(policy));
        NetDeviceContainer devices = helper.Install(a, b);
        da = DynamicCast<RdmaNetDevice>(devices.Get(0));
        db = DynamicCast<RdmaNetDevice>(devices.Get(1));
        db->SetReceiveCallback(MakeCallback(&RxRecorder::Receive, &rxB));
        da->TraceConnectWithoutContext("PhyTxBegin",
                                       MakeCallback(&PacketRecorder::Record, &txBeginA));
    }

    /// Pause (or resume with quanta 0) one class of a, sent by b at time t.
    void PauseFromB(Time t, uint8_t cev, std::array<uint16_t, 8> quanta)
    {
        Simulator::Schedule(t, [this, cev, quanta]() { db->SendPfc(cev, quanta); });
    }
};

/// First time in v strictly after t; Time::Max() if none.
Time
FirstAfter(const std::vector<Time>& v, Time t)
{
    for (const Time& x : v)
    {
        if (x > t)
        {
            return x;
        }
    }
    return Time::Max();
}

/// Last time in v at or before t; -1 s if none.
Time
LastAtOrBefore(const std::vector<Time>& v, Time t)
{
    Time last = Seconds(-1);
    for (const Time& x : v)
    {
        if (x <= t)
        {
            last = x;
        }
    }
    return last;
}

/// Number of times in v within the open interval (from, to).
std::size_t
CountWithin(const std::vector<Time>& v, Time from, Time to)
{
    std::size_t n = 0;
    for (const Time& x : v)
    {
        if (x > from && x < to)
        {
            ++n;
        }
    }
    return n;
}

/// Queue n 1000-byte packets of each of the given classes on dev (interleaved).
void
Backlog(Ptr<RdmaNetDevice> dev, std::vector<uint8_t> classes, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint8_t cls : classes)
        {
            dev->Enqueue(MakeIpv4(1000, DscpOf(cls)), cls);
        }
    }
}

} // namespace

TEST(RdmaLink, WireBytesAndTimes)
{
    // 1000-byte IPv4 packet: 14 + 1000 = 1014 frame, + 4 FCS + 8 preamble/SFD + 12 IFG.
    EXPECT_EQ(RdmaNetDevice::WireBytes(1014), 1038u);
    // 28-byte IPv4 packet: 42-byte frame, padded to 64 with FCS, + 20 = 84.
    EXPECT_EQ(RdmaNetDevice::WireBytes(42), 84u);
    EXPECT_EQ(RdmaNetDevice::WireBytes(60), 84u);
    EXPECT_EQ(RdmaNetDevice::WireBytes(61), 85u);
    // Jumbo frame carrying a 4096-byte RoCE payload plus headers.
    EXPECT_EQ(RdmaNetDevice::WireBytes(14 + 4154), 4192u);

    Ptr<RdmaNetDevice> dev = CreateObject<RdmaNetDevice>();
    EXPECT_EQ(dev->GetDataRate(), DataRate("100Gbps"));
    EXPECT_EQ(dev->GetMtu(), 9000);
    EXPECT_EQ(dev->GetWireTime(1014), Frame1000());
    EXPECT_EQ(dev->GetWireTime(42), PicoSeconds(6720));
    EXPECT_EQ(dev->GetQuantumTime(), Quantum());
    // 65535 quanta: the longest pause at 100 Gb/s is 335.5392 us.
    EXPECT_EQ(dev->GetQuantumTime() * 65535, PicoSeconds(335539200));

    dev->SetAttribute("DataRate", DataRateValue(DataRate("25Gbps")));
    EXPECT_EQ(dev->GetWireTime(1014), PicoSeconds(332160));
    EXPECT_EQ(dev->GetQuantumTime(), PicoSeconds(20480));
    Simulator::Destroy();
}

TEST(RdmaLink, ArrivalTimesAndSpacing)
{
    TestLink link;
    PacketRecorder macTxA;
    PacketRecorder macRxB;
    PacketRecorder phyTxEndA;
    link.da->TraceConnectWithoutContext("MacTx", MakeCallback(&PacketRecorder::Record, &macTxA));
    link.db->TraceConnectWithoutContext("MacRx", MakeCallback(&PacketRecorder::Record, &macRxB));
    link.da->TraceConnectWithoutContext("PhyTxEnd",
                                        MakeCallback(&PacketRecorder::Record, &phyTxEndA));

    EXPECT_TRUE(link.da->IsPointToPoint());
    EXPECT_FALSE(link.da->NeedsArp());
    EXPECT_TRUE(link.da->IsLinkUp());
    EXPECT_FALSE(link.da->SupportsSendFrom());
    EXPECT_EQ(link.da->GetBroadcast(), Address(Mac48Address("ff:ff:ff:ff:ff:ff")));
    EXPECT_EQ(link.da->GetRdmaChannel()->GetDelay(), Delay());
    EXPECT_EQ(link.da->GetRdmaChannel()->GetPeer(link.da), link.db);
    EXPECT_EQ(link.da->GetChannel()->GetNDevices(), 2u);

    Address dest = link.db->GetAddress();
    // One 1000-byte packet, DSCP 26 (class 3), at t = 0.
    Simulator::Schedule(Seconds(0),
                        [&]() { EXPECT_TRUE(link.da->Send(MakeIpv4(1000, 26), dest, 0x0800)); });
    // Four back-to-back 1000-byte packets at 10 us, DSCP 26.
    Simulator::Schedule(MicroSeconds(10), [&]() {
        for (int i = 0; i < 4; ++i)
        {
            link.da->Send(MakeIpv4(1000, 26), dest, 0x0800);
        }
        EXPECT_TRUE(link.da->IsBusy());
        EXPECT_EQ(link.da->GetQueuePackets(3), 3u);
        EXPECT_EQ(link.da->GetQueueBytes(3), 3000u);
    });
    // Three 28-byte packets at 20 us, DSCP 48 (class 6): padded to the minimum frame.
    Simulator::Schedule(MicroSeconds(20), [&]() {
        for (int i = 0; i < 3; ++i)
        {
            link.da->Send(MakeIpv4(28, 48), dest, 0x0800);
        }
    });
    Simulator::Run();

    const auto& arr = link.rxB.arrivals;
    ASSERT_EQ(arr.size(), 8u);
    // Single frame: serialization 83.04 ns + propagation 1 us.
    EXPECT_EQ(arr[0].time, PicoSeconds(1083040));
    EXPECT_EQ(arr[0].cls, 3);
    EXPECT_EQ(arr[0].size, 1000u);
    EXPECT_EQ(arr[0].protocol, 0x0800);
    EXPECT_EQ(arr[0].from, link.da->GetAddress());
    // Back-to-back frames, spaced exactly 83.04 ns.
    for (int k = 1; k <= 4; ++k)
    {
        EXPECT_EQ(arr[k].time, MicroSeconds(11) + PicoSeconds(83040) * k) << "frame " << k;
        EXPECT_EQ(arr[k].cls, 3);
    }
    // Minimum-size frames: 84 wire bytes = 6.72 ns apart.
    for (int k = 1; k <= 3; ++k)
    {
        EXPECT_EQ(arr[4 + k].time, MicroSeconds(21) + PicoSeconds(6720) * k) << "small " << k;
        EXPECT_EQ(arr[4 + k].cls, 6);
        EXPECT_EQ(arr[4 + k].size, 28u);
    }
    EXPECT_EQ(link.da->GetTxFrames(), 8u);
    EXPECT_EQ(link.da->GetTxWireBytes(), 5u * 1038 + 3u * 84);
    EXPECT_EQ(macTxA.times.size(), 8u);
    EXPECT_EQ(macRxB.times.size(), 8u);
    EXPECT_EQ(macRxB.packets[0]->GetSize(), 1000u); // Ethernet header removed
    ASSERT_EQ(phyTxEndA.times.size(), 8u);
    EXPECT_EQ(phyTxEndA.times[0], Frame1000());
    EXPECT_EQ(link.db->GetRxDropCount(), 0u);
    Simulator::Destroy();
}

// The channel delivers each direction's frames through one event object scheduled once per
// frame, and a device ends each frame with one event object: the event count per frame is
// what it was with an event object per frame. Derivation for four back-to-back frames from
// a and three from b, all sent at t = 0: a frame arrival per frame (7), and an end-of-frame
// event after every frame that leaves more queued behind it (a: frames 1-3, b: frames 1-2;
// the last frames end with nothing queued and no PhyTxEnd sink, so need none): 7 + 5 = 12.
TEST(RdmaLink, FramesOfBothDirectionsArriveInOrderWithOneEventPerFramePerHop)
{
    TestLink link;
    RxRecorder rxA;
    link.da->SetReceiveCallback(MakeCallback(&RxRecorder::Receive, &rxA));
    uint64_t eventsAtSend = 0;
    Simulator::Schedule(Seconds(0), [&]() {
        eventsAtSend = Simulator::GetEventCount(); // this event included
        for (uint32_t i = 0; i < 4; ++i)
        {
            link.da->Send(MakeIpv4(1000 - 100 * i, 26), link.db->GetAddress(), 0x0800);
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            link.db->Send(MakeIpv4(500 - 100 * i, 26), link.da->GetAddress(), 0x0800);
        }
    });
    Simulator::Run();
    EXPECT_EQ(Simulator::GetEventCount() - eventsAtSend, 12u);
    ASSERT_EQ(link.rxB.arrivals.size(), 4u);
    ASSERT_EQ(rxA.arrivals.size(), 3u);
    // In sending order; each ends serialization (wire bytes = IPv4 bytes + 38 at 100 Gb/s,
    // 80 ps per byte) after the previous one and arrives 1 us later.
    Time end = Seconds(0);
    for (uint32_t i = 0; i < 4; ++i)
    {
        end += PicoSeconds(80 * (1000 - 100 * i + 38));
        EXPECT_EQ(link.rxB.arrivals[i].size, 1000 - 100 * i) << "a->b frame " << i;
        EXPECT_EQ(link.rxB.arrivals[i].time, end + Delay()) << "a->b frame " << i;
    }
    end = Seconds(0);
    for (uint32_t i = 0; i < 3; ++i)
    {
        end += PicoSeconds(80 * (500 - 100 * i + 38));
        EXPECT_EQ(rxA.arrivals[i].size, 500 - 100 * i) << "b->a frame " << i;
        EXPECT_EQ(rxA.arrivals[i].time, end + Delay()) << "b->a frame " << i;
    }
    Simulator::Destroy();
}

// Disposing the channel with frames on the wire, or a device with its end-of-frame event
// pending, leaves those events harmless: they run and deliver nothing.
TEST(RdmaLink, DisposedChannelAndDeviceIgnoreTheirPendingEvents)
{
    TestLink link;
    Simulator::Schedule(Seconds(0), [&]() {
        for (uint32_t i = 0; i < 3; ++i)
        {
            link.da->Send(MakeIpv4(1000, 26), link.db->GetAddress(), 0x0800);
        }
    });
    // At 100 ns the first frame is on the wire and the second is being serialized (its
    // end-of-frame event pending at 166.08 ns).
    Simulator::Schedule(NanoSeconds(100), [&]() {
        link.da->GetRdmaChannel()->Dispose();
        link.da->Dispose();
    });
    Simulator::Run();
    EXPECT_TRUE(link.rxB.arrivals.empty());
    Simulator::Destroy();
}

// A frame on the wire is held by the channel's slot (one reference, taken at the frame's
// start), handed to the receiver without another, and released when the channel is disposed
// with the frame still on the wire (a leak or a double release otherwise).
TEST(RdmaLink, ChannelHoldsOneReferencePerFrameOnTheWireAndReleasesItAtDispose)
{
    TestLink link;
    Ptr<Packet> first = MakeIpv4(1000, 26);
    Ptr<Packet> second = MakeIpv4(1000, 26);
    uint32_t onTheWire = 0;
    uint32_t afterDispose = 0;
    Simulator::Schedule(Seconds(0), [&]() {
        link.da->Send(first, link.db->GetAddress(), 0x0800);
        link.da->Send(second, link.db->GetAddress(), 0x0800);
    });
    // At 100 ns the first frame is on the wire (the test's reference and the channel's).
    Simulator::Schedule(NanoSeconds(100), [&]() {
        onTheWire = first->GetReferenceCount();
        link.da->GetRdmaChannel()->Dispose();
        afterDispose = first->GetReferenceCount();
    });
    Simulator::Run();
    EXPECT_EQ(onTheWire, 2u);
    EXPECT_EQ(afterDispose, 1u);
    EXPECT_TRUE(link.rxB.arrivals.empty());
    Simulator::Destroy();
    EXPECT_EQ(first->GetReferenceCount(), 1u);
    EXPECT_EQ(second->GetReferenceCount(), 1u);
}

TEST(RdmaLink, ChannelAndDeviceAttributes)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    RdmaLinkHelper helper;
    helper.SetDeviceAttribute("DataRate", DataRateValue(DataRate("25Gbps")));
    helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(3)));
    NodeContainer nodes;
    nodes.Add(a);
    nodes.Add(b);
    NetDeviceContainer devices = helper.Install(nodes);
    Ptr<RdmaNetDevice> da = DynamicCast<RdmaNetDevice>(devices.Get(0));
    Ptr<RdmaNetDevice> db = DynamicCast<RdmaNetDevice>(devices.Get(1));
    ASSERT_EQ(da->GetNode(), a);
    ASSERT_EQ(db->GetNode(), b);
    EXPECT_NE(da->GetAddress(), db->GetAddress());
    RxRecorder rx;
    db->SetReceiveCallback(MakeCallback(&RxRecorder::Receive, &rx));
    std::vector<Time> channelTx;
    da->GetRdmaChannel()->TraceConnectWithoutContext(
        "TxRxRdma",
        Callback<void, Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time>(
            [&](Ptr<const Packet> p, Ptr<NetDevice> src, Ptr<NetDevice> dst, Time tx, Time rx) {
                EXPECT_EQ(src, da);
                EXPECT_EQ(dst, db);
                EXPECT_EQ(p->GetSize(), 1014u);
                channelTx.push_back(tx);
                channelTx.push_back(rx);
            }));
    Simulator::Schedule(Seconds(0), [&]() { da->Enqueue(MakeIpv4(1000, 0), 0); });
    Simulator::Run();
    // 1038 * 8 bits at 25 Gb/s = 332.16 ns, + 3 us.
    ASSERT_EQ(rx.arrivals.size(), 1u);
    EXPECT_EQ(rx.arrivals[0].time, PicoSeconds(3332160));
    ASSERT_EQ(channelTx.size(), 2u);
    EXPECT_EQ(channelTx[0], PicoSeconds(332160));
    EXPECT_EQ(channelTx[1], PicoSeconds(3332160));
    Simulator::Destroy();
}

TEST(RdmaLink, PfcPausesOnlyTheEnabledClass)
{
    TestLink link(RdmaNetDevice::ROUND_ROBIN);
    PfcRecorder pfcTxB;
    PfcRecorder pfcRxA;
    PacketRecorder snifferB;
    link.db->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcRecorder::Record, &pfcTxB));
    link.da->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcRecorder::Record, &pfcRxA));
    link.db->TraceConnectWithoutContext("Sniffer",
                                        MakeCallback(&PacketRecorder::Record, &snifferB));

    Backlog(link.da, {3, 1}, 150);
    std::array<uint16_t, 8> quanta{};
    quanta[3] = 1000;
    link.PauseFromB(MicroSeconds(2), 1 << 3, quanta);
    // B is idle: the PFC frame starts at 2 us and reaches A 6.72 ns + 1 us later.
    const Time rx = MicroSeconds(2) + PfcFrame() + Delay();
    const Time end = rx + Quantum() * 1000; // 5.12 us later
    bool pausedMid = false;
    uint8_t maskMid = 0;
    bool pausedAfter = true;
    Simulator::Schedule(rx + MicroSeconds(1), [&]() {
        pausedMid = link.da->IsClassPaused(3);
        maskMid = link.da->GetPausedMask();
    });
    Simulator::Schedule(end + PicoSeconds(1), [&]() { pausedAfter = link.da->IsClassPaused(3); });
    Simulator::Run();

    EXPECT_TRUE(pausedMid);
    EXPECT_EQ(maskMid, 0x08);
    EXPECT_FALSE(pausedAfter);

    const std::vector<Time> c3 = link.txBeginA.TimesOfClass(3);
    const std::vector<Time> c1 = link.txBeginA.TimesOfClass(1);
    ASSERT_EQ(c3.size(), 150u);
    ASSERT_EQ(c1.size(), 150u);
    // Round robin: class 3 was flowing right before the pause arrived.
    EXPECT_GE(LastAtOrBefore(c3, rx), rx - Frame1000() * 2);
    // No class-3 frame starts during the pause; the first one after it within one frame.
    EXPECT_EQ(CountWithin(c3, rx, end), 0u);
    const Time resume = FirstAfter(c3, rx);
    EXPECT_GE(resume, end);
    EXPECT_LE(resume, end + Frame1000());
    // Class 1 owns the link during the pause: 5.12 us / 83.04 ns = 61.7 frames.
    const std::size_t c1During = CountWithin(c1, rx, end);
    EXPECT_GE(c1During, 61u);
    EXPECT_LE(c1During, 62u);

    EXPECT_EQ(link.db->GetPfcFramesSent(), 1u);
    EXPECT_EQ(link.da->GetPfcFramesReceived(), 1u);
    EXPECT_EQ(link.da->GetPfcFramesSent(), 0u);
    ASSERT_EQ(pfcTxB.events.size(), 1u);
    EXPECT_EQ(pfcTxB.events[0].time, MicroSeconds(2));
    EXPECT_EQ(pfcTxB.events[0].cls, 3);
    EXPECT_EQ(pfcTxB.events[0].quanta, 1000);
    ASSERT_EQ(pfcRxA.events.size(), 1u);
    EXPECT_EQ(pfcRxA.events[0].time, rx);
    EXPECT_EQ(pfcRxA.events[0].cls, 3);
    EXPECT_EQ(pfcRxA.events[0].quanta, 1000);

    // The PFC frame on the wire (B's sniffer, transmit side): 802.1Qbb layout.
    std::vector<uint8_t> pfcFrame;
    for (std::size_t i = 0; i < snifferB.packets.size(); ++i)
    {
        if (snifferB.times[i] == MicroSeconds(2))
        {
            pfcFrame = Bytes(snifferB.packets[i]);
        }
    }
    ASSERT_EQ(pfcFrame.size(), 60u);
    const std::vector<uint8_t> mcast{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
    EXPECT_EQ(std::vector<uint8_t>(pfcFrame.begin(), pfcFrame.begin() + 6), mcast);
    EXPECT_EQ(std::vector<uint8_t>(pfcFrame.begin() + 6, pfcFrame.begin() + 12),
              MacBytes(link.db->GetAddress()));
    EXPECT_EQ(pfcFrame[12], 0x88); // EtherType 0x8808
    EXPECT_EQ(pfcFrame[13], 0x08);
    EXPECT_EQ(pfcFrame[14], 0x01); // opcode 0x0101
    EXPECT_EQ(pfcFrame[15], 0x01);
    EXPECT_EQ(pfcFrame[16], 0x00); // class-enable vector 0x0008
    EXPECT_EQ(pfcFrame[17], 0x08);
    EXPECT_EQ(pfcFrame[18 + 2 * 3], 0x03); // time[3] = 1000 = 0x03E8
    EXPECT_EQ(pfcFrame[19 + 2 * 3], 0xE8);
    EXPECT_EQ(pfcFrame[18 + 2 * 1], 0x00); // time[1] = 0
    EXPECT_EQ(pfcFrame[19 + 2 * 1], 0x00);
    Simulator::Destroy();
}

TEST(RdmaLink, PfcZeroQuantaResumesAtOnce)
{
    TestLink link(RdmaNetDevice::ROUND_ROBIN);
    PfcRecorder pfcRxA;
    link.da->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcRecorder::Record, &pfcRxA));
    Backlog(link.da, {3, 1}, 150);
    std::array<uint16_t, 8> pause{};
    pause[3] = 1000;
    std::array<uint16_t, 8> resume{};
    link.PauseFromB(MicroSeconds(2), 1 << 3, pause);
    link.PauseFromB(MicroSeconds(4), 1 << 3, resume);
    const Time rx1 = MicroSeconds(2) + PfcFrame() + Delay();
    const Time rx2 = MicroSeconds(4) + PfcFrame() + Delay(); // well before rx1 + 5.12 us
    Simulator::Run();

    const std::vector<Time> c3 = link.txBeginA.TimesOfClass(3);
    EXPECT_EQ(CountWithin(c3, rx1, rx2), 0u);
    const Time first = FirstAfter(c3, rx1);
    EXPECT_GE(first, rx2);
    EXPECT_LE(first, rx2 + Frame1000());
    ASSERT_EQ(pfcRxA.events.size(), 2u);
    EXPECT_EQ(pfcRxA.events[1].time, rx2);
    EXPECT_EQ(pfcRxA.events[1].quanta, 0);
    EXPECT_EQ(link.da->GetPfcFramesReceived(), 2u);
    Simulator::Destroy();
}

TEST(RdmaLink, PfcSecondPauseRearms)
{
    TestLink link(RdmaNetDevice::ROUND_ROBIN);
    Backlog(link.da, {3, 1}, 200);
    std::array<uint16_t, 8> pause{};
    pause[3] = 1000;
    link.PauseFromB(MicroSeconds(2), 1 << 3, pause);
    link.PauseFromB(MicroSeconds(6), 1 << 3, pause);
    const Time rx1 = MicroSeconds(2) + PfcFrame() + Delay(); // pause until 8.12672 us
    const Time rx2 = MicroSeconds(6) + PfcFrame() + Delay(); // re-armed: until 12.12672 us
    const Time end = rx2 + Quantum() * 1000;
    Simulator::Run();

    const std::vector<Time> c3 = link.txBeginA.TimesOfClass(3);
    EXPECT_EQ(CountWithin(c3, rx1, end), 0u);
    const Time first = FirstAfter(c3, rx1);
    EXPECT_GE(first, end);
    EXPECT_LE(first, end + Frame1000());
    // Class 1 kept the link busy throughout: (end - rx1) / 83.04 ns = 109.9 frames.
    const std::size_t c1During = CountWithin(link.txBeginA.TimesOfClass(1), rx1, end);
    EXPECT_GE(c1During, 109u);
    EXPECT_LE(c1During, 110u);
    Simulator::Destroy();
}

TEST(RdmaLink, PfcLaterFrameReplacesTheTimerOfAnIdlePort)
{
    // Only class 3 is backlogged, so the port idles while paused and restarts on its own
    // wake-up event: the restart times are exact.
    TestLink link;
    Backlog(link.da, {3}, 150);
    std::array<uint16_t, 8> longPause{};
    longPause[3] = 1000;
    std::array<uint16_t, 8> shortPause{};
    shortPause[3] = 100;
    // A shorter pause before expiry shortens it ...
    link.PauseFromB(MicroSeconds(2), 1 << 3, longPause);
    link.PauseFromB(MicroSeconds(4), 1 << 3, shortPause);
    // ... and a second long pause before expiry extends it.
    link.PauseFromB(MicroSeconds(10), 1 << 3, longPause);
    link.PauseFromB(MicroSeconds(14), 1 << 3, longPause);
    const Time rx1 = MicroSeconds(2) + PfcFrame() + Delay();
    const Time rx2 = MicroSeconds(4) + PfcFrame() + Delay();
    const Time rx3 = MicroSeconds(10) + PfcFrame() + Delay();
    const Time rx4 = MicroSeconds(14) + PfcFrame() + Delay();
    Simulator::Run();

    const std::vector<Time>& t = link.txBeginA.times;
    EXPECT_EQ(FirstAfter(t, rx1), rx2 + Quantum() * 100);  // 5.51872 us, not 8.12672 us
    EXPECT_EQ(FirstAfter(t, rx3), rx4 + Quantum() * 1000); // 20.12672 us, not 16.12672 us
    EXPECT_EQ(t.size(), 150u);
    Simulator::Destroy();
}

TEST(RdmaLink, PfcAllBackloggedClassesPausedWakesUpExactly)
{
    TestLink link(RdmaNetDevice::STRICT_PRIORITY);
    Backlog(link.da, {3, 1}, 100);
    std::array<uint16_t, 8> quanta{};
    quanta[1] = 500;
    quanta[3] = 1000;
    link.PauseFromB(MicroSeconds(2), (1 << 1) | (1 << 3), quanta);
    const Time rx = MicroSeconds(2) + PfcFrame() + Delay();
    bool busyMid = true;
    uint8_t maskMid = 0;
    Simulator::Schedule(rx + MicroSeconds(1), [&]() {
        busyMid = link.da->IsBusy();
        maskMid = link.da->GetPausedMask();
    });
    Simulator::Run();

    EXPECT_FALSE(busyMid); // everything queued is paused: the port idles
    EXPECT_EQ(maskMid, 0x0A);
    const std::vector<Time> all = link.txBeginA.times;
    // The frame in flight at rx completes; the next one starts exactly when class 1's
    // 500 quanta (2.56 us) expire.
    const Time next = FirstAfter(all, rx);
    EXPECT_EQ(next, rx + Quantum() * 500);
    EXPECT_EQ(FirstAfter(link.txBeginA.TimesOfClass(1), rx), rx + Quantum() * 500);
    // Class 3 (strict priority) takes over within one frame of its 1000 quanta expiring.
    const Time c3 = FirstAfter(link.txBeginA.TimesOfClass(3), rx);
    EXPECT_GE(c3, rx + Quantum() * 1000);
    EXPECT_LE(c3, rx + Quantum() * 1000 + Frame1000());
    Simulator::Destroy();
}

TEST(RdmaLink, ListErrorModelDropsExactlyTheListedFrames)
{
    TestLink link;
    PacketRecorder drops;
    link.db->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&PacketRecorder::Record, &drops));
    std::vector<Ptr<Packet>> packets;
    for (int i = 0; i < 5; ++i)
    {
        packets.push_back(MakeIpv4(1000, 26));
    }
    Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
    em->SetList(
        {static_cast<uint32_t>(packets[1]->GetUid()), static_cast<uint32_t>(packets[3]->GetUid())});
    link.db->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Simulator::Schedule(Seconds(0), [&]() {
        for (auto& p : packets)
        {
            link.da->Enqueue(p, 3);
        }
    });
    Simulator::Run();

    ASSERT_EQ(link.rxB.arrivals.size(), 3u);
    EXPECT_EQ(link.rxB.arrivals[0].uid, packets[0]->GetUid());
    EXPECT_EQ(link.rxB.arrivals[1].uid, packets[2]->GetUid());
    EXPECT_EQ(link.rxB.arrivals[2].uid, packets[4]->GetUid());
    // Survivors keep their timing: frames 1, 3 and 5 of a back-to-back train.
    EXPECT_EQ(link.rxB.arrivals[1].time, Delay() + Frame1000() * 3);
    EXPECT_EQ(link.db->GetRxDropCount(), 2u);
    ASSERT_EQ(drops.packets.size(), 2u);
    EXPECT_EQ(drops.packets[0]->GetUid(), packets[1]->GetUid());
    EXPECT_EQ(drops.packets[1]->GetUid(), packets[3]->GetUid());
    EXPECT_EQ(drops.times[0], Delay() + Frame1000() * 2);
    EXPECT_EQ(drops.packets[0]->GetSize(), 1014u); // the whole frame
    Simulator::Destroy();
}

TEST(RdmaLink, RateErrorModelOneDropsEverything)
{
    TestLink link;
    PacketRecorder drops;
    PacketRecorder macRx;
    link.db->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&PacketRecorder::Record, &drops));
    link.db->TraceConnectWithoutContext("MacRx", MakeCallback(&PacketRecorder::Record, &macRx));
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(1.0);
    link.db->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Simulator::Schedule(Seconds(0), [&]() {
        for (int i = 0; i < 4; ++i)
        {
            link.da->Enqueue(MakeIpv4(500, 0), 0);
        }
    });
    Simulator::Run();
    EXPECT_TRUE(link.rxB.arrivals.empty());
    EXPECT_TRUE(macRx.packets.empty());
    EXPECT_EQ(link.db->GetRxDropCount(), 4u);
    EXPECT_EQ(drops.packets.size(), 4u);
    Simulator::Destroy();
}

TEST(RdmaLink, MalformedControlAndUnknownEtherTypeAreDropped)
{
    TestLink link;
    PacketRecorder drops;
    PfcRecorder pfcRx;
    link.db->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&PacketRecorder::Record, &drops));
    link.db->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcRecorder::Record, &pfcRx));

    // An IEEE 802.3x global PAUSE (opcode 0x0001, 0xFFFF quanta): not PFC.
    uint8_t payload[46] = {0x00, 0x01, 0xFF, 0xFF};
    Ptr<Packet> pause = Create<Packet>(payload, sizeof(payload));
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("00:00:00:00:00:aa"));
    eth.SetDestination(Mac48Address("01:80:c2:00:00:01"));
    eth.SetLengthType(0x8808);
    pause->AddHeader(eth);
    link.db->Receive(pause);
    EXPECT_EQ(link.db->GetRxDropCount(), 1u);
    EXPECT_EQ(link.db->GetPfcFramesReceived(), 0u);
    EXPECT_EQ(link.db->GetPausedMask(), 0);
    EXPECT_TRUE(pfcRx.events.empty());

    // IPv6 (0x86DD) is not carried by this device.
    Ptr<Packet> v6 = Create<Packet>(100);
    eth.SetDestination(Mac48Address::ConvertFrom(link.db->GetAddress()));
    eth.SetLengthType(0x86DD);
    v6->AddHeader(eth);
    link.db->Receive(v6);
    EXPECT_EQ(link.db->GetRxDropCount(), 2u);
    ASSERT_EQ(drops.packets.size(), 2u);
    EXPECT_EQ(drops.packets[0]->GetSize(), 60u);
    EXPECT_EQ(drops.packets[1]->GetSize(), 114u);
    EXPECT_TRUE(link.rxB.arrivals.empty());
    Simulator::Destroy();
}

TEST(RdmaLink, StrictPriorityAndRoundRobinOrder)
{
    for (auto policy : {RdmaNetDevice::STRICT_PRIORITY, RdmaNetDevice::ROUND_ROBIN})
    {
        TestLink link(policy);
        Simulator::Schedule(Seconds(0), [&]() {
            // Class 0 first: it starts at once and keeps the port busy while 1 and 5 queue.
            link.da->Enqueue(MakeIpv4(1000, DscpOf(0)), 0);
            Backlog(link.da, {1}, 3);
            Backlog(link.da, {5}, 3);
        });
        Simulator::Run();
        std::vector<int> order;
        for (const auto& a : link.rxB.arrivals)
        {
            order.push_back(a.cls);
        }
        if (policy == RdmaNetDevice::STRICT_PRIORITY)
        {
            EXPECT_EQ(order, (std::vector<int>{0, 5, 5, 5, 1, 1, 1}));
        }
        else
        {
            EXPECT_EQ(order, (std::vector<int>{0, 1, 5, 1, 5, 1, 5}));
        }
        Simulator::Destroy();
    }
}

TEST(RdmaLink, PullSourceAndDequeueCallback)
{
    TestLink link;
    // Pull source: an endless supply of class-2 packets, none while class 2 is paused.
    std::vector<uint8_t> masks;
    uint32_t pulled = 0;
    link.da->SetTxPullCallback(
        RdmaNetDevice::TxPullCallback([&](uint8_t pausedMask, uint8_t* cls) -> Ptr<Packet> {
            masks.push_back(pausedMask);
            if ((pausedMask & (1 << 2)) || pulled >= 100)
            {
                return nullptr;
            }
            ++pulled;
            *cls = 2;
            return MakeIpv4(1000, DscpOf(2));
        }));
    std::vector<std::pair<uint32_t, uint8_t>> dequeued;
    link.da->SetDequeueCallback(
        RdmaNetDevice::DequeueCallback([&](Ptr<RdmaNetDevice> dev, Ptr<Packet> p, uint8_t cls) {
            EXPECT_EQ(dev, link.da);
            dequeued.emplace_back(p->GetSize(), cls);
        }));
    Simulator::Schedule(Seconds(0), [&]() {
        link.da->Enqueue(MakeIpv4(700, DscpOf(4)), 4); // queued packets go before pulled ones
        link.da->TriggerTransmit();
    });
    std::array<uint16_t, 8> quanta{};
    quanta[2] = 1000;
    link.PauseFromB(MicroSeconds(2), 1 << 2, quanta);
    const Time rx = MicroSeconds(2) + PfcFrame() + Delay();
    Simulator::Run();

    ASSERT_EQ(dequeued.size(), 1u);
    EXPECT_EQ(dequeued[0].first, 700u); // before the Ethernet header is added
    EXPECT_EQ(dequeued[0].second, 4);
    EXPECT_EQ(pulled, 100u);
    ASSERT_FALSE(link.rxB.arrivals.empty());
    EXPECT_EQ(link.rxB.arrivals[0].cls, 4);
    EXPECT_EQ(link.rxB.arrivals[0].size, 700u);
    EXPECT_EQ(link.rxB.arrivals[1].cls, 2);
    // 700-byte packet: 714 + 24 = 738 wire bytes = 59.04 ns; then pulled frames follow.
    EXPECT_EQ(link.rxB.arrivals[1].time, Delay() + PicoSeconds(59040) + Frame1000());
    // The pull source was asked with class 2 paused, and the port woke up exactly when
    // the pause expired although nothing was queued in the device itself.
    EXPECT_NE(std::find(masks.begin(), masks.end(), 1 << 2), masks.end());
    const Time next = FirstAfter(link.txBeginA.times, rx);
    EXPECT_EQ(next, rx + Quantum() * 1000);
    EXPECT_EQ(link.rxB.arrivals.size(), 101u);
    Simulator::Destroy();
}

TEST(RdmaLink, SnifferSeesEthernetFrames)
{
    TestLink link;
    PacketRecorder snifferA;
    PacketRecorder promiscB;
    link.da->TraceConnectWithoutContext("Sniffer",
                                        MakeCallback(&PacketRecorder::Record, &snifferA));
    link.db->TraceConnectWithoutContext("PromiscSniffer",
                                        MakeCallback(&PacketRecorder::Record, &promiscB));
    Simulator::Schedule(Seconds(0), [&]() {
        link.da->Send(MakeIpv4(1000, 26), link.db->GetAddress(), 0x0800);
    });
    Simulator::Run();

    ASSERT_EQ(snifferA.packets.size(), 1u);
    ASSERT_EQ(promiscB.packets.size(), 1u);
    EXPECT_EQ(snifferA.times[0], Seconds(0));
    EXPECT_EQ(promiscB.times[0], Delay() + Frame1000());
    const std::vector<uint8_t> tx = Bytes(snifferA.packets[0]);
    ASSERT_EQ(tx.size(), 1014u);
    EXPECT_EQ(std::vector<uint8_t>(tx.begin(), tx.begin() + 6), MacBytes(link.db->GetAddress()));
    EXPECT_EQ(std::vector<uint8_t>(tx.begin() + 6, tx.begin() + 12),
              MacBytes(link.da->GetAddress()));
    EXPECT_EQ(tx[12], 0x08); // EtherType IPv4
    EXPECT_EQ(tx[13], 0x00);
    EXPECT_EQ(tx[14], 0x45);      // IPv4, 20-byte header
    EXPECT_EQ(tx[15], 26 << 2);   // DSCP 26, ECN 0
    EXPECT_EQ(tx[16], 1000 >> 8); // total length 1000
    EXPECT_EQ(tx[17], 1000 & 0xFF);
    EXPECT_EQ(Bytes(promiscB.packets[0]), tx); // received exactly as sent
    Simulator::Destroy();
}

TEST(RdmaLink, PcapAndAsciiTracing)
{
    // Files go into the test's temporary directory (rdma-test-environment.h), which also turned
    // packet metadata on before the first packet, so ASCII tracing may start here.
    const std::string dir = rdmatest::OutputDir() + "/";
    const std::string pcapA = dir + "rdma-link-test-a.pcap";
    const std::string pcapB = dir + "rdma-link-test-b.pcap";
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        RdmaLinkHelper helper;
        NetDeviceContainer d = helper.Install(a, b);
        Ptr<RdmaNetDevice> da = DynamicCast<RdmaNetDevice>(d.Get(0));
        Ptr<RdmaNetDevice> db = DynamicCast<RdmaNetDevice>(d.Get(1));
        helper.EnableAscii(dir + "rdma-link-test-a.tr", da, true);
        helper.EnableAscii(dir + "rdma-link-test-b.tr", db, true);
        Simulator::Schedule(Seconds(0), [&]() {
            da->Enqueue(MakeIpv4(1000, 0), 0);
            da->Enqueue(MakeIpv4(1000, 0), 0);
        });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            std::array<uint16_t, 8> q{};
            db->SendPfc(1, q);
        });
        Simulator::Run();
        Simulator::Destroy();
    }
    auto countEvents = [](const std::string& file, char c) {
        std::ifstream in(file);
        std::string line;
        int n = 0;
        while (std::getline(in, line))
        {
            n += !line.empty() && line[0] == c;
        }
        return n;
    };
    // A: two packets queued ('+') and sent ('-'); B: two received ('r'), one PFC sent ('-').
    EXPECT_EQ(countEvents(dir + "rdma-link-test-a.tr", '+'), 2);
    EXPECT_EQ(countEvents(dir + "rdma-link-test-a.tr", '-'), 2);
    EXPECT_EQ(countEvents(dir + "rdma-link-test-a.tr", 'r'), 0);
    EXPECT_EQ(countEvents(dir + "rdma-link-test-b.tr", 'r'), 2);
    EXPECT_EQ(countEvents(dir + "rdma-link-test-b.tr", '-'), 1);
    EXPECT_EQ(countEvents(dir + "rdma-link-test-b.tr", 'd'), 0);

    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        RdmaLinkHelper helper;
        NetDeviceContainer d = helper.Install(a, b);
        Ptr<RdmaNetDevice> da = DynamicCast<RdmaNetDevice>(d.Get(0));
        Ptr<RdmaNetDevice> db = DynamicCast<RdmaNetDevice>(d.Get(1));
        helper.EnablePcap(pcapA, da, false, true);
        helper.EnablePcap(pcapB, db, false, true);
        Simulator::Schedule(Seconds(0), [&]() {
            da->Enqueue(MakeIpv4(1000, 26), 3);
            da->Enqueue(MakeIpv4(28, 26), 3);
        });
        Simulator::Schedule(MicroSeconds(5), [&]() {
            std::array<uint16_t, 8> q{};
            q[3] = 7;
            db->SendPfc(1 << 3, q);
        });
        Simulator::Run();
        Simulator::Destroy();
    }
    // Each capture holds the two data frames and the PFC frame (sent or received).
    for (const std::string& file : {pcapA, pcapB})
    {
        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        ASSERT_FALSE(pcap.Fail()) << file;
        EXPECT_EQ(pcap.GetDataLinkType(), 1u) << file; // DLT_EN10MB
        std::vector<uint32_t> sizes;
        std::vector<uint8_t> last;
        while (true)
        {
            uint8_t data[2000];
            uint32_t sec = 0;
            uint32_t usec = 0;
            uint32_t inclLen = 0;
            uint32_t origLen = 0;
            uint32_t readLen = 0;
            pcap.Read(data, sizeof(data), sec, usec, inclLen, origLen, readLen);
            if (pcap.Fail() || pcap.Eof())
            {
                break;
            }
            sizes.push_back(origLen);
            last.assign(data, data + readLen);
        }
        pcap.Close();
        EXPECT_EQ(sizes, (std::vector<uint32_t>{1014, 42, 60})) << file;
        ASSERT_EQ(last.size(), 60u);
        EXPECT_EQ(last[12], 0x88);
        EXPECT_EQ(last[13], 0x08);
        std::remove(file.c_str());
    }
    std::remove((dir + "rdma-link-test-a.tr").c_str());
    std::remove((dir + "rdma-link-test-b.tr").c_str());
}

TEST(RdmaLinkDeathTest, EnqueueClassEightAborts)
{
    TestLink link;
    EXPECT_DEATH(link.da->Enqueue(MakeIpv4(100, 0), 8), "traffic class 8 is invalid");
    Simulator::Destroy();
}

TEST(RdmaLinkDeathTest, SendOtherProtocolAborts)
{
    TestLink link;
    EXPECT_DEATH(link.da->Send(Create<Packet>(100), link.db->GetAddress(), 0x86DD),
                 "protocol 0x86dd is not supported");
    Simulator::Destroy();
}

TEST(RdmaLinkDeathTest, ThirdDeviceOnChannelAborts)
{
    TestLink link;
    Ptr<RdmaNetDevice> third = CreateObject<RdmaNetDevice>();
    EXPECT_DEATH(third->Attach(link.da->GetRdmaChannel()), "cannot attach a third");
    Simulator::Destroy();
}

TEST(RdmaLinkDeathTest, TransmitWithOneDeviceAborts)
{
    Ptr<RdmaChannel> channel = CreateObject<RdmaChannel>();
    Ptr<RdmaNetDevice> lonely = CreateObject<RdmaNetDevice>();
    lonely->Attach(channel);
    EXPECT_DEATH(channel->TransmitStart(Create<Packet>(60), lonely, NanoSeconds(7)),
                 "1 device\\(s\\) attached");
    EXPECT_DEATH(lonely->Enqueue(MakeIpv4(100, 0), 0), "no peer device");
    lonely->Dispose(); // not on a node: break the device-channel reference cycle by hand
    Simulator::Destroy();
}
