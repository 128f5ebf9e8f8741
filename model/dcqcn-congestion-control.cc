/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-congestion-control.h"

#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Gain g of the alpha EWMA: alpha = (1 - g) alpha + g on congestion, "
                          "(1 - g) alpha otherwise. Paper: 1/256. ConnectX: "
                          "(1024 - dce_tcp_g) / 1024 = 5/1024 (dce_tcp_g 1019).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "alpha of a new flow, used by its first rate cut. Paper: 1. "
                          "ConnectX: initial_alpha_value / 1024 = 1023/1024.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaUpdateInterval",
                          "Period K of the alpha update: PerCnp, alpha decays by (1 - g) "
                          "after every K without a CNP (paper: 55 us); Periodic, one update "
                          "every K (ConnectX dce_tcp_rtt: 1 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker())
            .AddAttribute("AlphaUpdateMode",
                          "PerCnp (paper, equations (1)-(2)): alpha = (1 - g) alpha + g on "
                          "every CNP, alpha = (1 - g) alpha after each AlphaUpdateInterval "
                          "without one. Periodic (ConnectX): once every AlphaUpdateInterval "
                          "from the first CNP, + g if a CNP arrived in the period.",
                          EnumValue(DcqcnCongestionControl::PER_CNP),
                          MakeEnumAccessor(&DcqcnCongestionControl::m_alphaMode),
                          MakeEnumChecker(DcqcnCongestionControl::PER_CNP,
                                          "PerCnp",
                                          DcqcnCongestionControl::PERIODIC,
                                          "Periodic"))
            .AddAttribute("RateDecreaseInterval",
                          "Minimum interval between two rate cuts. 0 (paper): every CNP cuts "
                          "at once. > 0 (ConnectX rate_reduce_monitor_period, 4 us): CNPs "
                          "are sampled on a grid of this period from the first CNP and the "
                          "rate is cut once at each grid point that follows a CNP.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("RateDecreaseDivisor",
                          "A cut sets RC = RC (1 - alpha / RateDecreaseDivisor). Paper: 2. "
                          "ConnectX: 2^rpg_gd / 1024 (alpha in units of 2^-10) = 2 for "
                          "rpg_gd 11.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_decreaseDivisor),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("MinDecreaseFactor",
                          "One cut never leaves less than this fraction of the current rate "
                          "(ConnectX rpg_min_dec_fac / 100 = 0.5). Paper: no bound (0); "
                          "with alpha <= 1 and divisor 2 a cut never exceeds 50 % anyway.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_minDecreaseFactor),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RateIncreaseInterval",
                          "Rate increase timer T; 0 disables it. Paper: 55 us. ConnectX "
                          "rpg_time_reset: 300 us.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ByteCounter",
                          "Byte counter B: a rate increase every B bytes sent (frame bytes as "
                          "the pacer charges them); 0 disables it. Paper: 10 MB. ConnectX "
                          "rpg_byte_reset 32767, in bytes (NVIDIA's mlxconfig).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "F: the first F timer or byte-counter expiries after a cut are fast "
                          "recovery; hyper increase once both counted more than F. Paper: 5. "
                          "ConnectX rpg_threshold: 1.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_fastRecoverySteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncreaseRate",
                          "R_AI, target rate step of additive increase. Paper: 40 Mb/s. "
                          "ConnectX rpg_ai_rate: 5 Mb/s.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncreaseRate",
                          "R_HAI, target rate step of hyper increase. 200 Mb/s (the paper "
                          "authors' simulator). ConnectX rpg_hai_rate: 50 Mb/s.",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_haiRate),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of the current rate. 100 Mb/s (the paper authors' "
                          "simulator). ConnectX rpg_min_rate: 1 Mb/s.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "true (paper, equation (1)): every cut sets RT = RC. false "
                          "(ConnectX clamp_tgt_rate 0): RT = RC only if the rate increased "
                          "since the previous cut (see ClampTargetRateAfterTimeIncrease).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetRateAfterTimeIncrease",
                          "With ClampTargetRate false: true (ConnectX "
                          "clamp_tgt_rate_after_time_inc 1) counts timer and byte-counter "
                          "increases, false only byte-counter increases.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampAfterTimeIncrease),
                          MakeBooleanChecker())
            .AddAttribute("UseWindow",
                          "Also cap the payload bytes in flight at one bandwidth-delay "
                          "product, line rate x the queue pair's base RTT (the HPCC "
                          "simulator's HAS_WIN for DCQCN). false: the paper and the NICs "
                          "(rate only).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_useWindow),
                          MakeBooleanChecker())
            .AddAttribute("VariableWindow",
                          "With UseWindow: the window is BDP x RC / line rate, following "
                          "every rate change (the HPCC simulator's VAR_WIN; its default 0). "
                          "false: the full BDP.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_variableWindow),
                          MakeBooleanChecker())
            .AddTraceSource("Rate",
                            "Current rate RC of the queue pair.",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_rateTrace),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource("TargetRate",
                            "Target rate RT of the queue pair.",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_targetRateTrace),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource("Alpha",
                            "alpha, when it is updated: at CNPs and rate cuts (decays of quiet "
                            "periods are applied then; GetAlpha() gives the value at any time).",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_alphaTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Cnp",
                            "A CNP arrived for the queue pair.",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_cnpTrace),
                            "ns3::TracedCallback::Void")
            .AddTraceSource("RateIncrease",
                            "A rate increase: trigger (timer, byte counter) and phase (fast "
                            "recovery, additive, hyper).",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_increaseTrace),
                            "ns3::DcqcnCongestionControl::RateIncreaseTracedCallback");
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

