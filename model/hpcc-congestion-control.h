/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_CONGESTION_CONTROL_H
#define HPCC_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"
#include "rdma-int-header.h"

#include "ns3/traced-value.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief HPCC: a window from the utilisation that in-band telemetry reports hop by hop.
 *
 * Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, section 3.3,
 * Algorithm 1. On every ACK that echoes telemetry (RdmaAckFeedback::telemetry):
 *  - MeasureInflight: for each hop i, against the previous ACK's record of the same hop,
 *    txRate = (txBytes - txBytes') / (ts - ts'), u_i = txRate / B_i + min(qlen, qlen') /
 *    (B_i x T); u = max_i u_i and tau the (ts - ts') of that hop, at most T; U = (1 - tau /
 *    T) U + tau / T u (T: the base RTT, RdmaCcState::baseRtt);
 *  - ComputeWind: if U >= eta or incStage >= MaxStage, W = Wc / (U / eta) + W_AI, else
 *    W = Wc + W_AI; Wc and incStage (reset to 0, or + 1) are kept only by the ACK that
 *    passes the snd_nxt of the last such update (once per RTT: feedback.ackedUpToBytes >
 *    lastUpdateSeq, then lastUpdateSeq = bytesSent); other ACKs only set W (fast reaction);
 *  - rate R = W / T paces the packets; W caps the bytes in flight (UseWindow). T is the
 *    base RTT, a constant, in the pacing too (section 3.2; the simulator's m_rate from the
 *    window with m_baseRtt): the window is paced as RdmaWindowPacing::BASE_RTT, never on
 *    the smoothed RTT, which after an incast carries the queue's samples for many RTTs.
 * W is kept as the rate R = W / T, as the authors' simulator does (rdma-hw.cc
 * UpdateRateHp, CC_MODE 3), bounded by [MinRate, line rate]; W_AI = AdditiveIncreaseRate
 * x T (the simulator's RATE_AI), or AdditiveIncreaseWindow when set (the paper's W_AI).
 *
 * Paper and simulator differ here, each offered:
 *  - maxStage: paper 5; the simulator's run.py sets MI_THRESH 0 (every update
 *    multiplicative): MaxStage;
 *  - fast reaction: the paper always reacts per ACK; the simulator makes it optional
 *    (FAST_REACT): FastReact;
 *  - W_AI in bytes (paper) or as a rate x T (simulator): AdditiveIncreaseWindow/Rate;
 *  - the simulator starts U at 1 and lets the flow's first ACK only record the telemetry;
 *    both are kept (the paper leaves the start open);
 *  - INT_MULTI only scales the record units (RdmaIntHeader carries it, no global), and
 *    the simulator's per-hop-rate variant (MULTI_RATE 1) is not offered (run.py: 0).
 * A hop whose two records carry the same time is skipped (the simulator divides by 0), and
 * a change in the number of hops (a new path) restarts the measurement.
 */
class HpccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;
    void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback) override;
    bool NeedsTelemetry() const override;
    /// \return IntMultiplier: the units multiplier the data packets' INT area carries
    uint32_t GetTelemetryMultiplier() const override;

    /// \return U, the smoothed utilisation estimate
    double GetUtilisation() const;
    /// \return Wc as a rate (Wc / T)
    DataRate GetReferenceRate() const;
    /// \return the additive-increase stage
    uint32_t GetIncreaseStage() const;

  private:
    /**
     * MeasureInflight of Algorithm 1: update U from a telemetry record.
     * \param intHeader the echoed records
     * \param baseRtt T
     * \return false if no hop could be measured (U unchanged)
     */
    bool MeasureInflight(const RdmaIntHeader& intHeader, Time baseRtt);
    /**
     * \param state the queue pair's state (line rate, base RTT T)
     * \param rate R, bit/s
     * \return W = R x T in payload bytes, at least 1
     */
    static uint64_t Window(const RdmaCcState& state, uint64_t rate);

    // Configuration (attributes)
    double m_eta;             //!< target utilisation
    uint32_t m_maxStage;      //!< additive-increase stages before a multiplicative update
    DataRate m_aiRate;        //!< W_AI / T
    uint64_t m_aiWindow;      //!< W_AI in bytes, 0: m_aiRate x T
    bool m_fastReact;         //!< update W on every ACK, not only once per RTT
    DataRate m_minRate;       //!< floor of the rate
    bool m_useWindow;         //!< cap the bytes in flight at W
    double m_initialU;        //!< U before the first measurement
    uint32_t m_intMultiplier; //!< INT_MULTI

    // Per-flow state
    bool m_started{false};                                 //!< a first record is kept
    uint64_t m_lastUpdateSeq{0};                           //!< snd_nxt at the last Wc update
    uint32_t m_incStage{0};                                //!< additive-increase stage
    uint64_t m_refRate{0};                                 //!< Wc / T, bit/s
    std::array<RdmaIntHop, RdmaIntHeader::MAX_HOPS> m_hop; //!< the previous ACK's records
    uint8_t m_nHops{0};                                    //!< records in m_hop
    TracedValue<double> m_u;                               //!< U
};

} // namespace ns3

#endif /* HPCC_CONGESTION_CONTROL_H */
