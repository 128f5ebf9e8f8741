/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RDMA atomics (IBTA vol. 1 §9.4.5, §9.7.5.1.3; issue 17): N requesters doing M Fetch &
// Adds on one counter leave it at exactly N x M and get each of 0..NM-1 once, with and
// without loss (the responder's replay cache answers the duplicates); Compare & Swap
// semantics; the exact latency of one atomic; atomics and READs share the initiator depth
// and recover together from loss; atomics through a PFC-paused incast; clear errors for bad
// atomics.

#include "rdma-test-utils.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// The counter the requesters increment, on host 0.
constexpr uint64_t COUNTER = 0x1000;

/// Post an atomic at time t in the requester node's context.
void
PostAtomicAt(Ptr<RdmaQueuePair> qp,
             Ptr<Node> node,
             Time t,
             RdmaWorkRequest::Opcode opcode,
             uint64_t address,
             uint64_t compareAdd,
             uint64_t swap = 0,
             uint64_t wrId = 0)
{
    RdmaWorkRequest wr;
    wr.opcode = opcode;
    wr.wrId = wrId;
    wr.length = 8;
    wr.remoteAddress = address;
    wr.rkey = 0x1234;
    wr.compareAdd = compareAdd;
    wr.swap = swap;
    Simulator::ScheduleWithContext(node->GetId(), t, &RdmaQueuePair::PostSend, qp, wr);
}

/// Post count Fetch-and-Add(1)s on COUNTER at time 0, work request ids firstWrId, ...
void
PostIncrements(Ptr<RdmaQueuePair> qp, Ptr<Node> node, uint32_t count, uint64_t firstWrId = 0)
{
    for (uint32_t k = 0; k < count; ++k)
    {
        PostAtomicAt(qp,
                     node,
                     Seconds(0),
                     RdmaWorkRequest::FETCH_ADD,
                     COUNTER,
                     1,
                     0,
                     firstWrId + k);
    }
}

/// Post a READ at time t in the requester node's context.
void
PostReadAt(Ptr<RdmaQueuePair> qp, Ptr<Node> node, Time t, uint64_t bytes, uint64_t wrId)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::READ;
    wr.wrId = wrId;
    wr.length = bytes;
    wr.remoteAddress = 0x100000;
    wr.rkey = 0x1234;
    Simulator::ScheduleWithContext(node->GetId(), t, &RdmaQueuePair::PostSend, qp, wr);
}

/// What a run of N requesters x M Fetch & Adds of 1 on host 0's counter left behind.
struct CounterRun
{
    uint64_t counter{0};                //!< the counter's final value
    uint64_t executed{0};               //!< atomics the memory executed
    uint64_t responderExecuted{0};      //!< atomics the responder queue pairs executed
    std::vector<uint64_t> originals;    //!< the values the completions returned
    uint64_t resends{0};                //!< atomic requests sent again (requesters)
    uint64_t replays{0};                //!< duplicates answered from the cache (responders)
    uint64_t replayMisses{0};           //!< duplicates older than the cache
    uint64_t framesLost{0};             //!< frames the loss models dropped
    uint64_t timeouts{0};               //!< retransmission timeouts (requesters)
    uint32_t maxOutstanding{0};         //!< most atomics one requester had outstanding
    std::vector<uint64_t> perRequester; //!< completions per requester
};

/**
 * N requesters (hosts 1..N) each post M Fetch & Adds of 1 on host 0's counter at t = 0.
 * \param lossSpec a loss model for every host's receiving side ("" for none): it drops
 *        requests at host 0 and Atomic Acknowledges at the requesters
 * \param lossRecovery the loss recovery's TypeId
 */
