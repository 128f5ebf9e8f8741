/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "rdma-aeth-header.h"
#include "rdma-bth-header.h"
#include "rdma-cc-feedback.h"
#include "rdma-cc-state.h"
#include "rdma-header-stack.h"
#include "rdma-int-trailer.h"
#include "rdma-loss-recovery.h"
#include "rdma-memory.h"
#include "rdma-net-device.h"
#include "rdma-path-selector.h"
#include "rdma-sequence-bitmap.h"
#include "rdma-transport-endpoint.h"
#include "rdma-work-request.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

class RdmaCongestionControl;
class RdmaSackHeader;

/**
 * \ingroup rdma
 * \brief A reliable-connected (RC) queue pair of a RoCEv2 NIC: requester and responder.
 *
 * Requester: segments posted WRITE and SEND work requests into packets of at most the
 * path MTU (IBTA vol. 1 §9.4 opcodes FIRST/MIDDLE/LAST/ONLY, RETH in the first packet of a
 * WRITE, AckReq on the last), paces them at the congestion control's rate, completes a
 * work request when its last PSN is acknowledged, and recovers losses through the
 * pluggable RdmaLossRecovery (NAK) and a retransmission timer.
 * Responder: accepts packets in PSN order, acknowledges every AckInterval packets and every
 * packet that requests it, NAKs a PSN gap once (§9.7.5.1.2), re-acknowledges duplicates,
 * and sends a CNP (RoCEv2 annex A17.9) for CE-marked packets at most once per CnpInterval.
 * How out-of-order packets are treated is the loss recovery's choice: dropped and NAKed
 * (go-back-N), dropped with the partial message (go-back-0), or placed at once into memory
 * through a bounded reorder bitmap and acknowledged with a SACK extension
 * (RdmaSackLossRecovery). In the last case every WRITE packet carries a RETH and every
 * SEND packet an RdmaPlacementHeader, so that it can be placed without its predecessors;
 * messages still complete to the application in order.
 *
 * It is the NIC's RdmaTransportEndpoint for RC: the NIC drives it only through that
 * interface; a subclass set with RdmaNic::SetQueuePairFactory may override any of those
 * calls.
 *
 * RDMA READ (IBTA vol. 1 §9.4.3, §9.5, §9.7.5): a READ work request is one READ Request
 * packet (BTH + RETH) that takes ceil(length / MTU) PSNs of the send queue; the responder
 * answers with READ Response First/Middle/Last (or Only) packets carrying those PSNs, the
 * first and last with an AETH, sent through its own pacer and congestion control in turn
 * with its own requests (HasDataToSend, GetNextPacket). The requester keeps at most
 * InitiatorDepth READs outstanding (IBTA max_rd_atomic, ORD), the responder queues at most
 * ResponderResources (max_dest_rd_atomic, IRD); ORD <= the peer's IRD is checked when
 * RdmaNic connects the two. A response implicitly acknowledges every earlier request; a
 * response beyond a missing one, or an ACK beyond an incomplete READ (implied NAK), makes
 * the requester go back to the first missing response PSN and re-issue the READ for the
 * remaining bytes (VA and DMA length adjusted), which the responder executes again. The
 * responder holds ACKs and NAKs while responses are queued, so that it answers in PSN
 * order. READ needs go-back-N loss recovery (RdmaGoBackNLossRecovery).
 *
 * Atomics (IBTA vol. 1 §9.4.5): a FETCH_ADD or COMPARE_SWAP work request is one request
 * packet (BTH + AtomicETH) taking one PSN, counted against InitiatorDepth with the READs.
 * The responder executes it once against its node's RdmaMemory and answers with an Atomic
 * Acknowledge (AETH + AtomicAckETH: the original value) in the READ responses' queue, in
 * PSN order. It keeps the results of its last ResponderResources atomics by PSN (the
 * responder resources that IBTA §9.7.5 uses to answer duplicates): a duplicate atomic,
 * re-sent after a lost request or acknowledgement, is answered from there and never
 * executed again. The completion carries the original value
 * (RdmaCompletion::atomicOriginal).
 *
 * Sequence numbers are kept as 64-bit counters; the BTH carries (InitialPsn + seq) mod 2^24,
 * and received PSNs are unwrapped relative to the expected one, so PSN wrap-around is
 * transparent.
 */
class RdmaQueuePair : public RdmaTransportEndpoint, private RdmaReceiverOps
{
  public:
    /// Completion notification.
    typedef Callback<void, const RdmaCompletion&> CompletionCallback;

