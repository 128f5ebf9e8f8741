/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FALCON_CONGESTION_CONTROL_H
#define FALCON_CONGESTION_CONTROL_H

#include "swift-congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Falcon's congestion control: Swift's fabric window, a NIC window and protective
 * load balancing (OCP Falcon Transport Protocol specification rev. 0.9, section 10).
 *
 * - Fabric window fcwnd: SwiftCongestionControl's rules (section 10.3.1, 10.3.2, 10.3.4),
 *   on the fabric delay (t4 - t1) - (t3 - t2) (section 10.1) smoothed by an EWMA with weight
 *   DelaySmoothing on the new sample (1: the instantaneous delay, the Falcon simulator's
 *   default).
 * - NIC window ncwnd (section 10.3.1, ComputeAckNICCongestionWindow): below the target,
 *   ncwnd += NicAdditiveIncrement, at most once per RTT unless the previous change was a
 *   decrease; at or above it, at most once per RTT,
 *   ncwnd *= max(1 - NicBeta x (signal - target) / signal, 1 - NicMaxMdf); clamped to
 *   [MinNcwnd, MaxNcwnd] and used as a whole number of packets (section 10.3.5).
 * - Effective window min(fcwnd, floor(ncwnd)) packets, in bytes (RdmaCcState).
 * - PLB (section 10.4; Qureshi et al., SIGCOMM 2022), when PlbEnabled: an ACK is congested
 *   when the smoothed delay exceeds the target x PlbTargetDelayMultiplier; once a window's
 *   worth of packets (min(fcwnd, ncwnd) before the ACK) is acknowledged, the round is
 *   congested if at least PlbCongestionThreshold of its packets were; after
 *   PlbAttemptThreshold consecutive congested rounds the flow asks its queue pair for a new
 *   path (RequestRepath: a new UDP source port).
 *
 * Readings of the specification (rev. 0.9, 14 Feb 2024) where it is wrong or ambiguous:
 *  - 10.3.4 Initialize writes flow_scaling_alpha = max_flow_scaling / (sqrt(min_window) -
 *    sqrt(max_window)), which is negative and makes the adder 0 everywhere after the clamp;
 *    we take Swift's (section 3.5) alpha = range / (1/sqrt(min) - 1/sqrt(max)).
 *  - 10.3.4 GetSmoothed returns smoothed x alpha + delay x (1 - alpha), the reverse of the
 *    EWMA of 10.1 ("setting alpha to one gives the instantaneous delay"); we follow 10.1.
 *  - 10.3.1 decreases ncwnd by max(1 - delta / level, 1 - max_nic_mdf) although 10.5.2
 *    lists nic_multiplicative_decrease_factor: we apply it (NicBeta) as the fabric window
 *    does.
 *  - The NIC signal: the specification uses the receiver's quantised Rx buffer occupancy
 *    (10.2). This model has no receive buffer to measure; the NIC window is driven by the
 *    receiver's own delay t3 - t2 (Swift's endpoint delay, section 3.2) against
 *    NicTargetDelay. The responder here acknowledges at once, so t3 - t2 is 0 and the NIC
 *    window stays open (it grows to MaxNcwnd): the rule is implemented and unit-tested, not
 *    exercised by the simulations.
 *  - 10.3.1 restarts the NIC window's time marker when ncwnd is at MaxNcwnd even if it did
 *    not change; with an ACK every few hundred nanoseconds that blocks every decrease from
 *    the maximum. We restart it only on a real change (otherwise UpdateTimeMarker).
 *  - 10.3.5 limits the outstanding packets to the integer part of fcwnd and paces only a
 *    window below one packet (at RTT / fcwnd; the Falcon simulator's inter-packet gap is 0
 *    from fcwnd = 1 on). The queue pair here enforces the fractional window exactly in
 *    bytes; with Swift's Pacing attribute BelowOnePacket it is ACK-clocked from one packet
 *    on (a packet leaves while fewer than fcwnd x MTU bytes are in flight: the ceiling,
 *    not the floor, of a fractional window), with the default SmoothedRtt each packet is
 *    also followed by payload x srtt / window (same average), see SwiftCongestionControl.
 *  - Losses: a NACK or an early retransmission (here a NAK or a RACK loss) is processed
 *    like an ACK (10.3.1: the window follows the delay only), unless
 *    MaxDecreaseOnEarlyRetransmit (the Falcon simulator's max_decrease_on_eack_nack_drop,
 *    default off) asks for Swift's fast-recovery cut. Retransmission timeouts follow
 *    10.3.2 ProcessRetransmit: the first cuts by max_mdf (once per RTT), the
 *    RetxResetThreshold-th consecutive one sets MinCwnd; an ACK restarts the count. Swift's
 *    FastRecovery rule thus does not apply: that is why a Falcon flow keeps its window under
 *    random loss (examples/goodput-vs-loss).
 *
 * Defaults: the specification gives none (10.5 lists the parameters); they are those of
 * Google's Falcon simulator (isekai, Swift DefaultConfiguration), except NicTargetDelay
 * (our choice, no source: the simulator's target is a buffer level).
 */
class FalconCongestionControl : public SwiftCongestionControl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    FalconCongestionControl();
    ~FalconCongestionControl() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;
    void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback) override;
    void OnLoss(RdmaCcState& state, RdmaLossEvent event, uint64_t seq) override;

    /// \return the NIC window in packets
    double GetNcwnd() const;
    /// \return the smoothed fabric delay
    Time GetSmoothedDelay() const;
    /// \return path changes requested by PLB
    uint64_t GetRepaths() const;

  protected:
    void ApplyWindow(RdmaCcState& state) override;

  private:
    /**
     * Section 10.3.1 ComputeAckNICCongestionWindow.
     * \param signal the receiver's delay
     * \param rtt the RTT of the once-per-RTT guard
     */
    void UpdateNicWindow(Time signal, Time rtt);
    /**
     * Section 10.4 ComputePlb.
     * \param oldWindow min(fcwnd, ncwnd) before this ACK, packets
     * \param congested the ACK's smoothed delay is above the PLB threshold
     * \param acked packets acknowledged
     * \return true to re-path
     */
    bool ComputePlb(double oldWindow, bool congested, double acked);

    bool m_earlyRetxDecrease; //!< MaxDecreaseOnEarlyRetransmit attribute
    double m_delaySmoothing;  //!< DelaySmoothing attribute
    Time m_nicTarget;         //!< NicTargetDelay attribute
    double m_nicAi;           //!< NicAdditiveIncrement attribute
    double m_nicBeta;         //!< NicBeta attribute
    double m_nicMaxMdf;       //!< NicMaxMdf attribute
    double m_minNcwnd;        //!< MinNcwnd attribute
    double m_maxNcwnd;        //!< MaxNcwnd attribute
    double m_initialNcwnd;    //!< InitialNcwnd attribute
    bool m_plb;               //!< PlbEnabled attribute
    double m_plbMultiplier;   //!< PlbTargetDelayMultiplier attribute
    double m_plbThreshold;    //!< PlbCongestionThreshold attribute
    uint32_t m_plbAttempts;   //!< PlbAttemptThreshold attribute

    TracedValue<double> m_ncwnd; //!< NIC window, packets
    Time m_smoothedDelay;        //!< EWMA of the fabric delay, 0 before the first
    Time m_nicMarker;            //!< nic_window_time_marker
    bool m_nicMarkerSet{false};  //!< m_nicMarker holds a time (else: an RTT has elapsed)
    bool m_nicIncreasing{false}; //!< ncwnd_direction == kIncrease
    double m_plbAcked{0};        //!< plb_packets_acknowledged
    double m_plbCongested{0};    //!< plb_packets_congestion_acknowledged
    uint32_t m_plbRounds{0};     //!< plb_reroute_attempted
    uint64_t m_repaths{0};       //!< re-paths requested
};

} // namespace ns3

#endif /* FALCON_CONGESTION_CONTROL_H */
