/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCQCN_CONGESTION_CONTROL_H
#define DCQCN_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

class RdmaHelper;

/**
 * \ingroup rdma
 * \brief DCQCN, the reaction point (RP) of the congestion control of RoCEv2 NICs.
 *
 * Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, §3.1
 * (equations (1) and (2), figure 7); the parameter names of NVIDIA ConnectX firmware
 * (mlxconfig / sysfs roce_rp) are given in brackets. The other two roles of DCQCN are
 * elsewhere: the congestion point (CP) is the RED/ECN marking of RdmaSwitch (EcnKmin,
 * EcnKmax, EcnPmax, on the instantaneous egress queue of each (port, class)); the
 * notification point (NP) is the responder queue pair, which sends a RoCEv2 CNP when a
 * CE-marked packet arrives and it sent none for that queue pair within
 * ns3::RdmaNic::CnpInterval [min_time_between_cnps].
 *
 * Per queue pair, with current rate RC, target rate RT and congestion estimate alpha:
 *
 * - Start: RC = RT = line rate, alpha = InitialAlpha [initial_alpha_value].
 * - Rate decrease, on a CNP (equation (1)):
 *   RT = RC; RC = max(RC (1 - alpha / RateDecreaseDivisor), RC MinDecreaseFactor, MinRate);
 *   then the timer T and the byte counter restart and their expiry counts go to 0.
 *   RateDecreaseDivisor is 2 in the paper [rpg_gd = 11: alpha / 2^11 with alpha in units of
 *   2^-10]. With ClampTargetRate false [clamp_tgt_rate = 0], RT = RC only if a rate
 *   increase happened since the previous decrease (any increase if
 *   ClampTargetRateAfterTimeIncrease [clamp_tgt_rate_after_time_inc], else only a
 *   byte-counter increase); otherwise RT keeps its value. With RateDecreaseInterval 0
 *   (the paper) every CNP cuts the rate at once, using alpha before this CNP's update; with
 *   RateDecreaseInterval > 0 [rate_reduce_monitor_period] the CNPs are sampled on a per-QP
 *   grid of that period anchored at the first CNP, and the rate is cut once at every grid
 *   point that follows at least one CNP (the NIC's "reduced at the beginning of the next
 *   interval").
 * - alpha (AlphaUpdateMode PerCnp, the paper): alpha = (1 - g) alpha + g on every CNP, and
 *   alpha = (1 - g) alpha after each AlphaUpdateInterval (K) without a CNP (equation (2)).
 *   AlphaUpdateMode Periodic (the NIC [dce_tcp_rtt, dce_tcp_g]): every AlphaUpdateInterval,
 *   counted from the first CNP, alpha = (1 - g) alpha + g if at least one CNP arrived in the
 *   period, (1 - g) alpha otherwise. Both are evaluated exactly but lazily, when alpha is
 *   needed (a rate cut, GetAlpha), so quiet periods cost no events.
 * - Rate increase (figure 7): a timer fires every RateIncreaseInterval (T) [rpg_time_reset]
 *   and a byte counter every ByteCounter (B) bytes sent [rpg_byte_reset]. Let T and BC be
 *   how many times each fired since the last decrease, not counting the expiry being
 *   handled, and F = FastRecoverySteps [rpg_threshold]:
 *   if max(T, BC) < F, fast recovery: RC = (RT + RC) / 2;
 *   else if min(T, BC) > F, hyper increase: RT = RT + HyperIncreaseRate [rpg_hai_rate],
 *   RC = (RT + RC) / 2;
 *   else additive increase: RT = RT + AdditiveIncreaseRate [rpg_ai_rate], RC = (RT + RC) / 2.
 *   So the first F expiries after a cut are fast recovery ("F = 5 successive iterations").
 *   A disabled counter (ByteCounter 0, or RateIncreaseInterval 0) is left out of the max
 *   and the min. RT never exceeds the line rate. Rates are whole bit/s; the halving rounds
 *   up so that RC reaches RT exactly.
 * - When RC = RT = line rate the flow is no longer rate limited (the NIC releases its rate
 *   limiter): the timer stops and bytes are no longer counted until the next CNP.
 *
 * The byte counter counts the bytes the queue pair's pacer charges for each data packet
 * (OnPacketSent's wireBytes: the frame with preamble, FCS and inter-frame gap), as the
 * paper's B counts bytes sent. A rate change applies to the queue pair's next packet;
 * after a CNP or a timer, the queue pair also re-paces the gap since its last packet at the
 * new rate (NotifyRateChange), as a NIC's rate limiter does.
 *
 * Window (off by default, as in the paper and the NICs): the HPCC authors' simulator also
 * runs DCQCN with a window (its HAS_WIN, VAR_WIN and GLOBAL_T keys; rdma-hw.cc, RdmaQueuePair::
 * GetWin). With UseWindow the queue pair caps the payload bytes in flight at one
 * bandwidth-delay product, line rate x RdmaCcState::baseRtt (BdpWindow), and with
 * VariableWindow at BDP x RC / line rate, following every change of RC. The window never
 * changes the rate rules above; with UseWindow false (the default) state.window stays 0.
 *
 * Defaults are the paper's parameters; RdmaCcHelper::ApplyDcqcnConnectXPreset() selects NVIDIA
 * ConnectX firmware defaults in one call (doc/dcqcn.rst has the mapping of both naming schemes).
 * Each queue pair gets its own copy through Fork() (CopyObject) with fresh per-flow state.
 */
