/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SACK_LOSS_RECOVERY_H
#define RDMA_SACK_LOSS_RECOVERY_H

#include "rdma-fifo.h"
#include "rdma-loss-recovery.h"

#include "ns3/traced-callback.h"

#include <deque>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Selective repeat with out-of-order placement (IRN) and RACK-TLP loss detection.
 *
 * After IRN (Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018):
 *  - the responder places every packet on arrival, whatever its order, keeping a bounded
 *    reorder bitmap (ReceiverWindow packets; packets beyond it are dropped and counted) and
 *    completing messages in order; every ACK carries a SACK extension (RdmaSackHeader);
 *  - the requester keeps a scoreboard of its outstanding packets, retransmits only those
 *    found lost, and sends a new packet only while fewer than MaxOutstanding packets are
 *    outstanding past the cumulative ACK point (IRN's BDP cap).
 *
 * Loss detection is RACK-TLP (RFC 8985) with PSNs for TCP sequence numbers and one
 * packet per "segment":
 *  - every packet keeps its (last) transmission time; RACK remembers the most recently sent
 *    packet known delivered (ACKed or SACKed) and the RTT it took;
 *  - a packet is lost when a packet sent after it was delivered and it has been outstanding
 *    longer than RACK.rtt + reo_wnd; the reordering window reo_wnd is
 *    ReorderingWindowMultiplier x min_RTT / 4, capped at SRTT, grown by one min_RTT/4 per
 *    round trip in which a D-SACK (a duplicate arrival) is reported and reset after 16
 *    loss recoveries without one (RFC 8985 section 6.2, step 4); packets still inside the
 *    window arm the reordering timer;
 *  - with DupThresh > 0 the window is zero until reordering has been seen while DupThresh
 *    packets are SACKed or recovery is under way, as RFC 8985 prescribes for TCP (reordering
 *    is seen when a packet never retransmitted is delivered below the highest delivered
 *    one, or when a D-SACK reports a needless retransmission); DupThresh 0 (the default,
 *    like Linux's tcp_recovery bit RACK_NO_DUPTHRESH) keeps min_RTT/4 from the start,
 *    because a sprayed RDMA fabric reorders by design;
 *  - a tail-loss probe (RFC 8985 section 7) fires TlpPtoMultiplier x SRTT after the last
 *    transmission of new data or the last cumulative progress: it sends one new packet if
 *    the cap allows, else retransmits the highest outstanding one, so that the ACK it
 *    causes lets RACK find a lost tail;
 *  - the retransmission timeout (RFC 6298: SRTT + 4 RTTVAR, at least MinRto, doubling per
 *    consecutive expiry; the NIC's RetransmitTimeout before the first RTT sample) is the
 *    last resort: on expiry the first outstanding packet and every packet older than
 *    RACK.rtt + reo_wnd are marked lost (RFC 8985 section 6.3).
 * SRTT, RTTVAR and min_RTT use samples of packets not retransmitted (Karn).
 *
 * RDMA READ and atomics follow IRN's read handling (Mittal et al., SIGCOMM 2018, §4.2,
 * "RDMA Read"): the READ Responses carry the PSNs the request reserved, and the requester
 * is the receiver of that data. Each response PSN is a scoreboard entry of its own
 * (OnRequestSent), "sent" at the request's time plus its index times the spacing the
 * queue pair gives (RdmaQueuePair passes 0: see its Setup); a response that lands is that
 * entry's delivery report (RdmaAckInfo::responseSeq), so RACK-TLP finds a lost response,
 * a lost request (probe, timeout) or a lost last response as it finds lost WRITE packets.
 * A lost run of responses is asked for again by a new READ Request for that range only
 * (GetRequestEnd: the run of entries marked lost), VA and length adjusted; the responder executes
 * READ Requests idempotently. An atomic is one entry: its request is sent again with the same PSN
 * and answered from the responder's replay cache.
 *
 * READ and atomics mix with WRITE and SEND on one queue pair, as on any IBTA RC queue pair
 * and in IRN. The responder takes an executed request's PSNs (IBTA vol. 1 §9.4.3: one per
 * response) in the same reorder bitmap as the data packets, as one slot that spans them, so
 * its cumulative ACK passes an executed READ and its SACK bitmap reports the READ's PSNs as
 * received; a request that delivers no data sends no ACK (the responses acknowledge it). The
 * requester's scoreboard marks response entries: neither the cumulative part of an ACK nor a
 * SACK bit delivers one (RdmaAckInfo::peerCumAck), only its landed response does, so a lost
 * response is still found lost and re-requested.
 */
class RdmaSackLossRecovery : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaSackLossRecovery();

    std::string GetName() const override;
    Ptr<RdmaLossRecovery> Fork() override;
    void Init(RdmaRecoveryState& state) override;
    bool GetNextSequence(const RdmaRecoveryState& state, uint64_t& seq) const override;
    void OnPacketSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission) override;
    void OnRequestSent(RdmaRecoveryState& state,
                       uint64_t first,
                       uint64_t end,
                       bool retransmission,
                       Time responseSpacing) override;
    uint64_t GetRequestEnd(const RdmaRecoveryState& state,
                           uint64_t seq,
                           uint64_t messageEnd) const override;
    void OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    void OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    TimerKind OnTimer(RdmaRecoveryState& state) override;
    Time GetTimerExpiry() const override;
    uint64_t GetPacketsInFlight(const RdmaRecoveryState& state) const override;
    bool PlacesOutOfOrder() const override;
    uint32_t GetReorderWindow() const override;
    void OnPlaceableData(RdmaReceiveState& state,
                         RdmaReceiverOps& rx,
                         const RdmaRxPacket& packet) override;

    /// \return the cap on packets outstanding past the cumulative ACK point
    uint32_t GetMaxOutstanding() const;
    /// \return tail-loss probes sent
    uint64_t GetTlpProbes() const;
    /// \return packets marked lost by RACK (ACK-driven or reordering timer)
    uint64_t GetRackLosses() const;
    /// \return packets marked lost at a retransmission timeout
    uint64_t GetRtoLosses() const;
    /// \return ACKs that reported a duplicate arrival (D-SACK)
    uint64_t GetDsacks() const;
    /// \return the smoothed RTT (0 before the first sample)
    Time GetSrtt() const;
    /// \return the minimum RTT seen (Time::Max() before the first sample)
    Time GetMinRtt() const;
    /// \return the current RACK reordering window
    Time GetReorderingWindow() const;
    /// \return the current retransmission timeout, backoff included
    Time GetRto() const;

    /// TracedCallback signature for per-packet events.
    typedef void (*SequenceTracedCallback)(uint64_t seq);

  private:
    /// One slot of the responder's reorder bitmap (out-of-order placement).
    struct RxSlot
    {
        bool present{false}; //!< placed, not yet delivered in order
        uint8_t opcode{0};   //!< BTH opcode
        uint32_t bytes{0};   //!< payload bytes; a READ or atomic request: the PSNs it spans
        Time arrival;        //!< arrival time
    };

    /// Responder: ACK with the SACK extension describing the reorder bitmap.
    void SendSack(const RdmaReceiveState& state,
                  RdmaReceiverOps& rx,
                  uint64_t triggerSeq,
                  bool duplicate);

    /// Sentinel for "no sequence" in the transmission-order list.
    static constexpr uint64_t NONE = ~uint64_t(0);

    /// Scoreboard entry of one outstanding packet.
    struct Segment
    {
        Time xmitTs;               //!< time of its last transmission
        uint64_t prev{NONE};       //!< previous in transmission order
        uint64_t next{NONE};       //!< next in transmission order
        bool sacked{false};        //!< delivered, reported by a SACK bitmap
        bool lost{false};          //!< marked lost, waiting for retransmission
        bool retransmitted{false}; //!< transmitted more than once
        bool linked{false};        //!< in the transmission-order list
        bool response{false};      //!< a READ Response or Atomic Acknowledge PSN
    };

    /// \return the scoreboard entry of seq (must be outstanding)
    Segment& At(uint64_t seq);
    /// \return the scoreboard entry of seq (must be outstanding)
    const Segment& At(uint64_t seq) const;
    /// Append seq to the transmission-order list.
    void Link(uint64_t seq);
    /// Insert seq into the transmission-order list by its xmitTs (a READ's responses are
    /// timed ahead of now, so a later request may be timed before an earlier one's tail).
    void LinkSorted(uint64_t seq);
    /// Record a (re)transmission of seq at time xmitTs in the scoreboard.
    void RecordSent(uint64_t seq, Time xmitTs);
    /// The timer bookkeeping after a transmission (TLP, RTO).
    void AfterSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission);
    /// Remove seq from the transmission-order list.
    void Unlink(uint64_t seq);
    /// A packet was delivered (cumulatively or selectively acknowledged).
    void Deliver(uint64_t seq, Segment& s);
    /// Mark a packet lost.
    void MarkLost(const RdmaRecoveryState& state, uint64_t seq);
    /// RFC 8985 RACK_detect_loss and the reordering timer.
    void DetectLoss(const RdmaRecoveryState& state);
    /// \return the RACK reordering window (RFC 8985 RACK_update_reo_wnd's result)
    Time ReoWnd() const;
    /// \return the retransmission timeout with backoff
    Time Rto() const;
    /// Arm the tail-loss probe timer if RFC 8985 section 7.2 allows.
    void ArmPto(const RdmaRecoveryState& state);
    /// Feed an RTT sample to SRTT/RTTVAR/min_RTT (RFC 6298).
    void UpdateRtt(Time rtt);
    /// Stop the timers when nothing is outstanding.
    void StopTimersIfIdle(const RdmaRecoveryState& state);
    /// \return true if a time and sequence pair was sent after another (RACK_sent_after)
    static bool SentAfter(Time t1, uint64_t seq1, Time t2, uint64_t seq2);

    // configuration
    uint32_t m_receiverWindow; //!< ReceiverWindow attribute
    uint32_t m_maxOutstanding; //!< MaxOutstanding attribute (0: ReceiverWindow)
    uint32_t m_initialReoMult; //!< ReorderingWindowMultiplier attribute
    bool m_adaptiveReo;        //!< AdaptiveReorderingWindow attribute
    uint32_t m_dupThresh;      //!< DupThresh attribute
    bool m_tlp;                //!< Tlp attribute
    double m_ptoMultiplier;    //!< TlpPtoMultiplier attribute
    Time m_minRto;             //!< MinRto attribute
    Time m_baseRto;            //!< the NIC's RetransmitTimeout

    // responder
    std::vector<RxSlot> m_rxSlots; //!< reorder bitmap, indexed by seq mod its size
    uint64_t m_rxHighest{0};       //!< one past the highest sequence placed
    uint32_t m_unackedPackets{0};  //!< packets since the last ACK

    /**
     * Responder: deliver what is in order from state.expected (a request's slot passes its
     * whole span).
     * \param state the responder's sequence state
     * \param rx the responder's replies
     * \param[out] lastDelivered set if a message's last packet was delivered
     * \return true if a WRITE or SEND packet was delivered
     */
    bool DeliverInOrderRun(RdmaReceiveState& state, RdmaReceiverOps& rx, bool& lastDelivered);

    // scoreboard
    RdmaFifo<Segment> m_sb;         //!< entries of [m_sbBase, highestSent)
    uint64_t m_sbBase{0};           //!< sequence of m_sb.front()
    uint64_t m_head{NONE};          //!< oldest transmission in flight
    uint64_t m_tail{NONE};          //!< newest transmission in flight
    std::set<uint64_t> m_lostQueue; //!< marked lost, not yet retransmitted
    uint32_t m_sackedCount{0};      //!< entries with sacked set
    uint64_t m_peerCumDone{0};      //!< peerCumAck entries below it were delivered already

    // RACK
    bool m_rackValid{false};
    Time m_rackXmitTs;        //!< RACK.xmit_ts
    uint64_t m_rackEndSeq{0}; //!< RACK.end_seq
    Time m_rackRtt;           //!< RACK.rtt
    bool m_fackValid{false};
    uint64_t m_fack{0};           //!< RACK.fack: highest sequence delivered
    bool m_reorderingSeen{false}; //!< RACK.reordering_seen
    uint32_t m_reoMult{1};        //!< RACK.reo_wnd_mult
    int32_t m_reoPersist{0};      //!< RACK.reo_wnd_persist
    bool m_dsackRoundValid{false};
    uint64_t m_dsackRound{0}; //!< RACK.dsack_round
    bool m_inRecovery{false};
    uint64_t m_recoveryPoint{0}; //!< recovery ends when sndUna reaches it

    // RTT (RFC 6298)
    bool m_hasRtt{false};
    Time m_srtt;
    Time m_rttvar;
    Time m_minRtt{Time::Max()};
    uint32_t m_backoff{0};

    // TLP
    bool m_probePending{false}; //!< the probe timer fired, the next transmission probes
    bool m_tlpEpisode{false};   //!< a probe is outstanding (TLP.end_seq != None)
    uint64_t m_tlpEndSeq{0};    //!< TLP.end_seq

    // timers (absolute, Time::Max() = not armed)
    Time m_rtoExpiry{Time::Max()};
    Time m_ptoExpiry{Time::Max()};
    Time m_reoExpiry{Time::Max()};

    // statistics
    uint64_t m_tlpProbes{0};
    uint64_t m_rackLosses{0};
    uint64_t m_rtoLosses{0};
    uint64_t m_dsacks{0};
    bool m_markingOnRto{false}; //!< MarkLost counts into m_rtoLosses

    TracedCallback<uint64_t> m_lossTrace;  //!< a packet was marked lost
    TracedCallback<uint64_t> m_probeTrace; //!< a tail-loss probe was sent
};

} // namespace ns3

#endif /* RDMA_SACK_LOSS_RECOVERY_H */
