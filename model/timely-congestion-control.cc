/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timely-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelyCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(TimelyCongestionControl);

TypeId
TimelyCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimelyCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<TimelyCongestionControl>()
            .AddAttribute("Alpha",
                          "EWMA weight alpha of a new RTT difference. 0.875: the HPCC "
                          "simulator's TimelyAlpha default.",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta, in (0, 1). 0.8: TIMELY "
                          "paper section 5; the HPCC simulator's TimelyBeta.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_beta),
                          MakeDoubleChecker<double>())
            .AddAttribute("TLow",
                          "Below T_low the rate increases whatever the gradient. 50 us: "
                          "TIMELY paper section 5; the HPCC simulator's TimelyTLow.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tLow),
                          MakeTimeChecker())
            .AddAttribute("THigh",
                          "Above T_high the rate falls by beta (1 - T_high / RTT). 500 us: "
                          "TIMELY paper section 5; the HPCC simulator's TimelyTHigh.",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tHigh),
                          MakeTimeChecker())
            .AddAttribute("MinRtt",
                          "Normaliser of the gradient (the path's minimum RTT). 20 us: "
                          "TIMELY paper section 5; the HPCC simulator's TimelyMinRtt.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_minRtt),
                          MakeTimeChecker())
            .AddAttribute("AdditiveIncreaseRate",
                          "delta. 10 Mb/s: TIMELY paper section 5 (10 Gb/s NICs). The HPCC "
                          "simulator's run.py: RATE_AI = 10 Mb/s x line rate / 10 Gb/s.",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncreaseRate",
                          "N x delta, after HaiThreshold increases in a row. 50 Mb/s: N = 5, "
                          "TIMELY paper section 4.3. The HPCC simulator's run.py: RATE_HAI = "
                          "50 Mb/s x line rate / 10 Gb/s.",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_haiRate),
                          MakeDataRateChecker())
            .AddAttribute("HaiThreshold",
                          "Increases in a row before hyper-active increase. 5: TIMELY paper "
                          "section 4.3; the HPCC simulator (fixed).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinRate",
                          "Floor of the rate. 100 Mb/s: the HPCC simulator's MinRate default "
                          "(its run.py: MIN_RATE 1000 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("UpdateMode",
                          "Completion event: PerRtt (the HPCC simulator: the ACK that passes "
                          "the snd_nxt of the previous update) or PerSegment (paper: every "
                          "SegmentBytes acknowledged).",
                          EnumValue(TimelyCongestionControl::PER_RTT),
                          MakeEnumAccessor(&TimelyCongestionControl::m_mode),
                          MakeEnumChecker(TimelyCongestionControl::PER_RTT,
                                          "PerRtt",
                                          TimelyCongestionControl::PER_SEGMENT,
                                          "PerSegment"))
            .AddAttribute("SegmentBytes",
                          "PerSegment completion size. 16 KB: TIMELY paper section 5 "
                          "(16-64 KB segments).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_segmentBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("UseWindow",
                          "Also cap the payload bytes in flight at one bandwidth-delay "
                          "product, line rate x the queue pair's base RTT (the HPCC "
                          "simulator's HAS_WIN; its run.py timely_vwin). false: the paper "
                          "(rate only; run.py timely).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TimelyCongestionControl::m_useWindow),
                          MakeBooleanChecker())
            .AddAttribute("VariableWindow",
                          "With UseWindow: the window is BDP x rate / line rate, following "
                          "every rate change (the HPCC simulator's VAR_WIN; run.py "
                          "timely_vwin: 1). false: the full BDP.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TimelyCongestionControl::m_variableWindow),
                          MakeBooleanChecker())
            .AddTraceSource("RttDiff",
                            "rtt_diff, the smoothed RTT difference, seconds.",
                            MakeTraceSourceAccessor(&TimelyCongestionControl::m_rttDiff),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("Gradient",
                            "The normalised RTT gradient rtt_diff / MinRtt.",
                            MakeTraceSourceAccessor(&TimelyCongestionControl::m_gradient),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

std::string
TimelyCongestionControl::GetName() const
{
    return "TIMELY";
}

Ptr<RdmaCongestionControl>
TimelyCongestionControl::Fork()
{
    return CopyObject<TimelyCongestionControl>(this);
}

void
TimelyCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this << state.lineRate);
    NS_ABORT_MSG_IF(state.lineRate.GetBitRate() == 0, "TimelyCongestionControl: line rate is 0");
    NS_ABORT_MSG_IF(!(m_beta > 0.0 && m_beta < 1.0),
                    "TimelyCongestionControl::Beta " << m_beta << " is impossible; valid: (0, 1)");
    NS_ABORT_MSG_IF(!m_minRtt.IsStrictlyPositive(),
                    "TimelyCongestionControl::MinRtt " << m_minRtt << " must be > 0");
    NS_ABORT_MSG_IF(m_tHigh <= m_tLow,
                    "TimelyCongestionControl::THigh " << m_tHigh << " is not above TLow " << m_tLow
                                                      << "; valid: THigh > TLow");
    NS_ABORT_MSG_IF(state.baseRtt.IsStrictlyPositive() && m_tHigh <= state.baseRtt,
                    "TimelyCongestionControl::THigh " << m_tHigh << " is not above the base RTT "
                                                      << state.baseRtt
                                                      << "; valid: THigh > base RTT");
    NS_ABORT_MSG_IF(m_minRate > state.lineRate,
                    "TimelyCongestionControl::MinRate " << m_minRate << " exceeds the line rate "
                                                        << state.lineRate << "; valid: 0 to "
                                                        << state.lineRate);
    state.rate = state.lineRate;
    UpdateWindow(state);
    m_started = false;
    m_nextUpdate = 0;
    m_prevRtt = 0;
    m_incStage = 0;
    m_rttDiff = 0;
    m_gradient = 0;
}

