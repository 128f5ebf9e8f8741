/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Frame equivalence: nothing a simulation can observe depends on whether anything observes
// the frames that cross switch-to-switch links.
//
// Why these tests exist: a switch port may carry a forwarded packet's Ethernet header and its
// rewritten IPv4 head (the first 12 bytes: TTL decremented, ECN) beside the ns-3 Packet
// instead of writing them into it when nothing can observe the frame on its link, and write
// them only when something can (a trace sink on a device or on the channel, the switch's Drop
// trace, an egress processor other than the RED/ECN marker, a CE mark). Such a shortcut must
// change nothing observable. These tests use only public API that predates it, so they pass
// before and after it and catch any difference:
//  - HostsReceiveTheSameBytesWithAndWithoutSwitchSinks: the bytes and times of every frame
//    the hosts receive, the flow completions and the switch counters of a congested fat-tree
//    are the same with and without a Sniffer sink on every switch port (a sink forces the
//    fully written path on every link); the TTLs count the switches crossed and CE marks
//    arrive;
//  - SwitchDropTraceSeesTheArrivingHead: a packet dropped by a switch in the middle of a
//    chain reaches the Drop trace with the IPv4 header it arrived with (TTL already
//    decremented by the switch before, valid checksum), although the switch before it has
//    no observer;
//  - EgressProcessorSeesTheArrivingHead: the same for a custom egress stage, at enqueue and
//    at dequeue.
//
// Hosts send TTL 64 (RdmaHeaderStack::FinishIpv4Udp; RdmaSwitch's documentation), every
// switch decrements it once, and every IPv4 header carries a checksum.

#include "rdma-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rdma-bth-header.h"
#include "ns3/rdma-cc-helper.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-egress-processor.h"
#include "ns3/rdma-link-helper.h"
#include "ns3/rdma-link-retry.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-routing-helper.h"
#include "ns3/rdma-switch.h"
#include "ns3/rdma-ualink-flit-framing.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t INITIAL_TTL = 64; //!< the TTL hosts send (RdmaHeaderStack)
constexpr uint32_t IPV4_BYTES = 20; //!< an IPv4 header without options
constexpr uint16_t ETHERTYPE_IPV4 = RdmaNetDevice::ETHERTYPE_IPV4;
constexpr uint32_t ETH_BYTES = RdmaNetDevice::ETHERNET_HEADER_BYTES; // 14
constexpr uint8_t ECN_CE = 3; //!< the IPv4 ECN field of a CE-marked packet

/// \return big-endian 32-bit value at p
uint32_t
ReadU32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/// \return big-endian 16-bit value at p
uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

/**
 * RFC 1071: a header verifies when the ones' complement sum of its 16-bit words, the
 * checksum included, is 0xFFFF. Computed here independently of the model (whose incremental
 * RFC 1624 update after the TTL decrement is what is checked).
 * \param h a 20-byte IPv4 header
 * \return true if its checksum verifies
 */
bool
Ipv4ChecksumVerifies(const uint8_t* h)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < IPV4_BYTES; i += 2)
    {
        sum += ReadU16(h + i);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return sum == 0xFFFF;
}

/**
 * Checks what a switch may change in an IPv4 header (TTL, ECN with the checksum) and what
 * must hold for a header that belongs to its packet; the callers check the addresses.
 * \param ip a 20-byte IPv4 header
 * \param ipv4Bytes the size of the IPv4 packet it heads
 * \param ttl the expected TTL
 * \return "" if the header is right, else what is wrong with it
 */
std::string
HeadProblem(const uint8_t* ip, uint32_t ipv4Bytes, uint32_t ttl)
{
    std::ostringstream s;
    if (ip[0] != 0x45)
    {
        s << "version/IHL byte 0x" << std::hex << unsigned(ip[0]) << std::dec
          << " (expected 0x45: IPv4, 20 bytes); ";
    }
    if (ip[8] != ttl)
    {
        s << "TTL " << unsigned(ip[8]) << " (expected " << ttl << "); ";
    }
    if (!Ipv4ChecksumVerifies(ip))
    {
        s << "the header checksum does not verify; ";
    }
    if (ReadU16(ip + 2) != ipv4Bytes)
    {
        s << "total length " << ReadU16(ip + 2) << " (the IPv4 packet has " << ipv4Bytes
          << " bytes); ";
    }
    return s.str();
}

/// Counts bad packets and keeps the first one's description: one readable failure per test
/// instead of hundreds of repeats.
struct BadPackets
{
    uint64_t count{0};
    std::string first;

    /**
     * \param where which packet
     * \param problem what is wrong with it ("" if nothing)
     */
    void Add(const std::string& where, const std::string& problem)
    {
        if (!problem.empty() && count++ == 0)
        {
            first = where + ": " + problem;
        }
    }
};

/// Saves ns-3's seed and run, sets seed 1 run 1, and restores them (other tests change them).
class SeedAndRunGuard
{
  public:
    SeedAndRunGuard()
        : m_seed(RngSeedManager::GetSeed()),
          m_run(RngSeedManager::GetRun())
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }

    ~SeedAndRunGuard()
    {
        RngSeedManager::SetSeed(m_seed);
        RngSeedManager::SetRun(m_run);
    }

  private:
    uint32_t m_seed;
    uint64_t m_run;
};

/**
 * Start a run from the state a fresh process has: no nodes left by an earlier test (node
 * ids, and with them the switches' derived ECMP seeds, restart at 0) and MAC addresses
 * allocated from the first one again (they are in every frame's Ethernet header).
 * Simulator::Destroy does both (NodeList and Mac48Address register for it); the explicit
 * reset covers addresses allocated by a test that did not destroy its simulation.
 */
void
StartFreshRun()
{
    Simulator::Destroy();
    Mac48Address::ResetAllocationIndex();
}

// ---------------------------------------------------------------------------------------------
// Hosts receive the same bytes with and without switch sinks

/// One frame a host received (PhyRxEnd: the whole frame, Ethernet header included).
struct ReceivedFrame
{
    int64_t timeStep; //!< Simulator time of the reception, in the time resolution (ps)
    uint32_t host;    //!< fat-tree host index
    std::vector<uint8_t> bytes;

    bool operator==(const ReceivedFrame& o) const
    {
        return timeStep == o.timeStep && host == o.host && bytes == o.bytes;
    }
};

