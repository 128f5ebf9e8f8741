/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RDMA READ (IBTA vol. 1 §9.4.3, §9.5, §9.7.5; issue 17): exact latency of a one-packet
// READ, goodput of a large READ against the reverse WRITE, the initiator depth against
// Little's law, recovery of lost responses by re-requests, a lossless PFC incast of READ
// responses, and the errors for bad READ settings.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Host 1 (requester) reads from host 0 (responder) through one switch.
struct ReadPair
{
    Star star;
    Ptr<RdmaQueuePair> requester;
    Ptr<RdmaQueuePair> responder;
    CompletionLog log;

    ReadPair(const std::string& rate, Time delay)
        : star(2, rate, delay)
    {
    }

    void Connect()
    {
        star.Install();
        std::tie(requester, responder) = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        log.Attach(requester, responder);
    }
};

/// Post a READ of the given size at time t in the requester node's context.
void
PostReadAt(Ptr<RdmaQueuePair> qp, Ptr<Node> node, Time t, uint64_t bytes, uint64_t wrId = 0)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::READ;
    wr.wrId = wrId;
    wr.length = bytes;
    wr.remoteAddress = 0x10000;
    wr.rkey = 0x1234;
    wr.localAddress = 0x2000;
    Simulator::ScheduleWithContext(node->GetId(), t, &RdmaQueuePair::PostSend, qp, wr);
}

/// Wire bytes of a frame of frameBytes (Ethernet header to ICRC): FCS, preamble and SFD,
/// inter-frame gap, as RdmaNetDevice charges them (derived here independently).
constexpr uint64_t
Wire(uint64_t frameBytes)
{
    return frameBytes + 4 + 8 + 12;
}

/// READ Request frame: Ethernet 14, IPv4 20, UDP 8, BTH 12, RETH 16, ICRC 4.
constexpr uint64_t READ_REQUEST_FRAME = 14 + 20 + 8 + 12 + 16 + 4;
/// READ Response Only frame besides its payload: Ethernet 14, IPv4 20, UDP 8, BTH 12,
/// AETH 4, ICRC 4.
constexpr uint64_t READ_RESPONSE_ONLY_OVERHEAD = 14 + 20 + 8 + 12 + 4 + 4;

/// Picoseconds to serialize bytes at 100 Gb/s: 80 ps a byte.
constexpr int64_t
Ps100G(uint64_t bytes)
{
    return static_cast<int64_t>(bytes) * 80;
}

} // namespace

TEST(RdmaRead, SinglePacketLatencyIsExact)
{
    // 1000 bytes (a multiple of 4: no pad) read over two 100 Gb/s hops of 1 us each. The
    // request (98 wire bytes: 74 frame + FCS 4 + preamble 8 + IFG 12) is serialized at the
    // requester and again at the switch (store and forward); so is the response (1000 +
    // 62 + 24 = 1086 wire bytes). Each direction crosses two links of 1 us:
    //   latency = 2 x (98 + 1086) x 80 ps + 4 x 1 us = 189.44 ns + 4 us = 4189.44 ns.
    ReadPair f("100Gbps", MicroSeconds(1));
    f.Connect();
    const uint64_t bytes = 1000;
    PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes, 7);
    Simulator::Run();

    ASSERT_EQ(f.log.sends.size(), 1u);
    const RdmaCompletion& c = f.log.sends[0];
    EXPECT_EQ(c.opcode, RdmaWorkRequest::READ);
    EXPECT_EQ(c.wrId, 7u);
    EXPECT_EQ(c.length, bytes);
    const uint64_t requestWire = Wire(READ_REQUEST_FRAME);
    const uint64_t responseWire = Wire(READ_RESPONSE_ONLY_OVERHEAD + bytes);
    EXPECT_EQ(requestWire, 98u);
    EXPECT_EQ(responseWire, 1086u);
    const Time expected =
        PicoSeconds(2 * (Ps100G(requestWire) + Ps100G(responseWire))) + 4 * MicroSeconds(1);
    EXPECT_EQ((c.completionTime - c.postTime).GetPicoSeconds(), expected.GetPicoSeconds());
    EXPECT_EQ(f.requester->GetBytesRead(), bytes);
    EXPECT_EQ(f.requester->GetReadRequestsSent(), 1u);
    EXPECT_EQ(f.requester->GetReadResponsesReceived(), 1u);
    EXPECT_EQ(f.responder->GetReadResponsesSent(), 1u);
    EXPECT_EQ(f.requester->GetReadsOutstanding(), 0u);
    // The responder saw no data message: nothing completes there.
    EXPECT_TRUE(f.log.receives.empty());
    Simulator::Destroy();
}