    /// TracedCallback signature for sequence events.
    typedef void (*SequenceTracedCallback)(uint64_t seq);
    /// TracedCallback signature for transmissions.
    typedef void (*TxTracedCallback)(uint64_t seq, bool retransmission);
    /// TracedCallback signature for completions.
    typedef void (*CompletionTracedCallback)(const RdmaCompletion& completion);
    /**
     * TracedCallback signature for placements.
     * \param seq the packet's sequence
     * \param address WRITE: the RETH virtual address of its first byte; SEND: its byte
     *        offset in the receive buffer
     * \param bytes payload bytes
     * \param outOfOrder true if it was placed before a missing predecessor
     */
    typedef void (*PlacementTracedCallback)(uint64_t seq,
                                            uint64_t address,
                                            uint32_t bytes,
                                            bool outOfOrder);
    /// TracedCallback signature for RTT samples.
    typedef void (*RttTracedCallback)(Time rtt);
    /// TracedCallback signature for loss events reported to the congestion control.
    typedef void (*LossEventTracedCallback)(RdmaLossEvent event, uint64_t seq);

    /// Width of the BTH PSN field.
    static constexpr uint32_t PSN_MASK = 0xFFFFFF;
    /// RoCEv2 UDP destination port (IANA).
    static constexpr uint16_t ROCEV2_PORT = 4791;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /**
     * Called by the NIC when it creates the queue pair.
     * \param qpn local queue pair number
     * \param localAddress the NIC's IPv4 address
     * \param lineRate the NIC port's rate
     * \param params NIC-wide settings
     * \param cc this queue pair's congestion control (already forked)
     * \param lr this queue pair's loss recovery (already forked)
     * \param txReady called when the queue pair may have become eligible to send
     * \param sendControl sends an ACK/NAK/CNP
     */
    void Setup(uint32_t qpn,
               Ipv4Address localAddress,
               DataRate lineRate,
               const RdmaQpParameters& params,
               Ptr<RdmaCongestionControl> cc,
               Ptr<RdmaLossRecovery> lr,
               Callback<void> txReady,
               ControlSendCallback sendControl) override;

    /**
     * Connect to the remote queue pair (verbs: modify to RTR and RTS).
     * \param remoteAddress the remote NIC's IPv4 address
     * \param remoteQpn the remote queue pair number
     */
    void Connect(Ipv4Address remoteAddress, uint32_t remoteQpn) override;

    uint32_t GetInitialPsn() const override;
    void SetInitialPsn(uint32_t psn) override;

    /**
     * Post a work request to the send queue.
     * \param wr the work request
     */
    void PostSend(const RdmaWorkRequest& wr);

    /**
     * What the peer (responder) of this queue pair accepts for RDMA READ, as a connection
     * manager exchanges it (rdma_cm's responder_resources; IBTA: the requester's ORD must
     * not exceed the responder's IRD). RdmaNic::ConnectEndpoints calls it for both ends
     * before Connect. Aborts if InitiatorDepth exceeds responderResources.
     * \param responderResources the peer's ResponderResources (IRD)
     * \param maxReadSize the peer's MaxReadSize: longest READ it serves
     */
    void SetPeerReadLimits(uint32_t responderResources, uint64_t maxReadSize);
    /// \return the ResponderResources attribute (IRD)
    uint32_t GetResponderResources() const;
    /// \return the MaxReadSize attribute
    uint64_t GetMaxReadSize() const;

    /// \param cb called when a posted work request completes
    void SetSendCompletionCallback(CompletionCallback cb);
    /// \param cb called when an incoming message has been fully placed in order
    void SetReceiveCompletionCallback(CompletionCallback cb);

    /// \return the local queue pair number
    uint32_t GetQpn() const override;
    /// \return the remote queue pair number
    uint32_t GetRemoteQpn() const;
    /// \return the remote NIC's address
    Ipv4Address GetRemoteAddress() const;
    /// \return the local NIC's address
    Ipv4Address GetLocalAddress() const;
    /// \return the path MTU: payload bytes per packet
    uint32_t GetMtu() const;
    /// \return the UDP source port (ECMP entropy)
    uint16_t GetSourcePort() const;

    /// \return true if there are packets to (re)transmit and the window allows one
    bool HasDataToSend() const override;
    /**
     * Build the next data packet and advance the send state. Only call when
     * HasDataToSend() and GetNextSendTime() <= now.
     * \return the IPv4 packet
     */
    Ptr<Packet> GetNextPacket();
    /**
     * As GetNextPacket, with a given UDP source port (a host-side path selector's entropy)
     * instead of the queue pair's own.
     * \param sourcePort the UDP source port of this packet (OWN_SOURCE_PORT: its own)
     * \return the IPv4 packet
     */
    Ptr<Packet> GetNextPacket(uint16_t sourcePort) override;
    /**
     * The remote memory address the next data packet targets: for a WRITE the virtual
     * address of its first byte, for a SEND its byte offset in the message. Only call when
     * HasDataToSend(). Used by address-interleaved path selection.
     * \return the address
     */
    uint64_t GetNextPacketAddress() const;
    /**
     * Describe the next data packet to the NIC's path selector. Only call when
     * HasDataToSend().
     * \param[out] request what the selector reads
     * \param withAddress fill request.address too (GetNextPacketAddress)
     */
    void GetPathRequest(RdmaPathRequest& request, bool withAddress) const override;