CounterRun
RunCounter(uint32_t n,
           uint32_t m,
           const std::string& lossSpec,
           const std::string& lossRecovery = "ns3::RdmaGoBackNLossRecovery")
{
    Star star(n + 1, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    star.rdma.SetLossRecovery(lossRecovery);
    RdmaLossHelper loss;
    NetDeviceContainer hostDevices;
    for (uint32_t i = 0; i <= n; ++i)
    {
        hostDevices.Add(star.HostDevice(i));
    }
    if (!lossSpec.empty())
    {
        loss.Install(lossSpec, hostDevices);
        loss.AssignStreams(17);
    }
    star.Install();
    CounterRun run;
    run.perRequester.assign(n, 0);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::vector<Ptr<RdmaQueuePair>> responders;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto [a, b] = star.rdma.Connect(star.hosts.Get(i + 1), star.hosts.Get(0));
        requesters.push_back(a);
        responders.push_back(b);
        a->SetSendCompletionCallback(MakeBoundCallback(
            +[](CounterRun* r, uint32_t who, const RdmaCompletion& c) {
                r->originals.push_back(c.atomicOriginal);
                ++r->perRequester[who];
            },
            &run,
            i));
        a->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](uint32_t* most, Ptr<RdmaQueuePair> qp, uint64_t, bool) {
                    *most = std::max(*most, qp->GetReadsOutstanding());
                },
                &run.maxOutstanding,
                a));
        PostIncrements(a, star.hosts.Get(i + 1), m);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Ptr<RdmaMemory> memory = star.hosts.Get(0)->GetObject<RdmaMemory>();
    run.counter = memory->Read64(COUNTER);
    run.executed = memory->GetAtomicsExecuted();
    for (uint32_t i = 0; i < n; ++i)
    {
        run.resends += requesters[i]->GetAtomicResends();
        run.timeouts += requesters[i]->GetTimeouts();
        run.replays += responders[i]->GetAtomicReplays();
        run.replayMisses += responders[i]->GetAtomicReplayMisses();
        EXPECT_EQ(requesters[i]->GetReadsOutstanding(), 0u) << "requester " << i;
        run.responderExecuted += responders[i]->GetAtomicsExecuted();
    }
    for (uint32_t i = 0; i <= n; ++i)
    {
        run.framesLost += star.HostDevice(i)->GetRxDropCount();
    }
    Simulator::Destroy();
    return run;
}

/// \return true if values is a permutation of 0..count-1
bool
IsPermutationOfRange(std::vector<uint64_t> values, uint64_t count)
{
    if (values.size() != count)
    {
        return false;
    }
    std::sort(values.begin(), values.end());
    for (uint64_t i = 0; i < count; ++i)
    {
        if (values[i] != i)
        {
            return false;
        }
    }
    return true;
}

} // namespace

TEST(RdmaAtomic, FetchAddCounterEndsAtExactlyNTimesM)
{
    // 4 requesters x 100 Fetch & Adds of 1 on one counter: the responder executes each
    // once, in arrival order across its 4 queue pairs, against the one node memory. The
    // counter ends at 400 and the values returned are 0..399, each exactly once (each
    // Fetch & Add saw a distinct value of the counter). No loss: nothing is sent again.
    // Each requester keeps at most InitiatorDepth 16 atomics outstanding.
    const CounterRun run = RunCounter(4, 100, "");
    std::cout << "4 x 100 Fetch & Adds: counter " << run.counter << ", " << run.executed
              << " executed\n";
    EXPECT_EQ(run.counter, 400u);
    EXPECT_EQ(run.executed, 400u);
    EXPECT_EQ(run.responderExecuted, 400u);
    EXPECT_TRUE(IsPermutationOfRange(run.originals, 400));
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(run.perRequester[i], 100u) << "requester " << i;
    }
    EXPECT_EQ(run.resends, 0u);
    EXPECT_EQ(run.replays, 0u);
    EXPECT_EQ(run.maxOutstanding, 16u);
}