namespace
{

/// Completion time of one message of bytes: a READ by host 1 of host 0's memory, or a
/// WRITE by host 0 to host 1 (the data crosses the same links in the same direction).
Time
TransferTime(bool read, uint64_t bytes)
{
    ReadPair f("100Gbps", MicroSeconds(1));
    f.star.Install();
    Ptr<RdmaQueuePair> a;
    Ptr<RdmaQueuePair> b;
    if (read)
    {
        std::tie(a, b) = f.star.rdma.Connect(f.star.hosts.Get(1), f.star.hosts.Get(0));
        f.log.Attach(a, b);
        PostReadAt(a, f.star.hosts.Get(1), Seconds(0), bytes);
    }
    else
    {
        std::tie(a, b) = f.star.rdma.Connect(f.star.hosts.Get(0), f.star.hosts.Get(1));
        f.log.Attach(a, b);
        PostWriteAt(a, f.star.hosts.Get(0), Seconds(0), bytes);
    }
    Simulator::Run();
    Time t;
    if (f.log.sends.size() == 1 && f.log.sends[0].length == bytes)
    {
        t = f.log.sends[0].completionTime - f.log.sends[0].postTime;
    }
    Simulator::Destroy();
    return t;
}

} // namespace

TEST(RdmaRead, LargeReadReachesTheReverseWriteGoodput)
{
    // 10 MB in 1024-byte packets: the responses stream at line rate as the WRITE packets
    // do (82 bytes of overhead each; the first and last response carry a 4-byte AETH, the
    // WRITE's first packet a 16-byte RETH). The READ adds the request's trip before the
    // data, the WRITE the last ACK's trip after it: equal within a few ns of 850 us.
    // Tolerance 0.1 %; both within 1 % of the analytical goodput 100 x 1024 / 1106 Gb/s.
    const uint64_t bytes = 10'000'000;
    const Time read = TransferTime(true, bytes);
    const Time write = TransferTime(false, bytes);
    ASSERT_TRUE(read.IsStrictlyPositive());
    ASSERT_TRUE(write.IsStrictlyPositive());
    const double readGoodput = bytes * 8.0 / read.GetSeconds();
    const double writeGoodput = bytes * 8.0 / write.GetSeconds();
    std::cout << "10 MB READ " << read.As(Time::US) << " (" << readGoodput / 1e9
              << " Gb/s), reverse WRITE " << write.As(Time::US) << " (" << writeGoodput / 1e9
              << " Gb/s), analytical " << AnalyticalGoodput(100e9, 1024) / 1e9 << " Gb/s\n";
    EXPECT_NEAR(readGoodput / writeGoodput, 1.0, 0.001)
        << readGoodput / 1e9 << " against " << writeGoodput / 1e9 << " Gb/s";
    EXPECT_NEAR(readGoodput / AnalyticalGoodput(100e9, 1024), 1.0, 0.01);
    EXPECT_LT(readGoodput, AnalyticalGoodput(100e9, 1024));
}