    /**
     * A data packet for this queue pair arrived (responder side).
     * \param payload the packet after the BTH (RETH, payload, ICRC)
     * \param bth its BTH
     * \param ecnCe true if the IPv4 ECN field was CE
     * \param ttl the IPv4 TTL it arrived with (the hop count is 64 - ttl)
     */
    void ReceiveData(Ptr<Packet> payload,
                     const RdmaBthHeader& bth,
                     bool ecnCe,
                     uint8_t ttl = 64) override;
    /**
     * An ACK or NAK arrived (requester side).
     * \param bth its BTH
     * \param aeth its AETH
     * \param rest the packet after the AETH (a SACK extension if any, then the ICRC), or
     *        nullptr
     */
    void ReceiveAck(const RdmaBthHeader& bth,
                    const RdmaAethHeader& aeth,
                    Ptr<Packet> rest = nullptr) override;
    /// A CNP arrived (requester side).
    void ReceiveCnp() override;

    /// \return the congestion control state (rate, window)
    const RdmaCcState& GetCcState() const;
    /// \return the congestion control in use
    Ptr<RdmaCongestionControl> GetCongestionControl() const;
    /// \return the loss recovery in use
    Ptr<RdmaLossRecovery> GetLossRecovery() const;

    /// \return data packets transmitted, retransmissions included
    uint64_t GetPacketsSent() const;
    /// \return data packets transmitted more than once
    uint64_t GetRetransmissions() const;
    /// \return retransmission timeouts
    uint64_t GetTimeouts() const;
    /// \return slots of the ring of send times (RTT samples): it grows while many packets
    /// are in flight and returns to its initial size when the queue pair goes idle
    std::size_t GetSendTimeSlots() const;
    /// \return NAKs received
    uint64_t GetNaksReceived() const;
    /// \return NAKs sent (responder)
    uint64_t GetNaksSent() const;
    /// \return CNPs received
    uint64_t GetCnpsReceived() const;
    /// \return CNPs sent (responder)
    uint64_t GetCnpsSent() const;
    /// \return out-of-order packets the responder discarded
    uint64_t GetOutOfOrderDiscards() const;
    /// \return packets the responder placed ahead of a missing predecessor
    uint64_t GetOutOfOrderPlacements() const;
    /// \return packets the responder dropped because they lay beyond its reorder bitmap
    uint64_t GetReorderWindowDrops() const;
    /// \return duplicate packets the responder received
    uint64_t GetDuplicatesReceived() const;
    /// \return work requests posted and not yet completed
    uint32_t GetOutstandingWorkRequests() const;
    /// \return payload bytes acknowledged so far
    uint64_t GetBytesAcked() const;
    /// \return payload bytes received in order (responder)
    uint64_t GetBytesReceived() const;
    /// \return payload bytes placed into memory, in any order (responder)
    uint64_t GetBytesPlaced() const;
    /// \return data packets the responder skipped in the unreliable mode (lost)
    uint64_t GetPacketsLost() const;
    /// \return payload bytes of those packets, one MTU each (responder, unreliable mode)
    uint64_t GetBytesLost() const;
    /// \return times the congestion control moved the flow to a new path (new entropy)
    uint32_t GetRepaths() const;
    /// \return READ Request packets sent, re-requests included (requester)
    uint64_t GetReadRequestsSent() const;
    /// \return READ Requests re-issued for the remaining bytes of a READ (requester)
    uint64_t GetReadReRequests() const;
    /// \return READ Response packets accepted in PSN order (requester)
    uint64_t GetReadResponsesReceived() const;
    /// \return READ Response packets discarded: duplicate, stale or beyond a gap (requester)
    uint64_t GetReadResponseDiscards() const;
    /// \return READ Response payload bytes landed in local memory (requester)
    uint64_t GetBytesRead() const;
    /// \return READs whose request was sent and whose last response has not landed
    uint32_t GetReadsOutstanding() const;
    /// \return READ Response packets sent (responder)
    uint64_t GetReadResponsesSent() const;
    /// \return READ Requests received again for PSNs already executed (responder)
    uint64_t GetDuplicateReadRequests() const;
    /// \return READs queued at the responder (at most ResponderResources)
    uint32_t GetQueuedReadResponses() const;
    /// \return READs and atomics given up (unreliable mode: RESPONSE_TIMEOUT completions)
    uint64_t GetResponseTimeouts() const;