class DcqcnCongestionControl : public RdmaCongestionControl
{
  public:
    /// How alpha is updated.
    enum AlphaUpdateMode
    {
        PER_CNP,  //!< paper: on every CNP, decay after each quiet AlphaUpdateInterval
        PERIODIC, //!< NIC: once per AlphaUpdateInterval, sampling "a CNP arrived"
    };

    /// Phase of a rate increase (SIGCOMM 2015, figure 7).
    enum Phase
    {
        FAST_RECOVERY,     //!< RC = (RT + RC) / 2
        ADDITIVE_INCREASE, //!< RT += AdditiveIncreaseRate, RC = (RT + RC) / 2
        HYPER_INCREASE,    //!< RT += HyperIncreaseRate, RC = (RT + RC) / 2
    };

    /// What triggered a rate increase.
    enum Trigger
    {
        TIMER,        //!< the rate increase timer T expired
        BYTE_COUNTER, //!< B bytes were sent
    };

    /**
     * TracedCallback signature of rate increases.
     * \param trigger what fired (Trigger)
     * \param phase the phase applied (Phase)
     */
    typedef void (*RateIncreaseTracedCallback)(Trigger trigger, Phase phase);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    DcqcnCongestionControl();
    /**
     * Copy the configuration (attributes), not the per-flow state nor the trace
     * connections: used by Fork().
     * \param other the prototype
     */
    DcqcnCongestionControl(const DcqcnCongestionControl& other);
    ~DcqcnCongestionControl() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;
    void OnPacketSent(RdmaCcState& state, uint32_t wireBytes) override;
    void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback) override;
    void OnCnp(RdmaCcState& state) override;

    /// \return alpha now (quiet periods since the last update applied)
    double GetAlpha() const;
    /// \return the current rate RC
    DataRate GetCurrentRate() const;
    /// \return the target rate RT
    DataRate GetTargetRate() const;
    /// \return true between a rate cut and the return to line rate
    bool IsRateLimited() const;
    /// \return timer expiries since the last rate decrease (T)
    uint32_t GetTimerCount() const;
    /// \return byte-counter expiries since the last rate decrease (BC)
    uint32_t GetByteCount() const;
    /// \return CNPs received
    uint64_t GetCnpsReceived() const;
    /// \return rate decreases applied
    uint64_t GetRateDecreases() const;
    /// \return rate increases applied (all phases)
    uint64_t GetRateIncreases() const;
    /**
     * \param phase a phase
     * \return its name, e.g. "FastRecovery"
     */
    static const char* PhaseName(Phase phase);

  protected:
    void DoDispose() override;

  private:
    /// The rate limiter engages (first CNP after line rate).
    void StartRateLimiting();
    /// Apply the decays (and, Periodic, the sampled CNP) due up to now to m_alphaValue.
    void CatchUpAlpha();
    /**
     * \param now the time
     * \param[in,out] alpha alpha to advance
     * \param[in,out] anchor time of the last alpha update (PerCnp) or grid point (Periodic)
     * \param[in,out] sampled Periodic: a CNP arrived in the current period
     */
    void AdvanceAlpha(Time now, double& alpha, Time& anchor, bool& sampled) const;
    /// Cut the rate (equation (1)).
    void DecreaseRate();
    /// RateDecreaseInterval grid point: cut if a CNP arrived since the last one.
    void DecreaseTimerExpired();
    /// The rate increase timer T expired.
    void IncreaseTimerExpired();
    /**
     * One rate increase of figure 7.
     * \param trigger what fired
     */
    void IncreaseRate(Trigger trigger);
    /// \return the phase the counters select
    Phase SelectPhase() const;
    /// Restart the rate increase timer T from now.
    void RestartIncreaseTimer();
    /// Write RC and RT (and, with UseWindow, the window) to the queue pair's state and the
    /// traces.
    void Publish();

    // attributes
    double m_g;                    //!< alpha gain g
    double m_initialAlpha;         //!< alpha of a new flow
    Time m_alphaInterval;          //!< K
    AlphaUpdateMode m_alphaMode;   //!< paper or NIC alpha
    Time m_decreaseInterval;       //!< 0: cut on every CNP
    double m_decreaseDivisor;      //!< RC (1 - alpha / divisor)
    double m_minDecreaseFactor;    //!< RC never below this fraction of RC in one cut
    Time m_increaseInterval;       //!< T, 0 disables the timer
    uint64_t m_byteCounter;        //!< B, 0 disables the byte counter
    uint32_t m_fastRecoverySteps;  //!< F
    DataRate m_aiRate;             //!< R_AI
    DataRate m_haiRate;            //!< R_HAI
    DataRate m_minRate;            //!< rate floor
    bool m_clampTargetRate;        //!< RT = RC on every cut
    bool m_clampAfterTimeIncrease; //!< without clamping: a timer increase also counts
    bool m_useWindow;              //!< cap the bytes in flight at the BDP (HAS_WIN)
    bool m_variableWindow;         //!< window x RC / line rate (VAR_WIN)

    // per-flow state
    RdmaCcState* m_state{nullptr}; //!< the queue pair's state (set by Init)
    uint64_t m_lineRate{0};        //!< bit/s
    uint64_t m_rc{0};              //!< current rate, bit/s
    uint64_t m_rt{0};              //!< target rate, bit/s
    double m_alphaValue{1.0};      //!< alpha as of m_alphaAnchor
    Time m_alphaAnchor;            //!< last alpha update (PerCnp) / grid point (Periodic)
    bool m_alphaStarted{false};    //!< the first CNP arrived (alpha evolves from then on)
    bool m_cnpSampled{false};      //!< Periodic: a CNP arrived in the current period
    bool m_limited{false};         //!< rate limiter engaged
    uint32_t m_timerCount{0};      //!< T
    uint32_t m_byteCount{0};       //!< BC
    uint64_t m_bytesSent{0};       //!< bytes since the last byte-counter expiry
    Time m_decreaseAnchor;         //!< first CNP: origin of the RateDecreaseInterval grid
    bool m_decreasePending{false}; //!< a CNP waits for the next grid point
    EventId m_increaseEvent;       //!< timer T
    EventId m_decreaseEvent;       //!< next RateDecreaseInterval grid point
    uint64_t m_cnps{0};            //!< CNPs received
    uint64_t m_decreases{0};       //!< rate cuts
    uint64_t m_increases{0};       //!< rate increases

    TracedValue<DataRate> m_rateTrace;              //!< RC
    TracedValue<DataRate> m_targetRateTrace;        //!< RT
    TracedValue<double> m_alphaTrace;               //!< alpha, when it is updated
    TracedCallback<> m_cnpTrace;                    //!< a CNP arrived
    TracedCallback<Trigger, Phase> m_increaseTrace; //!< a rate increase
};

} // namespace ns3

#endif /* DCQCN_CONGESTION_CONTROL_H */
