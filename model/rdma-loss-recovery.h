/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class RdmaSackHeader;

/**
 * \ingroup rdma
 * \brief The sender-side sequence state a loss recovery acts on.
 *
 * Sequence numbers are the queue pair's 64-bit unwrapped packet sequence numbers; the
 * 24-bit BTH PSN on the wire is (initial PSN + sequence) mod 2^24. The queue pair keeps
 * sndUna, highestSent, messageStart and seqEnd up to date; a loss recovery moves sndNxt
 * (the in-order transmit pointer that go-back schemes rewind), reports its scoreboard's
 * SACKed packets and its loss detections (sackedPackets, lossesDetected: what the
 * congestion control is told) and keeps whatever else it needs (a scoreboard, timers) in
 * itself.
 */
struct RdmaRecoveryState
{
    uint64_t sndUna{0};       //!< oldest unacknowledged sequence (cumulative ACK point)
    uint64_t sndNxt{0};       //!< next sequence of the in-order transmit pointer
    uint64_t highestSent{0};  //!< one past the highest sequence ever transmitted
    uint64_t messageStart{0}; //!< first sequence of the message holding sndUna
    uint64_t seqEnd{0};       //!< one past the last sequence of the posted work requests
    Time baseRto;             //!< the NIC's RetransmitTimeout (IBTA local ACK timeout)
    /// Packets above sndUna the responder reported delivered (selective repeat's SACK
    /// scoreboard; always 0 for go-back schemes). Kept by the loss recovery.
    uint64_t sackedPackets{0};
    /// Packets the loss recovery's own detection (RACK, a NAK) marked lost so far, not
    /// counting those marked at a retransmission timeout. Kept by the loss recovery; the
    /// queue pair reports an increase to the congestion control as a loss event.
    uint64_t lossesDetected{0};
};

/**
 * \ingroup rdma
 * \brief What one acknowledgement (ACK or NAK, with or without SACK extension) says.
 *
 * The queue pair has already applied the cumulative part when a loss recovery sees it:
 * state.sndUna == cumAck, work requests are completed.
 */
struct RdmaAckInfo
{
    bool nak{false};         //!< AETH NAK (PSN sequence error): the responder expects cumAck
    uint64_t cumAck{0};      //!< every sequence before this one arrived
    uint64_t previousUna{0}; //!< sndUna before this acknowledgement
    /// The SACK extension (RdmaSackHeader) if the ACK carried one, else nullptr. Bit i of
    /// its bitmap reports sequence cumAck + 1 + i.
    const RdmaSackHeader* sack{nullptr};
    uint64_t triggerSeq{0}; //!< SACK: the data packet whose arrival caused this ACK
    bool duplicate{false};  //!< SACK: that packet had arrived before (D-SACK)
    /// Requester, READ or atomic with selective repeat: the sequence of the READ Response
    /// or Atomic Acknowledge that just landed, above cumAck (NO_RESPONSE: none). A
    /// response is the delivery report of its own PSN, as a SACK bit is for a WRITE packet.
    uint64_t responseSeq{NO_RESPONSE};
    /// responseSeq's "none"
    static constexpr uint64_t NO_RESPONSE = ~uint64_t(0);
    /// Selective repeat, READ or atomics mixed with WRITE or SEND: the responder's own
    /// cumulative point (the ACK's PSN + 1) when it lies beyond cumAck, because the queue
    /// pair holds cumAck at a READ or atomic whose responses have not all landed (an ACK
    /// does not complete those). Every sequence before it that is not a response PSN was
    /// delivered, and bit i of the SACK bitmap reports peerCumAck + 1 + i. 0: the same as
    /// cumAck (pure WRITE/SEND, or no READ or atomic outstanding).
    uint64_t peerCumAck{0};
};

/**
 * \ingroup rdma
 * \brief The responder-side sequence state a loss recovery acts on when a data packet is
 * not the next one expected (RdmaLossRecovery::OnDuplicateData, OnOutOfOrderData).
 *
 * The queue pair keeps expected and messageStart as it places packets in order and clears
 * both flags at every in-order packet; the loss recovery sets the flags and may rewind
 * expected (through RdmaReceiverOps::DiscardPartialMessage).
 */