/// What one flow of the incast reported.
struct FlowResult
{
    int64_t postStep{-1};        //!< requester: work request posted
    int64_t completeStep{-1};    //!< requester: last byte acknowledged
    int64_t rxCompleteStep{-1};  //!< responder: last packet placed
    uint64_t bytesReceived{0};   //!< responder
    uint64_t cnpsReceived{0};    //!< requester
    uint64_t retransmissions{0}; //!< requester

    bool operator==(const FlowResult& o) const
    {
        return postStep == o.postStep && completeStep == o.completeStep &&
               rxCompleteStep == o.rxCompleteStep && bytesReceived == o.bytesReceived &&
               cnpsReceived == o.cnpsReceived && retransmissions == o.retransmissions;
    }
};

/// Everything one run of the incast produced that the two runs must share.
struct IncastRun
{
    std::vector<ReceivedFrame> frames;    //!< every host, in the order the simulator ran them
    std::vector<FlowResult> flows;        //!< in sender order
    std::vector<uint64_t> switchCounters; //!< per switch: forwarded, CE marks, drops, XOFF
    uint64_t sniffed{0};                  //!< calls of the switch ports' Sniffer sinks
    /// frames the switch ports sent with their head beside the packet (unwritten)
    uint64_t switchFramesHeadBeside{0};
    /// frames the hosts sent with their head beside the packet (to their edge switch)
    uint64_t hostFramesHeadBeside{0};
    /// CE marks made by switches other than the receiver's edge switch: those packets crossed
    /// at least one more switch-to-switch link after the mark
    uint64_t upstreamMarks{0};
    std::map<uint32_t, Ipv4Address> hostAddress;
    std::map<uint32_t, uint32_t> edgeOfHost; //!< fat-tree host index -> edge switch index
    std::map<uint32_t, uint32_t> podOfHost;  //!< fat-tree host index -> pod
    /// SinkWindow runs: frames the switch ports started while the sink was connected
    uint64_t windowTxFrames{0};
    /// SinkWindow runs: the times (steps) of the sink's calls on the switch ports
    std::vector<int64_t> windowSinkSteps;
};

/**
 * A sink connected to one trace of every switch port in the middle of a run and disconnected
 * later (a script that starts tracing after the warm-up): from..until, none if until is 0.
 */
struct SinkWindow
{
    Time from;
    Time until;
    std::string trace; //!< the RdmaNetDevice trace source
};

/// Note the time of a call.
void
NoteCallTime(std::vector<int64_t>* steps, Ptr<const Packet>)
{
    steps->push_back(Simulator::Now().GetTimeStep());
}

/// The frames every switch port of \p switches has started so far.
uint64_t
SwitchTxFrames(const NodeContainer& switches)
{
    uint64_t frames = 0;
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<RdmaSwitch> sw = switches.Get(s)->GetObject<RdmaSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            frames += sw->GetPort(p)->GetTxFrames();
        }
    }
    return frames;
}

/**
 * Connect (or disconnect) the window's sink on every switch port, and count the frames the
 * ports started: the count at the connection is subtracted, the one at the disconnection
 * added.
 */
void
SetWindowSinks(const NodeContainer& switches, IncastRun* run, std::string trace, bool connect)
{
    const uint64_t frames = SwitchTxFrames(switches);
    run->windowTxFrames = connect ? run->windowTxFrames - frames : run->windowTxFrames + frames;
    const CallbackBase sink = MakeBoundCallback(&NoteCallTime, &run->windowSinkSteps);
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<RdmaSwitch> sw = switches.Get(s)->GetObject<RdmaSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<RdmaNetDevice> port = sw->GetPort(p);
            EXPECT_TRUE(connect ? port->TraceConnectWithoutContext(trace, sink)
                                : port->TraceDisconnectWithoutContext(trace, sink));
        }
    }
}

/// PhyRxEnd sink of one host.
struct HostRecorder
{
    IncastRun* run{nullptr};
    uint32_t host{0};

    void OnFrame(Ptr<const Packet> frame)
    {
        ReceivedFrame f;
        f.timeStep = Simulator::Now().GetTimeStep();
        f.host = host;
        f.bytes.resize(frame->GetSize());
        frame->CopyData(f.bytes.data(), f.bytes.size());
        run->frames.push_back(std::move(f));
    }
};

/// A Sniffer sink that only counts: connecting it is what matters (it makes the frame
/// observable, so every switch port writes every frame into its Packet).
void
CountSniffed(uint64_t* count, Ptr<const Packet>)
{
    ++*count;
}

constexpr uint32_t INCAST_RECEIVER = 0;
/// Senders: host 1 under the receiver's edge switch (1 switch), hosts 2 and 3 under the other
/// edge switch of pod 0 (3 switches), the others in pods 1-3 (5 switches: edge, aggregation,
/// core, aggregation, edge, so 4 switch-to-switch links).
const std::vector<uint32_t> INCAST_SENDERS{1, 2, 3, 4, 7, 8, 11, 13, 14};
constexpr uint64_t INCAST_BYTES = 64000; //!< per sender

/**
 * A k = 4 fat-tree (16 hosts, 20 switches, 100 Gb/s, 1 us links) with DCQCN (the paper's
 * preset) and RED/ECN on the switches, lossless (PFC, the default): 9 senders WRITE 64 kB each
 * to host 0 at once, so the receiver's edge port is 9:1 oversubscribed and packets are marked.
 * RED is steep (5-20 kB, 20 %) so that there are marks whatever the random draws.
 * \param sniffSwitches connect a Sniffer sink to every switch port
 * \param recordHosts connect the PhyRxEnd sink recording every frame to every host port
 * \param hpcc HPCC with the switches' in-band telemetry instead of DCQCN (the telemetry
 *        stage writes into every packet at every switch)
 * \return what the run produced
 */
