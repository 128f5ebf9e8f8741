/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The transport endpoint seam (issue 17): the NIC drives its queue pairs only through
// RdmaTransportEndpoint, so a queue-pair subclass set as the NIC's queue-pair type is the one
// driven, and an endpoint that is no queue pair at all can be connected; path selectors see
// an RdmaPathRequest holding what they read; the responder's reaction to a packet out of
// order belongs to the loss recovery.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>
#include <list>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace ns3
{

/// A queue pair that counts the NIC's calls into it: the packets it is asked to build and
/// the data packets it is handed.
class RdmaCountingQueuePair : public RdmaQueuePair
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaCountingQueuePair")
                                .SetParent<RdmaQueuePair>()
                                .SetGroupName("Rdma")
                                .AddConstructor<RdmaCountingQueuePair>();
        return tid;
    }

    using RdmaQueuePair::GetNextPacket;

    Ptr<Packet> GetNextPacket(uint16_t sourcePort) override
    {
        ++m_built;
        return RdmaQueuePair::GetNextPacket(sourcePort);
    }

    void ReceiveData(Ptr<Packet> payload,
                     const RdmaBthHeader& bth,
                     bool ecnCe,
                     uint8_t ttl = 64) override
    {
        ++m_dataIn;
        RdmaQueuePair::ReceiveData(payload, bth, ecnCe, ttl);
    }

    uint64_t m_built{0};  //!< GetNextPacket calls
    uint64_t m_dataIn{0}; //!< ReceiveData calls
};

NS_OBJECT_ENSURE_REGISTERED(RdmaCountingQueuePair);

/// An endpoint that is no queue pair: it sends nothing and counts the data packets (and
/// their PSNs) the NIC hands it.
class RdmaSinkEndpoint : public RdmaTransportEndpoint
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaSinkEndpoint")
                                .SetParent<RdmaTransportEndpoint>()
                                .SetGroupName("Rdma")
                                .AddConstructor<RdmaSinkEndpoint>();
        return tid;
    }

    void Setup(uint32_t qpn,
               Ipv4Address /* localAddress */,
               DataRate /* lineRate */,
               const RdmaQpParameters& /* params */,
               Ptr<RdmaCongestionControl> /* cc */,
               Ptr<RdmaLossRecovery> /* lr */,
               Callback<void> /* txReady */,
               ControlSendCallback /* sendControl */) override
    {
        m_qpn = qpn;
    }

    void Connect(Ipv4Address /* remoteAddress */, uint32_t /* remoteQpn */) override
    {
    }

    uint32_t GetInitialPsn() const override
    {
        return m_initialPsn;
    }

    void SetInitialPsn(uint32_t psn) override
    {
        m_initialPsn = psn;
    }

    uint32_t GetQpn() const override
    {
        return m_qpn;
    }

    bool HasDataToSend() const override
    {
        return false;
    }

    Ptr<Packet> GetNextPacket(uint16_t /* sourcePort */) override
    {
        NS_ABORT_MSG("RdmaSinkEndpoint has nothing to send");
        return nullptr;
    }

    void GetPathRequest(RdmaPathRequest& /* request */, bool /* withAddress */) const override
    {
    }

    void ReceiveData(Ptr<Packet> /* payload */,
                     const RdmaBthHeader& bth,
                     bool /* ecnCe */,
                     uint8_t /* ttl */) override
    {
        m_psns.push_back(bth.GetPsn());
    }

    void ReceiveAck(const RdmaBthHeader& /* bth */,
                    const RdmaAethHeader& /* aeth */,
                    Ptr<Packet> /* rest */) override
    {
    }

    void ReceiveCnp() override
    {
    }

    std::vector<uint32_t> m_psns; //!< PSNs of the data packets received
    uint32_t m_qpn{0};
    uint32_t m_initialPsn{0};
};

NS_OBJECT_ENSURE_REGISTERED(RdmaSinkEndpoint);

/// Go-back-N whose responder never NAKs: it drops a packet beyond a gap silently, so the
/// requester can only recover by its retransmission timeout.
class RdmaSilentGoBackNLossRecovery : public RdmaGoBackNLossRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaSilentGoBackNLossRecovery")
                                .SetParent<RdmaGoBackNLossRecovery>()
                                .SetGroupName("Rdma")
                                .AddConstructor<RdmaSilentGoBackNLossRecovery>();
        return tid;
    }

    Ptr<RdmaLossRecovery> Fork() override
    {
        return CreateObject<RdmaSilentGoBackNLossRecovery>();
    }

    RxVerdict OnOutOfOrderData(RdmaReceiveState& /* state */,
                               RdmaReceiverOps& rx,
                               uint64_t seq) override
    {
        rx.CountOutOfOrderDiscard(seq);
        return RX_DISCARD;
    }
};