TEST(RdmaAtomic, LossyFetchAddCounterIsExactThanksToTheReplayCache)
{
    // The same, with 2 % of the frames every host receives lost: requests at host 0,
    // Atomic Acknowledges at the requesters. A lost request is NAKed (the next one
    // arrives beyond a gap) or timed out and sent again; a lost acknowledgement makes the
    // requester send the atomic again with the same PSN (go-back-N), and the responder
    // answers from its replay cache without executing it. The counter still ends at
    // exactly 400 with 0..399 returned once each; executing the duplicates again would
    // overshoot by the number of replays.
    const CounterRun run = RunCounter(4, 100, "uniform:0.02");
    std::cout << "lossy 4 x 100 Fetch & Adds: counter " << run.counter << ", " << run.executed
              << " executed, " << run.framesLost << " frames lost, " << run.resends
              << " atomics sent again, " << run.replays << " replay-cache answers, " << run.timeouts
              << " timeouts\n";
    ASSERT_GT(run.framesLost, 5u);
    EXPECT_GT(run.resends, 0u);
    EXPECT_GT(run.replays, 0u);
    EXPECT_EQ(run.replayMisses, 0u);
    EXPECT_EQ(run.counter, 400u);
    EXPECT_EQ(run.executed, 400u);
    EXPECT_EQ(run.responderExecuted, 400u);
    EXPECT_TRUE(IsPermutationOfRange(run.originals, 400));
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(run.perRequester[i], 100u) << "requester " << i;
    }
    EXPECT_LE(run.maxOutstanding, 16u);
}

TEST(RdmaAtomic, LossyFetchAddCounterIsExactUnderSelectiveRepeat)
{
    // The same 4 x 100 Fetch & Adds under 2 % loss with selective repeat (IRN): a lost
    // request or Atomic Acknowledge is found by RACK (a later atomic's acknowledgement
    // landed), by a tail-loss probe or by the timeout, and only that atomic is sent again,
    // with its PSN; the responder executes an atomic it has not seen (whatever its order)
    // and answers one it has from the replay cache. Exactly 400 executions, 0..399 once
    // each; every re-send is either a replay (its acknowledgement was lost) or the first
    // arrival of a lost request, so resends >= replays and resends > replays here.
    const CounterRun run = RunCounter(4, 100, "uniform:0.02", "ns3::RdmaSackLossRecovery");
    std::cout << "SACK, lossy 4 x 100 Fetch & Adds: counter " << run.counter << ", "
              << run.framesLost << " frames lost, " << run.resends << " atomics sent again, "
              << run.replays << " replay-cache answers, " << run.timeouts << " timeouts\n";
    ASSERT_GT(run.framesLost, 5u);
    EXPECT_GT(run.replays, 0u);
    EXPECT_GT(run.resends, run.replays);
    EXPECT_EQ(run.replayMisses, 0u);
    EXPECT_EQ(run.counter, 400u);
    EXPECT_EQ(run.executed, 400u);
    EXPECT_EQ(run.responderExecuted, 400u);
    EXPECT_TRUE(IsPermutationOfRange(run.originals, 400));
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(run.perRequester[i], 100u) << "requester " << i;
    }
    EXPECT_LE(run.maxOutstanding, 16u);
}

TEST(RdmaAtomic, AtomicAcknowledgesHaveTheirOwnTrace)
{
    // ReadResponseTx is for READ Responses; an Atomic Acknowledge fires AtomicAckTx only.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    uint64_t readTx = 0;
    uint64_t atomicTx = 0;
    auto count = +[](uint64_t* n, uint64_t) { ++*n; };
    responder->TraceConnectWithoutContext("ReadResponseTx", MakeBoundCallback(count, &readTx));
    responder->TraceConnectWithoutContext("AtomicAckTx", MakeBoundCallback(count, &atomicTx));
    PostIncrements(requester, star.hosts.Get(1), 3);
    PostReadAt(requester, star.hosts.Get(1), Seconds(0), 2048, 9);
    Simulator::Run();
    EXPECT_EQ(atomicTx, 3u);
    EXPECT_EQ(readTx, 2u); // the READ's two responses (MTU 1024: default)
    Simulator::Destroy();
}