IncastRun
RunFatTreeIncast(bool sniffSwitches,
                 bool recordHosts = true,
                 bool hpcc = false,
                 SinkWindow window = SinkWindow())
{
    StartFreshRun();
    IncastRun run;
    RdmaHelper rdma;
    if (hpcc)
    {
        rdma.SetSwitchAttribute("Telemetry", BooleanValue(true));
        rdma.SetQueuePairAttribute("BaseRtt", TimeValue(MicroSeconds(13)));
        rdma.SetCongestionControl("ns3::HpccCongestionControl");
    }
    else
    {
        RdmaCcHelper::ApplyDcqcnPaperPreset(rdma);
    }
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
    rdma.SetSwitchAttribute("EcnKmin", UintegerValue(5000));
    rdma.SetSwitchAttribute("EcnKmax", UintegerValue(20000));
    rdma.SetSwitchAttribute("EcnPmax", DoubleValue(0.2));
    rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.Install(rdma);
    // ECN marking draws random numbers: fixed streams, the same in both runs.
    rdma.AssignStreams(ft.GetSwitches(), 100);

    std::vector<HostRecorder> recorders(ft.GetNHosts()); // sized once: sinks keep pointers
    NetDeviceContainer hostLinks = ft.GetDevices(FatTreeHelper::HOST_EDGE);
    for (uint32_t i = 0; i < ft.GetNHosts(); ++i)
    {
        recorders[i].run = &run;
        recorders[i].host = i;
        run.hostAddress[i] = ft.GetHostAddress(i);
        run.edgeOfHost[i] = ft.GetEdgeOfHost(i);
        run.podOfHost[i] = ft.GetPodOfHost(i);
        Ptr<NetDevice> hostDev = hostLinks.Get(2 * i); // the host's end of its link
        EXPECT_EQ(hostDev->GetNode(), ft.GetHost(i));
        if (recordHosts)
        {
            EXPECT_TRUE(hostDev->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&HostRecorder::OnFrame, &recorders[i])));
        }
    }
    NodeContainer switches = ft.GetSwitches();
    if (sniffSwitches)
    {
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            Ptr<RdmaSwitch> sw = switches.Get(s)->GetObject<RdmaSwitch>();
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                EXPECT_TRUE(sw->GetPort(p)->TraceConnectWithoutContext(
                    "Sniffer",
                    MakeBoundCallback(&CountSniffed, &run.sniffed)));
            }
        }
    }

    std::vector<rdmatest::CompletionLog> logs(INCAST_SENDERS.size());
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
    for (uint32_t f = 0; f < INCAST_SENDERS.size(); ++f)
    {
        Ptr<Node> sender = ft.GetHost(INCAST_SENDERS[f]);
        qps.push_back(rdma.Connect(sender, ft.GetHost(INCAST_RECEIVER)));
        logs[f].Attach(qps.back().first, qps.back().second);
        rdmatest::PostWriteAt(qps.back().first, sender, Seconds(0), INCAST_BYTES, f + 1);
    }
    if (!window.until.IsZero())
    {
        Simulator::Schedule(window.from, &SetWindowSinks, switches, &run, window.trace, true);
        Simulator::Schedule(window.until, &SetWindowSinks, switches, &run, window.trace, false);
    }
    // A bound, far beyond the completion of every flow (the last at 58 us), in case one stalls.
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();

    for (uint32_t i = 0; i < ft.GetNHosts(); ++i)
    {
        run.hostFramesHeadBeside +=
            DynamicCast<RdmaNetDevice>(hostLinks.Get(2 * i))->GetTxFramesWithHeadBeside();
    }
    for (uint32_t f = 0; f < INCAST_SENDERS.size(); ++f)
    {
        FlowResult r;
        if (logs[f].sends.size() == 1)
        {
            r.postStep = logs[f].sends[0].postTime.GetTimeStep();
            r.completeStep = logs[f].sends[0].completionTime.GetTimeStep();
        }
        if (logs[f].receives.size() == 1)
        {
            r.rxCompleteStep = logs[f].receives[0].completionTime.GetTimeStep();
        }
        r.bytesReceived = qps[f].second->GetBytesReceived();
        r.cnpsReceived = qps[f].first->GetCnpsReceived();
        r.retransmissions = qps[f].first->GetRetransmissions();
        run.flows.push_back(r);
    }
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<RdmaSwitch> sw = switches.Get(s)->GetObject<RdmaSwitch>();
        run.switchCounters.push_back(sw->GetForwardedPackets());
        run.switchCounters.push_back(sw->GetEcnMarks());
        run.switchCounters.push_back(sw->GetTotalDrops());
        run.switchCounters.push_back(sw->GetPfcPausesSent());
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            run.switchFramesHeadBeside += sw->GetPort(p)->GetTxFramesWithHeadBeside();
        }
        if (switches.Get(s) != ft.GetEdgeSwitches().Get(ft.GetEdgeOfHost(INCAST_RECEIVER)))
        {
            run.upstreamMarks += sw->GetEcnMarks();
        }
    }
    Simulator::Destroy();
    return run;
}

/**
 * \param a frames of one run
 * \param b frames of the other
 * \return "" if equal, else where they first differ (the vectors are too large to print)
 */
std::string
FirstDifference(const std::vector<ReceivedFrame>& a, const std::vector<ReceivedFrame>& b)
{
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    {
        if (a[i] == b[i])
        {
            continue;
        }
        std::ostringstream s;
        s << "frame " << i << ": host " << a[i].host << " vs " << b[i].host << ", time step "
          << a[i].timeStep << " vs " << b[i].timeStep << ", " << a[i].bytes.size() << " vs "
          << b[i].bytes.size() << " bytes";
        for (std::size_t k = 0; k < a[i].bytes.size() && k < b[i].bytes.size(); ++k)
        {
            if (a[i].bytes[k] != b[i].bytes[k])
            {
                s << ", first different byte at offset " << k << ": " << unsigned(a[i].bytes[k])
                  << " vs " << unsigned(b[i].bytes[k]);
                break;
            }
        }
        return s.str();
    }
    if (a.size() != b.size())
    {
        return "frame counts differ: " + std::to_string(a.size()) + " vs " +
               std::to_string(b.size());
    }
    return "";
}

} // namespace

/**
 * A frame's head travels beside its packet only with ns-3's packet metadata off (with it
 * on, as in the test process, every header is written whole, so that metadata and printing
 * describe every hop). Each test therefore also runs in a child process with it off.
 * \param test the test's name in RdmaFrameEquivalence
 * \return true in the child (metadata off)
 */
