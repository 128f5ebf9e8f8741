/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "rdma-ack-timestamp-header.h"
#include "rdma-aeth-header.h"
#include "rdma-atomic-ack-eth-header.h"
#include "rdma-atomic-eth-header.h"
#include "rdma-bth-header.h"
#include "rdma-congestion-control.h"
#include "rdma-header-stack.h"
#include "rdma-icrc-trailer.h"
#include "rdma-int-header.h"
#include "rdma-net-device.h"
#include "rdma-packet-room.h"
#include "rdma-placement-header.h"
#include "rdma-reth-header.h"
#include "rdma-sack-header.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

namespace
{
/// \return true for a READ Request or an atomic request (BTH opcode)
bool
IsRequestOpcode(uint8_t opcode)
{
    return opcode == RC_READ_REQUEST || opcode == RC_COMPARE_SWAP || opcode == RC_FETCH_ADD;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
/// Size of the ring of per-sequence send times used for RTT samples.
constexpr std::size_t SEND_TIME_RING = 4096;
/// Initial size of that ring: it doubles while more packets are in flight (memory per
/// queue pair stays small for the thousands of short flows of a large fabric).
constexpr std::size_t SEND_TIME_RING_MIN = 64;
/// CNP payload: 16 reserved bytes after the BTH (RoCEv2 annex A17.9.3).
constexpr uint32_t CNP_RESERVED_BYTES = 16;
/// IPv4 TTL senders start with (RdmaHeaderStack); switches decrement it.
constexpr uint8_t INITIAL_TTL = 64;
/// Send-time ring entry of a retransmitted sequence: its RTT samples are ambiguous (Karn).
const Time AMBIGUOUS_SEND_TIME = Time(-1);

/**
 * Add a header in front of a packet. The first one added to its zero-filled payload goes
 * into a buffer area ns-3 recycles (RdmaPacketRoom); the headers after it fit in front.
 * \param packet the packet
 * \param header the header
 * \param first nothing was added in front of or behind the payload yet; cleared
 */
void
AddInFront(const Ptr<Packet>& packet, const Header& header, bool& first)
{
    if (first)
    {
        RdmaPacketRoom::AddFirstHeader(packet, header);
        first = false;
    }
    else
    {
        packet->AddHeader(header);
    }
}
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<RdmaTransportEndpoint>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("InitialPsn",
                          "First PSN of the send queue (and the peer's expected PSN). A value "
                          "near 2^24 exercises PSN wrap-around.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, PSN_MASK))
            .AddAttribute("Dscp",
                          "DSCP of data and ACK packets; the traffic class is DSCP >> 3. "
                          "26 (class 3) is the RoCE default of NVIDIA NICs.",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RdmaQueuePair::SetDscp, &RdmaQueuePair::GetDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("SourcePort",
                          "UDP source port (the flow's ECMP entropy); 0 derives it from the "
                          "QPN as RoCE NICs do (0xC000 | hash(QPN) & 0x3FFF).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_sourcePort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("BaseRtt",
                          "Base (unloaded) round trip of the path, given to the congestion "
                          "control (RdmaCcState::baseRtt; HPCC's T, the window of one "
                          "bandwidth-delay product). 0: the smallest RTT sample measured.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaQueuePair::m_configuredBaseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InitiatorDepth",
                          "RDMA READs this queue pair may have outstanding as requester (IBTA "
                          "ORD, verbs max_rd_atomic); at most the peer's ResponderResources. "
                          "16: what ConnectX adapters (mlx5) report as max_qp_init_rd_atom "
                          "and max_qp_rd_atom (ibv_devinfo -v).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaQueuePair::m_initiatorDepth),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ResponderResources",
                          "RDMA READs this queue pair queues as responder (IBTA IRD, verbs "
                          "max_dest_rd_atomic). 16: ConnectX's max_qp_rd_atom.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaQueuePair::m_responderResources),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxReadSize",
                          "Longest RDMA READ this queue pair serves as responder, bytes (IBTA "
                          "maximum message size 2^31).",
                          UintegerValue(0x80000000ULL),
                          MakeUintegerAccessor(&RdmaQueuePair::m_maxReadSize),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Rate",
                            "The congestion control's sending rate (pacing), old and new.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_rateTrace),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource("Window",
                            "The congestion control's window in payload bytes (0: none), old "
                            "and new.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_windowTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Rtt",
                            "An RTT sample (Karn-filtered: never of a retransmitted packet).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_rttTrace),
                            "ns3::RdmaQueuePair::RttTracedCallback")
            .AddTraceSource("LossEvent",
                            "A loss the congestion control was told of: NAK, RACK loss, "
                            "tail-loss probe or timeout, and the sequence concerned.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_lossEventTrace),
                            "ns3::RdmaQueuePair::LossEventTracedCallback")
            .AddTraceSource("Tx",
                            "A data packet was transmitted: its sequence and whether it is "
                            "a retransmission.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_txTrace),
                            "ns3::RdmaQueuePair::TxTracedCallback")
            .AddTraceSource("ReadResponseTx",
                            "The responder sent a READ Response packet (its sequence); "
                            "Atomic Acknowledges have AtomicAckTx.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_readResponseTxTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("AtomicAckTx",
                            "The responder sent an Atomic Acknowledge (its sequence).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_atomicAckTxTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("ReadPlacement",
                            "A READ Response's payload landed in the requester's buffer: "
                            "sequence, local address (the work request's localAddress plus "
                            "the response's offset), bytes, and whether an earlier response "
                            "of the queue pair was still missing.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_readPlacementTrace),
                            "ns3::RdmaQueuePair::PlacementTracedCallback")
            .AddTraceSource("ReadReRequest",
                            "The requester re-issued a READ Request from this sequence (the "
                            "first missing response).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_readReRequestTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("Timeout",
                            "The retransmission timer expired (oldest unacknowledged seq).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_timeoutTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("NakReceived",
                            "A NAK (PSN sequence error) arrived for this sequence.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_nakTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("OutOfOrderDiscard",
                            "The responder discarded an out-of-order packet.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_oooDiscardTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("ReorderWindowDrop",
                            "The responder dropped a packet beyond its reorder bitmap "
                            "(out-of-order placement).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_windowDropTrace),
                            "ns3::RdmaQueuePair::SequenceTracedCallback")
            .AddTraceSource("Placement",
                            "The responder placed a data packet into memory: sequence, "
                            "address (WRITE: virtual address; SEND: offset in the receive "
                            "buffer), payload bytes, and whether a predecessor was missing.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_placementTrace),
                            "ns3::RdmaQueuePair::PlacementTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A CNP arrived at the requester.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_cnpRxTrace),
                            "ns3::TracedCallback::Void")
            .AddTraceSource("SendComplete",
                            "A posted work request completed.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_sendCompleteTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback")
            .AddTraceSource("ReceiveComplete",
                            "An incoming message was placed completely and in order.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_recvCompleteTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
{
    NS_LOG_FUNCTION(this);
}

RdmaQueuePair::~RdmaQueuePair()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaQueuePair::DoDispose()
{
    m_timerEvent.Cancel();
    m_timerPending = false;
    m_responseTimer.Cancel();
    m_cc = nullptr;
    if (m_lr)
    {
        m_lr->Dispose(); // its own timers (a responder's reorder timer) hold this QP's state
    }
    m_lr = nullptr;
    m_txReady = Callback<void>();
    m_sendControl = ControlSendCallback();
    m_sendCompletion = CompletionCallback();
    m_recvCompletion = CompletionCallback();
    m_txMessages.clear();
    m_readResponses.clear();
    m_memory = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(uint32_t qpn,
                     Ipv4Address localAddress,
                     DataRate lineRate,
                     const RdmaQpParameters& params,
                     Ptr<RdmaCongestionControl> cc,
                     Ptr<RdmaLossRecovery> lr,
                     Callback<void> txReady,
                     ControlSendCallback sendControl)
{
    NS_LOG_FUNCTION(this << qpn << localAddress << lineRate);
    NS_ABORT_MSG_IF(qpn > PSN_MASK, "QPN " << qpn << " does not fit the 24-bit BTH field");
    NS_ABORT_MSG_IF(!cc || !lr,
                    "queue pair " << qpn << " needs a congestion control and a loss recovery");
    m_qpn = qpn;
    m_localAddress = localAddress;
    m_localAddressBits = localAddress.Get();
    m_params = params;
    m_cc = cc;
    m_cc->SetRateChangeCallback(MakeCallback(&RdmaQueuePair::RateChanged, this));
    m_cc->SetRepathCallback(MakeCallback(&RdmaQueuePair::Repath, this));
    m_wantTimestamps = m_cc->NeedsTimestamps();
    m_wantTelemetry = m_cc->NeedsTelemetry();
    if (m_wantTelemetry)
    {
        const uint32_t multiplier = m_cc->GetTelemetryMultiplier();
        NS_ABORT_MSG_IF(multiplier < 1 || multiplier > RdmaIntHop::MAX_MULTIPLIER,
                        "congestion control " << m_cc->GetName() << ": telemetry multiplier "
                                              << multiplier << " invalid; valid: 1.."
                                              << RdmaIntHop::MAX_MULTIPLIER);
        RdmaIntHeader area;
        area.SetMultiplier(multiplier);
        m_txIntTrailer.SetArea(area);
    }
    m_lr = lr;
    m_txReady = txReady;
    m_sendControl = sendControl;
    m_ccState.lineRate = lineRate;
    m_ccState.mtu = params.mtu;
    if (m_sourcePort == 0)
    {
        // RoCE NICs derive the UDP source port from the QPN; mix it so that consecutive
        // QPNs spread over ECMP hash buckets.
        uint32_t h = qpn * 0x9E3779B1u;
        h ^= h >> 15;
        m_sourcePort = static_cast<uint16_t>(0xC000 | (h & 0x3FFF));
    }
    m_sendTimes.assign(SEND_TIME_RING_MIN, AMBIGUOUS_SEND_TIME);
    m_rs.baseRto = params.retransmitTimeout;
    m_rxs.ackInterval = params.ackInterval;
    m_selective = lr->PlacesOutOfOrder();
    m_restartOnGap = lr->RestartsMessageOnGap();
    m_unreliable = !lr->Retransmits();
    // Every response PSN of a READ takes the request's send time in the scoreboard (spacing
    // 0). Timing them a frame apart at the line rate was tried: re-requested responses,
    // served ahead of the stream, delay the rest of it, and RACK then took the delayed
    // responses for lost ones (a 2 MB READ at 2 % loss re-requested 619 responses for 46
    // lost). With one send time RACK finds a missing response only once the responses after
    // it stop arriving (the end of the stream), and the timeout or probe finds the rest.
    m_responseSpacing = Time(0);
    if (m_selective)
    {
        const uint32_t window = lr->GetReorderWindow();
        NS_ABORT_MSG_IF(window < 1 || window > RdmaSackHeader::MAX_BITS,
                        "loss recovery " << lr->GetName() << " asks for a reorder bitmap of "
                                         << window << " packets; valid: 1.."
                                         << RdmaSackHeader::MAX_BITS);
    }
}

void
RdmaQueuePair::Connect(Ipv4Address remoteAddress, uint32_t remoteQpn)
{
    NS_LOG_FUNCTION(this << remoteAddress << remoteQpn);
    NS_ABORT_MSG_IF(remoteQpn > PSN_MASK,
                    "remote QPN " << remoteQpn << " does not fit the 24-bit BTH field");
    NS_ABORT_MSG_IF(!m_cc, "queue pair must be created by RdmaNic::CreateQueuePair before Connect");
    NS_ABORT_MSG_IF(m_initiatorDepth == 0,
                    "ns3::RdmaQueuePair::InitiatorDepth 0 on queue pair "
                        << m_qpn << " is invalid: at least 1 outstanding RDMA READ (IBTA ORD)");
    NS_ABORT_MSG_IF(m_responderResources == 0,
                    "ns3::RdmaQueuePair::ResponderResources 0 on queue pair "
                        << m_qpn << " is invalid: at least 1 queued RDMA READ (IBTA IRD)");
    NS_ABORT_MSG_IF(m_maxReadSize == 0 || m_maxReadSize > 0x80000000ULL,
                    "ns3::RdmaQueuePair::MaxReadSize "
                        << m_maxReadSize << " on queue pair " << m_qpn
                        << " is invalid; valid: 1..2^31 (IBTA maximum message size)");
    m_remoteAddress = remoteAddress;
    m_remoteAddressBits = remoteAddress.Get();
    m_remoteQpn = remoteQpn;
    m_connected = true;
    m_ccState.baseRtt = m_configuredBaseRtt;
    m_cc->Init(m_ccState);
    m_lr->Init(m_rs);
    PublishCcState();
}

void
RdmaQueuePair::PostSend(const RdmaWorkRequest& wr)
{
    NS_LOG_FUNCTION(this << wr.wrId << wr.length);
    NS_ABORT_MSG_IF(!m_connected, "PostSend on queue pair " << m_qpn << " before Connect");
    NS_ABORT_MSG_IF(wr.length > 0x80000000ULL,
                    "work request length " << wr.length
                                           << " exceeds the IBTA maximum message size 2^31");
    if (wr.opcode == RdmaWorkRequest::READ)
    {
        NS_ABORT_MSG_IF(m_restartOnGap,
                        "RDMA READ on queue pair "
                            << m_qpn << " needs go-back-N, selective repeat or the unreliable "
                            << "mode; it uses " << m_lr->GetName());
        NS_ABORT_MSG_IF(wr.length > m_peerMaxReadSize,
                        "RDMA READ of " << wr.length << " bytes on queue pair " << m_qpn
                                        << " exceeds the responder's MaxReadSize "
                                        << m_peerMaxReadSize << "; valid: 0.."
                                        << m_peerMaxReadSize);
        ++m_readsQueued;
    }
    else if (RdmaWorkRequest::IsAtomic(wr.opcode))
    {
        CheckAtomicRequest(wr);
        ++m_readsQueued; // an atomic counts against InitiatorDepth as a READ does
    }
    TxMessage m;
    m.wr = wr;
    m.firstSeq = m_rs.seqEnd;
    m.numPackets = wr.length == 0 ? 1 : (wr.length + m_params.mtu - 1) / m_params.mtu;
    m.sendMsn = 0;
    if (wr.opcode == RdmaWorkRequest::SEND)
    {
        m.sendMsn = m_nextSendMsn;
        m_nextSendMsn = (m_nextSendMsn + 1) & PSN_MASK;
    }
    m.postTime = RdmaSimulatorImpl::CurrentTime();
    m_rs.seqEnd += m.numPackets;
    m_txMessages.push_back(m);
    if (!m_txReady.IsNull())
    {
        m_txReady();
    }
}

void
RdmaQueuePair::SetPeerReadLimits(uint32_t responderResources, uint64_t maxReadSize)
{
    NS_LOG_FUNCTION(this << responderResources << maxReadSize);
    NS_ABORT_MSG_IF(m_initiatorDepth == 0,
                    "ns3::RdmaQueuePair::InitiatorDepth 0 on queue pair "
                        << m_qpn << " is invalid: at least 1 outstanding RDMA READ (IBTA ORD)");
    NS_ABORT_MSG_IF(responderResources == 0,
                    "ns3::RdmaQueuePair::ResponderResources 0 of the peer of queue pair "
                        << m_qpn << " is invalid: at least 1 queued RDMA READ (IBTA IRD)");
    NS_ABORT_MSG_IF(m_initiatorDepth > responderResources,
                    "ns3::RdmaQueuePair::InitiatorDepth "
                        << m_initiatorDepth << " on queue pair " << m_qpn
                        << " exceeds the peer's ResponderResources " << responderResources
                        << "; valid: 1.." << responderResources
                        << " (IBTA: the requester's ORD must not exceed the responder's IRD)");
    m_peerResponderResources = responderResources;
    m_peerMaxReadSize = maxReadSize;
}

uint32_t
RdmaQueuePair::GetResponderResources() const
{
    return m_responderResources;
}

uint64_t
RdmaQueuePair::GetMaxReadSize() const
{
    return m_maxReadSize;
}

void
RdmaQueuePair::SetSendCompletionCallback(CompletionCallback cb)
{
    m_sendCompletion = cb;
}

void
RdmaQueuePair::SetReceiveCompletionCallback(CompletionCallback cb)
{
    m_recvCompletion = cb;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RdmaQueuePair::GetRemoteAddress() const
{
    return m_remoteAddress;
}

Ipv4Address
RdmaQueuePair::GetLocalAddress() const
{
    return m_localAddress;
}

uint32_t
RdmaQueuePair::GetMtu() const
{
    return m_params.mtu;
}

uint32_t
RdmaQueuePair::GetInitialPsn() const
{
    return m_initialPsn;
}

void
RdmaQueuePair::SetInitialPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > PSN_MASK, "initial PSN " << psn << " does not fit the 24-bit BTH field");
    NS_ABORT_MSG_IF(m_connected, "RdmaQueuePair::SetInitialPsn after Connect");
    m_initialPsn = psn;
}

void
RdmaQueuePair::SetDscp(uint8_t dscp)
{
    m_dscp = dscp;
    m_trafficClass = dscp >> 3;
}

uint8_t
RdmaQueuePair::GetDscp() const
{
    return m_dscp;
}

uint16_t
RdmaQueuePair::GetSourcePort() const
{
    return m_sourcePort;
}

bool
RdmaQueuePair::HasDataToSend() const
{
    return !m_readResponses.empty() || RequesterHasData();
}

bool
RdmaQueuePair::RequesterHasData() const
{
    if (m_ccState.window != 0 && m_ccState.bytesInFlight >= m_ccState.window)
    {
        return false; // a packet may leave while fewer than window bytes are in flight
    }
    uint64_t seq;
    return m_lr->GetNextSequence(m_rs, seq) && (m_readsQueued == 0 || ReadAllowed(seq));
}

bool
RdmaQueuePair::ReadAllowed(uint64_t seq) const
{
    // The send queue is processed in order: a READ beyond the initiator depth holds back
    // what follows it too. A READ already requested (a re-request) takes no new slot.
    const TxMessage& m = m_txMessages[FindMessage(seq)];
    return !RdmaWorkRequest::HasResponse(m.wr.opcode) || seq < m_rs.highestSent ||
           m_readsOutstanding < m_initiatorDepth;
}

uint32_t
RdmaQueuePair::SeqToPsn(uint64_t seq) const
{
    return static_cast<uint32_t>((m_initialPsn + seq) & PSN_MASK);
}

uint64_t
RdmaQueuePair::PsnToSeq(uint32_t psn, uint64_t reference) const
{
    // Signed 24-bit distance from the reference's PSN.
    int32_t delta = static_cast<int32_t>((psn - SeqToPsn(reference)) & PSN_MASK);
    if (delta >= 0x800000)
    {
        delta -= 0x1000000;
    }
    if (delta < 0 && static_cast<uint64_t>(-delta) > reference)
    {
        return 0; // before the first sequence: treat as an old duplicate of seq 0
    }
    return reference + delta;
}

std::size_t
RdmaQueuePair::FindMessage(uint64_t seq) const
{
    if (m_cursor < m_txMessages.size())
    {
        const TxMessage& m = m_txMessages[m_cursor];
        if (seq >= m.firstSeq && seq < m.firstSeq + m.numPackets)
        {
            return m_cursor;
        }
    }
    // The last message starting at or below seq (messages are in sequence order).
    const std::size_t after =
        m_txMessages.partition_point([seq](const TxMessage& m) { return m.firstSeq <= seq; });
    NS_ASSERT(after > 0);
    m_cursor = after - 1;
    return m_cursor;
}

Ptr<Packet>
RdmaQueuePair::GetNextPacket()
{
    return GetNextPacket(m_sourcePort);
}

uint64_t
RdmaQueuePair::GetNextPacketAddress() const
{
    if (!m_readResponses.empty() && (m_preferResponse || !RequesterHasData()))
    {
        const ReadResponse& r = m_readResponses.front();
        return r.virtualAddress + (r.nextSeq - r.startSeq) * m_params.mtu;
    }
    uint64_t seq = 0;
    const bool any = m_lr->GetNextSequence(m_rs, seq);
    NS_ASSERT_MSG(any, "GetNextPacketAddress without a packet to send");
    const TxMessage& m = m_txMessages[FindMessage(seq)];
    const uint64_t offset = (seq - m.firstSeq) * m_params.mtu;
    return m.wr.opcode == RdmaWorkRequest::SEND ? offset : m.wr.remoteAddress + offset;
}

void
RdmaQueuePair::GetPathRequest(RdmaPathRequest& request, bool withAddress) const
{
    request.localAddress = m_localAddress;
    request.remoteAddress = m_remoteAddress;
    request.sourcePort = m_sourcePort;
    request.packetsSent = m_packetsSent;
    request.mtu = m_params.mtu;
    request.address = withAddress ? GetNextPacketAddress() : 0;
}

Ptr<Packet>
RdmaQueuePair::GetNextPacket(uint16_t sourcePort)
{
    if (sourcePort == OWN_SOURCE_PORT)
    {
        sourcePort = m_sourcePort;
    }
    if (!m_readResponses.empty())
    {
        // Responses and the queue pair's own requests take turns (one pacer, one rate).
        if (m_preferResponse || !RequesterHasData())
        {
            m_preferResponse = false;
            return GetNextReadResponse(sourcePort);
        }
        m_preferResponse = true;
    }
    uint64_t seq = 0;
    const bool any = m_lr->GetNextSequence(m_rs, seq);
    NS_ASSERT_MSG(any, "GetNextPacket without a packet to send");
    NS_ASSERT(seq < m_rs.seqEnd && seq >= m_rs.sndUna);
    TxMessage& m = m_txMessages[FindMessage(seq)];
    const uint64_t index = seq - m.firstSeq;
    if (m.wr.opcode == RdmaWorkRequest::READ)
    {
        return GetReadRequest(m, seq, sourcePort);
    }
    if (RdmaWorkRequest::IsAtomic(m.wr.opcode))
    {
        return GetAtomicRequest(m, seq, sourcePort);
    }
    const bool first = index == 0;
    const bool last = index + 1 == m.numPackets;
    const uint32_t payload =
        last ? static_cast<uint32_t>(m.wr.length - index * m_params.mtu) : m_params.mtu;
    const uint8_t pad = static_cast<uint8_t>((4 - payload % 4) % 4);

    uint8_t opcode;
    const bool write = m.wr.opcode == RdmaWorkRequest::WRITE;
    if (first && last)
    {
        opcode = write ? RC_WRITE_ONLY : RC_SEND_ONLY;
    }
    else if (first)
    {
        opcode = write ? RC_WRITE_FIRST : RC_SEND_FIRST;
    }
    else if (last)
    {
        opcode = write ? RC_WRITE_LAST : RC_SEND_LAST;
    }
    else
    {
        opcode = write ? RC_WRITE_MIDDLE : RC_SEND_MIDDLE;
    }

    // Payload, pad and the ICRC (zero on the data path: see RdmaIcrcTrailer) are one
    // zero-filled area; IPv4, UDP, BTH and RETH are written as bytes in one header.
    Ptr<Packet> p;
    bool firstHeader = !m_wantTelemetry; // nothing added to the payload yet
    if (m_wantTelemetry)
    {
        // In-band telemetry: the empty area before the ICRC, for switches to fill.
        p = Create<Packet>(payload + pad);
        p->AddTrailer(m_txIntTrailer);
    }
    else
    {
        p = Create<Packet>(payload + pad + RdmaIcrcTrailer::SIZE);
    }
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(opcode);
    bth.SetPadCount(pad);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(false);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(last);
    bth.SetPsn(SeqToPsn(seq));
    bth.SetTimestampRequest(m_wantTimestamps);
    bth.SetTelemetry(m_wantTelemetry);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    if (write && (first || m_selective))
    {
        // Out-of-order placement: a RETH in every WRITE packet, with the address of the
        // packet's own first byte (IRN, Mittal et al., SIGCOMM 2018).
        RdmaRethHeader reth;
        reth.SetVirtualAddress(m.wr.remoteAddress + index * m_params.mtu);
        reth.SetRKey(m.wr.rkey);
        reth.SetDmaLength(static_cast<uint32_t>(m.wr.length));
        stack.Append(reth);
    }
    else if (!write && m_selective)
    {
        RdmaPlacementHeader placement;
        placement.SetMessageSequence(m.sendMsn);
        placement.SetOffset(static_cast<uint32_t>(index * m_params.mtu));
        AddInFront(p, placement, firstHeader);
    }
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_dscp,
                        m_params.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                        sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    AddInFront(p, stack, firstHeader);

    const bool retransmission = seq < m_rs.highestSent;
    ++m_packetsSent;
    if (retransmission)
    {
        ++m_retransmissions;
    }
    else
    {
        m_ccState.bytesSent += payload;
    }
    m_rs.sndNxt = std::max(m_rs.sndNxt, seq + 1);
    m_rs.highestSent = std::max(m_rs.highestSent, seq + 1);
    RecordSendTime(seq, retransmission);
    m_lr->OnPacketSent(m_rs, seq, retransmission);
    if (m_unreliable && last)
    {
        // Unreliable mode: the message completes on send (an event of its own: a completion
        // callback may post work, which must not re-enter the NIC while it builds a packet).
        Simulator::ScheduleNow(&RdmaQueuePair::CompleteSent, this, seq + 1);
    }

    // What the packet costs on the port's wire (its Framing: real Ethernet, or the HPCC
    // simulator's bytes for compatibility runs).
    const uint32_t wireBytes =
        m_params.port
            ? m_params.port->GetPacketWireBytes(p)
            : RdmaNetDevice::WireBytes(p->GetSize() + RdmaNetDevice::ETHERNET_HEADER_BYTES);
    m_cc->OnPacketSent(m_ccState, wireBytes);
    m_nextSendTime = RdmaSimulatorImpl::CurrentTime() + PacingGap(payload, wireBytes);
    m_lastTxTime = RdmaSimulatorImpl::CurrentTime();
    m_lastTxWireBytes = wireBytes;
    m_lastTxPayloadBytes = payload;
    UpdateInFlight();
    SyncTimer();
    PublishCcState();
    m_txTrace(seq, retransmission);
    NS_LOG_LOGIC("qp " << m_qpn << " tx seq " << seq << " psn " << SeqToPsn(seq) << " "
                       << RdmaBthHeader::OpcodeName(opcode) << (retransmission ? " (retx)" : ""));
    return p;
}

Ptr<Packet>
RdmaQueuePair::GetReadRequest(TxMessage& m, uint64_t seq, uint16_t sourcePort)
{
    // IBTA vol. 1 §9.4.3: BTH, RETH (VA, R_Key, DMA length of what is still to be read),
    // ICRC; no payload. A re-request from a missing response's PSN asks for the rest of
    // the message from the matching byte on (§9.7.5.1: VA and length adjusted), or, with
    // selective repeat, for the lost run of responses only (IRN).
    const uint64_t offset = std::min<uint64_t>(m.wr.length, (seq - m.firstSeq) * m_params.mtu);
    const uint64_t messageEnd = m.firstSeq + m.numPackets;
    const uint64_t end = m_lr->GetRequestEnd(m_rs, seq, messageEnd);
    // The loss recovery is pluggable: a range outside the READ would mark sequences of
    // other messages (or none yet sent) as requested.
    NS_ABORT_MSG_IF(end <= seq || end > messageEnd,
                    m_lr->GetName()
                        << "::GetRequestEnd returned " << end
                        << " for a READ Request from sequence " << seq << " on queue pair " << m_qpn
                        << "; valid: " << seq + 1 << ".." << messageEnd);
    const uint64_t endOffset = std::min<uint64_t>(m.wr.length, (end - m.firstSeq) * m_params.mtu);
    Ptr<Packet> p = Create<Packet>(RdmaIcrcTrailer::SIZE);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(RC_READ_REQUEST);
    bth.SetPadCount(0);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(false);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false); // the responses are the acknowledgement
    bth.SetPsn(SeqToPsn(seq));
    bth.SetTimestampRequest(false);
    bth.SetTelemetry(false);
    RdmaRethHeader reth;
    reth.SetVirtualAddress(m.wr.remoteAddress + offset);
    reth.SetRKey(m.wr.rkey);
    reth.SetDmaLength(static_cast<uint32_t>(endOffset - offset));
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.Append(reth);
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_dscp,
                        m_params.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                        sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    RdmaPacketRoom::AddFirstHeader(p, stack);

    const bool retransmission = seq < m_rs.highestSent;
    ++m_readRequestsSent;
    if (retransmission)
    {
        ++m_readReRequests;
        m_readReRequestTrace(seq);
    }
    RequestSent(m, seq, end, retransmission, p);
    NS_LOG_LOGIC("qp " << m_qpn << " tx seq " << seq << " READ request of " << endOffset - offset
                       << " bytes" << (retransmission ? " (again)" : ""));
    return p;
}

Ptr<Packet>
RdmaQueuePair::GetNextReadResponse(uint16_t sourcePort)
{
    if (m_readResponses.front().atomic)
    {
        return GetAtomicAck(sourcePort);
    }
    ReadResponse& r = m_readResponses.front();
    const uint64_t seq = r.nextSeq;
    const uint64_t index = seq - r.startSeq;
    const bool first = index == 0;
    const bool last = seq + 1 == r.endSeq;
    const uint32_t payload =
        last ? static_cast<uint32_t>(r.length - index * m_params.mtu) : m_params.mtu;
    const uint8_t pad = static_cast<uint8_t>((4 - payload % 4) % 4);
    const uint8_t opcode = first && last ? RC_READ_RESPONSE_ONLY
                           : first       ? RC_READ_RESPONSE_FIRST
                           : last        ? RC_READ_RESPONSE_LAST
                                         : RC_READ_RESPONSE_MIDDLE;
    Ptr<Packet> p = Create<Packet>(payload + pad + RdmaIcrcTrailer::SIZE);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(opcode);
    bth.SetPadCount(pad);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(false);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false);
    bth.SetPsn(SeqToPsn(seq));
    bth.SetTimestampRequest(false);
    bth.SetTelemetry(false);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    if (RdmaBthHeader::HasAeth(opcode))
    {
        RdmaAethHeader& aeth = m_txAeth;
        aeth.SetSyndrome(RdmaAethHeader::AckSyndrome());
        aeth.SetMsn(r.msn);
        stack.Append(aeth);
    }
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_dscp,
                        m_params.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                        sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    RdmaPacketRoom::AddFirstHeader(p, stack);
    ++m_readResponsesSent;
    if (++r.nextSeq >= r.endSeq)
    {
        m_readResponses.pop_front();
        if (m_readResponses.empty() && m_ackHeld)
        {
            // An event of its own: the NIC is building this packet.
            Simulator::ScheduleNow(&RdmaQueuePair::ReleaseHeldAck, this);
        }
    }
    ChargePacer(p, payload);
    PublishCcState();
    m_readResponseTxTrace(seq);
    NS_LOG_LOGIC("qp " << m_qpn << " tx seq " << seq << " " << RdmaBthHeader::OpcodeName(opcode)
                       << " " << payload << " bytes");
    return p;
}

void
RdmaQueuePair::ChargePacer(Ptr<const Packet> p, uint32_t payload)
{
    const uint32_t wireBytes =
        m_params.port
            ? m_params.port->GetPacketWireBytes(p)
            : RdmaNetDevice::WireBytes(p->GetSize() + RdmaNetDevice::ETHERNET_HEADER_BYTES);
    m_cc->OnPacketSent(m_ccState, wireBytes);
    m_nextSendTime = RdmaSimulatorImpl::CurrentTime() + PacingGap(payload, wireBytes);
    m_lastTxTime = RdmaSimulatorImpl::CurrentTime();
    m_lastTxWireBytes = wireBytes;
    m_lastTxPayloadBytes = payload;
}

void
RdmaQueuePair::ReleaseHeldAck()
{
    if (!m_ackHeld || !m_readResponses.empty())
    {
        return; // sent already, or more responses came first: after them
    }
    m_ackHeld = false;
    SendAck(m_heldAckSeq, m_heldAckSyndrome);
}

uint64_t
RdmaQueuePair::FirstMissingReadResponse() const
{
    for (std::size_t i = 0; i < m_txMessages.size(); ++i)
    {
        const TxMessage& m = m_txMessages[i];
        if (RdmaWorkRequest::HasResponse(m.wr.opcode))
        {
            return std::max(m.firstSeq, m_rs.sndUna);
        }
    }
    return UINT64_MAX;
}

void
RdmaQueuePair::ReadResponseMissing(uint64_t missing)
{
    // Everything before the missing response was executed: the response or ACK that
    // revealed the gap acknowledges it (IBTA vol. 1 §9.7.5.1).
    RdmaAckInfo info;
    info.previousUna = m_rs.sndUna;
    uint64_t newlyAcked = 0;
    AdvanceUna(missing, newlyAcked);
    if (!m_readGapReported)
    {
        m_readGapReported = true;
        NS_LOG_LOGIC("qp " << m_qpn << " READ response " << missing << " missing: re-request");
        info.nak = true;
        info.cumAck = missing;
        m_lr->OnNak(m_rs, info); // go-back-N: sndNxt = missing, the READ is requested again
    }
    UpdateInFlight();
    SyncTimer();
    m_txReady();
}

void
RdmaQueuePair::ReceiveReadResponse(Ptr<Packet> payload, const RdmaBthHeader& bth)
{
    const uint8_t opcode = bth.GetOpcode();
    const uint64_t seq = PsnToSeq(bth.GetPsn(), m_rs.sndUna);
    if (SelectiveRequests())
    {
        // Placed by its PSN's offset into the local buffer, whatever its order (IRN).
        TxMessage* m = AcceptSelectiveResponse(seq, false);
        if (!m)
        {
            return;
        }
        const uint32_t bytes = payload->GetSize() - RdmaIcrcTrailer::SIZE - bth.GetPadCount() -
                               (RdmaBthHeader::HasAeth(opcode) ? RdmaAethHeader::SIZE : 0u);
        ++m_readResponsesReceived;
        m_bytesRead += bytes;
        m->bytesLanded += bytes;
        m_readPlacementTrace(seq,
                             m->wr.localAddress + (seq - m->firstSeq) * m_params.mtu,
                             bytes,
                             seq != FirstMissingReadResponse());
        SelectiveResponseLanded(seq);
        return;
    }
    const uint64_t expected = m_readsQueued == 0 ? UINT64_MAX : FirstMissingReadResponse();
    if (seq < expected || seq >= m_rs.highestSent)
    {
        ++m_readResponseDiscards; // a duplicate, or of no READ outstanding
        return;
    }
    if (seq > expected)
    {
        ++m_readResponseDiscards; // beyond a missing response (PSN sequence error)
        ReadResponseMissing(expected);
        return;
    }
    // In order: it lands, and acknowledges every earlier request (implicitly).
    m_readGapReported = false;
    const uint32_t bytes = payload->GetSize() - RdmaIcrcTrailer::SIZE - bth.GetPadCount() -
                           (RdmaBthHeader::HasAeth(opcode) ? RdmaAethHeader::SIZE : 0u);
    ++m_readResponsesReceived;
    m_bytesRead += bytes;
    {
        const TxMessage& m = m_txMessages[FindMessage(seq)];
        m_readPlacementTrace(seq,
                             m.wr.localAddress + (seq - m.firstSeq) * m_params.mtu,
                             bytes,
                             false);
    }
    RdmaAckInfo info;
    info.previousUna = m_rs.sndUna;
    info.cumAck = seq + 1;
    uint64_t newlyAcked = 0;
    AdvanceUna(seq + 1, newlyAcked); // completes the READ at its last response
    m_lr->OnAck(m_rs, info);
    UpdateInFlight();
    SyncTimer();
    m_txReady();
}

void
RdmaQueuePair::ReceiveReadRequest(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq)
{
    RdmaRethHeader reth;
    payload->PeekHeader(reth);
    const uint64_t length = reth.GetDmaLength();
    NS_ABORT_MSG_IF(length > m_maxReadSize,
                    "RDMA READ of " << length << " bytes (PSN " << bth.GetPsn()
                                    << ") exceeds ns3::RdmaQueuePair::MaxReadSize " << m_maxReadSize
                                    << " of queue pair " << m_qpn);
    const uint64_t packets = length == 0 ? 1 : (length + m_params.mtu - 1) / m_params.mtu;
    ReadResponse r{seq, seq + packets, seq, length, reth.GetVirtualAddress(), m_msn};
    if (SelectiveRequests())
    {
        // Selective repeat (IRN): a READ Request is executed on arrival, whatever its order,
        // and again for a re-request of a lost run (READ is idempotent). Unreliable mode:
        // nothing comes twice; the request takes its PSNs in the responder's sequence.
        if (RequestSeen(seq))
        {
            if (m_unreliable)
            {
                ++m_duplicates; // after its hole was given up: not executed
                return;
            }
            ++m_duplicateReadRequests;
            r.again = true;
            QueueReRequest(r);
            m_txReady();
            return;
        }
        else
        {
            NS_ABORT_MSG_IF(ReadResponsesHeld() >= m_responderResources,
                            "queue pair " << m_qpn << " received an RDMA READ beyond its "
                                          << "ResponderResources " << m_responderResources
                                          << " (IBTA: the requester's ORD exceeds this IRD)");
            if (m_selective && !PlaceRequest(seq, packets, bth.GetOpcode()))
            {
                return;
            }
            RecordRequest(seq, seq + packets);
            m_msn = (m_msn + 1) & PSN_MASK;
            r.msn = m_msn;
        }
        m_readResponses.push_back(r);
        m_txReady();
        return;
    }
    if (seq > m_rxs.expected &&
        m_lr->OnOutOfOrderData(m_rxs, *this, seq) == RdmaLossRecovery::RX_DISCARD)
    {
        return; // a gap before it: NAKed like any request
    }
    if (seq < m_rxs.expected)
    {
        // A re-request (IBTA vol. 1 §9.5: executed again for those PSNs). Responses queued
        // for these PSNs or later are superseded: the requester goes back to seq and asks
        // for what follows again.
        ++m_duplicateReadRequests;
        SupersedeResponsesFrom(seq);
        if (r.endSeq > m_rxs.expected)
        {
            // Asks for PSNs not yet requested: serve only those that were.
            r.endSeq = m_rxs.expected;
            r.length = std::min<uint64_t>(r.length, (r.endSeq - seq) * m_params.mtu);
        }
    }
    else
    {
        NS_ABORT_MSG_IF(m_readResponses.size() >= m_responderResources,
                        "queue pair " << m_qpn << " received an RDMA READ beyond its "
                                      << "ResponderResources " << m_responderResources
                                      << " (IBTA: the requester's ORD exceeds this IRD)");
        m_rxs.expected = seq + packets;
        m_rxs.messageStart = m_rxs.expected;
        m_rxs.nakOutstanding = false;
        m_rxs.dupAckSent = false;
        m_msn = (m_msn + 1) & PSN_MASK;
        r.msn = m_msn;
    }
    m_readResponses.push_back(r);
    m_txReady();
}

uint32_t
RdmaQueuePair::TailBytes() const
{
    return RdmaIcrcTrailer::SIZE + (m_rxTelemetry ? RdmaIntHeader::SIZE : 0);
}

Time
RdmaQueuePair::PacingGap(uint32_t payloadBytes, uint32_t wireBytes) const
{
    // The rate's gap, as DataRate::CalculateBytesTxTime gives it; that costs a 128-bit
    // fixed-point division (about 550 instructions), and the rate and the frame size repeat
    // from one packet to the next, so the last result is kept.
    const uint64_t bps = m_ccState.rate.GetBitRate();
    if (bps != m_rateGapBps || wireBytes != m_rateGapWireBytes)
    {
        m_rateGap = m_ccState.rate.CalculateBytesTxTime(wireBytes);
        m_rateGapBps = bps;
        m_rateGapWireBytes = wireBytes;
    }
    Time gap = m_rateGap;
    if (m_ccState.window != 0)
    {
        // The window is exact in bytes: at most one packet beyond it leaves at once, and the
        // gap after each packet (payload x RTT / window; one packet per RTT x packet /
        // window below one packet) keeps the average in flight at the window over the RTT
        // the congestion control measures its window against (RdmaWindowPacing).
        const Time smoothed =
            m_ccState.srtt.IsStrictlyPositive() ? m_ccState.srtt : m_ccState.baseRtt;
        Time rtt;
        switch (m_ccState.windowPacing)
        {
        case RdmaWindowPacing::SMOOTHED_RTT:
            rtt = smoothed;
            break;
        case RdmaWindowPacing::BASE_RTT:
            rtt = m_ccState.baseRtt;
            break;
        case RdmaWindowPacing::BELOW_ONE_PACKET:
            rtt = m_ccState.window < m_ccState.mtu ? smoothed : Time(0);
            break;
        }
        if (rtt.IsStrictlyPositive())
        {
            const Time windowGap = Time(static_cast<int64_t>(
                static_cast<long double>(rtt.GetTimeStep()) * payloadBytes / m_ccState.window));
            gap = std::max(gap, windowGap);
        }
    }
    return gap;
}

void
RdmaQueuePair::RecordSendTime(uint64_t seq, bool retransmission)
{
    const uint64_t inFlight = m_rs.highestSent - std::min(m_rs.sndUna, m_rs.highestSent);
    if (inFlight > m_sendTimes.size() && m_sendTimes.size() < SEND_TIME_RING)
    {
        // Grow the ring, keeping the times of the sequences it still holds.
        const std::size_t oldSize = m_sendTimes.size();
        std::size_t newSize = oldSize;
        while (newSize < inFlight && newSize < SEND_TIME_RING)
        {
            newSize *= 2;
        }
        // Before seq is written the old ring still holds [seq - oldSize, seq): all of them
        // (the oldest in flight included) move over.
        std::vector<Time> grown(newSize, AMBIGUOUS_SEND_TIME);
        const uint64_t from = seq > oldSize ? seq - oldSize : 0;
        for (uint64_t s = from; s < seq; ++s)
        {
            grown[s % newSize] = m_sendTimes[s % oldSize];
        }
        m_sendTimes.swap(grown);
    }
    m_sendTimes[seq % m_sendTimes.size()] =
        retransmission ? AMBIGUOUS_SEND_TIME : RdmaSimulatorImpl::CurrentTime();
}

Time
RdmaQueuePair::SampleRtt(uint64_t seq, Time& sent) const
{
    if (seq >= m_rs.highestSent || seq + m_sendTimes.size() < m_rs.highestSent)
    {
        return Time(0); // not sent, or its slot was reused
    }
    sent = m_sendTimes[seq % m_sendTimes.size()];
    if (sent.IsStrictlyNegative())
    {
        return Time(0); // retransmitted: which transmission is acknowledged is unknown
    }
    return RdmaSimulatorImpl::CurrentTime() - sent;
}

void
RdmaQueuePair::UpdateRttEstimates(Time rtt)
{
    m_ccState.latestRtt = rtt;
    m_ccState.minRtt = std::min(m_ccState.minRtt, rtt);
    // RFC 6298 section 2: SRTT <- R on the first sample, then (1 - 1/8) SRTT + 1/8 R.
    m_ccState.srtt = m_ccState.srtt.IsZero()
                         ? rtt
                         : Time((m_ccState.srtt.GetTimeStep() * 7 + rtt.GetTimeStep()) / 8);
    if (m_configuredBaseRtt.IsZero())
    {
        m_ccState.baseRtt = m_ccState.minRtt;
    }
    m_rttTrace(rtt);
}

void
RdmaQueuePair::UpdateInFlight()
{
    m_ccState.bytesInFlight = m_lr->GetPacketsInFlight(m_rs) * uint64_t(m_params.mtu);
}

void
RdmaQueuePair::SyncTimer()
{
    const Time expiry = m_lr->GetTimerExpiry();
    if (expiry == Time::Max())
    {
        // Nothing to time. An armed event stays: it fires, finds nothing due and is not
        // re-armed. Cancelling it would not free it (ns-3 cancels lazily: the event keeps
        // its memory in the scheduler until its time, a retransmission timeout away), and
        // the next message would arm another: one event per message a queue pair carried
        // in the last timeout, millions in a long workload.
        return;
    }
    // m_timerPending, not EventId::IsRunning(): the same answer (the event is cancelled
    // only here and at disposal) without a call through the simulator (about 220
    // instructions) per ACK.
    if (m_timerPending && m_timerAt <= expiry)
    {
        return; // fires early, finds nothing due and re-arms: no cancel per ACK
    }
    m_timerEvent.Cancel();
    const Time now = RdmaSimulatorImpl::CurrentTime();
    m_timerAt = std::max(expiry, now);
    m_timerEvent = Simulator::Schedule(m_timerAt - now, &RdmaQueuePair::RecoveryTimerExpired, this);
    m_timerPending = true;
}

void
RdmaQueuePair::RecoveryTimerExpired()
{
    NS_LOG_FUNCTION(this << m_rs.sndUna);
    m_timerPending = false;
    const uint64_t lostBefore = m_rs.lossesDetected;
    const RdmaLossRecovery::TimerKind kind = m_lr->OnTimer(m_rs);
    UpdateInFlight();
    if (kind == RdmaLossRecovery::TIMER_RTO)
    {
        ++m_timeouts;
        m_timeoutTrace(m_rs.sndUna);
        ReportLoss(RdmaLossEvent::TIMEOUT, m_rs.sndUna);
    }
    else if (kind == RdmaLossRecovery::TIMER_PROBE)
    {
        ReportLoss(RdmaLossEvent::PROBE, m_rs.highestSent - 1);
    }
    else if (m_rs.lossesDetected > lostBefore)
    {
        ReportLoss(RdmaLossEvent::RACK, m_rs.sndUna);
    }
    SyncTimer();
    if (kind != RdmaLossRecovery::TIMER_NONE)
    {
        m_txReady();
    }
}

void
RdmaQueuePair::CompleteSent(uint64_t end)
{
    uint64_t newlyAcked = 0;
    if (m_readsQueued != 0)
    {
        // A READ or atomic before end completes when its responses land, not on send.
        m_dataEnd = std::max(m_dataEnd, end);
        const uint64_t before = m_rs.sndUna;
        AdvanceSelective();
        if (m_rs.sndUna > before)
        {
            UpdateInFlight();
            PublishCcState();
            m_txReady();
        }
        return;
    }
    if (AdvanceUna(end, newlyAcked))
    {
        UpdateInFlight();
        SyncTimer();
        PublishCcState();
        if (!m_txReady.IsNull())
        {
            m_txReady();
        }
    }
}

bool
RdmaQueuePair::AdvanceUna(uint64_t newUna, uint64_t& newlyAcked)
{
    newlyAcked = 0;
    if (newUna <= m_rs.sndUna)
    {
        return false;
    }
    // Payload bytes of sequences [sndUna, newUna): full MTUs except last packets.
    while (!m_txMessages.empty())
    {
        TxMessage& m = m_txMessages.front();
        const uint64_t end = m.firstSeq + m.numPackets;
        const uint64_t from = std::max(m_rs.sndUna, m.firstSeq);
        const uint64_t to = std::min(newUna, end);
        if (to > from)
        {
            const uint64_t bytesBefore =
                std::min<uint64_t>(m.wr.length, (from - m.firstSeq) * m_params.mtu);
            const uint64_t bytesAfter =
                std::min<uint64_t>(m.wr.length, (to - m.firstSeq) * m_params.mtu);
            newlyAcked += bytesAfter - bytesBefore;
        }
        if (newUna < end)
        {
            break;
        }
        if (RdmaWorkRequest::HasResponse(m.wr.opcode))
        {
            --m_readsQueued;
            --m_readsOutstanding;
        }
        RdmaCompletion c;
        c.qpn = m_qpn;
        c.wrId = m.wr.wrId;
        c.opcode = m.wr.opcode;
        c.length = m.wr.length;
        c.postTime = m.postTime;
        c.completionTime = RdmaSimulatorImpl::CurrentTime();
        c.atomicOriginal = m.atomicOriginal;
        if (m.timedOut)
        {
            c.status = RdmaCompletion::RESPONSE_TIMEOUT;
            c.length = m.bytesLanded;
        }
        m_txMessages.pop_front();
        m_cursor = 0;
        m_sendCompleteTrace(c);
        if (!m_sendCompletion.IsNull())
        {
            m_sendCompletion(c);
        }
    }
    m_rs.sndUna = newUna;
    m_rs.sndNxt = std::max(m_rs.sndNxt, newUna);
    m_rs.messageStart = m_txMessages.empty() ? newUna : m_txMessages.front().firstSeq;
    m_bytesAcked += newlyAcked;
    return true;
}

void
RdmaQueuePair::ReceiveAck(const RdmaBthHeader& bth, const RdmaAethHeader& aeth, Ptr<Packet> rest)
{
    RdmaAckInfo info;
    info.previousUna = m_rs.sndUna;
    RdmaAckFeedback fb;
    fb.ecnEcho = bth.GetBecn();
    const uint64_t sackedBefore = m_rs.sackedPackets;
    const uint64_t lostBefore = m_rs.lossesDetected;
    // Extensions after the AETH, in order: SACK (selective repeat), timestamps (TS bit).
    // Each is built only for ACKs that carry it (most carry none: a Header object costs a
    // constructor and a virtual destructor per ACK).
    std::optional<RdmaSackHeader> sack;
    std::optional<RdmaAckTimestampHeader> timestamps;
    if (aeth.IsAck() && m_selective && rest && rest->GetSize() > RdmaIcrcTrailer::SIZE)
    {
        rest->RemoveHeader(sack.emplace());
        info.sack = &*sack;
    }
    if (bth.GetTimestampRequest() && rest &&
        rest->GetSize() >= RdmaIcrcTrailer::SIZE + RdmaAckTimestampHeader::SIZE)
    {
        rest->RemoveHeader(timestamps.emplace());
        fb.hasTimestamps = true;
        fb.hops = timestamps->GetHops();
    }
    std::optional<RdmaIntHeader> telemetry;
    if (bth.GetTelemetry() && rest &&
        rest->GetSize() >= RdmaIcrcTrailer::SIZE + RdmaIntHeader::SIZE)
    {
        rest->RemoveHeader(telemetry.emplace());
        fb.telemetry = &*telemetry;
    }
    if (aeth.IsAck())
    {
        // Acknowledges every sequence up to and including the BTH PSN: unwrap the PSN
        // after it, the first one not acknowledged.
        uint64_t cum = PsnToSeq((bth.GetPsn() + 1) & PSN_MASK, m_rs.sndUna);
        if (cum > m_rs.highestSent)
        {
            NS_LOG_WARN("qp " << m_qpn << " ignores an ACK for unsent seq " << cum - 1);
            return;
        }
        const bool mixed = m_selective && !m_unreliable && m_readsQueued != 0;
        if (mixed)
        {
            // WRITE and SEND messages up to the responder's cumulative point complete once
            // every READ and atomic before them has (AdvanceSelective).
            m_dataEnd = std::max(m_dataEnd, cum);
        }
        if (m_readsQueued != 0 && cum > FirstMissingReadResponse())
        {
            if (SelectiveRequests())
            {
                // The responder executed a READ or atomic whose response has not landed:
                // the responses complete it, not this ACK (IRN: a response PSN is delivered
                // by its response). Acknowledge what precedes it.
                info.peerCumAck = cum;
                cum = FirstMissingReadResponse();
            }
            else
            {
                // Acknowledges a READ whose response has not arrived: an implied NAK.
                ReadResponseMissing(FirstMissingReadResponse());
                return;
            }
        }
        fb.ackedSeq = cum - 1;
        if (info.sack)
        {
            info.triggerSeq = PsnToSeq(sack->GetTriggerPsn(), m_rs.sndUna);
            info.duplicate = sack->GetDuplicate();
            fb.ackedSeq = info.triggerSeq;
        }
        info.cumAck = cum;
        fb.advanced = AdvanceUna(cum, fb.ackedBytes);
        if (mixed)
        {
            // READs and atomics whose responses all landed, and the WRITEs and SENDs after
            // them this ACK covers, complete now, in posting order.
            uint64_t more = 0;
            fb.advanced |= AdvanceSelective(more);
            fb.ackedBytes += more;
        }
        fb.duplicate = info.duplicate || (!fb.advanced && !info.sack);
        m_lr->OnAck(m_rs, info);
    }
    else if (aeth.IsNak() && aeth.GetNakCode() == RdmaAethHeader::NAK_PSN_SEQUENCE_ERROR)
    {
        // The responder expects seq: everything before it arrived.
        const uint64_t seq = PsnToSeq(bth.GetPsn(), m_rs.sndUna);
        if (seq < m_rs.sndUna || seq > m_rs.highestSent)
        {
            NS_LOG_LOGIC("qp " << m_qpn << " ignores a stale NAK for seq " << seq);
            return;
        }
        if (m_readsQueued != 0 && seq > FirstMissingReadResponse())
        {
            ReadResponseMissing(FirstMissingReadResponse());
            return;
        }
        ++m_naksReceived;
        m_nakTrace(seq);
        info.nak = true;
        info.cumAck = seq;
        fb.nak = true;
        fb.ackedSeq = seq; // the NAK says nothing of which arrival triggered it: no RTT
        fb.advanced = AdvanceUna(seq, fb.ackedBytes);
        m_lr->OnNak(m_rs, info);
    }
    else
    {
        NS_LOG_WARN("qp " << m_qpn << " ignores AETH syndrome " << unsigned(aeth.GetSyndrome()));
        return;
    }
    UpdateInFlight();
    if (!fb.nak)
    {
        Time sent;
        fb.rtt = SampleRtt(fb.ackedSeq, sent);
        if (fb.rtt.IsStrictlyPositive())
        {
            UpdateRttEstimates(fb.rtt);
            if (fb.hasTimestamps)
            {
                // t2 and t3 are the responder's clock; only t3 - t2 is meaningful. In the
                // requester's time base they are placed so that t3 - t2 is the responder's
                // delay and the rest of the round trip is split evenly.
                const Time responderDelay = timestamps->GetResponderDelay();
                fb.t1 = sent;
                fb.t4 = RdmaSimulatorImpl::CurrentTime();
                const Time oneWay = (fb.t4 - fb.t1 - responderDelay) / 2;
                fb.t2 = fb.t1 + oneWay;
                fb.t3 = fb.t2 + responderDelay;
            }
        }
        else
        {
            fb.hasTimestamps = false; // ambiguous without t1 (Karn)
        }
    }
    else
    {
        fb.hasTimestamps = false;
    }
    if (m_txMessages.empty() && m_rs.sndUna >= m_rs.highestSent &&
        m_sendTimes.size() > SEND_TIME_RING_MIN)
    {
        // Idle with nothing in flight, and this ACK's RTT sampled: no send time can be asked
        // for again. Give back what the largest flow grew (up to 32 KB), or a pool of queue
        // pairs keeps, for the rest of a long workload, the most each one ever had in flight.
        std::vector<Time>(SEND_TIME_RING_MIN, AMBIGUOUS_SEND_TIME).swap(m_sendTimes);
    }
    DeliverFeedback(fb, sackedBefore, lostBefore);
    SyncTimer();
    m_txReady();
}

void
RdmaQueuePair::DeliverFeedback(RdmaAckFeedback& fb, uint64_t sackedBefore, uint64_t lostBefore)
{
    fb.ackedUpToBytes = m_bytesAcked;
    m_ccState.bytesAcked = m_bytesAcked;
    if (m_rs.sackedPackets > sackedBefore)
    {
        // Newly SACKed packets, counted as full packets (a message's short last packet is
        // counted in full until the cumulative acknowledgement gives its exact bytes).
        fb.sackedBytes = (m_rs.sackedPackets - sackedBefore) * uint64_t(m_params.mtu);
    }
    if (fb.nak)
    {
        ReportLoss(RdmaLossEvent::NAK, fb.ackedSeq);
    }
    else if (m_rs.lossesDetected > lostBefore)
    {
        ReportLoss(RdmaLossEvent::RACK, m_rs.sndUna);
    }
    m_cc->OnAck(m_ccState, fb);
    PublishCcState();
}

void
RdmaQueuePair::ReportLoss(RdmaLossEvent event, uint64_t seq)
{
    NS_LOG_LOGIC("qp " << m_qpn << " loss event " << RdmaLossEventName(event) << " seq " << seq);
    m_lossEventTrace(event, seq);
    m_cc->OnLoss(m_ccState, event, seq);
    PublishCcState();
}

void
RdmaQueuePair::PublishCcState()
{
    m_rateTrace = m_ccState.rate;     // TracedValue: fires only on a change
    m_windowTrace = m_ccState.window; // likewise
}

void
RdmaQueuePair::Repath()
{
    // PLB (Qureshi et al., SIGCOMM 2022): a new random-looking UDP source port moves the flow
    // to another ECMP path; derived from the QPN and a counter so runs stay deterministic.
    ++m_repaths;
    uint32_t h = (m_qpn * 0x9E3779B1u) ^ (m_repaths * 0x85EBCA6Bu);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    m_sourcePort = static_cast<uint16_t>(0xC000 | (h & 0x3FFF));
    NS_LOG_LOGIC("qp " << m_qpn << " repaths to source port " << m_sourcePort);
}

uint32_t
RdmaQueuePair::GetRepaths() const
{
    return m_repaths;
}

void
RdmaQueuePair::RateChanged()
{
    // As a NIC's rate limiter: the gap after the last packet follows the new rate at once
    // (otherwise a flow cut to a low rate would wait out the long gap of that rate).
    if (m_lastTxWireBytes != 0)
    {
        m_nextSendTime = m_lastTxTime + PacingGap(m_lastTxPayloadBytes, m_lastTxWireBytes);
    }
    PublishCcState();
    if (!m_txReady.IsNull())
    {
        m_txReady();
    }
}

void
RdmaQueuePair::ReceiveCnp()
{
    ++m_cnpsReceived;
    m_cnpRxTrace();
    m_cc->OnCnp(m_ccState);
    PublishCcState();
    m_txReady();
}

void
RdmaQueuePair::ReceiveData(Ptr<Packet> payload, const RdmaBthHeader& bth, bool ecnCe, uint8_t ttl)
{
    if (ecnCe)
    {
        m_ceSinceAck = true; // echoed in the next ACK's BECN bit (DCTCP-style ECN-echo)
        if (m_params.cnpEnabled &&
            (!m_cnpSent ||
             RdmaSimulatorImpl::CurrentTime() - m_lastCnpTime >= m_params.cnpInterval))
        {
            SendCnp();
        }
    }
    // What the ACK this packet may trigger reports (Falcon t2, Swift's hop count).
    m_rxTsRequest = bth.GetTimestampRequest();
    if (m_rxTsRequest)
    {
        m_rxArrival = RdmaSimulatorImpl::CurrentTime();
        m_rxHops = ttl <= INITIAL_TTL ? static_cast<uint8_t>(INITIAL_TTL - ttl) : 0;
    }
    m_rxTelemetry = bth.GetTelemetry() && payload->GetSize() >= RdmaIntTrailer::SIZE;
    if (m_rxTelemetry)
    {
        payload->PeekTrailer(m_rxIntTrailer); // echoed in the ACK this packet triggers
    }
    const uint8_t opcode = bth.GetOpcode();
    if (opcode >= RC_READ_REQUEST && opcode <= RC_READ_RESPONSE_ONLY)
    {
        if (opcode == RC_READ_REQUEST)
        {
            ReceiveReadRequest(payload, bth, PsnToSeq(bth.GetPsn(), m_rxs.expected));
        }
        else
        {
            ReceiveReadResponse(payload, bth);
        }
        return;
    }
    if (opcode >= RC_ATOMIC_ACKNOWLEDGE && opcode <= RC_FETCH_ADD)
    {
        if (opcode == RC_ATOMIC_ACKNOWLEDGE)
        {
            ReceiveAtomicAck(payload, bth);
        }
        else
        {
            ReceiveAtomicRequest(payload, bth, PsnToSeq(bth.GetPsn(), m_rxs.expected));
        }
        return;
    }
    const uint64_t seq = PsnToSeq(bth.GetPsn(), m_rxs.expected);
    if (m_selective)
    {
        ReceiveDataSelective(payload, bth, seq);
        return;
    }
    if (seq < m_rxs.expected)
    {
        ++m_duplicates;
        m_lr->OnDuplicateData(m_rxs, *this, seq, bth.GetAckRequest());
        return;
    }
    if (seq > m_rxs.expected &&
        m_lr->OnOutOfOrderData(m_rxs, *this, seq) == RdmaLossRecovery::RX_DISCARD)
    {
        return;
    }

    // In order: place it.
    m_rxs.nakOutstanding = false;
    m_rxs.dupAckSent = false;
    const uint32_t payloadBytes = payload->GetSize() - TailBytes() - bth.GetPadCount() -
                                  (RdmaBthHeader::HasReth(opcode) ? RdmaRethHeader::SIZE : 0u);
    if (RdmaBthHeader::HasReth(opcode))
    {
        RdmaRethHeader reth;
        payload->PeekHeader(reth);
        m_rxMessageAddress = reth.GetVirtualAddress();
    }
    else if (RdmaBthHeader::IsFirstOrOnly(opcode))
    {
        m_rxMessageAddress = 0; // SEND: offsets in the receive buffer
    }
    const uint64_t address =
        m_rxMessageAddress + (RdmaBthHeader::IsFirstOrOnly(opcode) ? 0 : m_rxMessageBytes);
    m_bytesPlaced += payloadBytes;
    m_placementTrace(seq, address, payloadBytes, false);
    DeliverInOrder(seq, opcode, payloadBytes, RdmaSimulatorImpl::CurrentTime());
    const bool last = RdmaBthHeader::IsLastOrOnly(opcode);
    if (m_restartOnGap)
    {
        // Go-back-0 acknowledges whole messages only.
        if (last)
        {
            m_unackedPackets = 0;
            SendAck(seq, RdmaAethHeader::AckSyndrome());
        }
        return;
    }
    if (++m_unackedPackets >= m_params.ackInterval || bth.GetAckRequest() || last)
    {
        m_unackedPackets = 0;
        SendAck(seq, RdmaAethHeader::AckSyndrome());
    }
}

void
RdmaQueuePair::DeliverInOrder(uint64_t seq, uint8_t opcode, uint32_t bytes, Time arrival)
{
    m_rxs.expected = seq + 1;
    if (RdmaBthHeader::IsFirstOrOnly(opcode))
    {
        m_rxMessageBytes = 0;
        m_rxMessageStart = arrival;
        m_rxs.messageStart = seq;
        m_rxOpcode =
            RdmaBthHeader::IsWrite(opcode) ? RdmaWorkRequest::WRITE : RdmaWorkRequest::SEND;
    }
    m_rxMessageBytes += bytes;
    m_bytesReceived += bytes;
    if (RdmaBthHeader::IsLastOrOnly(opcode))
    {
        m_rxs.messageStart = seq + 1;
        m_msn = (m_msn + 1) & PSN_MASK;
        RdmaCompletion c;
        c.qpn = m_qpn;
        c.opcode = m_rxOpcode;
        c.length = m_rxMessageBytes;
        c.postTime = m_rxMessageStart;
        c.completionTime = RdmaSimulatorImpl::CurrentTime();
        m_recvCompleteTrace(c);
        if (!m_recvCompletion.IsNull())
        {
            m_recvCompletion(c);
        }
    }
}

void
RdmaQueuePair::ReceiveDataSelective(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq)
{
    // Every packet says where it goes: a RETH (WRITE) or a placement header (SEND).
    RdmaRxPacket packet;
    packet.seq = seq;
    packet.opcode = bth.GetOpcode();
    packet.ackRequested = bth.GetAckRequest();
    uint32_t headerBytes;
    if (RdmaBthHeader::IsWrite(packet.opcode))
    {
        RdmaRethHeader reth;
        payload->PeekHeader(reth);
        packet.address = reth.GetVirtualAddress();
        headerBytes = RdmaRethHeader::SIZE;
    }
    else
    {
        RdmaPlacementHeader placement;
        payload->PeekHeader(placement);
        packet.address = placement.GetOffset();
        headerBytes = RdmaPlacementHeader::SIZE;
    }
    packet.bytes = payload->GetSize() - TailBytes() - bth.GetPadCount() - headerBytes;
    m_lr->OnPlaceableData(m_rxs, *this, packet);
}

void
RdmaQueuePair::SendAck(uint64_t seq, uint8_t syndrome, const RdmaSackHeader* sack)
{
    if (!m_readResponses.empty() && !(m_selective && !m_unreliable))
    {
        // Responses leave in PSN order (IBTA vol. 1 §9.7.5): an ACK or NAK of a later PSN
        // waits for the READ responses queued before it; the latest one is kept. Selective
        // repeat sends its ACK (and SACK bitmap) at once: there the requester completes a
        // READ or atomic by its responses only, never by an ACK that passes it (IRN).
        m_ackHeld = true;
        m_heldAckSeq = seq;
        m_heldAckSyndrome = syndrome;
        return;
    }
    // ICRC (zero) as a zero-filled area, the SACK extension if any, then IPv4, UDP, BTH
    // and AETH as one run of bytes (RdmaHeaderStack).
    Ptr<Packet> p = Create<Packet>(RdmaIcrcTrailer::SIZE);
    bool firstHeader = true;
    if (m_rxTelemetry)
    {
        AddInFront(p, m_rxIntTrailer.GetArea(), firstHeader); // the path's records, echoed
    }
    if (m_rxTsRequest)
    {
        RdmaAckTimestampHeader ts;
        ts.SetReceiveTime(m_rxArrival);
        ts.SetTransmitTime(RdmaSimulatorImpl::CurrentTime());
        ts.SetHops(m_rxHops);
        AddInFront(p, ts, firstHeader);
    }
    if (sack)
    {
        AddInFront(p, *sack, firstHeader);
    }
    const uint8_t dscp = m_params.ackDscp < 0 ? m_dscp : static_cast<uint8_t>(m_params.ackDscp);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(RC_ACKNOWLEDGE);
    bth.SetPadCount(0);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false);
    bth.SetPsn(SeqToPsn(seq));
    bth.SetBecn(m_ceSinceAck); // ECN-echo: a packet since the last ACK was CE-marked
    bth.SetTimestampRequest(m_rxTsRequest);
    bth.SetTelemetry(m_rxTelemetry);
    m_ceSinceAck = false;
    RdmaAethHeader& aeth = m_txAeth;
    aeth.SetSyndrome(syndrome);
    aeth.SetMsn(m_msn);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.Append(aeth);
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        dscp,
                        Ipv4Header::ECN_NotECT,
                        m_sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    AddInFront(p, stack, firstHeader);
    m_sendControl(p, dscp >> 3);
}

void
RdmaQueuePair::SendAck(uint64_t seq)
{
    SendAck(seq, RdmaAethHeader::AckSyndrome());
}

void
RdmaQueuePair::SendNak(uint64_t seq)
{
    ++m_naksSent;
    SendAck(seq, RdmaAethHeader::NakSyndrome(RdmaAethHeader::NAK_PSN_SEQUENCE_ERROR));
}

void
RdmaQueuePair::DiscardPartialMessage()
{
    m_bytesReceived -= m_rxMessageBytes;
    m_rxMessageBytes = 0;
    m_rxs.expected = m_rxs.messageStart;
}

void
RdmaQueuePair::CountOutOfOrderDiscard(uint64_t seq)
{
    ++m_oooDiscards;
    m_oooDiscardTrace(seq);
}

void
RdmaQueuePair::CountLost(uint64_t packets)
{
    m_packetsLost += packets;
    m_bytesLost += packets * m_params.mtu;
    NS_LOG_LOGIC("qp " << m_qpn << " skips " << packets << " lost packets before seq "
                       << m_rxs.expected + packets);
}

void
RdmaQueuePair::CountDuplicate()
{
    ++m_duplicates;
}

void
RdmaQueuePair::CountWindowDrop(uint64_t seq)
{
    ++m_windowDrops;
    m_windowDropTrace(seq);
}

void
RdmaQueuePair::Place(const RdmaRxPacket& packet, bool outOfOrder)
{
    if (IsRequestOpcode(packet.opcode))
    {
        m_requestPlaced = true; // a READ or atomic request: executed by the caller
        return;
    }
    m_bytesPlaced += packet.bytes;
    if (outOfOrder)
    {
        ++m_oooPlacements;
    }
    m_placementTrace(packet.seq, packet.address, packet.bytes, outOfOrder);
}

void
RdmaQueuePair::Deliver(uint64_t seq, uint8_t opcode, uint32_t bytes, Time arrival)
{
    if (IsRequestOpcode(opcode))
    {
        m_rxs.expected = seq + 1; // its other PSNs: the loss recovery skips its span
        return;
    }
    DeliverInOrder(seq, opcode, bytes, arrival);
}

void
RdmaQueuePair::SendSack(uint64_t triggerSeq, RdmaSackHeader& sack)
{
    sack.SetTriggerPsn(SeqToPsn(triggerSeq));
    // m_rxs.expected - 1 wraps to the PSN before InitialPsn when nothing arrived in order.
    SendAck(m_rxs.expected - 1, RdmaAethHeader::AckSyndrome(), &sack);
}

void
RdmaQueuePair::SendCnp()
{
    m_cnpSent = true;
    m_lastCnpTime = RdmaSimulatorImpl::CurrentTime();
    ++m_cnpsSent;
    // The 16 reserved bytes and the ICRC (zero) are one zero-filled area.
    Ptr<Packet> p = Create<Packet>(CNP_RESERVED_BYTES + RdmaIcrcTrailer::SIZE);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(CNP);
    bth.SetPadCount(0);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(true);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false);
    bth.SetPsn(0);
    bth.SetTimestampRequest(false);
    bth.SetTelemetry(false);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_params.cnpDscp,
                        Ipv4Header::ECN_NotECT,
                        m_sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    RdmaPacketRoom::AddFirstHeader(p, stack);
    m_sendControl(p, m_params.cnpDscp >> 3);
}

const RdmaCcState&
RdmaQueuePair::GetCcState() const
{
    return m_ccState;
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl() const
{
    return m_cc;
}

Ptr<RdmaLossRecovery>
RdmaQueuePair::GetLossRecovery() const
{
    return m_lr;
}

uint64_t
RdmaQueuePair::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
RdmaQueuePair::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

std::size_t
RdmaQueuePair::GetSendTimeSlots() const
{
    return m_sendTimes.size();
}

uint64_t
RdmaQueuePair::GetNaksReceived() const
{
    return m_naksReceived;
}

uint64_t
RdmaQueuePair::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaQueuePair::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
RdmaQueuePair::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaQueuePair::GetOutOfOrderDiscards() const
{
    return m_oooDiscards;
}

uint64_t
RdmaQueuePair::GetDuplicatesReceived() const
{
    return m_duplicates;
}

uint64_t
RdmaQueuePair::GetOutOfOrderPlacements() const
{
    return m_oooPlacements;
}

uint64_t
RdmaQueuePair::GetReorderWindowDrops() const
{
    return m_windowDrops;
}

uint64_t
RdmaQueuePair::GetBytesPlaced() const
{
    return m_bytesPlaced;
}

uint32_t
RdmaQueuePair::GetOutstandingWorkRequests() const
{
    return static_cast<uint32_t>(m_txMessages.size());
}

uint64_t
RdmaQueuePair::GetBytesAcked() const
{
    return m_bytesAcked;
}

uint64_t
RdmaQueuePair::GetPacketsLost() const
{
    return m_packetsLost;
}

uint64_t
RdmaQueuePair::GetBytesLost() const
{
    return m_bytesLost;
}

uint64_t
RdmaQueuePair::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
RdmaQueuePair::GetReadRequestsSent() const
{
    return m_readRequestsSent;
}

uint64_t
RdmaQueuePair::GetReadReRequests() const
{
    return m_readReRequests;
}

uint64_t
RdmaQueuePair::GetReadResponsesReceived() const
{
    return m_readResponsesReceived;
}

uint64_t
RdmaQueuePair::GetReadResponseDiscards() const
{
    return m_readResponseDiscards;
}

uint64_t
RdmaQueuePair::GetBytesRead() const
{
    return m_bytesRead;
}

uint32_t
RdmaQueuePair::GetReadsOutstanding() const
{
    return m_readsOutstanding;
}

uint64_t
RdmaQueuePair::GetReadResponsesSent() const
{
    return m_readResponsesSent;
}

uint64_t
RdmaQueuePair::GetDuplicateReadRequests() const
{
    return m_duplicateReadRequests;
}

uint32_t
RdmaQueuePair::GetQueuedReadResponses() const
{
    return static_cast<uint32_t>(m_readResponses.size());
}

void
RdmaQueuePair::RequestSent(TxMessage& m,
                           uint64_t seq,
                           uint64_t end,
                           bool retransmission,
                           Ptr<const Packet> p)
{
    ++m_packetsSent;
    if (retransmission)
    {
        ++m_retransmissions;
    }
    else
    {
        ++m_readsOutstanding;
        m.requested = RdmaSimulatorImpl::CurrentTime();
        m.lastLanded = m.requested;
        if (m_unreliable && !m_responseTimer.IsRunning())
        {
            m_responseTimer =
                Simulator::Schedule(m_rs.baseRto, &RdmaQueuePair::ResponseTimerExpired, this);
        }
    }
    // The request takes every PSN of its responses (§9.4.3): the next request follows them.
    const uint64_t messageEnd = m.firstSeq + m.numPackets;
    m_rs.sndNxt = std::max(m_rs.sndNxt, messageEnd);
    m_rs.highestSent = std::max(m_rs.highestSent, messageEnd);
    RecordSendTime(seq, retransmission);
    m_lr->OnRequestSent(m_rs, seq, end, retransmission, m_responseSpacing);
    ChargePacer(p, 0);
    UpdateInFlight();
    SyncTimer();
    PublishCcState();
    m_txTrace(seq, retransmission);
}

void
RdmaQueuePair::SupersedeResponsesFrom(uint64_t seq)
{
    while (!m_readResponses.empty() && m_readResponses.back().startSeq >= seq)
    {
        m_readResponses.pop_back();
    }
    if (!m_readResponses.empty() && m_readResponses.back().endSeq > seq)
    {
        ReadResponse& cut = m_readResponses.back();
        cut.endSeq = seq;
        cut.length = (seq - cut.startSeq) * m_params.mtu;
        if (cut.nextSeq >= seq)
        {
            m_readResponses.pop_back();
        }
    }
}

void
RdmaQueuePair::SetMemory(Ptr<RdmaMemory> memory)
{
    m_memory = memory;
}

Ptr<RdmaMemory>
RdmaQueuePair::GetMemory() const
{
    return m_memory;
}

void
RdmaQueuePair::CheckAtomicRequest(const RdmaWorkRequest& wr) const
{
    const char* name = wr.opcode == RdmaWorkRequest::FETCH_ADD ? "FETCH_ADD" : "COMPARE_SWAP";
    NS_ABORT_MSG_IF(wr.length != 8,
                    "atomic " << name << " on queue pair " << m_qpn << ": length " << wr.length
                              << " is invalid; valid: 8 (IBTA atomics operate on one 64-bit "
                              << "word)");
    NS_ABORT_MSG_IF(wr.remoteAddress % 8 != 0,
                    "atomic " << name << " on queue pair " << m_qpn << ": remoteAddress 0x"
                              << std::hex << wr.remoteAddress << std::dec
                              << " is not 8-byte aligned; valid: a multiple of 8 (IBTA "
                              << "vol. 1 §9.4.5)");
    NS_ABORT_MSG_IF(m_restartOnGap,
                    "atomic " << name << " on queue pair " << m_qpn
                              << " needs go-back-N, selective repeat or the unreliable mode; "
                              << "it uses " << m_lr->GetName());
}

Ptr<Packet>
RdmaQueuePair::GetAtomicRequest(TxMessage& m, uint64_t seq, uint16_t sourcePort)
{
    // IBTA vol. 1 §9.4.5: BTH, AtomicETH (VA, R_Key, Swap/Add, Compare), ICRC; one PSN.
    // A re-send after a loss carries the same PSN and operands: the responder answers it
    // from its replay cache.
    const bool fetchAdd = m.wr.opcode == RdmaWorkRequest::FETCH_ADD;
    Ptr<Packet> p = Create<Packet>(RdmaIcrcTrailer::SIZE);
    RdmaAtomicEthHeader atomic;
    atomic.SetVirtualAddress(m.wr.remoteAddress);
    atomic.SetRKey(m.wr.rkey);
    atomic.SetSwapAddData(fetchAdd ? m.wr.compareAdd : m.wr.swap);
    atomic.SetCompareData(fetchAdd ? 0 : m.wr.compareAdd);
    RdmaPacketRoom::AddFirstHeader(p, atomic);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(fetchAdd ? RC_FETCH_ADD : RC_COMPARE_SWAP);
    bth.SetPadCount(0);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(false);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false); // the Atomic Acknowledge is the acknowledgement
    bth.SetPsn(SeqToPsn(seq));
    bth.SetTimestampRequest(false);
    bth.SetTelemetry(false);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_dscp,
                        m_params.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                        sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    p->AddHeader(stack);

    const bool retransmission = seq < m_rs.highestSent;
    ++m_atomicRequestsSent;
    if (retransmission)
    {
        ++m_atomicResends;
    }
    RequestSent(m, seq, seq + 1, retransmission, p);
    NS_LOG_LOGIC("qp " << m_qpn << " tx seq " << seq << " "
                       << RdmaBthHeader::OpcodeName(bth.GetOpcode())
                       << (retransmission ? " (again)" : ""));
    return p;
}

void
RdmaQueuePair::ReceiveAtomicAck(Ptr<Packet> payload, const RdmaBthHeader& bth)
{
    const uint64_t seq = PsnToSeq(bth.GetPsn(), m_rs.sndUna);
    if (SelectiveRequests())
    {
        TxMessage* m = AcceptSelectiveResponse(seq, true);
        if (!m)
        {
            return;
        }
        RdmaAethHeader aeth;
        payload->RemoveHeader(aeth);
        RdmaAtomicAckEthHeader ack;
        payload->PeekHeader(ack);
        m->atomicOriginal = ack.GetOriginalRemoteData();
        ++m_atomicAcksReceived;
        SelectiveResponseLanded(seq);
        return;
    }
    const uint64_t expected = m_readsQueued == 0 ? UINT64_MAX : FirstMissingReadResponse();
    if (seq < expected || seq >= m_rs.highestSent)
    {
        ++m_readResponseDiscards; // a duplicate, or of no atomic outstanding
        return;
    }
    if (seq > expected)
    {
        ++m_readResponseDiscards; // beyond a missing response (PSN sequence error)
        ReadResponseMissing(expected);
        return;
    }
    TxMessage& m = m_txMessages[FindMessage(seq)];
    if (!RdmaWorkRequest::IsAtomic(m.wr.opcode))
    {
        NS_LOG_WARN("qp " << m_qpn << " ignores an Atomic Acknowledge for the READ at " << seq);
        ++m_readResponseDiscards;
        return;
    }
    // In order: it carries the original value and acknowledges every earlier request.
    m_readGapReported = false;
    RdmaAethHeader aeth;
    payload->RemoveHeader(aeth);
    RdmaAtomicAckEthHeader ack;
    payload->PeekHeader(ack);
    m.atomicOriginal = ack.GetOriginalRemoteData();
    ++m_atomicAcksReceived;
    RdmaAckInfo info;
    info.previousUna = m_rs.sndUna;
    info.cumAck = seq + 1;
    uint64_t newlyAcked = 0;
    AdvanceUna(seq + 1, newlyAcked); // completes the atomic
    m_lr->OnAck(m_rs, info);
    UpdateInFlight();
    SyncTimer();
    m_txReady();
}

void
RdmaQueuePair::ReceiveAtomicRequest(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq)
{
    RdmaAtomicEthHeader atomic;
    payload->PeekHeader(atomic);
    const bool selective = SelectiveRequests();
    if (!selective && seq > m_rxs.expected &&
        m_lr->OnOutOfOrderData(m_rxs, *this, seq) == RdmaLossRecovery::RX_DISCARD)
    {
        return; // a gap before it: NAKed like any request
    }
    if (selective && m_unreliable && RequestSeen(seq))
    {
        ++m_duplicates; // after its hole was given up: not executed
        return;
    }
    if (selective ? RequestSeen(seq) : seq < m_rxs.expected)
    {
        // A duplicate: the requester lost the request's acknowledgement (or a response
        // before it) and went back. Answer from the replay cache; never execute it again
        // (IBTA vol. 1 §9.4.5: an atomic is executed exactly once).
        for (const AtomicResult& done : m_atomicReplay)
        {
            if (done.seq == seq)
            {
                ++m_atomicReplays;
                const ReadResponse replay{seq,
                                          seq + 1,
                                          seq,
                                          8,
                                          atomic.GetVirtualAddress(),
                                          done.msn,
                                          true,
                                          done.original,
                                          true};
                if (selective)
                {
                    QueueReRequest(replay);
                }
                else
                {
                    SupersedeResponsesFrom(seq);
                    m_readResponses.push_back(replay);
                }
                m_txReady();
                return;
            }
        }
        ++m_atomicReplayMisses;
        NS_LOG_WARN("qp " << m_qpn << " drops a duplicate atomic (PSN " << bth.GetPsn()
                          << ") older than its replay cache");
        return;
    }
    const uint64_t va = atomic.GetVirtualAddress();
    NS_ABORT_MSG_IF(va % 8 != 0,
                    "queue pair " << m_qpn << " received an atomic (PSN " << bth.GetPsn()
                                  << ") at VA 0x" << std::hex << va << std::dec
                                  << ", not 8-byte aligned; valid: a multiple of 8");
    NS_ABORT_MSG_IF(ReadResponsesHeld() >= m_responderResources,
                    "queue pair " << m_qpn << " received an atomic beyond its "
                                  << "ResponderResources " << m_responderResources
                                  << " (IBTA: the requester's ORD exceeds this IRD)");
    NS_ABORT_MSG_IF(!m_memory,
                    "queue pair " << m_qpn
                                  << " received an atomic but has no RdmaMemory (SetMemory)");
    if (m_selective && !PlaceRequest(seq, 1, bth.GetOpcode()))
    {
        return; // beyond the reorder bitmap, or after its hole was given up: not executed
    }
    const uint64_t original =
        bth.GetOpcode() == RC_FETCH_ADD
            ? m_memory->FetchAdd(va, atomic.GetSwapAddData())
            : m_memory->CompareSwap(va, atomic.GetCompareData(), atomic.GetSwapAddData());
    ++m_atomicsExecuted;
    if (selective)
    {
        RecordRequest(seq, seq + 1);
    }
    else
    {
        m_rxs.expected = seq + 1;
        m_rxs.messageStart = m_rxs.expected;
        m_rxs.nakOutstanding = false;
        m_rxs.dupAckSent = false;
    }
    m_msn = (m_msn + 1) & PSN_MASK;
    // Keep the result for duplicates: the last ResponderResources atomics (the requester
    // has at most InitiatorDepth <= ResponderResources outstanding).
    if (m_atomicReplay.size() < m_responderResources)
    {
        m_atomicReplay.push_back(AtomicResult{seq, original, m_msn});
    }
    else
    {
        m_atomicReplay[m_atomicReplayNext] = AtomicResult{seq, original, m_msn};
        m_atomicReplayNext = (m_atomicReplayNext + 1) % m_atomicReplay.size();
    }
    m_readResponses.push_back(ReadResponse{seq, seq + 1, seq, 8, va, m_msn, true, original});
    m_txReady();
}

Ptr<Packet>
RdmaQueuePair::GetAtomicAck(uint16_t sourcePort)
{
    // IBTA vol. 1 §9.4.5: BTH (the request's PSN), AETH, AtomicAckETH, ICRC.
    const ReadResponse r = m_readResponses.front();
    m_readResponses.pop_front();
    Ptr<Packet> p = Create<Packet>(RdmaIcrcTrailer::SIZE);
    RdmaAtomicAckEthHeader ack;
    ack.SetOriginalRemoteData(r.original);
    RdmaPacketRoom::AddFirstHeader(p, ack);
    RdmaBthHeader& bth = m_txBth;
    bth.SetOpcode(RC_ATOMIC_ACKNOWLEDGE);
    bth.SetPadCount(0);
    bth.SetPartitionKey(m_params.partitionKey);
    bth.SetBecn(false);
    bth.SetDestQp(m_remoteQpn);
    bth.SetAckRequest(false);
    bth.SetPsn(SeqToPsn(r.startSeq));
    bth.SetTimestampRequest(false);
    bth.SetTelemetry(false);
    RdmaAethHeader& aeth = m_txAeth;
    aeth.SetSyndrome(RdmaAethHeader::AckSyndrome());
    aeth.SetMsn(r.msn);
    RdmaHeaderStack& stack = m_txStack;
    stack.BeginRoce();
    stack.Append(bth);
    stack.Append(aeth);
    stack.FinishIpv4Udp(m_localAddressBits,
                        m_remoteAddressBits,
                        m_dscp,
                        m_params.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                        sourcePort,
                        ROCEV2_PORT,
                        p->GetSize());
    p->AddHeader(stack);
    if (m_readResponses.empty() && m_ackHeld)
    {
        // An event of its own: the NIC is building this packet.
        Simulator::ScheduleNow(&RdmaQueuePair::ReleaseHeldAck, this);
    }
    ChargePacer(p, 0);
    PublishCcState();
    m_atomicAckTxTrace(r.startSeq);
    NS_LOG_LOGIC("qp " << m_qpn << " tx seq " << r.startSeq << " RC_ATOMIC_ACKNOWLEDGE original "
                       << r.original);
    return p;
}

void
RdmaQueuePair::QueueReRequest(const ReadResponse& r)
{
    // The responses a re-request asks for were lost: they are the oldest the requester
    // misses, so they go ahead of the READs still streaming (after the one being sent and
    // the re-requests before them), or they would wait behind a long READ and its timer
    // would expire.
    std::size_t at = 0;
    if (at < m_readResponses.size() && m_readResponses[at].nextSeq > m_readResponses[at].startSeq)
    {
        ++at;
    }
    while (at < m_readResponses.size() && m_readResponses[at].again)
    {
        ++at;
    }
    m_readResponses.insert(at, r);
}

uint32_t
RdmaQueuePair::ReadResponsesHeld() const
{
    uint32_t held = 0;
    for (std::size_t i = 0; i < m_readResponses.size(); ++i)
    {
        held += m_readResponses[i].again ? 0 : 1;
    }
    return held;
}

bool
RdmaQueuePair::SelectiveRequests() const
{
    return m_selective || m_unreliable;
}

RdmaQueuePair::TxMessage*
RdmaQueuePair::AcceptSelectiveResponse(uint64_t seq, bool atomic)
{
    if (m_readsQueued == 0 || seq < m_rs.sndUna || seq >= m_rs.highestSent ||
        m_responsesLanded.Contains(seq))
    {
        ++m_readResponseDiscards; // a duplicate, late, or of no request outstanding
        return nullptr;
    }
    TxMessage& m = m_txMessages[FindMessage(seq)];
    if (!RdmaWorkRequest::HasResponse(m.wr.opcode) ||
        RdmaWorkRequest::IsAtomic(m.wr.opcode) != atomic)
    {
        NS_LOG_WARN("qp " << m_qpn << " ignores a response of the wrong kind at " << seq);
        ++m_readResponseDiscards;
        return nullptr;
    }
    m_responsesLanded.Insert(seq);
    m.lastLanded = RdmaSimulatorImpl::CurrentTime();
    return &m;
}

void
RdmaQueuePair::SelectiveResponseLanded(uint64_t seq)
{
    RdmaAckInfo info;
    info.previousUna = m_rs.sndUna;
    const uint64_t lostBefore = m_rs.lossesDetected;
    AdvanceSelective();
    if (!m_unreliable)
    {
        // Selective repeat: the response is its PSN's delivery report (IRN).
        info.cumAck = m_rs.sndUna;
        info.responseSeq = seq;
        m_lr->OnAck(m_rs, info);
        if (m_rs.lossesDetected > lostBefore)
        {
            ReportLoss(RdmaLossEvent::RACK, m_rs.sndUna);
        }
    }
    UpdateInFlight();
    SyncTimer();
    m_txReady();
}

void
RdmaQueuePair::AdvanceSelective()
{
    uint64_t newlyAcked = 0;
    AdvanceSelective(newlyAcked);
}

bool
RdmaQueuePair::AdvanceSelective(uint64_t& newlyAcked)
{
    uint64_t una = m_rs.sndUna;
    for (std::size_t i = 0; i < m_txMessages.size(); ++i)
    {
        const TxMessage& m = m_txMessages[i];
        const uint64_t end = m.firstSeq + m.numPackets;
        if (RdmaWorkRequest::HasResponse(m.wr.opcode))
        {
            una = m_responsesLanded.FirstAbsent(una, end);
            if (una < end)
            {
                break;
            }
        }
        else if (m_dataEnd >= end)
        {
            una = end; // unreliable: sent whole; selective repeat: acknowledged
        }
        else
        {
            break;
        }
    }
    const bool advanced = AdvanceUna(una, newlyAcked);
    m_responsesLanded.AdvanceBase(m_rs.sndUna);
    return advanced;
}

void
RdmaQueuePair::ResponseTimerExpired()
{
    // The requester of a transport without end-to-end retransmission cannot wait forever
    // for a response the fabric lost: as PCIe's Completion Timeout (PCI Express Base
    // Specification 6.0, §2.8), whose split-transaction model UALink's read and atomic
    // requests share, a request whose responses stopped coming (none for RetransmitTimeout
    // since the request or its last response) completes in error.
    const Time now = RdmaSimulatorImpl::CurrentTime();
    while (!m_txMessages.empty())
    {
        TxMessage& m = m_txMessages.front();
        if (!RdmaWorkRequest::HasResponse(m.wr.opcode) || m.requested == Time::Max())
        {
            break;
        }
        const Time deadline = m.lastLanded + m_rs.baseRto;
        if (deadline > now)
        {
            m_responseTimer =
                Simulator::Schedule(deadline - now, &RdmaQueuePair::ResponseTimerExpired, this);
            return;
        }
        NS_LOG_LOGIC("qp " << m_qpn << " gives up the "
                           << (m.wr.opcode == RdmaWorkRequest::READ ? "READ" : "atomic") << " at "
                           << m.firstSeq << ": " << m.bytesLanded << " of " << m.wr.length
                           << " bytes landed");
        m.timedOut = true;
        ++m_responseTimeouts;
        for (uint64_t seq = std::max(m.firstSeq, m_rs.sndUna); seq < m.firstSeq + m.numPackets;
             ++seq)
        {
            m_responsesLanded.Insert(seq); // given up: nothing more will land
        }
        AdvanceSelective();
    }
    // The next request sent arms the timer again.
    UpdateInFlight();
    PublishCcState();
    m_txReady();
}

bool
RdmaQueuePair::RequestSeen(uint64_t seq) const
{
    if (seq < m_rxs.expected)
    {
        return true;
    }
    // The last request starting at or below seq.
    auto it = std::upper_bound(
        m_rxRequests.begin(),
        m_rxRequests.end(),
        seq,
        [](uint64_t s, const std::pair<uint64_t, uint64_t>& r) { return s < r.first; });
    if (it == m_rxRequests.begin())
    {
        return false;
    }
    --it;
    return seq < it->second;
}

void
RdmaQueuePair::RecordRequest(uint64_t seq, uint64_t end)
{
    if (m_unreliable && m_selective)
    {
        return; // the loss recovery's reorder bitmap keeps the sequence
    }
    if (m_unreliable)
    {
        // In-order unreliable responder: a gap before it is given up (counted lost).
        if (seq > m_rxs.expected)
        {
            CountLost(seq - m_rxs.expected);
        }
        m_rxs.expected = std::max(m_rxs.expected, end);
        return;
    }
    auto it = std::lower_bound(
        m_rxRequests.begin(),
        m_rxRequests.end(),
        seq,
        [](const std::pair<uint64_t, uint64_t>& r, uint64_t s) { return r.first < s; });
    if (it != m_rxRequests.end() && it->first == seq)
    {
        it->second = end;
    }
    else
    {
        m_rxRequests.insert(it, {seq, end});
    }
    // The loss recovery's reorder bitmap took the request's PSNs (PlaceRequest) and moves
    // m_rxs.expected over them with the WRITE and SEND packets: only the requests still
    // above it are kept, for RequestSeen (a re-request inside one of them).
    std::size_t done = 0;
    while (done < m_rxRequests.size() && m_rxRequests[done].second <= m_rxs.expected)
    {
        ++done;
    }
    m_rxRequests.erase(m_rxRequests.begin(), m_rxRequests.begin() + done);
}

bool
RdmaQueuePair::PlaceRequest(uint64_t seq, uint64_t span, uint8_t opcode)
{
    RdmaRxPacket packet;
    packet.seq = seq;
    packet.opcode = opcode;
    packet.bytes = 0;
    packet.span = span;
    m_requestPlaced = false;
    m_lr->OnPlaceableData(m_rxs, *this, packet);
    return m_requestPlaced;
}

uint64_t
RdmaQueuePair::GetResponseTimeouts() const
{
    return m_responseTimeouts;
}

uint64_t
RdmaQueuePair::GetAtomicRequestsSent() const
{
    return m_atomicRequestsSent;
}

uint64_t
RdmaQueuePair::GetAtomicResends() const
{
    return m_atomicResends;
}

uint64_t
RdmaQueuePair::GetAtomicAcksReceived() const
{
    return m_atomicAcksReceived;
}

uint64_t
RdmaQueuePair::GetAtomicsExecuted() const
{
    return m_atomicsExecuted;
}

uint64_t
RdmaQueuePair::GetAtomicReplays() const
{
    return m_atomicReplays;
}

uint64_t
RdmaQueuePair::GetAtomicReplayMisses() const
{
    return m_atomicReplayMisses;
}

} // namespace ns3