    /**
     * The memory the responder executes atomics against: its node's (RdmaNic sets it when
     * it creates the queue pair).
     * \param memory the node's RdmaMemory
     */
    void SetMemory(Ptr<RdmaMemory> memory);
    /// \return the memory atomics execute against
    Ptr<RdmaMemory> GetMemory() const;
    /// \return atomic request packets sent, re-sent ones included (requester)
    uint64_t GetAtomicRequestsSent() const;
    /// \return atomic requests sent again with the same PSN (requester, go-back-N)
    uint64_t GetAtomicResends() const;
    /// \return Atomic Acknowledges accepted in PSN order (requester)
    uint64_t GetAtomicAcksReceived() const;
    /// \return atomics executed against the memory (responder)
    uint64_t GetAtomicsExecuted() const;
    /// \return duplicate atomics answered from the replay cache (responder)
    uint64_t GetAtomicReplays() const;
    /// \return duplicate atomics older than the replay cache, dropped unanswered (responder)
    uint64_t GetAtomicReplayMisses() const;

    /**
     * Convert a sequence number to the 24-bit PSN carried in the BTH.
     * \param seq the 64-bit sequence
     * \return the PSN
     */
    uint32_t SeqToPsn(uint64_t seq) const;

    /**
     * Unwrap a received 24-bit PSN to the sequence number nearest to a reference.
     * \param psn the PSN from the wire
     * \param reference a sequence number known to be within 2^23 of the answer
     * \return the 64-bit sequence number
     */
    uint64_t PsnToSeq(uint32_t psn, uint64_t reference) const;

  protected:
    void DoDispose() override;

  private:
    /// A work request being sent.
    struct TxMessage
    {
        RdmaWorkRequest wr;
        uint64_t firstSeq;   //!< sequence of its first packet
        uint64_t numPackets; //!< packets it takes
        uint32_t sendMsn;    //!< SEND: its SEND message sequence number
        Time postTime;
        uint64_t atomicOriginal{0};  //!< atomics: the Original Remote Data received
        uint64_t bytesLanded{0};     //!< READ, selective modes: response bytes landed
        Time requested{Time::Max()}; //!< READ, atomics: when first requested
        Time lastLanded;             //!< READ, atomics: request or latest response landed
        bool timedOut{false};        //!< unreliable mode: given up (RESPONSE_TIMEOUT)
    };

    /// A READ being answered (responder): PSNs [startSeq, endSeq) carry length bytes read
    /// from virtualAddress on.
    struct ReadResponse
    {
        uint64_t startSeq;       //!< sequence of its first response
        uint64_t endSeq;         //!< one past its last response
        uint64_t nextSeq;        //!< next response to send
        uint64_t length;         //!< bytes from startSeq on
        uint64_t virtualAddress; //!< RETH VA of startSeq's first byte
        uint32_t msn;            //!< MSN its AETHs carry: the responder's after this READ
        bool atomic{false};      //!< an Atomic Acknowledge (one PSN), not READ data
        uint64_t original{0};    //!< atomic: the Original Remote Data it carries
        bool again{false};       //!< selective repeat: a re-request (takes no IRD slot)
    };

    /// A responder's executed atomic, kept to answer its duplicates (replay cache).
    struct AtomicResult
    {
        uint64_t seq;      //!< its PSN's sequence
        uint64_t original; //!< the Original Remote Data returned
        uint32_t msn;      //!< the MSN its acknowledgement carried
    };

