/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TIMELY_CONGESTION_CONTROL_H
#define TIMELY_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief TIMELY: rate control from the gradient of the round-trip time.
 *
 * Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter", SIGCOMM 2015,
 * section 4, Algorithm 1. At each completion event, with the RTT sample new_rtt:
 *    rtt_diff = (1 - alpha) rtt_diff + alpha (new_rtt - prev_rtt); prev_rtt = new_rtt;
 *    g = rtt_diff / MinRtt;
 *    new_rtt < T_low:        rate += delta                     (additive increase)
 *    new_rtt > T_high:       rate *= 1 - beta (1 - T_high / new_rtt)
 *    g <= 0:                 rate += N delta                   (N = 5 after HaiThreshold
 *                                                               increases in a row, else 1)
 *    otherwise:              rate *= 1 - beta g                (at least 0, then MinRate)
 * bounded by [MinRate, line rate].
 *
 * Completion events: the paper's are segments of 16-64 KB (UpdateMode PerSegment,
 * SegmentBytes); the HPCC authors' simulator (rdma-hw.cc UpdateRateTimely, CC_MODE 7)
 * updates once per window of data, on the ACK that passes the snd_nxt of the previous
 * update (UpdateMode PerRtt, its default here as hpcc-compat runs it). As in that
 * simulator, the stage counting towards hyper-active increase counts every increase
 * (the T_low branch too) and resets on a decrease, and the first event only records the
 * RTT. ACKs without a Karn-valid RTT sample are skipped.
 *
 * Window (off by default, as in the paper): that simulator's TIMELY may also cap the bytes
 * in flight (run.py timely_vwin: HAS_WIN 1, VAR_WIN 1). With UseWindow the queue pair caps
 * them at BDP = line rate x RdmaCcState::baseRtt (BdpWindow), with VariableWindow at
 * BDP x rate / line rate, recomputed at every rate change.
 */
class TimelyCongestionControl : public RdmaCongestionControl
{
  public:
    /// When the rate is updated.
    enum UpdateMode
    {
        PER_RTT,     //!< once per window of data (HPCC simulator)
        PER_SEGMENT, //!< every SegmentBytes acknowledged (paper)
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;
    void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback) override;

    /// \return the smoothed RTT difference, seconds
    double GetRttDiff() const;
    /// \return the consecutive increases counted towards hyper-active increase
    uint32_t GetIncreaseStage() const;

  private:
    /// Set state.window from the rate (VariableWindow) or the BDP, if the window is on.
    void UpdateWindow(RdmaCcState& state) const;

    /**
     * One completion event: Algorithm 1.
     * \param state the queue pair's state
     * \param rtt the RTT sample
     */
    void Update(RdmaCcState& state, Time rtt);

    // Configuration (attributes)
    double m_alpha;          //!< EWMA weight of a new RTT difference
    double m_beta;           //!< multiplicative decrease factor
    Time m_tLow;             //!< T_low
    Time m_tHigh;            //!< T_high
    Time m_minRtt;           //!< gradient normaliser
    DataRate m_aiRate;       //!< delta
    DataRate m_haiRate;      //!< N x delta
    uint32_t m_haiThreshold; //!< increases in a row before hyper-active increase
    DataRate m_minRate;      //!< floor of the rate
    UpdateMode m_mode;       //!< completion event
    uint64_t m_segmentBytes; //!< PerSegment completion size
    bool m_useWindow;        //!< cap the bytes in flight at the BDP (HAS_WIN)
    bool m_variableWindow;   //!< window x rate / line rate (VAR_WIN)

    // Per-flow state
    bool m_started{false};          //!< the first RTT is recorded
    uint64_t m_nextUpdate{0};       //!< snd_una (bytes) the next event must pass
    double m_prevRtt{0};            //!< previous event's RTT, seconds
    uint32_t m_incStage{0};         //!< increases in a row
    TracedValue<double> m_rttDiff;  //!< rtt_diff, seconds
    TracedValue<double> m_gradient; //!< normalised gradient
};

} // namespace ns3

#endif /* TIMELY_CONGESTION_CONTROL_H */