namespace
{

/// Throughput of back-to-back one-packet READs of bytes with the given initiator depth.
double
ReadThroughput(uint32_t depth, uint64_t bytes, uint32_t reads)
{
    ReadPair f("100Gbps", MicroSeconds(1));
    f.star.rdma.SetQueuePairAttribute("InitiatorDepth", UintegerValue(depth));
    f.Connect();
    uint32_t maxOutstanding = 0;
    for (uint32_t i = 0; i < reads; ++i)
    {
        PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes, i);
    }
    f.requester->TraceConnectWithoutContext(
        "Tx",
        MakeBoundCallback(
            +[](uint32_t* most, Ptr<RdmaQueuePair> qp, uint64_t, bool) {
                *most = std::max(*most, qp->GetReadsOutstanding());
            },
            &maxOutstanding,
            f.requester));
    Simulator::Run();
    double throughput = 0;
    if (f.log.sends.size() == reads && reads > depth)
    {
        // Steady state: from the last completion of the first round to the last one.
        const Time from = f.log.sends[depth - 1].completionTime;
        const Time to = f.log.sends.back().completionTime;
        throughput = (reads - depth) * bytes * 8.0 / (to - from).GetSeconds();
    }
    EXPECT_EQ(maxOutstanding, std::min(depth, reads)) << "depth " << depth;
    Simulator::Destroy();
    return throughput;
}

} // namespace

TEST(RdmaRead, InitiatorDepthCapsThroughputByLittlesLaw)
{
    // One-packet READs of 1000 bytes, 20 x depth of them posted at once: the initiator
    // depth d keeps d in flight, each for the unloaded latency L = 4189.44 ns (test
    // SinglePacketLatencyIsExact); a completion sends the next request at once. Little's
    // law: throughput = d x 1000 B / L, while d x 1086 wire bytes take less than L on the
    // bottleneck (the knee: d < 4189.44 / 86.88 = 48). In the first round the d requests
    // leave 7.84 ns apart and their responses queue at the responder (86.88 ns each); from
    // then on the requests are spaced as the responses are and every slot cycles in
    // exactly L: measured from the first round's last completion, the throughput is
    // Little's to rounding. Tolerance 2 %. Without the depth limit all 20 d READs would
    // be outstanding at once, at the line rate.
    const double latency = 4189.44e-9;
    const uint64_t bytes = 1000;
    for (uint32_t depth : {1u, 4u, 16u})
    {
        const double measured = ReadThroughput(depth, bytes, 20 * depth);
        const double little = depth * bytes * 8.0 / latency;
        std::cout << "InitiatorDepth " << depth << ": " << measured / 1e9 << " Gb/s, Little "
                  << little / 1e9 << " Gb/s\n";
        EXPECT_NEAR(measured / little, 1.0, 0.02)
            << "depth " << depth << ": " << measured / 1e9 << " Gb/s, Little " << little / 1e9;
    }
}

TEST(RdmaRead, LostResponsesAreReRequestedFromTheMissingPsn)
{
    // 2 % of the frames host 1 receives are lost: READ responses (and nothing else flows
    // to it). A response beyond a lost one makes the requester go back and re-request the
    // rest of the READ from the lost response's PSN; a lost last response is recovered by
    // the retransmission timer. Every READ completes with every byte, in order.
    ReadPair f("100Gbps", MicroSeconds(1));
    f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    RdmaLossHelper loss;
    loss.Install("uniform:0.02", NetDeviceContainer(f.star.HostDevice(1)));
    loss.AssignStreams(11);
    f.Connect();
    std::vector<uint64_t> reRequestSeqs;
    f.requester->TraceConnectWithoutContext(
        "ReadReRequest",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t seq) { v->push_back(seq); },
            &reRequestSeqs));
    const uint32_t reads = 8;
    const uint64_t bytes = 100 * 1024 + 10; // 101 responses, the last one of 10 bytes
    for (uint32_t i = 0; i < reads; ++i)
    {
        PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes, i);
    }
    Simulator::Run();

    std::cout << "lossy READs: " << f.star.HostDevice(1)->GetRxDropCount() << " responses lost, "
              << f.requester->GetReadReRequests() << " re-requests, " << f.requester->GetTimeouts()
              << " timeouts, " << f.requester->GetReadResponseDiscards()
              << " responses discarded, last READ at "
              << (f.log.sends.empty() ? Time(0) : f.log.sends.back().completionTime).As(Time::US)
              << "\n";
    ASSERT_EQ(f.log.sends.size(), reads);
    for (uint32_t i = 0; i < reads; ++i)
    {
        EXPECT_EQ(f.log.sends[i].wrId, i);
        EXPECT_EQ(f.log.sends[i].length, bytes);
    }
    const uint64_t lost = f.star.HostDevice(1)->GetRxDropCount();
    ASSERT_GT(lost, 5u);
    // Every loss costs at least one re-request; most are found by a later response (or
    // ACK), not by the timer.
    EXPECT_GE(f.requester->GetReadReRequests(), lost);
    EXPECT_LT(f.requester->GetTimeouts(), lost / 2);
    // Bytes landed in order: exactly the READs' bytes (discarded responses do not count).
    EXPECT_EQ(f.requester->GetBytesRead(), reads * bytes);
    EXPECT_EQ(f.requester->GetReadResponsesReceived(), reads * 101u);
    EXPECT_GT(f.requester->GetReadReRequests(), 0u);
    EXPECT_EQ(f.requester->GetReadReRequests(), reRequestSeqs.size());
    EXPECT_EQ(f.requester->GetReadRequestsSent(), reads + f.requester->GetReadReRequests());
    // Each re-request starts inside a READ (at a lost response), not at a READ's start
    // necessarily: at least one starts mid-message, VA and length adjusted.
    bool midMessage = false;
    for (uint64_t seq : reRequestSeqs)
    {
        midMessage |= seq % 101 != 0;
    }
    EXPECT_TRUE(midMessage);
    EXPECT_GT(f.responder->GetDuplicateReadRequests(), 0u);
    EXPECT_EQ(f.requester->GetReadsOutstanding(), 0u);
    Simulator::Destroy();
}