bool
AlsoRunWithMetadataOff(const std::string& test)
{
    if (std::getenv(rdmatest::PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        rdmatest::RunInChildWithMetadataOff("RdmaFrameEquivalence." + test);
        return false;
    }
    return true;
}

TEST(RdmaFrameEquivalence, HostsReceiveTheSameBytesWithAndWithoutSwitchSinks)
{
    const bool metadataOff =
        AlsoRunWithMetadataOff("HostsReceiveTheSameBytesWithAndWithoutSwitchSinks");
    SeedAndRunGuard seed;
    // Run A: only the hosts observe (their PhyRxEnd); no switch port, channel or switch trace
    // has a sink, so switch-to-switch frames may take the unwritten path. Run B: every switch
    // port also has a Sniffer sink, which makes every frame observable, hence fully written.
    const IncastRun a = RunFatTreeIncast(false);
    const IncastRun b = RunFatTreeIncast(true);
    // Run C: nothing observes any frame, so with metadata off even the frames to the hosts
    // leave their switch unwritten and the NICs read their first IPv4 bytes (TTL, ECN) from
    // beside the packet: what the NICs did (the flows' completions, CNPs, retransmissions) and
    // the switches' counters must still be run B's.
    const IncastRun c = RunFatTreeIncast(false, false);
    EXPECT_TRUE(c.frames.empty());
    EXPECT_TRUE(c.flows == b.flows) << "flow completions differ without any observer";
    EXPECT_EQ(c.switchCounters, b.switchCounters);
    // A port's frames leave unwritten whatever the receiving port has (it writes them if it
    // has an observer), so the switches sent as many so in run A as in run C.
    EXPECT_EQ(c.switchFramesHeadBeside, a.switchFramesHeadBeside);
    EXPECT_EQ(a.sniffed, 0u);
    EXPECT_GT(b.sniffed, 0u) << "run B must have observed the switch ports' frames";
    if (metadataOff)
    {
        // Run A: every frame left unwritten (a host's port, whose PhyRxEnd has a sink, writes
        // its frames at arrival). Run B: the sinks on the switch ports make their frames
        // written; the hosts' still leave unwritten and their edge switch's port writes them
        // at arrival (it has a sink).
        EXPECT_GT(a.switchFramesHeadBeside, 0u);
        EXPECT_GT(a.hostFramesHeadBeside, 0u);
        EXPECT_EQ(b.switchFramesHeadBeside, 0u);
        EXPECT_EQ(b.hostFramesHeadBeside, a.hostFramesHeadBeside);
    }
    else
    {
        EXPECT_EQ(a.switchFramesHeadBeside + a.hostFramesHeadBeside, 0u);
    }

    // Identical, byte for byte and to the picosecond: no tolerance, the runs are the same
    // deterministic simulation.
    ASSERT_GT(a.frames.size(), INCAST_SENDERS.size() * INCAST_BYTES / 1000);
    EXPECT_EQ(FirstDifference(a.frames, b.frames), "");
    EXPECT_TRUE(a.flows == b.flows) << "flow completions differ";
    EXPECT_EQ(a.switchCounters, b.switchCounters);

    // Every flow completed with all its bytes (so the comparison above covers whole flows).
    for (uint32_t f = 0; f < a.flows.size(); ++f)
    {
        EXPECT_GE(a.flows[f].completeStep, 0) << "flow " << f << " did not complete";
        EXPECT_GE(a.flows[f].rxCompleteStep, 0) << "flow " << f << " did not complete";
        EXPECT_EQ(a.flows[f].bytesReceived, INCAST_BYTES) << "flow " << f;
    }

    // What the hosts received (run A; run B is equal): every IPv4 frame has a valid header
    // whose TTL is 64 minus the switches between its source and destination host in the
    // fat-tree (same edge switch: 1; same pod: 3; other pod: 5); some are CE-marked.
    std::map<uint32_t, uint32_t> hostOfAddress;
    for (const auto& [i, address] : a.hostAddress)
    {
        hostOfAddress[address.Get()] = i;
    }
    auto switchesBetween = [&a](uint32_t x, uint32_t y) -> uint32_t {
        if (a.edgeOfHost.at(x) == a.edgeOfHost.at(y))
        {
            return 1;
        }
        return a.podOfHost.at(x) == a.podOfHost.at(y) ? 3 : 5;
    };
    uint64_t ipv4Frames = 0;
    uint64_t ceFrames = 0;
    uint32_t maxSwitchesCrossed = 0;
    BadPackets bad;
    for (std::size_t i = 0; i < a.frames.size(); ++i)
    {
        const ReceivedFrame& f = a.frames[i];
        ASSERT_GE(f.bytes.size(), ETH_BYTES);
        if (ReadU16(f.bytes.data() + 12) != ETHERTYPE_IPV4)
        {
            continue; // PFC frames from the edge switch (compared above as bytes only)
        }
        ASSERT_GE(f.bytes.size(), ETH_BYTES + IPV4_BYTES);
        const uint8_t* ip = f.bytes.data() + ETH_BYTES;
        ++ipv4Frames;
        std::ostringstream where;
        where << "frame " << i << " to host " << f.host << " at time step " << f.timeStep;
        const auto src = hostOfAddress.find(ReadU32(ip + 12));
        if (src == hostOfAddress.end() || ReadU32(ip + 16) != a.hostAddress.at(f.host).Get())
        {
            bad.Add(where.str(), "addresses are not those of a host and of the receiving host");
            continue;
        }
        where << " from host " << src->second;
        const uint32_t crossed = switchesBetween(src->second, f.host);
        bad.Add(where.str(),
                HeadProblem(ip,
                            static_cast<uint32_t>(f.bytes.size() - ETH_BYTES),
                            INITIAL_TTL - crossed));
        maxSwitchesCrossed = std::max(maxSwitchesCrossed, INITIAL_TTL - uint32_t(ip[8]));
        ceFrames += (ip[1] & 0x03) == ECN_CE ? 1 : 0;
    }
    EXPECT_EQ(bad.count, 0u) << "bad IPv4 headers at the hosts; the first: " << bad.first;
    EXPECT_GE(ipv4Frames, INCAST_SENDERS.size() * INCAST_BYTES / 1000);
    // Frames from pods 1-3 crossed 5 switches (TTL 59), 4 switch-to-switch links.
    EXPECT_EQ(maxSwitchesCrossed, 5u);
    // 9:1 incast with RED from 5 kB: marks (and DCQCN's reaction to them: CNPs).
    EXPECT_GT(ceFrames, 0u);
    // Pod 0's aggregation switches are congested too (6 flows from other pods share their 2
    // links down to the receiver's edge switch): marked packets then cross one more
    // switch-to-switch link, where a mark must survive whichever path the frame takes.
    EXPECT_GT(a.upstreamMarks, 0u);
    uint64_t cnps = 0;
    for (const FlowResult& r : a.flows)
    {
        cnps += r.cnpsReceived;
    }
    EXPECT_GT(cnps, 0u);
    std::cout << "[ fat-tree incast ] " << a.frames.size() << " frames at the hosts, " << ceFrames
              << " CE-marked (" << a.upstreamMarks << " marked before the last switch), " << cnps
              << " CNPs; " << b.sniffed << " frames sniffed in run B\n";
}

/**
 * A sink connected in the middle of a run sees every frame from then on, and once it is
 * disconnected the ports go back to the head beside the packet (the devices keep "has a sink"
 * as a bit per trace, RdmaWatchedTrace, updated at every connection). PhyTxBegin on every
 * switch port from 20 to 35 us: exactly the frames the ports started in between, and those
 * frames left whole. PhyRxEnd: the frames the ports received in between (arrivals are not
 * counted separately: hundreds, none outside the window), and the senders' frames
 * left with their head beside as without it (the receiver writes them). The hosts receive
 * the same frames at the same times in every run.
 */
TEST(RdmaFrameEquivalence, SinksConnectedMidRunSeeEveryFrameFromThen)
{
    const bool metadataOff = AlsoRunWithMetadataOff("SinksConnectedMidRunSeeEveryFrameFromThen");
    SeedAndRunGuard seed;
    const IncastRun none = RunFatTreeIncast(false);
    for (const std::string trace : {"PhyTxBegin", "PhyRxEnd"})
    {
        SCOPED_TRACE(trace);
        const SinkWindow window{MicroSeconds(20), MicroSeconds(35), trace};
        const IncastRun mid = RunFatTreeIncast(false, true, false, window);
        EXPECT_EQ(FirstDifference(none.frames, mid.frames), "");
        EXPECT_TRUE(none.flows == mid.flows) << "flow completions differ";
        EXPECT_EQ(none.switchCounters, mid.switchCounters);
        // The incast runs until about 58 us: the switch ports are busy throughout the window.
        EXPECT_GT(mid.windowTxFrames, 1000u);
        // Frames started (PhyTxBegin): above; frames received (PhyRxEnd): 876 of them.
        ASSERT_GT(mid.windowSinkSteps.size(), 500u);
        EXPECT_GE(*std::min_element(mid.windowSinkSteps.begin(), mid.windowSinkSteps.end()),
                  window.from.GetTimeStep());
        EXPECT_LE(*std::max_element(mid.windowSinkSteps.begin(), mid.windowSinkSteps.end()),
                  window.until.GetTimeStep());
        const bool transmit = trace == "PhyTxBegin";
        if (transmit)
        {
            EXPECT_EQ(mid.windowSinkSteps.size(), mid.windowTxFrames)
                << "a frame started while PhyTxBegin had a sink did not reach it";
        }
        if (!metadataOff)
        {
            EXPECT_EQ(mid.switchFramesHeadBeside, 0u);
        }
        else if (transmit)
        {
            // Outside the window the ports sent with the head beside, inside they could not.
            EXPECT_GT(mid.switchFramesHeadBeside, 0u);
            EXPECT_LE(mid.switchFramesHeadBeside + mid.windowTxFrames, none.switchFramesHeadBeside);
        }
        else
        {
            EXPECT_EQ(mid.switchFramesHeadBeside, none.switchFramesHeadBeside);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A chain: host 0 - switch 0 - switch 1 - switch 2 - host 1

namespace
{

/**
 * Two hosts joined by three switches in a row, 1 us links; link l (0: host 0 - switch 0,
 * 1: switch 0 - switch 1, 2: switch 1 - switch 2, 3: switch 2 - host 1) at rates[l]. Switch s
 * is the (s + 1)-th switch from host 0 and the (3 - s)-th from host 1. Configure `rdma`, then
 * Install.
 */
struct Chain
{
    NodeContainer hosts;
    NodeContainer switches;
    RdmaHelper rdma;

    explicit Chain(const std::array<std::string, 4>& rates)
    {
        hosts.Create(2);
        switches.Create(3);
        const std::array<Ptr<Node>, 5> path{hosts.Get(0),
                                            switches.Get(0),
                                            switches.Get(1),
                                            switches.Get(2),
                                            hosts.Get(1)};
        for (uint32_t l = 0; l < 4; ++l)
        {
            RdmaLinkHelper link;
            link.SetDeviceAttribute("DataRate", StringValue(rates[l]));
            link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            link.Install(path[l], path[l + 1]);
        }
    }

    /// Install NICs and switches with `rdma`, fix the switches' random streams, route.
    void Install()
    {
        rdma.InstallHosts(hosts);
        rdma.InstallSwitches(switches);
        rdma.AssignStreams(switches, 0);
        RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, switches));
    }

    /// \return switch s (0, 1, 2 from host 0's side)
    Ptr<RdmaSwitch> Switch(uint32_t s) const
    {
        return switches.Get(s)->GetObject<RdmaSwitch>();
    }

    /// \return the address of host h (0 or 1)
    Ipv4Address HostAddress(uint32_t h) const
    {
        return RdmaHelper::GetNic(hosts.Get(h))->GetAddress();
    }
};

/// A packet a switch dropped, as its Drop trace showed it.
struct DroppedPacket
{
    std::string reason;
    uint32_t size{0};
    std::array<uint8_t, IPV4_BYTES> head{};
};

void
RecordDrop(std::vector<DroppedPacket>* drops,
           Ptr<const Packet> packet,
           const char* reason,
           uint32_t,
           uint8_t)
{
    DroppedPacket d;
    d.reason = reason;
    d.size = packet->GetSize();
    EXPECT_EQ(packet->CopyData(d.head.data(), IPV4_BYTES), IPV4_BYTES);
    drops->push_back(d);
}

/**
 * An egress stage that records the IPv4 header of every packet it is called for, at enqueue
 * and at dequeue, and changes nothing (PASS). A stage other than the RED marker can read the
 * packet, so the switch must show it the header the packet arrived with.
 */
class HeadRecorder : public RdmaEgressProcessor
{
  public:
    /// One call.
    struct Seen
    {
        Hook hook;
        uint32_t size;
        std::array<uint8_t, IPV4_BYTES> head; //!< bytes 0-11 are what a switch rewrites
    };

    std::vector<Seen> seen;

    uint8_t GetHooks() const override
    {
        return HOOK_ENQUEUE | HOOK_DEQUEUE;
    }

    bool UsesPortState() const override
    {
        return false;
    }

  private:
    void Record(Hook hook, const Ptr<Packet>& packet)
    {
        Seen s{hook, packet->GetSize(), {}};
        EXPECT_EQ(packet->CopyData(s.head.data(), IPV4_BYTES), IPV4_BYTES);
        seen.push_back(s);
    }

    Verdict DoEnqueue(const Ptr<Packet>& packet, const RdmaEgressContext&) override
    {
        Record(HOOK_ENQUEUE, packet);
        return PASS;
    }

    Verdict DoDequeue(const Ptr<Packet>& packet, const RdmaEgressContext&) override
    {
        Record(HOOK_DEQUEUE, packet);
        return PASS;
    }
};

} // namespace

/**
 * \param sw a switch
 * \return the frames its ports sent with their head beside the packet
 */
uint64_t
FramesHeadBeside(const Ptr<RdmaSwitch>& sw)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        n += sw->GetPort(p)->GetTxFramesWithHeadBeside();
    }
    return n;
}