TEST(RdmaAtomic, BulkSenderFetchAddsAreScriptable)
{
    // Three RdmaBulkSendApplications (hosts 1-3), Opcode FetchAdd, AtomicAddress 0x1000,
    // AtomicOperand 5, 50 atomics each, 4 outstanding: the word ends at 3 x 50 x 5 = 750
    // and the values returned are 0, 5, ..., 745, each once. An unaligned address is a
    // clear error before the run.
    Star star(4, "100Gbps", MicroSeconds(1));
    star.Install();
    std::vector<uint64_t> originals;
    ApplicationContainer apps;
    for (uint32_t i = 1; i <= 3; ++i)
    {
        RdmaBulkSendHelper bulk(star.hosts.Get(0));
        bulk.SetAttribute("Opcode", StringValue("FetchAdd"));
        bulk.SetAttribute("AtomicAddress", UintegerValue(COUNTER));
        bulk.SetAttribute("AtomicOperand", UintegerValue(5));
        bulk.SetAttribute("Messages", UintegerValue(50));
        bulk.SetAttribute("Outstanding", UintegerValue(4));
        apps.Add(bulk.Install(star.hosts.Get(i)));
    }
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        apps.Get(i)->TraceConnectWithoutContext(
            "AtomicCompleted",
            MakeBoundCallback(
                +[](std::vector<uint64_t>* v, uint64_t x) { v->push_back(x); },
                &originals));
    }
    apps.Start(MicroSeconds(1));
    Simulator::Run();
    EXPECT_EQ(star.hosts.Get(0)->GetObject<RdmaMemory>()->Read64(COUNTER), 750u);
    ASSERT_EQ(originals.size(), 150u);
    std::sort(originals.begin(), originals.end());
    for (uint64_t k = 0; k < 150; ++k)
    {
        EXPECT_EQ(originals[k], 5 * k);
    }
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        EXPECT_EQ(DynamicCast<RdmaBulkSendApplication>(apps.Get(i))->GetMessagesCompleted(), 50u);
    }
    Simulator::Destroy();
    EXPECT_DEATH(
        {
            Star s(2, "100Gbps", MicroSeconds(1));
            s.Install();
            RdmaBulkSendHelper bulk(s.hosts.Get(0));
            bulk.SetAttribute("Opcode", StringValue("CompareSwap"));
            bulk.SetAttribute("AtomicAddress", UintegerValue(0x1004));
            bulk.Install(s.hosts.Get(1)).Start(Seconds(0));
            Simulator::Run();
        },
        "ns3::RdmaBulkSendApplication::AtomicAddress 0x1004 is not 8-byte aligned; valid: a "
        "multiple of 8");
}

TEST(RdmaAtomic, CompareSwapSwapsOnlyOnAMatchAndReturnsTheOriginal)
{
    // Word 0x2000 = 5. CAS(5 -> 9) matches: returns 5, the word becomes 9. CAS(5 -> 11)
    // does not: returns 9, the word stays 9. Word 0x3000 = 2^64 - 1: Fetch & Add 2 wraps
    // modulo 2^64 to 1 and returns 2^64 - 1. The three execute in posting order (one
    // queue pair, PSN order).
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    CompletionLog log;
    log.Attach(requester, responder);
    Ptr<RdmaMemory> memory = star.hosts.Get(0)->GetObject<RdmaMemory>();
    ASSERT_TRUE(memory);
    memory->Write64(0x2000, 5);
    memory->Write64(0x3000, UINT64_MAX);
    Ptr<Node> host = star.hosts.Get(1);
    PostAtomicAt(requester, host, Seconds(0), RdmaWorkRequest::COMPARE_SWAP, 0x2000, 5, 9, 1);
    PostAtomicAt(requester, host, Seconds(0), RdmaWorkRequest::COMPARE_SWAP, 0x2000, 5, 11, 2);
    PostAtomicAt(requester, host, Seconds(0), RdmaWorkRequest::FETCH_ADD, 0x3000, 2, 0, 3);
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 3u);
    EXPECT_EQ(log.sends[0].wrId, 1u);
    EXPECT_EQ(log.sends[0].opcode, RdmaWorkRequest::COMPARE_SWAP);
    EXPECT_EQ(log.sends[0].atomicOriginal, 5u);
    EXPECT_EQ(log.sends[1].wrId, 2u);
    EXPECT_EQ(log.sends[1].atomicOriginal, 9u);
    EXPECT_EQ(log.sends[2].wrId, 3u);
    EXPECT_EQ(log.sends[2].opcode, RdmaWorkRequest::FETCH_ADD);
    EXPECT_EQ(log.sends[2].atomicOriginal, UINT64_MAX);
    EXPECT_EQ(memory->Read64(0x2000), 9u);
    EXPECT_EQ(memory->Read64(0x3000), 1u);
    EXPECT_EQ(memory->Read64(0x4000), 0u); // never written
    EXPECT_EQ(responder->GetAtomicsExecuted(), 3u);
    EXPECT_EQ(memory->GetAtomicsExecuted(), 3u);
    // An atomic completes nothing at the responder (no receive WQE consumed).
    EXPECT_TRUE(log.receives.empty());
    Simulator::Destroy();
}