TEST(RdmaRead, LostRequestIsNakedOrTimedOut)
{
    // The first READ request (host 0 receives it) is lost: the second request arrives
    // beyond a gap and is NAKed, so the first is requested again; both complete.
    ReadPair f("100Gbps", MicroSeconds(1));
    f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    RdmaLossHelper loss;
    loss.Install("every:1000,first=1", NetDeviceContainer(f.star.HostDevice(0)));
    f.Connect();
    PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), 4096, 0);
    PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), 4096, 1);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 2u);
    EXPECT_EQ(f.star.HostDevice(0)->GetRxDropCount(), 1u);
    EXPECT_EQ(f.requester->GetNaksReceived(), 1u);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    EXPECT_EQ(f.requester->GetBytesRead(), 2u * 4096);
    EXPECT_EQ(f.responder->GetOutOfOrderDiscards(), 1u);
    // Completed within a few round trips, not a timeout.
    EXPECT_LT(f.log.sends[1].completionTime, MicroSeconds(20));
    Simulator::Destroy();
}

TEST(RdmaRead, ReadsAndWritesShareTheResponder)
{
    // Host 0 answers host 1's READ while it WRITEs to host 1 itself, and host 1 WRITEs to
    // host 0 after its READ: responses and requests take turns at host 0's pacer, and the
    // ACK of host 1's WRITE waits behind the READ responses (PSN order). Everything
    // completes; host 0's port carries both at line rate: the two 2 MB transfers toward
    // host 1 take at least 4 MB at the analytical goodput.
    ReadPair f("100Gbps", MicroSeconds(1));
    f.Connect();
    const uint64_t bytes = 2'000'000;
    PostReadAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes, 1);
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 4096, 2);
    PostWriteAt(f.responder, f.star.hosts.Get(0), Seconds(0), bytes, 3);
    Simulator::Run();
    const double both = 2.0 * bytes * 8.0 / AnalyticalGoodput(100e9, 1024);
    std::cout << "READ beside a WRITE: READ done at "
              << (f.log.sends.empty() ? Time(0) : f.log.sends[0].completionTime).As(Time::US)
              << ", both need " << both << " s\n";
    ASSERT_EQ(f.log.sends.size(), 2u); // host 1's READ, then its WRITE, in order
    EXPECT_EQ(f.log.sends[0].wrId, 1u);
    EXPECT_EQ(f.log.sends[1].wrId, 2u);
    EXPECT_EQ(f.responder->GetOutstandingWorkRequests(), 0u);
    EXPECT_EQ(f.requester->GetBytesRead(), bytes);
    EXPECT_EQ(f.requester->GetBytesReceived(), bytes); // host 0's WRITE
    EXPECT_EQ(f.responder->GetBytesReceived(), 4096u); // host 1's WRITE
    EXPECT_EQ(f.requester->GetRetransmissions(), 0u);
    EXPECT_EQ(f.responder->GetRetransmissions(), 0u);
    // Taking turns: the READ finishes with the WRITE, at the end of both (not after its
    // own half, as it would if responses went first), within the 4.2 us start-up latency.
    EXPECT_GT(f.log.sends[0].completionTime.GetSeconds(), 0.99 * both);
    EXPECT_LT(f.log.sends[0].completionTime.GetSeconds(), both + 10e-6);
    Simulator::Destroy();
}