struct RdmaReceiveState
{
    uint64_t expected{0};       //!< next sequence expected in order
    uint64_t messageStart{0};   //!< first sequence of the message being received
    bool nakOutstanding{false}; //!< a NAK was sent since the last in-order packet
    bool dupAckSent{false};     //!< a duplicate was re-acknowledged since then
    uint32_t ackInterval{1};    //!< the NIC's AckInterval: ACK every this many packets
};

/**
 * \ingroup rdma
 * \brief A data packet as the responder received it, its placement information read
 * (RdmaLossRecovery::OnPlaceableData).
 */
struct RdmaRxPacket
{
    uint64_t seq{0};          //!< its sequence
    uint8_t opcode{0};        //!< BTH opcode
    uint32_t bytes{0};        //!< payload bytes
    uint64_t address{0};      //!< WRITE: RETH virtual address; SEND: offset in the message
    bool ackRequested{false}; //!< BTH AckReq
    /// PSNs the packet takes: 1, or for a READ Request the PSNs of its responses (a
    /// responder that places out of order takes a request as one slot that spans them:
    /// IBTA vol. 1 §9.4.3, a READ Request consumes one PSN per response)
    uint64_t span{1};
};

/**
 * \ingroup rdma
 * \brief What a loss recovery may make the responder of its queue pair do about a packet
 * that is not the next one expected: the replies and the bookkeeping it owns.
 */
class RdmaReceiverOps
{
  public:
    virtual ~RdmaReceiverOps() = default;
    /**
     * Send an ACK (AETH syndrome ACK).
     * \param seq the last sequence received in order (the ACK's PSN)
     */
    virtual void SendAck(uint64_t seq) = 0;
    /**
     * Send a NAK, PSN sequence error (IBTA vol. 1 §9.7.5.1.2); counted in NaksSent.
     * \param seq the sequence expected (the NAK's PSN)
     */
    virtual void SendNak(uint64_t seq) = 0;
    /// Forget the partially received message: its bytes are no longer received, and
    /// RdmaReceiveState::expected goes back to messageStart (go-back-0).
    virtual void DiscardPartialMessage() = 0;
    /**
     * Count (and trace) a packet discarded because it arrived out of order.
     * \param seq its sequence
     */
    virtual void CountOutOfOrderDiscard(uint64_t seq) = 0;
    /**
     * Count packets that will never arrive (the unreliable mode), one MTU of bytes each.
     * \param packets how many
     */
    virtual void CountLost(uint64_t packets) = 0;
    /// Count a duplicate data packet handled by OnPlaceableData.
    virtual void CountDuplicate() = 0;
    /**
     * Count (and trace) a packet dropped because it lay beyond the reorder bitmap.
     * \param seq its sequence
     */
    virtual void CountWindowDrop(uint64_t seq) = 0;
    /**
     * Place a packet's payload into memory (counted and traced as a placement).
     * \param packet the packet
     * \param outOfOrder true if a predecessor is missing
     */
    virtual void Place(const RdmaRxPacket& packet, bool outOfOrder) = 0;
    /**
     * Deliver a placed packet in sequence order (message bytes, the receive completion of
     * a last packet); RdmaReceiveState::expected becomes seq + 1.
     * \param seq its sequence (state.expected)
     * \param opcode its BTH opcode
     * \param bytes its payload bytes
     * \param arrival when it arrived
     */
    virtual void Deliver(uint64_t seq, uint8_t opcode, uint32_t bytes, Time arrival) = 0;
    /**
     * Send an ACK of state.expected - 1 with a SACK extension (the queue pair fills in
     * the trigger PSN).
     * \param triggerSeq the packet whose arrival caused the ACK
     * \param sack the extension: its bitmap and D-SACK bit
     */
    virtual void SendSack(uint64_t triggerSeq, RdmaSackHeader& sack) = 0;
};