    /// \return index in m_txMessages of the message holding seq
    std::size_t FindMessage(uint64_t seq) const;
    /// \return true if the requester has a packet to send: the window and InitiatorDepth
    /// allow it (HasDataToSend without the responder's READ responses)
    bool RequesterHasData() const;
    /// \return true if the READ message holding seq may be requested now (InitiatorDepth)
    bool ReadAllowed(uint64_t seq) const;
    /// \return the first sequence whose READ response has not arrived: sndUna inside a
    /// READ, else the first READ's first sequence, else UINT64_MAX
    uint64_t FirstMissingReadResponse() const;
    /**
     * Requester: a response or ACK says sequences up to end were executed but the READ
     * response at missing did not arrive. Go back to it once per gap (the loss recovery's
     * NAK reaction: sndNxt rewinds, the READ is requested again from there).
     * \param missing the first missing READ response
     */
    void ReadResponseMissing(uint64_t missing);
    /// Requester: a READ Response packet arrived.
    void ReceiveReadResponse(Ptr<Packet> payload, const RdmaBthHeader& bth);
    /// Responder: a READ Request packet arrived (seq: its unwrapped PSN).
    void ReceiveReadRequest(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq);
    /// Responder: build the next READ Response packet of the front of m_readResponses.
    Ptr<Packet> GetNextReadResponse(uint16_t sourcePort);
    /**
     * Requester: build the READ Request for the READ message m from seq on (its first
     * sequence, or the first missing response of a re-request).
     * \param m the READ work request
     * \param seq the PSN's sequence
     * \param sourcePort the UDP source port
     * \return the packet
     */
    Ptr<Packet> GetReadRequest(TxMessage& m, uint64_t seq, uint16_t sourcePort);
    /// Requester: abort unless the atomic work request wr is valid (length 8, aligned VA,
    /// go-back-N), naming the bad value.
    void CheckAtomicRequest(const RdmaWorkRequest& wr) const;
    /// Requester: build the atomic request (BTH + AtomicETH) of message m, PSN seq.
    Ptr<Packet> GetAtomicRequest(TxMessage& m, uint64_t seq, uint16_t sourcePort);
    /**
     * Requester: account a READ or atomic request just built (it takes its responses'
     * PSNs; a first send takes an InitiatorDepth slot) and charge it to the pacer.
     * \param m its work request
     * \param seq its PSN's sequence
     * \param end one past the last response it asks for
     * \param retransmission sent before
     * \param p the packet
     */
    void RequestSent(TxMessage& m,
                     uint64_t seq,
                     uint64_t end,
                     bool retransmission,
                     Ptr<const Packet> p);
    /**
     * Requester, selective repeat or unreliable mode: may a READ Response or Atomic
     * Acknowledge at seq land? (Not a duplicate, of an outstanding request of that kind.)
     * Counts a discard if not.
     * \param seq its sequence
     * \param atomic true for an Atomic Acknowledge
     * \return the message it belongs to, or nullptr
     */
    TxMessage* AcceptSelectiveResponse(uint64_t seq, bool atomic);
    /// Requester, selective repeat or unreliable mode: the response at seq landed; advance
    /// sndUna over what is complete and tell the loss recovery (selective repeat).
    void SelectiveResponseLanded(uint64_t seq);
    /// Responder, selective repeat: queue a re-request's responses (or an atomic's replay)
    /// ahead of the READs still streaming.
    void QueueReRequest(const ReadResponse& r);
    /**
     * Requester, selective repeat or unreliable mode: advance sndUna over every response
     * landed in order and over the WRITE and SEND messages before m_dataEnd (unreliable:
     * sent whole; selective repeat: acknowledged by the responder), completing in order.
     * \param[out] newlyAcked payload bytes sndUna passed
     * \return true if sndUna advanced
     */
    bool AdvanceSelective(uint64_t& newlyAcked);
    /// AdvanceSelective, its bytes not needed.
    void AdvanceSelective();
    /// Requester, unreliable mode: give up the READs and atomics whose responses have not
    /// all come within RetransmitTimeout of their request (RESPONSE_TIMEOUT).
    void ResponseTimerExpired();
    /// Responder, selective repeat or unreliable: was the request at seq executed before?
    bool RequestSeen(uint64_t seq) const;
    /// Responder, selective repeat: the request [seq, end) was executed: remember it.
    void RecordRequest(uint64_t seq, uint64_t end);
    /**
     * Responder whose loss recovery places out of order (selective repeat, the unreliable
     * mode with a reorder bitmap): hand a request's PSNs to the loss recovery as one slot
     * (RdmaRxPacket::span), in the receive sequence of the WRITE and SEND packets.
     * \return false if it was not placed (beyond the reorder bitmap, or after its hole was
     *         given up): not executed
     */
    bool PlaceRequest(uint64_t seq, uint64_t span, uint8_t opcode);
    /// \return true if the responder executes requests by the selective rules (selective
    /// repeat or unreliable mode): on arrival, whatever their order
    bool SelectiveRequests() const;
    /// Requester: an Atomic Acknowledge arrived (payload: AETH, AtomicAckETH, ICRC).
    void ReceiveAtomicAck(Ptr<Packet> payload, const RdmaBthHeader& bth);
    /// Responder: an atomic request arrived (seq: its unwrapped PSN).
    void ReceiveAtomicRequest(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq);
    /// \return the responder's READs and atomics in m_readResponses that hold a
    /// ResponderResources slot (re-requests under selective repeat hold none)
    uint32_t ReadResponsesHeld() const;
    /// Responder: build the Atomic Acknowledge at the front of m_readResponses.
    Ptr<Packet> GetAtomicAck(uint16_t sourcePort);
    /// Responder: the requester went back to seq: drop the responses queued for seq and
    /// later, and cut a READ that runs past it (it asks for them again).
    void SupersedeResponsesFrom(uint64_t seq);
    /// Responder: send the ACK or NAK held while READ responses were queued.
    void ReleaseHeldAck();
    /// Charge a READ packet (request or response) of payload bytes to the pacer and the
    /// congestion control, as GetNextPacket charges a WRITE or SEND packet.
    void ChargePacer(Ptr<const Packet> p, uint32_t payload);
    /**
     * Advance sndUna to newUna, completing finished work requests.
     * \param newUna the new cumulative acknowledgement point
     * \param[out] newlyAcked payload bytes newly acknowledged
     * \return true if sndUna advanced
     */
    bool AdvanceUna(uint64_t newUna, uint64_t& newlyAcked);
    /**
     * Unreliable mode: complete every message before end (its last packet was sent), as
     * an ACK of end - 1 would.
     * \param end one past the last sequence sent
     */
    void CompleteSent(uint64_t end);
    /// Recompute the congestion control's bytesInFlight.
    void UpdateInFlight();
    /**
     * Karn-filtered RTT sample of a sequence: now minus its send time, or zero if it was
     * retransmitted or its send time is no longer recorded.
     * \param seq the sequence
     * \param[out] sent its send time (when the sample is valid)
     * \return the sample, zero if none
     */
    Time SampleRtt(uint64_t seq, Time& sent) const;
    /// Feed an RTT sample to minRtt, srtt (RFC 6298 gain 1/8), latestRtt and baseRtt.
    void UpdateRttEstimates(Time rtt);
    /// Tell the congestion control about an acknowledgement and publish its decisions.
    void DeliverFeedback(RdmaAckFeedback& feedback, uint64_t sackedBefore, uint64_t lostBefore);
    /// Tell the congestion control about a loss and publish its decisions.
    void ReportLoss(RdmaLossEvent event, uint64_t seq);
    /// Fire the Rate and Window traces if the congestion control changed them.
    void PublishCcState();
    /// \return bytes after a received data packet's payload and pad: ICRC, and INT area if any
    uint32_t TailBytes() const;
    /// \return the pacing gap after a packet of payloadBytes and wireBytes
    Time PacingGap(uint32_t payloadBytes, uint32_t wireBytes) const;
    /// The congestion control asked for a new path: draw a new UDP source port.
    void Repath();
    /// Schedule the recovery timer at the loss recovery's expiry (lazily: never earlier
    /// than needed, and an event that fires early finds nothing due and re-arms).
    void SyncTimer();
    /// The recovery timer expired.
    void RecoveryTimerExpired();
    /// Responder: deliver a packet in PSN order (message bytes, completion).
    void DeliverInOrder(uint64_t seq, uint8_t opcode, uint32_t bytes, Time arrival);
    /// Responder with out-of-order placement: a data packet arrived; read where it goes
    /// and hand it to the loss recovery (OnPlaceableData).
    void ReceiveDataSelective(Ptr<Packet> payload, const RdmaBthHeader& bth, uint64_t seq);
    /// Build and send an ACK (syndrome ACK) or a NAK for the given sequence, with a SACK
    /// extension if sack is not null.
    void SendAck(uint64_t seq, uint8_t syndrome, const RdmaSackHeader* sack = nullptr);
    /// Build and send a CNP.
    void SendCnp();
    /// Remember the send time of a sequence for RTT samples (Karn: a retransmission makes
    /// the sequence's samples ambiguous, so it is recorded as such).
    void RecordSendTime(uint64_t seq, bool retransmission);
    /// The congestion control changed the rate on its own: re-pace, wake the NIC.
    void RateChanged();
    /// \param dscp the DSCP of the queue pair's data (Dscp attribute; sets the traffic class)
    void SetDscp(uint8_t dscp);
    /// \return the DSCP of the queue pair's data
    uint8_t GetDscp() const;