TEST(RdmaReadDeathTest, BadReadSettingsAreClearErrors)
{
    EXPECT_DEATH(
        {
            ReadPair f("100Gbps", MicroSeconds(1));
            f.star.rdma.SetQueuePairAttribute("InitiatorDepth", UintegerValue(0));
            f.Connect();
        },
        "InitiatorDepth 0 on queue pair [0-9]+ is invalid");
    EXPECT_DEATH(
        {
            ReadPair f("100Gbps", MicroSeconds(1));
            f.star.rdma.SetQueuePairAttribute("ResponderResources", UintegerValue(0));
            f.Connect();
        },
        "ResponderResources 0 of the peer of queue pair [0-9]+ is invalid");
    EXPECT_DEATH(
        {
            ReadPair f("100Gbps", MicroSeconds(1));
            f.star.Install();
            f.star.rdma.Connect(f.star.hosts.Get(1),
                                f.star.hosts.Get(0),
                                "InitiatorDepth",
                                UintegerValue(32));
        },
        "InitiatorDepth 32 on queue pair [0-9]+ exceeds the peer's ResponderResources 16; "
        "valid: 1..16");
    EXPECT_DEATH(
        {
            ReadPair f("100Gbps", MicroSeconds(1));
            f.star.rdma.SetQueuePairAttribute("MaxReadSize", UintegerValue(4096));
            f.Connect();
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::READ;
            wr.length = 4097;
            f.requester->PostSend(wr);
        },
        "RDMA READ of 4097 bytes on queue pair [0-9]+ exceeds the responder's MaxReadSize "
        "4096");
    EXPECT_DEATH(
        {
            ReadPair f("100Gbps", MicroSeconds(1));
            f.star.rdma.SetLossRecovery("ns3::RdmaGoBackZeroLossRecovery");
            f.Connect();
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::READ;
            wr.length = 4096;
            f.requester->PostSend(wr);
        },
        "RDMA READ on queue pair [0-9]+ needs go-back-N, selective repeat or the unreliable "
        "mode");
}