TEST(RdmaFrameEquivalence, SwitchDropTraceSeesTheArrivingHead)
{
    const bool metadataOff = AlsoRunWithMetadataOff("SwitchDropTraceSeesTheArrivingHead");
    SeedAndRunGuard seed;
    StartFreshRun();
    // Host 0 WRITEs 200 kB at 100 Gb/s; the link from switch 1 to switch 2 runs at 10 Gb/s.
    // Every class lossy (no PFC) with 20 kB egress queues: switch 1, the middle of the path,
    // drops at its egress queue (EGRESS_QUEUE_LIMIT) once 20 kB wait; switch 0 and switch 2
    // never queue. ECN off and only switch 1's Drop trace connected: the frames from switch 0
    // to switch 1 have no observer on their link, and no CE mark writes the header.
    Chain chain({"100Gbps", "100Gbps", "10Gbps", "100Gbps"});
    chain.rdma.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    chain.rdma.SetMmuAttribute("MaxEgressQueueBytes", UintegerValue(20000));
    chain.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    chain.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    chain.Install();
    std::vector<DroppedPacket> drops;
    ASSERT_TRUE(
        chain.Switch(1)->TraceConnectWithoutContext("Drop",
                                                    MakeBoundCallback(&RecordDrop, &drops)));
    auto [qp, peer] = chain.rdma.Connect(chain.hosts.Get(0), chain.hosts.Get(1));
    rdmatest::PostWriteAt(qp, chain.hosts.Get(0), Seconds(0), 200000);
    // A bound: the 20 kB queue fills at 90 Gb/s net in under 2 us after the first packet
    // reaches switch 1 (about 2 us in); go-back-N's resends overflow it again.
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();

    EXPECT_EQ(chain.Switch(0)->GetTotalDrops(), 0u);
    EXPECT_EQ(chain.Switch(2)->GetTotalDrops(), 0u);
    EXPECT_EQ(chain.Switch(1)->GetTotalDrops(), drops.size());
    ASSERT_GT(drops.size(), 0u) << "switch 1 must drop";
    const uint32_t src = chain.HostAddress(0).Get();
    const uint32_t dst = chain.HostAddress(1).Get();
    BadPackets bad;
    for (std::size_t i = 0; i < drops.size(); ++i)
    {
        const DroppedPacket& d = drops[i];
        const uint8_t* ip = d.head.data();
        // Switch 0 decremented the TTL; switch 1 dropped the packet before its own decrement.
        // The total length equal to the packet's size also says the trace got the IPv4
        // packet itself (no Ethernet header before it).
        std::string problem = HeadProblem(ip, d.size, INITIAL_TTL - 1);
        if (ReadU32(ip + 12) != src || ReadU32(ip + 16) != dst)
        {
            problem += "addresses are not host 0 -> host 1; ";
        }
        if (d.reason != "EGRESS_QUEUE_LIMIT")
        {
            problem += "reason " + d.reason + " (expected EGRESS_QUEUE_LIMIT); ";
        }
        bad.Add("drop " + std::to_string(i), problem);
    }
    EXPECT_EQ(bad.count, 0u) << "bad dropped packets; the first: " << bad.first;
    std::cout << "[ chain drops ] switch 1 dropped " << drops.size() << " packets\n";
    // Switch 0's frames to switch 1 had no observer on their link: with metadata off they
    // left with their head beside the packet, and switch 1 wrote it for its Drop trace.
    EXPECT_EQ(FramesHeadBeside(chain.Switch(0)) > 0, metadataOff);
    Simulator::Destroy();
}

