/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaWatchedTrace: the owner's bit says "a sink is connected" after every way of connecting
// and disconnecting one (directly, through the TypeId's trace source with and without
// context, through Config paths), and with several sinks until the last one leaves. The
// per-frame paths of RdmaNetDevice and RdmaSwitch read these bits instead of the sink lists;
// a stale bit would hide frames from a sink or send frames whole for none.

#include "ns3/config.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-watched-trace.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

void
IntSink(int)
{
}

void
OtherIntSink(int)
{
}

void
IntSinkWithContext(std::string, int)
{
}

void
PacketSink(Ptr<const Packet>)
{
}

void
PacketSinkWithContext(std::string, Ptr<const Packet>)
{
}

} // namespace

TEST(RdmaWatchedTrace, BitFollowsTheSinks)
{
    uint16_t mask = 0x100; // another owner bit, left alone
    RdmaWatchedTrace<int> trace;
    trace.Watch(&mask, 0x4);
    EXPECT_EQ(mask, 0x100);
    trace.ConnectWithoutContext(MakeCallback(&IntSink));
    EXPECT_EQ(mask, 0x104);
    trace.ConnectWithoutContext(MakeCallback(&OtherIntSink));
    trace.DisconnectWithoutContext(MakeCallback(&IntSink));
    EXPECT_EQ(mask, 0x104) << "one sink is still connected";
    trace.DisconnectWithoutContext(MakeCallback(&OtherIntSink));
    EXPECT_EQ(mask, 0x100);
    trace.Connect(MakeCallback(&IntSinkWithContext), "a/path");
    EXPECT_EQ(mask, 0x104);
    trace.Disconnect(MakeCallback(&IntSinkWithContext), "a/path");
    EXPECT_EQ(mask, 0x100);
    // Disconnecting a sink that was never connected changes nothing.
    trace.DisconnectWithoutContext(MakeCallback(&IntSink));
    EXPECT_EQ(mask, 0x100);
    // Watching a trace that already has a sink sets the bit at once.
    RdmaWatchedTrace<int> connectedFirst;
    connectedFirst.ConnectWithoutContext(MakeCallback(&IntSink));
    uint16_t other = 0;
    connectedFirst.Watch(&other, 0x1);
    EXPECT_EQ(other, 0x1);
}

TEST(RdmaWatchedTrace, DeviceSeesSinksConnectedThroughItsTypeIdAndConfig)
{
    Ptr<Node> node = CreateObject<Node>();
    Ptr<RdmaNetDevice> device = CreateObject<RdmaNetDevice>();
    node->AddDevice(device);
    EXPECT_FALSE(device->IsMacTxTraced());
    EXPECT_TRUE(device->TraceConnectWithoutContext("MacTx", MakeCallback(&PacketSink)));
    EXPECT_TRUE(device->IsMacTxTraced());
    EXPECT_TRUE(device->TraceDisconnectWithoutContext("MacTx", MakeCallback(&PacketSink)));
    EXPECT_FALSE(device->IsMacTxTraced());
    EXPECT_TRUE(device->TraceConnect("MacTx", "ctx", MakeCallback(&PacketSinkWithContext)));
    EXPECT_TRUE(device->IsMacTxTraced());
    EXPECT_TRUE(device->TraceDisconnect("MacTx", "ctx", MakeCallback(&PacketSinkWithContext)));
    EXPECT_FALSE(device->IsMacTxTraced());

    const std::string path =
        "/NodeList/" + std::to_string(node->GetId()) + "/DeviceList/*/$ns3::RdmaNetDevice/MacTx";
    Config::ConnectWithoutContext(path, MakeCallback(&PacketSink));
    EXPECT_TRUE(device->IsMacTxTraced());
    Config::DisconnectWithoutContext(path, MakeCallback(&PacketSink));
    EXPECT_FALSE(device->IsMacTxTraced());
    Config::Connect(path, MakeCallback(&PacketSinkWithContext));
    EXPECT_TRUE(device->IsMacTxTraced());
    Config::Disconnect(path, MakeCallback(&PacketSinkWithContext));
    EXPECT_FALSE(device->IsMacTxTraced());
    Simulator::Destroy();
}

namespace
{

void
ChannelSink(Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time)
{
}

/// A subclass (an MPI link, a reordering cable) sees whole frames: it may override
/// TransmitStart.
class SubclassChannel : public RdmaChannel
{
};

} // namespace

// A channel carries frames as a packet with its head beside it only while nothing watches
// the wire: its TxRxRdma sink (connected through the TypeId or Config, at any time) keeps a
// bit beside the channel's per-frame members, and the devices read that bit per frame.
TEST(RdmaWatchedTrace, ChannelCarriesFrameHeadsOnlyWithoutATxRxSink)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    Ptr<RdmaNetDevice> da = CreateObject<RdmaNetDevice>();
    Ptr<RdmaNetDevice> db = CreateObject<RdmaNetDevice>();
    a->AddDevice(da);
    b->AddDevice(db);
    Ptr<RdmaChannel> channel = CreateObject<RdmaChannel>();
    EXPECT_FALSE(channel->CarriesFrameHeads()); // no device attached yet
    da->Attach(channel);
    db->Attach(channel);
    EXPECT_TRUE(channel->CarriesFrameHeads());
    EXPECT_TRUE(channel->TraceConnectWithoutContext("TxRxRdma", MakeCallback(&ChannelSink)));
    EXPECT_FALSE(channel->CarriesFrameHeads());
    EXPECT_TRUE(channel->TraceDisconnectWithoutContext("TxRxRdma", MakeCallback(&ChannelSink)));
    EXPECT_TRUE(channel->CarriesFrameHeads());
    const std::string path =
        "/ChannelList/" + std::to_string(channel->GetId()) + "/$ns3::RdmaChannel/TxRxRdma";
    Config::ConnectWithoutContext(path, MakeCallback(&ChannelSink));
    EXPECT_FALSE(channel->CarriesFrameHeads());
    Config::DisconnectWithoutContext(path, MakeCallback(&ChannelSink));
    EXPECT_TRUE(channel->CarriesFrameHeads());

    Ptr<RdmaChannel> subclass = CreateObject<SubclassChannel>();
    Ptr<RdmaNetDevice> dc = CreateObject<RdmaNetDevice>();
    Ptr<RdmaNetDevice> dd = CreateObject<RdmaNetDevice>();
    a->AddDevice(dc);
    b->AddDevice(dd);
    dc->Attach(subclass);
    dd->Attach(subclass);
    EXPECT_FALSE(subclass->CarriesFrameHeads());
    Simulator::Destroy();
}