/**
 * \ingroup rdma
 * \brief Interface of a queue pair's loss recovery.
 *
 * Like ns-3's TcpRecoveryOps (and TcpRateOps beside it), a small pluggable object acting
 * on a state object, one copy per queue pair (Fork). The queue pair builds packets, keeps
 * the message bookkeeping and owns one timer; the loss recovery decides
 *  - on the requester side, which sequence is transmitted next (GetNextSequence), what an
 *    ACK, a NAK or the expiry of the recovery timer means for that (OnAck, OnNak, OnTimer),
 *    and when the timer fires next (GetTimerExpiry): retransmission timeout, tail-loss
 *    probe or reordering timer;
 *  - on the responder side, how packets that arrive out of order are treated: what the
 *    responder does with a duplicate and with a packet beyond a gap (OnDuplicateData,
 *    OnOutOfOrderData: re-ACK, NAK, discard the partial message, count a loss), or
 *    whether it places them at once through a reorder bitmap and SACKs them
 *    (PlacesOutOfOrder, GetReorderWindow, OnPlaceableData), and whether it acknowledges whole
 * messages only (RestartsMessageOnGap).
 *
 * A loss recovery TypeId thus defines both ends of a connection; the queue pair keeps only
 * the packet parsing, in-order placement and the requester's message bookkeeping.
 *
 * Three schemes exist: RdmaGoBackNLossRecovery (IBTA), RdmaGoBackZeroLossRecovery (restart
 * the message) and RdmaSackLossRecovery (IRN-style selective repeat with RACK-TLP). Both
 * ends of a connection must use the same scheme (RdmaHelper configures all NICs alike):
 * the selective scheme changes the wire format (RETH in every WRITE packet, SACK
 * extension in ACKs).
 */
class RdmaLossRecovery : public Object
{
  public:
    /// What an expiry of the recovery timer turned out to be.
    enum TimerKind : uint8_t
    {
        TIMER_NONE,    //!< nothing was due (stale expiry)
        TIMER_RTO,     //!< retransmission timeout
        TIMER_PROBE,   //!< tail-loss probe timeout (RFC 8985 section 7)
        TIMER_REORDER, //!< RACK reordering timer (RFC 8985 section 6.2)
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// \return the scheme's name
    virtual std::string GetName() const = 0;

    /// \return a copy with the same configuration and fresh state
    virtual Ptr<RdmaLossRecovery> Fork() = 0;

    // ---- requester ----

    /**
     * The queue pair is connected.
     * \param state the sender's sequence state
     */
    virtual void Init(RdmaRecoveryState& state);

    /**
     * Which sequence to transmit now. Called when the congestion control's window allows
     * a packet; must not change state (the packet may not be sent now).
     * \param state the sender's sequence state
     * \param[out] seq the sequence to transmit
     * \return false if there is nothing to transmit
     */
    virtual bool GetNextSequence(const RdmaRecoveryState& state, uint64_t& seq) const;

    /**
     * A data packet left the queue pair. The queue pair has already advanced sndNxt past
     * it (if it was at or beyond sndNxt) and highestSent.
     * \param state the sender's sequence state
     * \param seq its sequence
     * \param retransmission true if the sequence had been transmitted before
     */
    virtual void OnPacketSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission) = 0;

    /**
     * A READ or atomic request left the queue pair, asking for the responses of sequences
     * [first, end). The queue pair has already advanced sndNxt and highestSent past the
     * whole message. The default treats the request as one packet of sequence first
     * (go-back-N: its responses are acknowledged in order, a gap makes it go back).
     * Selective repeat (RdmaSackLossRecovery) takes every response PSN as a packet of its
     * own, sent responseSpacing after the previous one, so that RACK finds a lost response
     * as it finds a lost WRITE packet.
     * \param state the sender's sequence state
     * \param first the request's PSN's sequence
     * \param end one past the last response it asks for
     * \param retransmission true if these sequences had been requested before
     * \param responseSpacing the time between the response PSNs' nominal send times
     */
    virtual void OnRequestSent(RdmaRecoveryState& state,
                               uint64_t first,
                               uint64_t end,
                               bool retransmission,
                               Time responseSpacing);

    /**
     * Which responses a READ Request sent now from sequence seq asks for.
     * The default (go-back-N, IBTA vol. 1 §9.7.5.1): all the rest of the READ.
     * \param state the sender's sequence state
     * \param seq the sequence GetNextSequence returned (inside a READ)
     * \param messageEnd one past the READ's last sequence
     * \return one past the last response to ask for, in (seq, messageEnd]
     */
    virtual uint64_t GetRequestEnd(const RdmaRecoveryState& state,
                                   uint64_t seq,
                                   uint64_t messageEnd) const;