namespace
{

/// \return the port of \p sw whose cable leads to \p peer
Ptr<RdmaNetDevice>
PortToward(const Ptr<RdmaSwitch>& sw, const Ptr<Node>& peer)
{
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        Ptr<RdmaNetDevice> port = sw->GetPort(p);
        Ptr<RdmaChannel> cable = DynamicCast<RdmaChannel>(port->GetChannel());
        if (cable->GetPeer(port)->GetNode() == peer)
        {
            return port;
        }
    }
    return nullptr;
}

/// A promiscuous receive callback that counts the frames.
bool
CountPromiscuous(uint64_t* count,
                 Ptr<NetDevice>,
                 Ptr<const Packet>,
                 uint16_t,
                 const Address&,
                 const Address&,
                 NetDevice::PacketType)
{
    ++*count;
    return true;
}

} // namespace

/**
 * A port option that must see or shape every frame keeps its link's frames whole, set after
 * the port was built (the device keeps such options as bits of one word, RdmaNetDevice's
 * m_watched, set by their setters): link-level retry or a scale-up framing on both ends of
 * the link from switch 0 to switch 1 (the port sends no frame with its head beside, or the
 * retry would not number it and the framing not charge it), a promiscuous receive callback
 * on switch 1's port (it sees every frame switch 0 sent). The WRITE completes in each case,
 * and the link from switch 1 to switch 2 still sends with the head beside (metadata off).
 */