    // RdmaReceiverOps: the loss recovery's replies to packets out of order.
    void SendAck(uint64_t seq) override;
    void SendNak(uint64_t seq) override;
    void DiscardPartialMessage() override;
    void CountOutOfOrderDiscard(uint64_t seq) override;
    void CountLost(uint64_t packets) override;
    void CountDuplicate() override;
    void CountWindowDrop(uint64_t seq) override;
    void Place(const RdmaRxPacket& packet, bool outOfOrder) override;
    void Deliver(uint64_t seq, uint8_t opcode, uint32_t bytes, Time arrival) override;
    void SendSack(uint64_t triggerSeq, RdmaSackHeader& sack) override;

    // configuration
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    Ipv4Address m_localAddress;
    Ipv4Address m_remoteAddress;
    uint32_t m_localAddressBits{0};  //!< m_localAddress.Get(), kept: written per packet
    uint32_t m_remoteAddressBits{0}; //!< m_remoteAddress.Get(), kept: written per packet
    bool m_connected{false};
    uint32_t m_initialPsn;
    uint8_t m_dscp;
    uint16_t m_sourcePort;
    RdmaQpParameters m_params;
    Ptr<RdmaCongestionControl> m_cc;
    Ptr<RdmaLossRecovery> m_lr;
    Callback<void> m_txReady;
    ControlSendCallback m_sendControl;
    CompletionCallback m_sendCompletion;
    CompletionCallback m_recvCompletion;