NS_OBJECT_ENSURE_REGISTERED(RdmaSilentGoBackNLossRecovery);

/// A path selector that records every request and changes nothing (the queue pair's own
/// source port, one port).
class RdmaRecordingPathSelector : public RdmaPathSelector
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaRecordingPathSelector")
                                .SetParent<RdmaPathSelector>()
                                .SetGroupName("Rdma")
                                .AddConstructor<RdmaRecordingPathSelector>();
        return tid;
    }

    bool SpreadsQueuePairs() const override
    {
        return false;
    }

    bool VariesSourcePort() const override
    {
        return true; // so that the NIC asks even with one port
    }

    bool NeedsAddress() const override
    {
        return true;
    }

    uint32_t SelectPort(const RdmaPathRequest& /* request */, uint32_t /* nPorts */) override
    {
        return ANY_PORT;
    }

    uint16_t SelectSourcePort(const RdmaPathRequest& request, uint32_t /* nPorts */) override
    {
        m_requests.push_back(request);
        return request.sourcePort;
    }

    std::vector<RdmaPathRequest> m_requests;
};

NS_OBJECT_ENSURE_REGISTERED(RdmaRecordingPathSelector);

} // namespace ns3

namespace
{

constexpr uint32_t MTU = 1000;

/// A sender (host 1) and a receiver (host 0) through one switch, 100 Gb/s, 1 us links.
struct Pair
{
    Star star{2, "100Gbps", MicroSeconds(1)};

    Pair()
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
    }
};

} // namespace

TEST(RdmaEndpoint, QueuePairSubclassIsTheOneTheNicDrives)
{
    // A WRITE of 10 packets: the NIC builds every data packet through the subclass's
    // GetNextPacket and hands every data packet to the responder's ReceiveData.
    Pair f;
    f.star.rdma.SetQueuePairType("ns3::RdmaCountingQueuePair");
    f.star.Install();
    auto [qp, peer] = f.star.rdma.Connect(f.star.hosts.Get(1), f.star.hosts.Get(0));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, f.star.hosts.Get(1), Seconds(0), 10 * MTU);
    Simulator::Run();
    auto requester = DynamicCast<RdmaCountingQueuePair>(qp);
    auto responder = DynamicCast<RdmaCountingQueuePair>(peer);
    ASSERT_TRUE(requester && responder);
    ASSERT_EQ(log.receives.size(), 1u);
    EXPECT_EQ(log.receives[0].length, 10u * MTU);
    EXPECT_EQ(requester->GetPacketsSent(), 10u);
    EXPECT_EQ(requester->m_built, 10u);
    EXPECT_EQ(responder->m_dataIn, 10u);
    EXPECT_EQ(responder->m_built, 0u);
    Simulator::Destroy();
}

TEST(RdmaEndpoint, AnEndpointThatIsNoQueuePairIsConnectedAndFed)
{
    // A queue pair sends a WRITE of 5 packets to a sink endpoint of another type: the
    // responder NIC demultiplexes the data to it by QPN; the NIC's queue-pair look-up
    // answers nullptr for it, the endpoint look-up the sink.
    Pair f;
    f.star.Install();
    Ptr<RdmaNic> a = f.star.hosts.Get(1)->GetObject<RdmaNic>();
    Ptr<RdmaNic> b = f.star.hosts.Get(0)->GetObject<RdmaNic>();
    ObjectFactory sink("ns3::RdmaSinkEndpoint");
    ObjectFactory qps = a->GetQueuePairFactory();
    qps.Set("InitialPsn", UintegerValue(100));
    auto [qa, qb] = a->ConnectEndpoints(b, qps, sink);
    Ptr<RdmaQueuePair> qp = DynamicCast<RdmaQueuePair>(qa);
    Ptr<RdmaSinkEndpoint> sinkEp = DynamicCast<RdmaSinkEndpoint>(qb);
    ASSERT_TRUE(qp && sinkEp);
    EXPECT_EQ(sinkEp->GetInitialPsn(), 100u); // exchanged out of band by ConnectEndpoints
    EXPECT_EQ(b->GetQueuePair(sinkEp->GetQpn()), nullptr);
    EXPECT_EQ(b->GetEndpoint(sinkEp->GetQpn()), qb);
    EXPECT_EQ(a->GetQueuePair(qp->GetQpn()), qp);
    PostWriteAt(qp, f.star.hosts.Get(1), Seconds(0), 5 * MTU);
    // No ACK ever comes: stop before the retransmission timeout (the NIC default is ms).
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(sinkEp->m_psns, (std::vector<uint32_t>{100, 101, 102, 103, 104}));
    EXPECT_EQ(qp->GetPacketsSent(), 5u);
    EXPECT_EQ(qp->GetRetransmissions(), 0u);
    Simulator::Destroy();
}