TEST(RdmaFrameEquivalence, PortOptionsKeepTheirLinksFramesWhole)
{
    const bool metadataOff = AlsoRunWithMetadataOff("PortOptionsKeepTheirLinksFramesWhole");
    SeedAndRunGuard seed;
    for (const std::string option : {"LinkRetry", "LinkFraming", "PromiscuousCallback"})
    {
        SCOPED_TRACE(option);
        StartFreshRun();
        Chain chain({"100Gbps", "100Gbps", "100Gbps", "100Gbps"});
        chain.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
        chain.Install();
        Ptr<RdmaNetDevice> a = PortToward(chain.Switch(0), chain.switches.Get(1));
        Ptr<RdmaNetDevice> b = PortToward(chain.Switch(1), chain.switches.Get(0));
        Ptr<RdmaNetDevice> beyond = PortToward(chain.Switch(1), chain.switches.Get(2));
        ASSERT_TRUE(a && b && beyond);
        uint64_t promiscuous = 0;
        if (option == "LinkRetry")
        {
            a->SetLinkRetry(CreateObject<RdmaLinkRetry>());
            b->SetLinkRetry(CreateObject<RdmaLinkRetry>());
        }
        else if (option == "LinkFraming")
        {
            a->SetLinkFraming(CreateObject<RdmaUalinkFlitFraming>());
            b->SetLinkFraming(CreateObject<RdmaUalinkFlitFraming>());
        }
        else
        {
            b->SetPromiscReceiveCallback(MakeBoundCallback(&CountPromiscuous, &promiscuous));
        }
        auto [qp, peer] = chain.rdma.Connect(chain.hosts.Get(0), chain.hosts.Get(1));
        rdmatest::PostWriteAt(qp, chain.hosts.Get(0), Seconds(0), 100000);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        EXPECT_EQ(peer->GetBytesReceived(), 100000u);
        if (option == "PromiscuousCallback")
        {
            ASSERT_GE(a->GetTxFrames(), 100u); // the 100 data packets
            EXPECT_EQ(promiscuous, a->GetTxFrames());
        }
        else
        {
            EXPECT_EQ(a->GetTxFramesWithHeadBeside(), 0u);
            EXPECT_EQ(b->GetTxFramesWithHeadBeside(), 0u);
        }
        EXPECT_EQ(beyond->GetTxFramesWithHeadBeside() > 0, metadataOff);
        Simulator::Destroy();
    }
}

TEST(RdmaFrameEquivalence, EgressProcessorSeesTheArrivingHead)
{
    const bool metadataOff = AlsoRunWithMetadataOff("EgressProcessorSeesTheArrivingHead");
    SeedAndRunGuard seed;
    StartFreshRun();
    // Host 0 WRITEs 20 kB to host 1 over the chain at 100 Gb/s; the ACKs come back. Recording
    // stages on switches 1 and 2, none on switch 0: data reaches switch 1 from a switch with
    // no observer (TTL 63), switch 2 from one (TTL 62); ACKs reach switch 2 from host 1 (TTL
    // 64) and switch 1 from switch 2 (TTL 63). ECN off: no RED stage, no CE mark. A stage is
    // called before the egress port decrements the TTL (RdmaEgressProcessor's documentation:
    // the port rewrites it when the frame is built), so at enqueue and at dequeue it sees the
    // header the packet arrived with.
    Chain chain({"100Gbps", "100Gbps", "100Gbps", "100Gbps"});
    chain.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    chain.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    chain.Install();
    std::array<Ptr<HeadRecorder>, 3> stages{nullptr,
                                            CreateObject<HeadRecorder>(),
                                            CreateObject<HeadRecorder>()};
    chain.Switch(1)->AddEgressProcessor(stages[1]);
    chain.Switch(2)->AddEgressProcessor(stages[2]);
    auto [qp, peer] = chain.rdma.Connect(chain.hosts.Get(0), chain.hosts.Get(1));
    rdmatest::CompletionLog log;
    log.Attach(qp, peer);
    rdmatest::PostWriteAt(qp, chain.hosts.Get(0), Seconds(0), 20000);
    Simulator::Stop(MicroSeconds(100)); // completes in about 10 us
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 1u) << "the WRITE must complete";

    const uint32_t host0 = chain.HostAddress(0).Get();
    const uint32_t host1 = chain.HostAddress(1).Get();
    for (uint32_t s = 1; s <= 2; ++s)
    {
        // Switches crossed before switch s: s from host 0, 2 - s from host 1.
        std::map<std::pair<uint32_t, int>, uint32_t> calls; // (source, hook) -> count
        BadPackets bad;
        for (std::size_t i = 0; i < stages[s]->seen.size(); ++i)
        {
            const HeadRecorder::Seen& seen = stages[s]->seen[i];
            const uint8_t* ip = seen.head.data();
            const uint32_t src = ReadU32(ip + 12);
            const std::string where =
                "switch " + std::to_string(s) + " call " + std::to_string(i) +
                (seen.hook == RdmaEgressProcessor::HOOK_ENQUEUE ? " (enqueue)" : " (dequeue)");
            if (!((src == host0 && ReadU32(ip + 16) == host1) ||
                  (src == host1 && ReadU32(ip + 16) == host0)))
            {
                bad.Add(where, "addresses are not host 0 <-> host 1");
                continue;
            }
            const uint32_t before = src == host0 ? s : 2 - s;
            ++calls[std::make_pair(src, int(seen.hook))];
            bad.Add(where + (src == host0 ? " data" : " ACK"),
                    HeadProblem(ip, seen.size, INITIAL_TTL - before));
        }
        EXPECT_EQ(bad.count, 0u) << "bad headers seen by a stage; the first: " << bad.first;
        // Data (20 packets of 1000 bytes) and ACKs, each seen at enqueue and at dequeue.
        auto count = [&calls](uint32_t src, RdmaEgressProcessor::Hook hook) {
            return calls[std::make_pair(src, int(hook))];
        };
        EXPECT_GE(count(host0, RdmaEgressProcessor::HOOK_ENQUEUE), 20u) << "switch " << s;
        EXPECT_GE(count(host1, RdmaEgressProcessor::HOOK_ENQUEUE), 1u) << "switch " << s;
        EXPECT_EQ(count(host0, RdmaEgressProcessor::HOOK_ENQUEUE),
                  count(host0, RdmaEgressProcessor::HOOK_DEQUEUE))
            << "switch " << s;
        EXPECT_EQ(count(host1, RdmaEgressProcessor::HOOK_ENQUEUE),
                  count(host1, RdmaEgressProcessor::HOOK_DEQUEUE))
            << "switch " << s;
    }
    // Switch 0's data frames to switch 1 had no observer on their link: with metadata off
    // they left with their head beside the packet, and switch 1 wrote it for its stage.
    EXPECT_EQ(FramesHeadBeside(chain.Switch(0)) > 0, metadataOff);
    Simulator::Destroy();
}