TEST(RdmaRead, BulkSenderReads)
{
    // RdmaBulkSendApplication with Opcode Read on host 0, Remote host 1: three READs of
    // 100 kB, one after the other, MTU 1000. Each takes the request's trip (98 wire bytes
    // serialized at host 0 and at the switch, two 1 us links), the 100 responses at line
    // rate from host 1 (First and Last 1086 wire bytes with their AETH, 98 Middle of 1082:
    // 108208 bytes), the last response's serialization again at the switch (1086 bytes)
    // and two 1 us links: (2 x 98 + 108208 + 1086) x 80 ps + 4 us = 12759.20 ns; the
    // WRITE of the same size takes 12758.88 ns (RdmaScenarioToolkit.BulkSenderOneShotAndBulk):
    // 0.32 ns less, the Last response's AETH (4 bytes, once) against the WRITE's RETH and
    // ACK (16 + 86 bytes twice) balanced by the request's 98 bytes twice.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    star.Install();
    RdmaBulkSendHelper bulk(star.hosts.Get(1));
    bulk.SetAttribute("MessageSize", UintegerValue(100000));
    bulk.SetAttribute("Messages", UintegerValue(3));
    bulk.SetAttribute("Opcode", StringValue("Read"));
    ApplicationContainer apps = bulk.Install(star.hosts.Get(0));
    apps.Start(MicroSeconds(1));
    RdmaFlowMonitor monitor;
    monitor.Watch(apps);
    Simulator::Run();
    Ptr<RdmaBulkSendApplication> app = DynamicCast<RdmaBulkSendApplication>(apps.Get(0));
    EXPECT_EQ(app->GetMessagesCompleted(), 3u);
    EXPECT_EQ(monitor.GetFlows(), 3u);
    EXPECT_EQ(app->GetBytesCompleted(), 300000u);
    EXPECT_EQ(monitor.GetBytesReceived(), 300000u); // the READs' data, landed at host 0
    Ptr<RdmaQueuePair> qp = app->GetQueuePair();
    ASSERT_TRUE(qp);
    EXPECT_EQ(qp->GetBytesRead(), 300000u);
    EXPECT_EQ(qp->GetReadResponsesReceived(), 300u);
    EXPECT_EQ(monitor.GetLastCompletion() - MicroSeconds(1), 3 * PicoSeconds(12759200));
    Simulator::Destroy();
}

