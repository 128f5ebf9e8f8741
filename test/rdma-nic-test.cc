/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Host NIC and queue pair: goodput against the analytical line-rate bound, go-back-N under
// random loss, PSN wrap-around, SEND, ACK coalescing and fair sharing between queue pairs.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Two hosts through one switch, one flow host 1 -> host 0.
struct OneFlow
{
    Star star;
    Ptr<RdmaQueuePair> requester;
    Ptr<RdmaQueuePair> responder;
    CompletionLog log;

    OneFlow(const std::string& rate, Time delay, uint32_t mtu)
        : star(2, rate, delay)
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    }

    void Connect()
    {
        star.Install();
        std::tie(requester, responder) = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        log.Attach(requester, responder);
    }
};

void
CheckLineRateGoodput(uint32_t mtu)
{
    const uint64_t bytes = 10'000'000;
    OneFlow f("100Gbps", MicroSeconds(1), mtu);
    f.Connect();
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes);
    Simulator::Run();

    ASSERT_EQ(f.log.sends.size(), 1u);
    ASSERT_EQ(f.log.receives.size(), 1u);
    EXPECT_EQ(f.log.receives[0].length, bytes);
    EXPECT_EQ(f.responder->GetBytesReceived(), bytes);
    const double expected = AnalyticalGoodput(100e9, mtu);

    // Requester's view: message bytes over the completion time (includes one round trip
    // and the store-and-forward latency, < 0.5 % of the transfer).
    const RdmaCompletion& s = f.log.sends[0];
    const double fctGoodput = bytes * 8.0 / (s.completionTime - s.postTime).GetSeconds();
    EXPECT_NEAR(fctGoodput / expected, 1.0, 0.01) << "MTU " << mtu;
    EXPECT_LT(fctGoodput, expected);

    // Responder's view: steady-state rate between the first and the last packet, which
    // excludes the latency and should match the analytical value to rounding.
    const RdmaCompletion& r = f.log.receives[0];
    const double steady = (bytes - mtu) * 8.0 / (r.completionTime - r.postTime).GetSeconds();
    EXPECT_NEAR(steady / expected, 1.0, 0.001) << "MTU " << mtu;

    EXPECT_EQ(f.requester->GetRetransmissions(), 0u);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    Simulator::Destroy();
}

} // namespace

TEST(RdmaNic, LineRateGoodputMtu1024)
{
    // 100 Gb/s x 1024 / (1024 + 82) = 92.586 Gb/s
    CheckLineRateGoodput(1024);
}

TEST(RdmaNic, LineRateGoodputMtu4096)
{
    // 100 Gb/s x 4096 / (4096 + 82) = 98.037 Gb/s
    CheckLineRateGoodput(4096);
}

TEST(RdmaNic, SendAndZeroLengthMessagesComplete)
{
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.Connect();
    for (uint64_t len : {0ULL, 1ULL, 1023ULL, 1024ULL, 1025ULL, 5000ULL})
    {
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::SEND;
        wr.wrId = len;
        wr.length = len;
        Simulator::ScheduleWithContext(f.star.hosts.Get(1)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       f.requester,
                                       wr);
    }
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 6u);
    ASSERT_EQ(f.log.receives.size(), 6u);
    const uint64_t lengths[] = {0, 1, 1023, 1024, 1025, 5000};
    for (int i = 0; i < 6; ++i)
    {
        EXPECT_EQ(f.log.sends[i].wrId, lengths[i]); // completions in posting order
        EXPECT_EQ(f.log.receives[i].length, lengths[i]);
        EXPECT_EQ(f.log.receives[i].opcode, RdmaWorkRequest::SEND);
    }
    // packets: 1 + 1 + 1 + 1 + 2 + 5 = 11
    EXPECT_EQ(f.requester->GetPacketsSent(), 11u);
    Simulator::Destroy();
}

TEST(RdmaNic, PortDequeueCallbackSeesTheNicsAcks)
{
    // A host port's DequeueCallback ("called when a queued packet starts transmission") sees
    // the ACKs the NIC queues on it, although the NIC takes the port's received packets as
    // its handler: AckInterval 8, 100 packets, so 13 ACKs (as in AckCoalescing), each seen
    // before its Ethernet header is added (IPv4, UDP, BTH, AETH, ICRC: 48 bytes).
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.star.rdma.SetNicAttribute("AckInterval", UintegerValue(8));
    f.Connect();
    std::vector<uint32_t> dequeued;
    f.star.HostDevice(0)->SetDequeueCallback(
        RdmaNetDevice::DequeueCallback([&dequeued](Ptr<RdmaNetDevice>, Ptr<Packet> p, uint8_t) {
            dequeued.push_back(p->GetSize());
        }));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 100 * 1024);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1u);
    EXPECT_EQ(dequeued, std::vector<uint32_t>(13, 20 + 8 + 12 + 4 + 4));
    Simulator::Destroy();
}