TEST(RdmaFrameEquivalence, NicDiscardTraceSeesTheArrivingHead)
{
    const bool metadataOff = AlsoRunWithMetadataOff("NicDiscardTraceSeesTheArrivingHead");
    SeedAndRunGuard seed;
    StartFreshRun();
    // Host 0 sends host 1 two RoCEv2 packets its NIC cannot use (a WRITE to a QP that does
    // not exist, an opcode that does not exist) across the three switches. Nothing observes
    // host 1's port: with metadata off the last switch sends them with their head beside the
    // packet, and the NIC writes it before its RxDiscard trace shows the packet (TTL 61,
    // valid checksum, the whole IPv4 packet).
    Chain chain({"100Gbps", "100Gbps", "100Gbps", "100Gbps"});
    chain.Install();
    const uint32_t qpn =
        chain.rdma.Connect(chain.hosts.Get(0), chain.hosts.Get(1)).second->GetQpn();
    Ptr<RdmaNic> receiver = RdmaHelper::GetNic(chain.hosts.Get(1));
    std::vector<DroppedPacket> discards;
    receiver->TraceConnectWithoutContext("RxDiscard",
                                         MakeCallback(+[](std::vector<DroppedPacket>* out,
                                                          Ptr<const Packet> p,
                                                          const std::string& reason) {
                                             DroppedPacket d;
                                             d.reason = reason;
                                             d.size = p->GetSize();
                                             EXPECT_EQ(p->CopyData(d.head.data(), IPV4_BYTES),
                                                       IPV4_BYTES);
                                             out->push_back(d);
                                         }).Bind(&discards));
    const uint32_t payload = 100;
    const uint32_t ipv4Bytes = IPV4_BYTES + 8 + RdmaBthHeader::SIZE + payload;
    Ptr<RdmaNetDevice> sender = RdmaHelper::GetNic(chain.hosts.Get(0))->GetDevice();
    for (uint8_t opcode : {uint8_t(RC_WRITE_ONLY), uint8_t(0x1f)}) // a WRITE; no such opcode
    {
        // No QP qpn + 1000.
        Ptr<Packet> p = rdmatest::MakeRoceV2Packet(chain.HostAddress(0),
                                                   chain.HostAddress(1),
                                                   opcode,
                                                   opcode == RC_WRITE_ONLY ? qpn + 1000 : qpn,
                                                   payload);
        Simulator::Schedule(MicroSeconds(opcode), [sender, p]() { sender->Enqueue(p, 0); });
    }
    Simulator::Run();
    ASSERT_EQ(discards.size(), 2u);
    EXPECT_EQ(discards[0].reason, "no such destination QP");
    EXPECT_EQ(discards[1].reason, "unsupported BTH opcode");
    for (const DroppedPacket& d : discards)
    {
        EXPECT_EQ(d.size, ipv4Bytes) << d.reason;
        EXPECT_EQ(HeadProblem(d.head.data(), d.size, INITIAL_TTL - 3), "") << d.reason;
        EXPECT_EQ(ReadU32(d.head.data() + 12), chain.HostAddress(0).Get()) << d.reason;
        EXPECT_EQ(ReadU32(d.head.data() + 16), chain.HostAddress(1).Get()) << d.reason;
    }
    // Switch 2's frames to host 1 had no observer on their link.
    EXPECT_EQ(FramesHeadBeside(chain.Switch(2)) > 0, metadataOff);
    Simulator::Destroy();
}

TEST(RdmaFrameEquivalence, HpccTelemetryIsTheSameWithAndWithoutSwitchSinks)
{
    // HPCC: the telemetry stage (not the RED marker) reads and writes every packet at every
    // switch, so the arrival head is written before it at each hop; the flows (completion
    // times, bytes) and the switches' counters of a run without any sink must be those of a
    // run with a Sniffer sink on every switch port.
    const bool metadataOff =
        AlsoRunWithMetadataOff("HpccTelemetryIsTheSameWithAndWithoutSwitchSinks");
    SeedAndRunGuard seed;
    const IncastRun sniffed = RunFatTreeIncast(true, false, true);
    const IncastRun unobserved = RunFatTreeIncast(false, false, true);
    ASSERT_EQ(unobserved.flows.size(), INCAST_SENDERS.size());
    for (uint32_t f = 0; f < unobserved.flows.size(); ++f)
    {
        EXPECT_EQ(unobserved.flows[f].bytesReceived, INCAST_BYTES) << "flow " << f;
    }
    EXPECT_TRUE(unobserved.flows == sniffed.flows) << "flow completions differ";
    EXPECT_EQ(unobserved.switchCounters, sniffed.switchCounters);
    EXPECT_EQ(unobserved.switchFramesHeadBeside > 0, metadataOff);
    EXPECT_EQ(sniffed.switchFramesHeadBeside, 0u);
}

// The arrival prefetches a frame's packet only where ReceiveWithHead reads it: not at a
// switch's port given the route bytes beside the packet (its size travels in the frame's
// slot, its reference moves to the egress queue), but at a host's port, for a shorter head,
// and at a switch's port once a sink observes its frames (they are written whole first).
TEST(RdmaFrameEquivalence, ArrivalReadsThePacketOnlyWhereSomethingNeedsIt)
{
    SeedAndRunGuard seed;
    StartFreshRun();
    Chain chain({"100Gbps", "100Gbps", "100Gbps", "100Gbps"});
    chain.Install();
    const uint32_t routeHead = RdmaChannel::MAX_HEAD_BYTES;
    const uint32_t ipv4Head =
        RdmaNetDevice::ETHERNET_HEADER_BYTES + RdmaPortHandler::IPV4_HEAD_BESIDE_BYTES;
    Ptr<RdmaNetDevice> switchPort = PortToward(chain.Switch(1), chain.switches.Get(0));
    Ptr<RdmaNetDevice> hostPort = RdmaHelper::GetNic(chain.hosts.Get(1))->GetDevice();
    ASSERT_TRUE(switchPort && hostPort);
    EXPECT_FALSE(switchPort->ReadsPacketAtArrival(routeHead));
    EXPECT_TRUE(switchPort->ReadsPacketAtArrival(ipv4Head));
    EXPECT_TRUE(switchPort->ReadsPacketAtArrival(RdmaNetDevice::ETHERNET_HEADER_BYTES));
    EXPECT_TRUE(hostPort->ReadsPacketAtArrival(routeHead));
    uint64_t received = 0;
    ASSERT_TRUE(
        switchPort->TraceConnectWithoutContext("MacRx",
                                               MakeBoundCallback(&CountSniffed, &received)));
    EXPECT_TRUE(switchPort->ReadsPacketAtArrival(routeHead));
    Simulator::Destroy();
}