    bool m_selective{false};       //!< m_lr->PlacesOutOfOrder(), cached
    bool m_restartOnGap{false};    //!< m_lr->RestartsMessageOnGap(), cached (ACK whole messages)
    bool m_unreliable{false};      //!< !m_lr->Retransmits(), cached
    bool m_wantTimestamps{false};  //!< m_cc->NeedsTimestamps(), cached
    bool m_wantTelemetry{false};   //!< m_cc->NeedsTelemetry(), cached
    bool m_timerPending{false};    //!< m_timerEvent is scheduled and has not run
    RdmaIntTrailer m_txIntTrailer; //!< the empty INT area (and ICRC) data packets end with
    // Scratch headers for the packets this queue pair builds (data, ACK, CNP). A Header
    // object costs a constructor and a virtual destructor, so these are kept and rewritten:
    // every site sets every BTH field it does not leave at its default (SE, M, TVer, FECN).
    RdmaBthHeader m_txBth;     //!< the BTH being built
    RdmaAethHeader m_txAeth;   //!< the AETH being built (ACK, NAK)
    RdmaHeaderStack m_txStack; //!< IPv4, UDP and the transport headers as one run of bytes
    Time m_configuredBaseRtt;  //!< BaseRtt attribute (0: the smallest RTT sample)
    uint32_t m_repaths{0};     //!< paths changed at the congestion control's request

    // requester
    RdmaCcState m_ccState;
    RdmaRecoveryState m_rs;
    RdmaFifo<TxMessage> m_txMessages; //!< posted, not yet completed, in posting order
    mutable std::size_t m_cursor{0};  //!< FindMessage's last answer (a cache)
    uint32_t m_nextSendMsn{0};        //!< SEND message sequence number of the next SEND posted
    Time m_lastTxTime;                //!< when the last data packet was sent (pacing)
    mutable uint64_t m_rateGapBps{0}; //!< rate of the kept rate gap (PacingGap)
    mutable uint32_t m_rateGapWireBytes{0}; //!< frame bytes of the kept rate gap
    mutable Time m_rateGap;                 //!< the kept rate gap
    uint32_t m_lastTxWireBytes{0};          //!< its wire bytes
    uint32_t m_lastTxPayloadBytes{0};       //!< its payload bytes
    EventId m_timerEvent;                   //!< the recovery timer
    Time m_timerAt;                         //!< when m_timerEvent fires
    std::vector<Time> m_sendTimes; //!< ring of send times, indexed by seq (negative: ambiguous)
    uint64_t m_bytesAcked{0};

    // responder
    RdmaReceiveState m_rxs;         //!< expected, messageStart and the loss flags
    uint64_t m_rxMessageAddress{0}; //!< WRITE: virtual address of the message (in order)
    uint32_t m_msn{0};
    uint32_t m_unackedPackets{0};
    uint64_t m_rxMessageBytes{0};
    Time m_rxMessageStart;
    RdmaWorkRequest::Opcode m_rxOpcode{RdmaWorkRequest::WRITE};
    Time m_lastCnpTime;
    bool m_ceSinceAck{false};      //!< a CE-marked packet arrived since the last ACK (ECN-echo)
    bool m_rxTsRequest{false};     //!< the packet being acknowledged asked for timestamps
    Time m_rxArrival;              //!< its arrival time (t2)
    uint8_t m_rxHops{0};           //!< the switches it crossed
    bool m_rxTelemetry{false};     //!< it carried an INT area (echoed in the ACK)
    RdmaIntTrailer m_rxIntTrailer; //!< that area
    bool m_cnpSent{false};
    uint64_t m_bytesReceived{0};
    uint64_t m_bytesPlaced{0};