TEST(RdmaNic, AckCoalescing)
{
    // AckInterval 8: one ACK per 8 packets plus one for the last packet.
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.star.rdma.SetNicAttribute("AckInterval", UintegerValue(8));
    f.Connect();
    uint64_t acks = 0;
    // Count ACK frames the receiver's port transmits.
    f.star.HostDevice(0)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(
            +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
            &acks));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 100 * 1024);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1u);
    // 100 packets: ACKs after packets 8, 16, ..., 96 (12) and the last one (100).
    EXPECT_EQ(acks, 13u);
    Simulator::Destroy();
}

TEST(RdmaNic, GoBackNUnderRandomLoss)
{
    // 1 % of data packets lost on the last link (switch -> receiver). Every loss makes the
    // responder NAK once; the requester then resends everything after the lost packet:
    // about K packets per loss, K = packets in flight when the NAK arrives =
    // (2 x delay + store-and-forward + NAK time) / packet time.
    RngSeedManager::SetSeed(3);
    const uint32_t mtu = 1024;
    const Time delay = MicroSeconds(1);
    OneFlow f("100Gbps", delay, mtu);
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    em->SetAttribute("ErrorRate", DoubleValue(0.01));
    em->AssignStreams(7);
    f.star.HostDevice(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    f.Connect();
    const uint32_t messages = 10;
    const uint64_t bytes = 200 * mtu;
    for (uint32_t i = 0; i < messages; ++i)
    {
        PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), bytes, i);
    }
    Simulator::Run();

    ASSERT_EQ(f.log.sends.size(), messages);
    ASSERT_EQ(f.log.receives.size(), messages);
    for (const auto& r : f.log.receives)
    {
        EXPECT_EQ(r.length, bytes);
    }
    EXPECT_EQ(f.responder->GetBytesReceived(), messages * bytes);

    const uint64_t lost = f.star.HostDevice(0)->GetRxDropCount();
    const uint64_t retx = f.requester->GetRetransmissions();
    ASSERT_GT(lost, 5u);
    // Packet time 1106 B x 8 / 100 Gb/s = 88.5 ns. A loss is detected when the next packet
    // arrives; the NAK then needs one link delay to the switch, one to the sender, plus its
    // own and the switch's serialization: K = (2 x 1 us + 2 x 88.5 ns + 2 x 6 ns) / 88.5 ns
    // ~= 25 packets resent per loss, plus the lost packet.
    const double packetTime = 1106 * 8 / 100e9;
    const double k = (2 * delay.GetSeconds() + 2 * packetTime) / packetTime + 1;
    const double perLoss = double(retx) / double(lost);
    EXPECT_GT(perLoss, 0.75 * k) << "retx " << retx << " lost " << lost;
    EXPECT_LT(perLoss, 1.25 * k) << "retx " << retx << " lost " << lost;
    EXPECT_GE(f.requester->GetNaksReceived() + f.requester->GetTimeouts(), 1u);
    EXPECT_GT(f.responder->GetOutOfOrderDiscards(), 0u);
    Simulator::Destroy();
}

TEST(RdmaNic, PsnWrapAround)
{
    // Start 100 packets before the 24-bit PSN wraps, send 1000 packets, and lose one
    // packet on each side of the wrap so that NAKs carry wrapped PSNs too.
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.star.rdma.SetQueuePairAttribute("InitialPsn", UintegerValue(0xFFFFFF - 100));
    Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
    f.star.HostDevice(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    f.Connect();

    // Drop the 90th and the 150th data frame the requester transmits (PSNs 0xFFFFF4 and
    // 0x000030 on the first pass), marking them by uid as they leave.
    struct DropPlan
    {
        Ptr<ListErrorModel> em;
        std::list<uint32_t> uids;
        uint64_t count{0};
    } plan{em, {}, 0};

    f.star.HostDevice(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(
            +[](DropPlan* d, Ptr<const Packet> p) {
                ++d->count;
                if (d->count == 90 || d->count == 150)
                {
                    d->uids.push_back(static_cast<uint32_t>(p->GetUid()));
                    d->em->SetList(d->uids);
                }
            },
            &plan));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 1000 * 1024);
    Simulator::Run();
    ASSERT_EQ(f.log.receives.size(), 1u);
    EXPECT_EQ(f.log.receives[0].length, 1000u * 1024);
    ASSERT_EQ(f.log.sends.size(), 1u);
    EXPECT_EQ(f.star.HostDevice(0)->GetRxDropCount(), 2u);
    EXPECT_GE(f.requester->GetNaksReceived(), 2u);
    EXPECT_EQ(f.requester->GetTimeouts(), 0u);
    // The PSN really wrapped.
    EXPECT_EQ(f.requester->SeqToPsn(100), 0xFFFFFFu);
    EXPECT_EQ(f.requester->SeqToPsn(101), 0u);
    EXPECT_EQ(f.requester->PsnToSeq(5, 99), 106u);
    EXPECT_EQ(f.requester->PsnToSeq(0xFFFFFF - 1, 101), 99u);
    Simulator::Destroy();
}

