/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWIFT_CONGESTION_CONTROL_H
#define SWIFT_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/nstime.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Swift: a delay-based window congestion control (Kumar et al., "Swift: Delay is
 * Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020, Algorithm 1
 * and section 3).
 *
 * The fabric window cwnd (in packets, fractional) reacts to the fabric delay of each ACK
 * (RdmaAckFeedback::GetFabricDelay: (t4 - t1) - (t3 - t2), so this class asks for
 * timestamps):
 *  - target = BaseTarget + PerHopScaling x hops + flow scaling (section 3.5), the flow
 *    scaling alpha / sqrt(cwnd) + beta clamped to [0, FlowScalingRange], with
 *    alpha = range / (1/sqrt(FlowScalingMinCwnd) - 1/sqrt(FlowScalingMaxCwnd)) and
 *    beta = -alpha / sqrt(FlowScalingMaxCwnd), so that the adder is the whole range at
 *    FlowScalingMinCwnd and zero at FlowScalingMaxCwnd;
 *  - delay < target: additive increase, cwnd += ai x acked / cwnd (cwnd >= 1) or
 *    cwnd += ai x acked (cwnd < 1), acked in packets (SACKed included): ai per RTT;
 *  - delay >= target: multiplicative decrease, at most once per RTT,
 *    cwnd *= max(1 - Beta x (delay - target) / delay, 1 - MaxMdf);
 *  - fast recovery (a RACK or NAK loss event): cwnd *= 1 - MaxMdf, at most once per RTT;
 *    the retransmission count restarts;
 *  - retransmission timeout: the count grows; from RetxResetThreshold consecutive timeouts
 *    on, cwnd = MinCwnd, before that cwnd *= 1 - MaxMdf at most once per RTT; an ACK resets
 *    the count;
 *  - cwnd is clamped to [MinCwnd, MaxCwnd]; the queue pair's window is cwnd x MTU bytes,
 *    exact; below one packet the queue pair sends one packet every srtt / cwnd (Algorithm
 *    1's pacing_delay = rtt / cwnd).
 *
 * Pacing from one packet on (attribute Pacing, RdmaWindowPacing): the paper paces only a
 * window below one packet (Algorithm 1: pacing_delay = 0 when cwnd >= 1; section 3.5),
 * larger windows are ACK-clocked: BelowOnePacket. The default, SmoothedRtt, also follows
 * each packet by payload x srtt / window, so the bytes in flight average the window
 * (Little's law) instead of filling ceil(cwnd) packets at once: the same steady state
 * (queue at the target, fair shares), but after a join the paper's ACK clocking
 * reconverges more slowly on our fabric (doc/cc-delay.rst), which we cannot yet explain
 * from first principles, so the earlier behaviour stays the default.
 *
 * Readings where Algorithm 1 is not literal:
 *  - "if cwnd <= cwnd_prev then t_last_decrease <- now" would restart the once-per-RTT guard
 *    on every ACK that leaves cwnd unchanged (a decrease blocked by the guard, or cwnd held
 *    at MaxCwnd), so under lasting congestion no second decrease would ever happen. Taken as
 *    "<" (a real decrease), as the OCP Falcon specification (section 10.3.1) writes it.
 *  - The RTT of the guard is the queue pair's smoothed RTT (RdmaCcState::srtt; the ACK's
 *    sample before the first), the paper's "rtt".
 *  - An ACK without a delay sample (a NAK, or Karn's rule discarding an ambiguous sample)
 *    changes no window: Algorithm 1 needs the delay to choose increase or decrease.
 *
 * Defaults: the paper publishes the rules, not a parameter table; the defaults are those of
 * Google's Falcon simulator (isekai, Swift DefaultConfiguration, the Swift it runs as Falcon's
 * congestion control; OCP Falcon specification 10.5 names the same parameters without
 * values), each attribute's help string says so. With 25 us of base target on a 100 Gb/s
 * path the standing queue is up to ~300 KB: set BaseTarget to the fabric's scale.
 */
class SwiftCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    SwiftCongestionControl();
    ~SwiftCongestionControl() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;
    void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback) override;
    void OnLoss(RdmaCcState& state, RdmaLossEvent event, uint64_t seq) override;
    bool NeedsTimestamps() const override;

    /// \return the fabric window in packets
    double GetCwnd() const;
    /**
     * Section 3.5: BaseTarget + PerHopScaling x hops + the flow-scaling adder.
     * \param cwnd a window in packets
     * \param hops switches on the path
     * \return the target delay
     */
    Time ComputeTargetDelay(double cwnd, uint8_t hops) const;
    /// \return multiplicative decreases applied (delay, fast recovery, timeout)
    uint64_t GetDecreases() const;

    /// The Pacing attribute's values (RdmaWindowPacing).
    enum Pacing
    {
        SMOOTHED_RTT,     //!< RdmaWindowPacing::SMOOTHED_RTT
        BELOW_ONE_PACKET, //!< RdmaWindowPacing::BELOW_ONE_PACKET (Algorithm 1)
    };

  protected:
    /// Check the attributes (abort naming the bad one) and derive the flow-scaling constants.
    void CheckAndPrepare(const RdmaCcState& state);
    /**
     * Algorithm 1 on an ACK: additive increase below the target, multiplicative decrease
     * (at most once per RTT) above it.
     * \param delay the delay sample (positive)
     * \param ackedPackets packets newly delivered (SACKed included)
     * \param hops switches on the path
     * \param rtt the RTT of the once-per-RTT guard
     */
    void UpdateFabricWindow(Time delay, double ackedPackets, uint8_t hops, Time rtt);
    /**
     * Algorithm 1 on a loss.
     * \param event what detected it
     * \param rtt the RTT of the once-per-RTT guard
     * \param fastRecoveryDecrease cut the window on a RACK or NAK loss (Swift: always)
     */
    void FabricLoss(RdmaLossEvent event, Time rtt, bool fastRecoveryDecrease);
    /**
     * \param state the queue pair's state
     * \param sample the ACK's RTT sample, 0 if none
     * \return the RTT of the once-per-RTT guard
     */
    static Time GuardRtt(const RdmaCcState& state, Time sample);
    /**
     * Write the window the queue pair enforces: cwnd packets in bytes (subclasses: the
     * minimum of their windows).
     * \param state the queue pair's state
     */
    virtual void ApplyWindow(RdmaCcState& state);
    /**
     * \param packets a window in packets
     * \param mtu payload bytes per packet
     * \return the window in bytes, at least one
     */
    static uint64_t PacketsToBytes(double packets, uint32_t mtu);

    TracedValue<double> m_cwnd; //!< fabric window, packets
    TracedValue<Time> m_target; //!< target delay of the last ACK with a delay sample
    double m_initialCwnd;       //!< InitialCwnd attribute, packets
    double m_minCwnd;           //!< MinCwnd attribute, packets
    double m_maxCwnd;           //!< MaxCwnd attribute, packets

  private:
    /**
     * End of an update: clamp, restart the guard on a decrease.
     * \param previous cwnd before the update
     */
    void FinishUpdate(double previous);

    Time m_baseTarget;         //!< BaseTarget attribute
    Time m_perHop;             //!< PerHopScaling attribute
    Time m_fsRange;            //!< FlowScalingRange attribute
    double m_fsMinCwnd;        //!< FlowScalingMinCwnd attribute
    double m_fsMaxCwnd;        //!< FlowScalingMaxCwnd attribute
    double m_ai;               //!< AdditiveIncrement attribute, packets per RTT
    double m_beta;             //!< Beta attribute
    double m_maxMdf;           //!< MaxMdf attribute
    uint32_t m_retxThreshold;  //!< RetxResetThreshold attribute
    Pacing m_pacing;           //!< Pacing attribute
    double m_fsAlpha{0};       //!< flow scaling alpha, seconds x sqrt(packets)
    double m_fsBeta{0};        //!< flow scaling beta, seconds
    Time m_lastDecrease;       //!< t_last_decrease
    bool m_decreased{false};   //!< a decrease happened (m_lastDecrease valid)
    uint32_t m_retransmits{0}; //!< consecutive timeouts (retransmit_cnt)
    uint64_t m_decreases{0};   //!< decreases applied
};

} // namespace ns3

#endif /* SWIFT_CONGESTION_CONTROL_H */
