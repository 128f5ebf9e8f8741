/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCTCP_CONGESTION_CONTROL_H
#define DCTCP_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief DCTCP for RDMA: a rate (and optionally window) cut by alpha / 2 once per window of
 * data, alpha the EWMA of the fraction of ECN-marked feedback.
 *
 * DCTCP: Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, section 3.1; RFC 8257
 * section 3.3. As the HPCC authors' simulator adapts it to RDMA (alibaba-edu/High-Precision-
 * Congestion-Control, rdma-hw.cc HandleAckDctcp, CC_MODE 8), on every acknowledgement:
 *  1. count it as marked if it echoes CE (RdmaAckFeedback::ecnEcho);
 *  2. when the cumulative ACK passes the window end (the snd_nxt of the last update), end
 *     the observation window: F = min(1, marked / packets of the window), alpha = (1 - g)
 *     alpha + g F, a new window ends at snd_nxt and holds (snd_nxt - snd_una) / MTU + 1
 *     packets. The first window (the flow's first ACK) only sets the window end;
 *  3. leave CWR once the cumulative ACK passes the snd_nxt of the last cut;
 *  4. on an ECN-echo outside CWR: rate = max(MinRate, rate (1 - alpha / 2)), enter CWR
 *     until snd_nxt (at most one cut per window of data, RFC 8257 section 3.3);
 *  5. outside CWR, at the end of each observation window: rate += AdditiveIncreaseRate
 *     (at most the line rate).
 * With a window (HPCC's HAS_WIN 1) the queue pair also caps the bytes in flight at
 * BDP = line rate x base RTT, scaled by rate / line rate with VariableWindow (VAR_WIN 1);
 * there the window only caps the bytes in flight and the rate paces, so the window is
 * measured against the base RTT (RdmaWindowPacing::BASE_RTT: its gap, payload x T / W, is
 * never longer than the rate's), not against the smoothed RTT.
 *
 * Where this differs from RFC 8257, and the RFC variant offered:
 *  - F: the simulator counts marked ACKs over an estimate of the packets in the window
 *    (FractionMode Packets); RFC 8257 counts marked bytes over acknowledged bytes
 *    (FractionMode Bytes, SACKed bytes included).
 *  - The reaction acts on a paced rate, and the increase is DCTCP_RATE_AI per window (the
 *    RFC's cwnd grows by one MSS per RTT in congestion avoidance, i.e. MSS / RTT of rate:
 *    set AdditiveIncreaseRate to MSS x 8 / base RTT for that). No slow start.
 *  - CE marks reach the sender in the BTH BECN bit of the ACK (RoCEv2 reserved field), not
 *    in a TCP ECE flag; the delayed-ACK state machine of RFC 8257 section 3.2 is not needed
 *    because the responder echoes exactly the CE packets since its previous ACK.
 */
class DctcpCongestionControl : public RdmaCongestionControl
{
  public:
    /// How F, the marked fraction of an observation window, is measured.
    enum FractionMode
    {
        PACKETS, //!< marked ACKs / packets in the window (HPCC's simulator)
        BYTES,   //!< marked bytes / acknowledged bytes (RFC 8257 section 3.3)
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

    /// \return alpha, the congestion estimate
    double GetAlpha() const;
    /// \return true while in congestion window reduced (no further cut until the window end)
    bool InCwr() const;

  private:
    /// Set state.window from the rate (VariableWindow) or the BDP, if the window is on.
    void UpdateWindow(RdmaCcState& state) const;

    // Configuration (attributes)
    double m_g;              //!< EWMA gain g
    double m_initialAlpha;   //!< alpha of a new flow
    DataRate m_aiRate;       //!< additive increase per window
    DataRate m_minRate;      //!< floor of the rate
    bool m_useWindow;        //!< cap the bytes in flight (HAS_WIN)
    bool m_variableWindow;   //!< window scaled by rate / line rate (VAR_WIN)
    FractionMode m_fraction; //!< how F is measured

    // Per-flow state
    bool m_started{false};       //!< the first observation window has been opened
    uint64_t m_windowEnd{0};     //!< snd_nxt (bytes) at the last alpha update
    uint64_t m_windowPackets{0}; //!< packets the observation window is taken to hold
    uint64_t m_markedAcks{0};    //!< ECN-echoing ACKs in the window
    uint64_t m_markedBytes{0};   //!< bytes acknowledged by ECN-echoing ACKs in the window
    uint64_t m_ackedBytes{0};    //!< bytes acknowledged in the window
    bool m_cwr{false};           //!< in congestion window reduced
    uint64_t m_cwrEnd{0};        //!< snd_nxt (bytes) at the last cut
    TracedValue<double> m_alpha; //!< alpha
};

} // namespace ns3

#endif /* DCTCP_CONGESTION_CONTROL_H */