TEST(RdmaAtomic, SingleAtomicLatencyIsExact)
{
    // One Fetch & Add over two 100 Gb/s hops of 1 us each. Request frame: Ethernet 14,
    // IPv4 20, UDP 8, BTH 12, AtomicETH 28, ICRC 4 = 86 bytes, 110 on the wire (FCS 4,
    // preamble and SFD 8, IFG 12). Atomic Acknowledge: 14 + 20 + 8 + 12 + AETH 4 +
    // AtomicAckETH 8 + ICRC 4 = 70 bytes, 94 on the wire. Each is serialized at its
    // sender and again at the switch (store and forward), at 80 ps a byte:
    //   latency = 2 x (110 + 94) x 80 ps + 4 x 1 us = 32.64 ns + 4 us = 4032.64 ns.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    CompletionLog log;
    log.Attach(requester, responder);
    PostAtomicAt(requester,
                 star.hosts.Get(1),
                 Seconds(0),
                 RdmaWorkRequest::FETCH_ADD,
                 COUNTER,
                 42,
                 0,
                 7);
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 1u);
    const RdmaCompletion& c = log.sends[0];
    EXPECT_EQ(c.wrId, 7u);
    EXPECT_EQ(c.length, 8u);
    EXPECT_EQ(c.atomicOriginal, 0u);
    const int64_t requestWire = 14 + 20 + 8 + 12 + 28 + 4 + 24;
    const int64_t ackWire = 14 + 20 + 8 + 12 + 4 + 8 + 4 + 24;
    EXPECT_EQ(requestWire, 110);
    EXPECT_EQ(ackWire, 94);
    const int64_t expectedPs = 2 * (requestWire + ackWire) * 80 + 4 * 1'000'000;
    EXPECT_EQ(expectedPs, 4'032'640);
    EXPECT_EQ((c.completionTime - c.postTime).GetPicoSeconds(), expectedPs);
    EXPECT_EQ(star.hosts.Get(0)->GetObject<RdmaMemory>()->Read64(COUNTER), 42u);
    EXPECT_EQ(requester->GetAtomicRequestsSent(), 1u);
    EXPECT_EQ(requester->GetAtomicAcksReceived(), 1u);
    Simulator::Destroy();
}