void
TimelyCongestionControl::UpdateWindow(RdmaCcState& state) const
{
    state.window =
        m_useWindow && state.baseRtt.IsStrictlyPositive()
            ? BdpWindow(state,
                        m_variableWindow ? state.rate.GetBitRate() : state.lineRate.GetBitRate())
            : 0;
}

void
TimelyCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& fb)
{
    if (m_useWindow && state.window == 0 && state.baseRtt.IsStrictlyPositive())
    {
        // No BaseRtt was given: the queue pair has it from the first RTT sample now.
        UpdateWindow(state);
        NotifyRateChange();
    }
    if (!fb.rtt.IsStrictlyPositive())
    {
        return;
    }
    const uint64_t una = fb.ackedUpToBytes;
    if (m_started && una <= m_nextUpdate)
    {
        return;
    }
    if (m_started)
    {
        Update(state, fb.rtt);
    }
    m_started = true;
    m_prevRtt = fb.rtt.GetSeconds();
    m_nextUpdate =
        m_mode == PER_RTT ? std::max(m_nextUpdate, state.bytesSent) : una + m_segmentBytes - 1;
}

void
TimelyCongestionControl::Update(RdmaCcState& state, Time rttSample)
{
    const double rtt = rttSample.GetSeconds();
    const double rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * (rtt - m_prevRtt);
    const double gradient = rttDiff / m_minRtt.GetSeconds();
    m_rttDiff = rttDiff;
    m_gradient = gradient;
    const double rate = state.rate.GetBitRate();
    double next;
    if (rttSample < m_tLow || (rttSample <= m_tHigh && gradient <= 0))
    {
        next = rate + (m_incStage < m_haiThreshold ? m_aiRate : m_haiRate).GetBitRate();
        next = std::min<double>(next, state.lineRate.GetBitRate());
        ++m_incStage;
    }
    else
    {
        const double c = rttSample > m_tHigh ? 1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt)
                                             : std::max(0.0, 1 - m_beta * gradient);
        next = std::max<double>(m_minRate.GetBitRate(), rate * c);
        m_incStage = 0;
    }
    NS_LOG_LOGIC("rtt " << rttSample << " gradient " << gradient << " rate " << next);
    const DataRate newRate(static_cast<uint64_t>(next));
    if (newRate != state.rate)
    {
        state.rate = newRate;
        UpdateWindow(state);
        NotifyRateChange();
    }
}

double
TimelyCongestionControl::GetRttDiff() const
{
    return m_rttDiff;
}

uint32_t
TimelyCongestionControl::GetIncreaseStage() const
{
    return m_incStage;
}

} // namespace ns3