DcqcnCongestionControl::DcqcnCongestionControl(const DcqcnCongestionControl& other)
    : RdmaCongestionControl(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_alphaInterval(other.m_alphaInterval),
      m_alphaMode(other.m_alphaMode),
      m_decreaseInterval(other.m_decreaseInterval),
      m_decreaseDivisor(other.m_decreaseDivisor),
      m_minDecreaseFactor(other.m_minDecreaseFactor),
      m_increaseInterval(other.m_increaseInterval),
      m_byteCounter(other.m_byteCounter),
      m_fastRecoverySteps(other.m_fastRecoverySteps),
      m_aiRate(other.m_aiRate),
      m_haiRate(other.m_haiRate),
      m_minRate(other.m_minRate),
      m_clampTargetRate(other.m_clampTargetRate),
      m_clampAfterTimeIncrease(other.m_clampAfterTimeIncrease),
      m_useWindow(other.m_useWindow),
      m_variableWindow(other.m_variableWindow),
      m_alphaValue(other.m_initialAlpha)
{
    NS_LOG_FUNCTION(this);
}

DcqcnCongestionControl::~DcqcnCongestionControl()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
}

void
DcqcnCongestionControl::DoDispose()
{
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_state = nullptr;
    RdmaCongestionControl::DoDispose();
}

std::string
DcqcnCongestionControl::GetName() const
{
    return "DCQCN";
}

Ptr<RdmaCongestionControl>
DcqcnCongestionControl::Fork()
{
    return CopyObject<DcqcnCongestionControl>(this);
}

void
DcqcnCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this << state.lineRate);
    NS_ABORT_MSG_IF(m_minRate > state.lineRate,
                    "DcqcnCongestionControl::MinRate " << m_minRate << " exceeds the line rate "
                                                       << state.lineRate << "; valid: 0 to "
                                                       << state.lineRate);
    NS_ABORT_MSG_IF(m_increaseInterval.IsZero() && m_byteCounter == 0,
                    "DcqcnCongestionControl: RateIncreaseInterval 0 and ByteCounter 0 disable "
                    "both rate increase triggers, a cut rate would never recover; valid: at "
                    "least one > 0");
    NS_ABORT_MSG_IF(!m_alphaInterval.IsStrictlyPositive(),
                    "DcqcnCongestionControl::AlphaUpdateInterval " << m_alphaInterval
                                                                   << " must be > 0");
    NS_ABORT_MSG_IF(state.lineRate.GetBitRate() == 0, "DcqcnCongestionControl: line rate is 0");
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_state = &state;
    m_lineRate = state.lineRate.GetBitRate();
    m_rc = m_lineRate;
    m_rt = m_lineRate;
    m_alphaValue = m_initialAlpha;
    m_alphaTrace = m_initialAlpha;
    m_alphaAnchor = Time(0);
    m_alphaStarted = false;
    m_cnpSampled = false;
    m_limited = false;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesSent = 0;
    m_decreaseAnchor = Time(0);
    m_decreasePending = false;
    state.window = 0;
    Publish();
}

void
DcqcnCongestionControl::Publish()
{
    if (m_state)
    {
        m_state->rate = DataRate(m_rc);
        if (m_useWindow && m_state->baseRtt.IsStrictlyPositive())
        {
            m_state->window = BdpWindow(*m_state, m_variableWindow ? m_rc : m_lineRate);
        }
    }
    m_rateTrace = DataRate(m_rc);
    m_targetRateTrace = DataRate(m_rt);
}