TEST(RdmaAtomic, AtomicsAndReadsShareTheInitiatorDepth)
{
    // InitiatorDepth 4 (IBTA ORD counts READs and atomics together, verbs max_rd_atomic):
    // 10 Fetch & Adds then 10 READs, posted at once, never have more than 4 outstanding
    // (atomics left out of the count would put all 10 Fetch & Adds in flight at once), and
    // complete in order, the k-th Fetch & Add with the counter's value k.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.rdma.SetQueuePairAttribute("InitiatorDepth", UintegerValue(4));
    star.Install();
    auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    CompletionLog log;
    log.Attach(requester, responder);
    uint32_t maxOutstanding = 0;
    requester->TraceConnectWithoutContext(
        "Tx",
        MakeBoundCallback(
            +[](uint32_t* most, Ptr<RdmaQueuePair> qp, uint64_t, bool) {
                *most = std::max(*most, qp->GetReadsOutstanding());
            },
            &maxOutstanding,
            requester));
    PostIncrements(requester, star.hosts.Get(1), 10);
    for (uint32_t i = 10; i < 20; ++i)
    {
        PostReadAt(requester, star.hosts.Get(1), Seconds(0), 1000, i);
    }
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 20u);
    for (uint32_t i = 0; i < 20; ++i)
    {
        EXPECT_EQ(log.sends[i].wrId, i);
        if (i < 10)
        {
            EXPECT_EQ(log.sends[i].atomicOriginal, i);
        }
    }
    EXPECT_EQ(maxOutstanding, 4u);
    EXPECT_EQ(requester->GetBytesRead(), 10'000u);
    Simulator::Destroy();
}