TEST(RdmaEndpoint, PathSelectorSeesWhatItReads)
{
    // A selector asked for every packet (VariesSourcePort) records the requests: the two
    // addresses, the queue pair's source port and MTU, its packets sent before this one,
    // and the remote address of each packet's first byte (NeedsAddress).
    Pair f;
    f.star.rdma.SetPathSelector("ns3::RdmaRecordingPathSelector");
    f.star.Install();
    auto [qp, peer] = f.star.rdma.Connect(f.star.hosts.Get(1), f.star.hosts.Get(0));
    PostWriteAt(qp, f.star.hosts.Get(1), Seconds(0), 4 * MTU); // remote address 0x1000
    Simulator::Run();
    auto selector = DynamicCast<RdmaRecordingPathSelector>(
        f.star.hosts.Get(1)->GetObject<RdmaNic>()->GetPathSelector());
    ASSERT_TRUE(selector);
    ASSERT_EQ(selector->m_requests.size(), 4u);
    for (uint64_t i = 0; i < 4; ++i)
    {
        const RdmaPathRequest& r = selector->m_requests[i];
        EXPECT_EQ(r.localAddress, qp->GetLocalAddress());
        EXPECT_EQ(r.remoteAddress, qp->GetRemoteAddress());
        EXPECT_EQ(r.sourcePort, qp->GetSourcePort());
        EXPECT_EQ(r.mtu, MTU);
        EXPECT_EQ(r.packetsSent, i);
        EXPECT_EQ(r.address, 0x1000 + i * MTU);
    }
    Simulator::Destroy();
}

TEST(RdmaEndpoint, LossRecoveryOwnsTheRespondersReaction)
{
    // One data frame of a 20-packet WRITE is lost. With go-back-N the responder NAKs the
    // gap once and the requester resends at once (no timeout); with a loss recovery whose
    // responder stays silent, the same queue pair sends no NAK and the requester recovers
    // only by its timeout. Only the loss recovery TypeId differs.
    for (bool silent : {false, true})
    {
        Pair f;
        f.star.rdma.SetLossRecovery(silent ? "ns3::RdmaSilentGoBackNLossRecovery"
                                           : "ns3::RdmaGoBackNLossRecovery");
        f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
        f.star.Install();
        auto [qp, peer] = f.star.rdma.Connect(f.star.hosts.Get(1), f.star.hosts.Get(0));
        // Drop the 5th data frame the sender transmits, at the receiver's port.
        Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
        f.star.HostDevice(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));

        struct Dropper
        {
            Ptr<ListErrorModel> em;
            uint32_t count{0};
            std::list<uint32_t> uids;
        } dropper{em, 0, {}};

        f.star.HostDevice(1)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeBoundCallback(
                +[](Dropper* d, Ptr<const Packet> p) {
                    if (++d->count == 5)
                    {
                        d->uids.push_back(static_cast<uint32_t>(p->GetUid()));
                        d->em->SetList(d->uids);
                    }
                },
                &dropper));
        CompletionLog log;
        log.Attach(qp, peer);
        PostWriteAt(qp, f.star.hosts.Get(1), Seconds(0), 20 * MTU);
        Simulator::Run();
        ASSERT_EQ(log.receives.size(), 1u) << (silent ? "silent" : "go-back-N");
        EXPECT_EQ(log.receives[0].length, 20u * MTU);
        // Packets 6..20 (or as many as were sent before the recovery) arrived beyond the gap.
        EXPECT_GT(peer->GetOutOfOrderDiscards(), 0u);
        if (silent)
        {
            EXPECT_EQ(peer->GetNaksSent(), 0u);
            EXPECT_EQ(qp->GetNaksReceived(), 0u);
            EXPECT_EQ(qp->GetTimeouts(), 1u);
        }
        else
        {
            EXPECT_EQ(peer->GetNaksSent(), 1u);
            EXPECT_EQ(qp->GetNaksReceived(), 1u);
            EXPECT_EQ(qp->GetTimeouts(), 0u);
        }
        Simulator::Destroy();
    }
}

TEST(RdmaEndpointDeathTest, ConnectRefusesAnEndpointThatIsNoQueuePair)
{
    EXPECT_DEATH(
        {
            Pair f;
            f.star.Install();
            Ptr<RdmaNic> a = f.star.hosts.Get(1)->GetObject<RdmaNic>();
            Ptr<RdmaNic> b = f.star.hosts.Get(0)->GetObject<RdmaNic>();
            a->Connect(b, a->GetQueuePairFactory(), ObjectFactory("ns3::RdmaSinkEndpoint"));
        },
        "both must make an ns3::RdmaQueuePair");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            rdma.SetQueuePairType("ns3::RdmaSinkEndpoint");
        },
        "is not an ns3::RdmaQueuePair");
}