void
DcqcnCongestionControl::OnPacketSent(RdmaCcState& state, uint32_t wireBytes)
{
    // Per packet: two compares unless the byte counter expires.
    if (!m_limited || m_byteCounter == 0)
    {
        return;
    }
    NS_ASSERT(&state == m_state);
    m_bytesSent += wireBytes;
    if (m_bytesSent >= m_byteCounter)
    {
        m_bytesSent = 0;
        IncreaseRate(BYTE_COUNTER);
    }
}

void
DcqcnCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& /* feedback */)
{
    // DCQCN reacts to CNPs only. With a window and no configured base RTT, the queue pair
    // takes baseRtt from the RTT samples (the smallest so far): the window follows it.
    if (!m_useWindow || !state.baseRtt.IsStrictlyPositive())
    {
        return;
    }
    const uint64_t window = BdpWindow(state, m_variableWindow ? m_rc : m_lineRate);
    if (window != state.window)
    {
        state.window = window;
        NotifyRateChange();
    }
}

void
DcqcnCongestionControl::OnCnp(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_state == &state, "DcqcnCongestionControl::OnCnp before Init");
    const Time now = RdmaSimulatorImpl::CurrentTime();
    ++m_cnps;
    m_cnpTrace();
    if (!m_alphaStarted)
    {
        // alpha evolves from the first CNP on; the decrease grid starts there too.
        m_alphaStarted = true;
        m_alphaAnchor = now;
        m_decreaseAnchor = now;
    }
    else
    {
        CatchUpAlpha();
    }

    const bool cutNow = m_decreaseInterval.IsZero();
    if (cutNow)
    {
        // Equation (1): cut with alpha as it was, then update alpha.
        DecreaseRate();
    }
    else
    {
        m_decreasePending = true;
        if (!m_decreaseEvent.IsRunning())
        {
            const int64_t period = m_decreaseInterval.GetTimeStep();
            const int64_t k = (now - m_decreaseAnchor).GetTimeStep() / period + 1;
            const Time next = m_decreaseAnchor + TimeStep(k * period);
            m_decreaseEvent = Simulator::Schedule(next - now,
                                                  &DcqcnCongestionControl::DecreaseTimerExpired,
                                                  this);
        }
    }

    if (m_alphaMode == PER_CNP)
    {
        m_alphaValue = (1 - m_g) * m_alphaValue + m_g;
        m_alphaAnchor = now; // the K timer restarts
        m_alphaTrace = m_alphaValue;
    }
    else
    {
        m_cnpSampled = true; // counted at the end of the current period
    }
    if (cutNow)
    {
        NotifyRateChange(); // the queue pair re-paces at the cut rate
    }
}

void
DcqcnCongestionControl::AdvanceAlpha(Time now, double& alpha, Time& anchor, bool& sampled) const
{
    const int64_t period = m_alphaInterval.GetTimeStep();
    const int64_t n = (now - anchor).GetTimeStep() / period;
    if (n <= 0)
    {
        return;
    }
    if (m_alphaMode == PERIODIC)
    {
        // The first period end samples the CNP flag; the others found no CNP.
        alpha = (1 - m_g) * alpha + (sampled ? m_g : 0.0);
        alpha *= std::pow(1 - m_g, static_cast<double>(n - 1));
        sampled = false;
    }
    else
    {
        alpha *= std::pow(1 - m_g, static_cast<double>(n));
    }
    anchor += TimeStep(n * period);
}

void
DcqcnCongestionControl::CatchUpAlpha()
{
    if (!m_alphaStarted)
    {
        return;
    }
    AdvanceAlpha(RdmaSimulatorImpl::CurrentTime(), m_alphaValue, m_alphaAnchor, m_cnpSampled);
    m_alphaTrace = m_alphaValue;
}

double
DcqcnCongestionControl::GetAlpha() const
{
    if (!m_alphaStarted)
    {
        return m_alphaValue;
    }
    double alpha = m_alphaValue;
    Time anchor = m_alphaAnchor;
    bool sampled = m_cnpSampled;
    AdvanceAlpha(RdmaSimulatorImpl::CurrentTime(), alpha, anchor, sampled);
    return alpha;
}

void
DcqcnCongestionControl::DecreaseTimerExpired()
{
    if (m_decreasePending)
    {
        CatchUpAlpha();
        DecreaseRate();
        NotifyRateChange();
    }
}

void
DcqcnCongestionControl::DecreaseRate()
{
    m_decreasePending = false;
    const bool increasedSinceCut =
        m_clampAfterTimeIncrease ? (m_timerCount > 0 || m_byteCount > 0) : m_byteCount > 0;
    if (m_clampTargetRate || increasedSinceCut)
    {
        m_rt = m_rc;
    }
    const double rc = static_cast<double>(m_rc);
    double next = rc * (1 - m_alphaValue / m_decreaseDivisor);
    next = std::max(next, rc * m_minDecreaseFactor);
    next = std::max(next, static_cast<double>(m_minRate.GetBitRate()));
    m_rc = std::min(m_rc, static_cast<uint64_t>(std::llround(next)));
    m_limited = true;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesSent = 0;
    RestartIncreaseTimer();
    ++m_decreases;
    NS_LOG_LOGIC("cut: alpha " << m_alphaValue << " RC " << m_rc << " RT " << m_rt);
    Publish();
}