    // RDMA READ
    uint32_t m_initiatorDepth{16};             //!< InitiatorDepth attribute (ORD)
    uint32_t m_responderResources{16};         //!< ResponderResources attribute (IRD)
    uint64_t m_maxReadSize{0x80000000ULL};     //!< MaxReadSize attribute
    uint32_t m_peerResponderResources{~0U};    //!< the peer's IRD (SetPeerReadLimits)
    uint64_t m_peerMaxReadSize{0x80000000ULL}; //!< the peer's MaxReadSize
    uint32_t m_readsQueued{0};                 //!< READ and atomic work requests queued
    uint32_t m_readsOutstanding{0};            //!< of those, requested and not complete
    bool m_readGapReported{false};          //!< went back for a missing response since the last one
    RdmaFifo<ReadResponse> m_readResponses; //!< responder: READs being answered (IRD)
    bool m_preferResponse{false};           //!< the next packet is a READ response if both wait
    bool m_ackHeld{false};                  //!< an ACK/NAK waits behind the READ responses
    uint64_t m_heldAckSeq{0};               //!< its PSN's sequence
    uint8_t m_heldAckSyndrome{0};           //!< its syndrome
    uint64_t m_readRequestsSent{0};
    uint64_t m_readReRequests{0};
    uint64_t m_readResponsesReceived{0};
    uint64_t m_readResponseDiscards{0};
    uint64_t m_bytesRead{0};
    uint64_t m_readResponsesSent{0};
    uint64_t m_duplicateReadRequests{0};
    uint64_t m_responseTimeouts{0};
    // READ and atomics with selective repeat and in the unreliable mode
    RdmaSequenceBitmap m_responsesLanded; //!< requester: landed above sndUna
    /// Requester with READ or atomics queued: WRITE and SEND messages ending at or before it
    /// may complete, in order (unreliable: sent whole; selective repeat: the responder's
    /// cumulative ACK passed them)
    uint64_t m_dataEnd{0};
    Time m_responseSpacing;  //!< a full READ Response's frame time
    EventId m_responseTimer; //!< requester, unreliable: ResponseTimerExpired
    /// Responder: requests executed above expected, [start, end) by start; a vector
    /// (at most ResponderResources long) keeps its capacity, so it allocates once.
    std::vector<std::pair<uint64_t, uint64_t>> m_rxRequests;
    bool m_requestPlaced{false}; //!< responder: PlaceRequest's answer

    // Atomics
    Ptr<RdmaMemory> m_memory;                 //!< the node's memory (responder)
    std::vector<AtomicResult> m_atomicReplay; //!< responder: last ResponderResources results
    std::size_t m_atomicReplayNext{0};        //!< ring slot the next result takes
    uint64_t m_atomicRequestsSent{0};
    uint64_t m_atomicResends{0};
    uint64_t m_atomicAcksReceived{0};
    uint64_t m_atomicsExecuted{0};
    uint64_t m_atomicReplays{0};
    uint64_t m_atomicReplayMisses{0};

    // counters
    uint64_t m_packetsSent{0};
    uint64_t m_retransmissions{0};
    uint64_t m_timeouts{0};
    uint64_t m_naksReceived{0};
    uint64_t m_naksSent{0};
    uint64_t m_cnpsReceived{0};
    uint64_t m_cnpsSent{0};
    uint64_t m_oooDiscards{0};
    uint64_t m_duplicates{0};
    uint64_t m_oooPlacements{0};
    uint64_t m_windowDrops{0};
    uint64_t m_packetsLost{0}; //!< unreliable mode: packets the responder skipped
    uint64_t m_bytesLost{0};   //!< ... one MTU each

    TracedCallback<uint64_t, bool> m_txTrace;
    TracedCallback<uint64_t> m_readResponseTxTrace; //!< responder: a READ response left
    TracedCallback<uint64_t> m_atomicAckTxTrace;    //!< responder: an Atomic Acknowledge left
    TracedCallback<uint64_t, uint64_t, uint32_t, bool> m_readPlacementTrace; //!< requester
    TracedCallback<uint64_t> m_readReRequestTrace; //!< requester: a READ re-requested
    TracedCallback<uint64_t> m_timeoutTrace;
    TracedCallback<uint64_t> m_nakTrace;
    TracedCallback<uint64_t> m_oooDiscardTrace;
    TracedCallback<uint64_t> m_windowDropTrace;
    TracedCallback<uint64_t, uint64_t, uint32_t, bool> m_placementTrace;
    TracedCallback<> m_cnpRxTrace;
    TracedCallback<const RdmaCompletion&> m_sendCompleteTrace;
    TracedCallback<const RdmaCompletion&> m_recvCompleteTrace;
    TracedValue<DataRate> m_rateTrace;                        //!< the congestion control's rate
    TracedValue<uint64_t> m_windowTrace;                      //!< its window (0: none)
    TracedCallback<Time> m_rttTrace;                          //!< RTT samples (Karn)
    TracedCallback<RdmaLossEvent, uint64_t> m_lossEventTrace; //!< losses told to the CC
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