TEST(RdmaNic, TailLossRecoveredByTimeout)
{
    // The last packet of a message is lost: no later packet triggers a NAK, so only the
    // retransmission timer recovers it, one timeout after the packet was sent.
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
    f.star.HostDevice(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    f.Connect();

    struct DropLast
    {
        Ptr<ListErrorModel> em;
        uint64_t count{0};
    } plan{em, 0};

    f.star.HostDevice(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(
            +[](DropLast* d, Ptr<const Packet> p) {
                if (++d->count == 10)
                {
                    d->em->SetList({static_cast<uint32_t>(p->GetUid())});
                }
            },
            &plan));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 10 * 1024);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1u);
    EXPECT_EQ(f.requester->GetTimeouts(), 1u);
    EXPECT_EQ(f.requester->GetRetransmissions(), 1u);
    const double fctUs =
        (f.log.sends[0].completionTime - f.log.sends[0].postTime).GetMicroSeconds();
    // ~10 packets (1 us) + timeout 100 us + one packet round trip (~4 us).
    EXPECT_GT(fctUs, 100);
    EXPECT_LT(fctUs, 110);
    Simulator::Destroy();
}

TEST(RdmaNic, QueuePairsShareThePortFairly)
{
    // Three queue pairs from one host to one receiver share the sender's port round-robin:
    // equal messages finish within one packet time of each other, and together at the
    // aggregate line-rate goodput.
    OneFlow f("100Gbps", MicroSeconds(1), 1024);
    f.star.Install();
    std::vector<Ptr<RdmaQueuePair>> qps;
    std::vector<CompletionLog> logs(3);
    for (int i = 0; i < 3; ++i)
    {
        auto [a, b] = f.star.rdma.Connect(f.star.hosts.Get(1), f.star.hosts.Get(0));
        logs[i].Attach(a, b);
        PostWriteAt(a, f.star.hosts.Get(1), Seconds(0), 1'000'000, i);
        qps.push_back(a);
    }
    Simulator::Run();
    Time first = Time::Max();
    Time last(0);
    for (auto& l : logs)
    {
        ASSERT_EQ(l.sends.size(), 1u);
        first = std::min(first, l.sends[0].completionTime);
        last = std::max(last, l.sends[0].completionTime);
    }
    EXPECT_LT((last - first).GetNanoSeconds(), 3 * 89);
    const double goodput = 3e6 * 8 / last.GetSeconds();
    EXPECT_NEAR(goodput / AnalyticalGoodput(100e9, 1024), 1.0, 0.02);
    Simulator::Destroy();
}

TEST(RdmaNic, DiscardTraceCarriesTheWholeIpv4Packet)
{
    // Packets a NIC cannot use are traced as they arrived (IPv4 header first), whatever the
    // reason; the NIC reads the headers it needs from a copy of the bytes.
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    const uint32_t qpn = star.rdma.Connect(star.hosts.Get(0), star.hosts.Get(1)).second->GetQpn();
    Ptr<RdmaNic> receiver = star.hosts.Get(1)->GetObject<RdmaNic>();
    std::vector<std::pair<uint32_t, std::string>> discards;
    receiver->TraceConnectWithoutContext(
        "RxDiscard",
        MakeCallback(+[](std::vector<std::pair<uint32_t, std::string>>* out,
                         Ptr<const Packet> p,
                         const std::string& reason) {
            out->emplace_back(p->GetSize(), reason);
        }).Bind(&discards));
    const Ipv4Address from = star.hosts.Get(0)->GetObject<RdmaNic>()->GetAddress();
    const Ipv4Address to = receiver->GetAddress();
    const uint32_t payload = 100;
    const uint32_t ipv4Bytes = 20 + 8 + RdmaBthHeader::SIZE + payload;
    for (uint8_t opcode : {uint8_t(RC_WRITE_ONLY), uint8_t(0x1f)}) // a WRITE; no such opcode
    {
        // No QP qpn + 1000.
        Ptr<Packet> p =
            MakeRoceV2Packet(from, to, opcode, opcode == RC_WRITE_ONLY ? qpn + 1000 : qpn, payload);
        Simulator::Schedule(MicroSeconds(opcode),
                            [&star, p]() { star.HostDevice(0)->Enqueue(p, 0); });
    }
    Simulator::Run();
    ASSERT_EQ(discards.size(), 2u);
    EXPECT_EQ(discards[0], std::make_pair(ipv4Bytes, std::string("no such destination QP")));
    EXPECT_EQ(discards[1], std::make_pair(ipv4Bytes, std::string("unsupported BTH opcode")));
    EXPECT_EQ(receiver->GetRxDiscards(), 2u);
    Simulator::Destroy();
}