void
DcqcnCongestionControl::RestartIncreaseTimer()
{
    m_increaseEvent.Cancel();
    if (!m_increaseInterval.IsZero())
    {
        m_increaseEvent = Simulator::Schedule(m_increaseInterval,
                                              &DcqcnCongestionControl::IncreaseTimerExpired,
                                              this);
    }
}

void
DcqcnCongestionControl::IncreaseTimerExpired()
{
    IncreaseRate(TIMER);
    if (m_limited)
    {
        m_increaseEvent = Simulator::Schedule(m_increaseInterval,
                                              &DcqcnCongestionControl::IncreaseTimerExpired,
                                              this);
    }
    NotifyRateChange(); // the queue pair re-paces the gap in progress at the new rate
}

DcqcnCongestionControl::Phase
DcqcnCongestionControl::SelectPhase() const
{
    // A disabled trigger takes no part in the max and the min.
    uint32_t high;
    uint32_t low;
    if (m_increaseInterval.IsZero())
    {
        high = low = m_byteCount;
    }
    else if (m_byteCounter == 0)
    {
        high = low = m_timerCount;
    }
    else
    {
        high = std::max(m_timerCount, m_byteCount);
        low = std::min(m_timerCount, m_byteCount);
    }
    if (high < m_fastRecoverySteps)
    {
        return FAST_RECOVERY;
    }
    if (low > m_fastRecoverySteps)
    {
        return HYPER_INCREASE;
    }
    return ADDITIVE_INCREASE;
}

void
DcqcnCongestionControl::IncreaseRate(Trigger trigger)
{
    NS_ASSERT_MSG(m_rt >= m_rc, "DCQCN: the target rate is below the current rate");
    const Phase phase = SelectPhase();
    if (phase == ADDITIVE_INCREASE)
    {
        m_rt = std::min(m_lineRate, m_rt + m_aiRate.GetBitRate());
    }
    else if (phase == HYPER_INCREASE)
    {
        m_rt = std::min(m_lineRate, m_rt + m_haiRate.GetBitRate());
    }
    // RC = (RT + RC) / 2, rounded up so that RC reaches RT.
    m_rc = m_rc + (m_rt - m_rc + 1) / 2;
    if (trigger == TIMER)
    {
        ++m_timerCount;
    }
    else
    {
        ++m_byteCount;
    }
    ++m_increases;
    m_increaseTrace(trigger, phase);
    NS_LOG_LOGIC((trigger == TIMER ? "timer" : "bytes")
                 << " " << PhaseName(phase) << ": RC " << m_rc << " RT " << m_rt);
    Publish();
    if (m_rc == m_lineRate && m_rt == m_lineRate && !m_decreasePending)
    {
        // Back at line rate: the NIC releases the rate limiter until the next CNP. The
        // pending timer expiry (byte-counter path) is removed, not just cancelled, so that a
        // simulation without Stop ends with the last event that changed something.
        m_limited = false;
        if (m_increaseEvent.IsRunning())
        {
            Simulator::Remove(m_increaseEvent);
        }
        m_bytesSent = 0;
    }
}

const char*
DcqcnCongestionControl::PhaseName(Phase phase)
{
    switch (phase)
    {
    case FAST_RECOVERY:
        return "FastRecovery";
    case ADDITIVE_INCREASE:
        return "AdditiveIncrease";
    case HYPER_INCREASE:
        return "HyperIncrease";
    }
    return "?";
}

DataRate
DcqcnCongestionControl::GetCurrentRate() const
{
    return DataRate(m_rc);
}

DataRate
DcqcnCongestionControl::GetTargetRate() const
{
    return DataRate(m_rt);
}

bool
DcqcnCongestionControl::IsRateLimited() const
{
    return m_limited;
}

uint32_t
DcqcnCongestionControl::GetTimerCount() const
{
    return m_timerCount;
}

uint32_t
DcqcnCongestionControl::GetByteCount() const
{
    return m_byteCount;
}

uint64_t
DcqcnCongestionControl::GetCnpsReceived() const
{
    return m_cnps;
}

uint64_t
DcqcnCongestionControl::GetRateDecreases() const
{
    return m_decreases;
}

uint64_t
DcqcnCongestionControl::GetRateIncreases() const
{
    return m_increases;
}

} // namespace ns3