TEST(RdmaAtomic, ReadsAndAtomicsRecoverTogetherFromLoss)
{
    // One requester posts 40 READs of 3000 bytes (3 responses each) and 40 Fetch & Adds
    // alternately; 2 % of the frames both hosts receive are lost. Go-back-N re-requests
    // READs from the missing response and sends atomics again; the responder cuts the
    // responses the requester went back over, re-reads, and answers atomics from the
    // replay cache. Every work request completes in order, the k-th Fetch & Add returns k,
    // the counter ends at 40 and every byte is read once.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    RdmaLossHelper loss;
    loss.Install("uniform:0.02",
                 NetDeviceContainer(NetDeviceContainer(star.HostDevice(0)),
                                    NetDeviceContainer(star.HostDevice(1))));
    loss.AssignStreams(5);
    star.Install();
    auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    CompletionLog log;
    log.Attach(requester, responder);
    const uint32_t pairs = 40;
    for (uint32_t i = 0; i < pairs; ++i)
    {
        PostReadAt(requester, star.hosts.Get(1), Seconds(0), 3000, 2 * i);
        PostIncrements(requester, star.hosts.Get(1), 1, 2 * i + 1);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const uint64_t lost =
        star.HostDevice(0)->GetRxDropCount() + star.HostDevice(1)->GetRxDropCount();
    std::cout << "READs and atomics through loss: " << lost << " frames lost, "
              << requester->GetReadReRequests() << " READ re-requests, "
              << requester->GetAtomicResends() << " atomics sent again, "
              << responder->GetAtomicReplays() << " replay-cache answers\n";
    ASSERT_EQ(log.sends.size(), 2u * pairs);
    for (uint32_t i = 0; i < 2 * pairs; ++i)
    {
        EXPECT_EQ(log.sends[i].wrId, i);
        if (i % 2 == 1)
        {
            EXPECT_EQ(log.sends[i].atomicOriginal, i / 2) << "Fetch & Add " << i / 2;
        }
    }
    ASSERT_GT(lost, 3u);
    EXPECT_GT(requester->GetRetransmissions(), 0u);
    EXPECT_EQ(star.hosts.Get(0)->GetObject<RdmaMemory>()->Read64(COUNTER), pairs);
    EXPECT_EQ(responder->GetAtomicsExecuted(), pairs);
    EXPECT_EQ(requester->GetBytesRead(), pairs * 3000u);
    EXPECT_EQ(responder->GetAtomicReplayMisses(), 0u);
    Simulator::Destroy();
}

TEST(RdmaAtomic, AtomicsCrossAPfcPausedIncast)
{
    // Hosts 1..8 each WRITE 500 KB to host 0 and do 50 Fetch & Adds on its counter at
    // once: the WRITEs fill the 2 MB switch buffer, PFC pauses the senders, and the atomic
    // requests wait behind the WRITE packets in the same class. Nothing is dropped, no
    // atomic is sent again, and the counter ends at exactly 8 x 50.
    const uint32_t senders = 8;
    const uint32_t atomics = 50;
    Star star(senders + 1, "100Gbps", MicroSeconds(1));
    star.rdma.SetMmuAttribute("BufferSize", UintegerValue(2 * 1024 * 1024));
    star.rdma.SetMmuAttribute("PfcEnabled", BooleanValue(true));
    star.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    star.Install();
    std::vector<CompletionLog> logs(senders);
    std::vector<Ptr<RdmaQueuePair>> requesters;
    for (uint32_t i = 0; i < senders; ++i)
    {
        auto [a, b] = star.rdma.Connect(star.hosts.Get(i + 1), star.hosts.Get(0));
        logs[i].Attach(a, b);
        requesters.push_back(a);
        PostWriteAt(a, star.hosts.Get(i + 1), Seconds(0), 500'000, 1000);
        PostIncrements(a, star.hosts.Get(i + 1), atomics);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    std::vector<uint64_t> originals;
    for (uint32_t i = 0; i < senders; ++i)
    {
        ASSERT_EQ(logs[i].sends.size(), atomics + 1) << "sender " << i;
        for (uint32_t k = 1; k <= atomics; ++k)
        {
            originals.push_back(logs[i].sends[k].atomicOriginal);
        }
        EXPECT_EQ(requesters[i]->GetAtomicResends(), 0u);
        EXPECT_EQ(requesters[i]->GetRetransmissions(), 0u);
    }
    EXPECT_EQ(star.Switch()->GetTotalDrops(), 0u);
    EXPECT_GT(star.Switch()->GetPfcPausesSent(), 0u);
    EXPECT_EQ(star.hosts.Get(0)->GetObject<RdmaMemory>()->Read64(COUNTER), senders * atomics);
    EXPECT_TRUE(IsPermutationOfRange(originals, senders * atomics));
    Simulator::Destroy();
}

TEST(RdmaAtomicDeathTest, BadAtomicsAreClearErrors)
{
    auto post = [](RdmaWorkRequest::Opcode opcode,
                   uint64_t length,
                   uint64_t address,
                   const std::string& lossRecovery) {
        Star star(2, "100Gbps", MicroSeconds(1));
        if (!lossRecovery.empty())
        {
            star.rdma.SetLossRecovery(lossRecovery);
        }
        star.Install();
        auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        RdmaWorkRequest wr;
        wr.opcode = opcode;
        wr.length = length;
        wr.remoteAddress = address;
        requester->PostSend(wr);
    };
    EXPECT_DEATH(post(RdmaWorkRequest::FETCH_ADD, 4, 0x1000, ""),
                 "atomic FETCH_ADD on queue pair [0-9]+: length 4 is invalid; valid: 8");
    EXPECT_DEATH(post(RdmaWorkRequest::COMPARE_SWAP, 16, 0x1000, ""),
                 "atomic COMPARE_SWAP on queue pair [0-9]+: length 16 is invalid; valid: 8");
    EXPECT_DEATH(post(RdmaWorkRequest::FETCH_ADD, 8, 0x1004, ""),
                 "atomic FETCH_ADD on queue pair [0-9]+: remoteAddress 0x1004 is not 8-byte "
                 "aligned; valid: a multiple of 8");
    EXPECT_DEATH(post(RdmaWorkRequest::COMPARE_SWAP, 8, 0x1001, ""),
                 "remoteAddress 0x1001 is not 8-byte aligned");
    EXPECT_DEATH(post(RdmaWorkRequest::FETCH_ADD, 8, 0x1000, "ns3::RdmaGoBackZeroLossRecovery"),
                 "atomic FETCH_ADD on queue pair [0-9]+ needs go-back-N, selective repeat or "
                 "the unreliable mode");
    EXPECT_DEATH(CreateObject<RdmaMemory>()->Read64(0x13),
                 "RdmaMemory::Read64: address 0x13 is not 8-byte aligned; valid: a multiple of 8");
    EXPECT_DEATH(CreateObject<RdmaMemory>()->Write64(0x14, 1),
                 "RdmaMemory::Write64: address 0x14 is not 8-byte aligned");
}