    /**
     * A positive acknowledgement arrived (possibly without progress, possibly with SACK).
     * \param state the sender's sequence state (cumulative part applied)
     * \param ack what it says
     */
    virtual void OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack) = 0;

    /**
     * A NAK (PSN sequence error) for ack.cumAck arrived; every sequence before it is
     * acknowledged and state.sndUna already advanced to it.
     * \param state the sender's sequence state
     * \param ack what it says (ack.nak is true)
     */
    virtual void OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack) = 0;

    /**
     * The recovery timer reached GetTimerExpiry().
     * \param state the sender's sequence state
     * \return what the expiry was
     */
    virtual TimerKind OnTimer(RdmaRecoveryState& state) = 0;

    /// \return absolute time the recovery timer should fire next, Time::Max() for never
    virtual Time GetTimerExpiry() const = 0;

    /**
     * \param state the sender's sequence state
     * \return packets considered in the network (the congestion window's "pipe")
     */
    virtual uint64_t GetPacketsInFlight(const RdmaRecoveryState& state) const;

    // ---- responder ----

    /// What the responder does with a packet beyond a gap (OnOutOfOrderData's answer).
    enum RxVerdict : uint8_t
    {
        RX_DISCARD, //!< drop it
        RX_ACCEPT,  //!< take it as the next packet in order (the gap is given up)
    };

    /**
     * A data packet already received arrived again (sequence below state.expected): a
     * go-back resend, or a lost ACK's packet. Not called when PlacesOutOfOrder().
     * The default (IBTA vol. 1 §9.7.5.1.2, go-back-N): re-acknowledge state.expected - 1
     * once per burst of duplicates, and whenever the packet asks for an ACK.
     * \param state the responder's sequence state
     * \param rx the responder's replies
     * \param seq the packet's sequence
     * \param ackRequested its BTH AckReq bit
     */
    virtual void OnDuplicateData(RdmaReceiveState& state,
                                 RdmaReceiverOps& rx,
                                 uint64_t seq,
                                 bool ackRequested);

    /**
     * A data packet arrived beyond a gap (sequence above state.expected). Not called when
     * PlacesOutOfOrder().
     * The default (IBTA vol. 1 §9.7.5.1.2, go-back-N): discard it, and NAK state.expected
     * once until a packet arrives in order.
     * \param state the responder's sequence state
     * \param rx the responder's replies
     * \param seq the packet's sequence
     * \return RX_DISCARD or RX_ACCEPT
     */
    virtual RxVerdict OnOutOfOrderData(RdmaReceiveState& state, RdmaReceiverOps& rx, uint64_t seq);

    /**
     * Responder with PlacesOutOfOrder(): a data packet arrived, in order or not. The loss
     * recovery places it (or drops it), delivers what is now in order, and acknowledges.
     * The default aborts: a scheme that places out of order must override it.
     * \param state the responder's sequence state
     * \param rx the responder's replies
     * \param packet the packet
     */
    virtual void OnPlaceableData(RdmaReceiveState& state,
                                 RdmaReceiverOps& rx,
                                 const RdmaRxPacket& packet);

    /**
     * \return true if the responder places packets that arrive out of order (reorder
     *         bitmap, SACK in ACKs, placement information in every data packet); false
     *         if it drops them and NAKs the gap (IBTA)
     */
    virtual bool PlacesOutOfOrder() const = 0;

    /// \return the responder's reorder bitmap size in packets (when PlacesOutOfOrder)
    virtual uint32_t GetReorderWindow() const;

    /**
     * \return true if a responder that detects a gap discards the partially received
     *         message and NAKs its first PSN, and acknowledges only whole messages
     *         (go-back-0)
     */
    virtual bool RestartsMessageOnGap() const;

    /**
     * \return false for the unreliable mode (RdmaNoRetransmitLossRecovery): the responder
     *         accepts gaps, counting the packets lost, and the requester completes a
     *         message once its last packet is sent
     */
    virtual bool Retransmits() const;
};

} // namespace ns3

#endif /* RDMA_LOSS_RECOVERY_H */