namespace
{

/// What an 8-to-1 incast run shows.
struct IncastResult
{
    uint64_t pauses{0};       //!< PFC pauses the switch sent
    uint64_t pfcAtSenders{0}; //!< PFC frames the data senders received
    uint64_t drops{0};        //!< switch and link drops
    uint64_t cnps{0};         //!< CNPs the data receivers sent
    DataRate lowest;          //!< lowest rate a data sender's congestion control set
    Time lastCompletion;      //!< the last requester completion
};

/**
 * Host 0 reads 500 KB from each of 8 hosts at once or (read false) the 8 hosts WRITE 500 KB
 * each to host 0, through a 2 MB switch buffer with PFC. Every message must complete with
 * its bytes and without retransmission.
 * \param congestionControl the congestion control's TypeId
 * \param read READs (else WRITEs)
 * \param ecn the switch marks ECN
 * \return what the run shows
 */
IncastResult
Incast(const std::string& congestionControl, bool read, bool ecn)
{
    const uint32_t senders = 8;
    const uint64_t bytes = 500'000;
    Star star(senders + 1, "100Gbps", MicroSeconds(1));
    star.rdma.SetMmuAttribute("BufferSize", UintegerValue(2 * 1024 * 1024));
    star.rdma.SetMmuAttribute("PfcEnabled", BooleanValue(true));
    star.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    star.rdma.SetCongestionControl(congestionControl);
    star.Install();
    std::vector<CompletionLog> logs(senders);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::vector<Ptr<RdmaQueuePair>> peers;
    IncastResult r;
    for (uint32_t i = 0; i < senders; ++i)
    {
        auto [a, b] = read ? star.rdma.Connect(star.hosts.Get(0), star.hosts.Get(i + 1))
                           : star.rdma.Connect(star.hosts.Get(i + 1), star.hosts.Get(0));
        logs[i].Attach(a, b);
        requesters.push_back(a);
        peers.push_back(b);
        Ptr<RdmaQueuePair> dataSender = read ? b : a;
        dataSender->TraceConnectWithoutContext("Rate",
                                               MakeBoundCallback(
                                                   +[](DataRate* low, DataRate, DataRate now) {
                                                       if (*low == DataRate(0) || now < *low)
                                                       {
                                                           *low = now;
                                                       }
                                                   },
                                                   &r.lowest));
        if (read)
        {
            PostReadAt(a, star.hosts.Get(0), Seconds(0), bytes, i);
        }
        else
        {
            PostWriteAt(a, star.hosts.Get(i + 1), Seconds(0), bytes, i);
        }
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    uint64_t cnpsReceived = 0;
    for (uint32_t i = 0; i < senders; ++i)
    {
        EXPECT_EQ(logs[i].sends.size(), 1u) << congestionControl << " message " << i;
        if (!logs[i].sends.empty())
        {
            EXPECT_EQ(logs[i].sends[0].length, bytes);
            r.lastCompletion = std::max(r.lastCompletion, logs[i].sends[0].completionTime);
        }
        EXPECT_EQ(read ? requesters[i]->GetBytesRead() : peers[i]->GetBytesReceived(), bytes);
        EXPECT_EQ(requesters[i]->GetRetransmissions(), 0u);
        EXPECT_EQ(requesters[i]->GetReadReRequests(), 0u);
        Ptr<RdmaQueuePair> dataReceiver = read ? requesters[i] : peers[i];
        Ptr<RdmaQueuePair> dataSender = read ? peers[i] : requesters[i];
        r.cnps += dataReceiver->GetCnpsSent();
        cnpsReceived += dataSender->GetCnpsReceived();
        r.pfcAtSenders += star.HostDevice(i + 1)->GetPfcFramesReceived();
    }
    EXPECT_EQ(r.cnps, cnpsReceived);
    r.drops = star.Switch()->GetTotalDrops();
    for (uint32_t i = 0; i <= senders; ++i)
    {
        r.drops += star.HostDevice(i)->GetRxDropCount() + star.SwitchDevice(i)->GetRxDropCount();
    }
    r.pauses = star.Switch()->GetPfcPausesSent();
    std::cout << congestionControl << (read ? " READ" : " WRITE") << " incast, ECN "
              << (ecn ? "on" : "off") << ": " << r.pauses << " pauses, " << r.cnps
              << " CNPs, lowest data sender rate " << r.lowest.GetBitRate() / 1e9
              << " Gb/s, last completion " << r.lastCompletion.As(Time::US) << "\n";
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(RdmaRead, PfcIncastOfReadResponsesIsLossless)
{
    // Host 0 reads 500 KB from each of 8 hosts at once: 8 responders' responses converge
    // on host 0's port through a 2 MB buffer. PFC pauses the responders: no drop, every
    // READ completes with its bytes, no re-request; the port stays busy (within 5 % of
    // the analytical goodput, as the WRITE incast of RdmaIncast).
    const IncastResult r = Incast("ns3::RdmaFixedRateCongestionControl", true, false);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_GT(r.pauses, 0u);
    EXPECT_GT(r.pfcAtSenders, 0u);
    ASSERT_TRUE(r.lastCompletion.IsStrictlyPositive());
    const double goodput = 8 * 500'000 * 8.0 / r.lastCompletion.GetSeconds();
    EXPECT_GE(goodput, 0.95 * AnalyticalGoodput(100e9, 1024)) << goodput / 1e9 << " Gb/s";
    EXPECT_LE(goodput, AnalyticalGoodput(100e9, 1024));
}

TEST(RdmaRead, DcqcnAtTheResponderPacesTheResponses)
{
    // The requester answers CE-marked responses with CNPs to the responder, whose DCQCN
    // (reaction point) cuts its rate, and the responses leave at that rate: the 8-to-1
    // READ incast behaves as the 8-to-1 WRITE incast of the same bytes (the same CNPs,
    // the same rate cuts, the same pauses: the data senders run the same DCQCN on the same
    // arrivals), and DCQCN pauses less than a fixed line rate, which ignores the CNPs.
    const IncastResult fixed = Incast("ns3::RdmaFixedRateCongestionControl", true, true);
    const IncastResult read = Incast("ns3::DcqcnCongestionControl", true, true);
    const IncastResult write = Incast("ns3::DcqcnCongestionControl", false, true);
    EXPECT_EQ(fixed.lowest.GetBitRate(), 0u); // no rate change at all
    EXPECT_EQ(read.drops, 0u);
    EXPECT_LT(read.pauses, fixed.pauses);
    EXPECT_GT(read.lowest.GetBitRate(), 0u);
    EXPECT_LT(read.lowest.GetBitRate(), 50'000'000'000u);
    EXPECT_NEAR(double(read.pauses), double(write.pauses), 0.1 * write.pauses);
    EXPECT_NEAR(read.lowest.GetBitRate() / 1e9, write.lowest.GetBitRate() / 1e9, 0.5);
}
