/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(HpccCongestionControl);

TypeId
HpccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<HpccCongestionControl>()
            .AddAttribute("EtaTarget",
                          "Target utilisation eta, in (0, 1]. 0.95: HPCC paper section 3.3 "
                          "and 5; the simulator's U_TARGET.",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCongestionControl::m_eta),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxStage",
                          "Additive-increase stages before an update is multiplicative even "
                          "below eta. 5: HPCC paper section 5.1 (maxStage); the simulator's "
                          "MI_THRESH (its run.py: 0, every update multiplicative).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HpccCongestionControl::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncreaseRate",
                          "W_AI as a rate: W_AI = this x T (the simulator's RATE_AI). 40 "
                          "Mb/s: the simulator's run.py at 100 Gb/s (10 Mb/s x line rate / "
                          "25 Gb/s). Used when AdditiveIncreaseWindow is 0.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("AdditiveIncreaseWindow",
                          "W_AI in bytes (the paper's form, section 3.3: W_init x (1 - eta) "
                          "/ N for N expected flows); 0: AdditiveIncreaseRate x T.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HpccCongestionControl::m_aiWindow),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastReact",
                          "true (paper, Algorithm 1): every ACK updates U and W; Wc once per "
                          "RTT. false (the simulator's FAST_REACT 0): only the once-per-RTT "
                          "ACK is used.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HpccCongestionControl::m_fastReact),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Floor of W / T. 100 Mb/s: the simulator's MinRate default (its "
                          "run.py: MIN_RATE 1000 Mb/s). The paper gives none.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("UseWindow",
                          "Cap the payload bytes in flight at W = rate x T (paper; the "
                          "simulator's HAS_WIN 1 with VAR_WIN 1). false: pacing only.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HpccCongestionControl::m_useWindow),
                          MakeBooleanChecker())
            .AddAttribute("InitialUtilisation",
                          "U before the first measurement. 1: the simulator (hp.u).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HpccCongestionControl::m_initialU),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("IntMultiplier",
                          "Units multiplier of the telemetry records (HPCC's INT_MULTI: tx "
                          "bytes in 128 B x this, queue in 80 B x this), written into the INT "
                          "area of the data packets. 1: the simulator's default (its run.py: "
                          "line rate / 25 Gb/s).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&HpccCongestionControl::m_intMultiplier),
                          MakeUintegerChecker<uint32_t>(1, RdmaIntHop::MAX_MULTIPLIER))
            .AddTraceSource("Utilisation",
                            "U, the smoothed utilisation of the most loaded hop.",
                            MakeTraceSourceAccessor(&HpccCongestionControl::m_u),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

std::string
HpccCongestionControl::GetName() const
{
    return "HPCC";
}

Ptr<RdmaCongestionControl>
HpccCongestionControl::Fork()
{
    return CopyObject<HpccCongestionControl>(this);
}

bool
HpccCongestionControl::NeedsTelemetry() const
{
    return true;
}

void
HpccCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this << state.lineRate);
    NS_ABORT_MSG_IF(state.lineRate.GetBitRate() == 0, "HpccCongestionControl: line rate is 0");
    NS_ABORT_MSG_IF(!(m_eta > 0.0 && m_eta <= 1.0),
                    "HpccCongestionControl::EtaTarget " << m_eta
                                                        << " is impossible; valid: (0, 1]");
    NS_ABORT_MSG_IF(m_minRate > state.lineRate,
                    "HpccCongestionControl::MinRate " << m_minRate << " exceeds the line rate "
                                                      << state.lineRate << "; valid: 0 to "
                                                      << state.lineRate);
    state.rate = state.lineRate;
    state.windowPacing = RdmaWindowPacing::BASE_RTT; // R = W / T (section 3.2)
    m_refRate = state.lineRate.GetBitRate();
    m_u = m_initialU;
    m_incStage = 0;
    m_started = false;
    m_lastUpdateSeq = 0;
    m_nHops = 0;
    state.window = 0;
    if (m_useWindow && state.baseRtt.IsStrictlyPositive())
    {
        state.window = Window(state, m_refRate);
    }
}

uint64_t
HpccCongestionControl::Window(const RdmaCcState& state, uint64_t rate)
{
    // W = R x T, in integers as the simulator (third.cc maxBdp x rate / line rate,
    // RdmaQueuePair::GetWin), at least 1 byte.
    return BdpWindow(state, rate);
}

bool
HpccCongestionControl::MeasureInflight(const RdmaIntHeader& ih, Time baseRtt)
{
    const double t = baseRtt.GetSeconds();
    double u = 0;
    uint64_t tau = 0;
    bool measured = false;
    for (uint8_t i = 0; i < m_nHops; ++i)
    {
        const RdmaIntHop& now = ih.GetHop(i);
        const RdmaIntHop& before = m_hop[i];
        const uint64_t dt = now.GetTimeDeltaNs(before);
        if (dt == 0)
        {
            continue;
        }
        const double b = now.GetLineRateBps();
        const double txRate = now.GetTxBytesDelta(before) * 8.0 / (dt * 1e-9);
        const double q = std::min(now.GetQueueBytes(), before.GetQueueBytes());
        const double ui = txRate / b + q * 8.0 / (b * t);
        if (!measured || ui > u)
        {
            u = ui;
            tau = dt;
        }
        measured = true;
    }
    for (uint8_t i = 0; i < m_nHops; ++i)
    {
        m_hop[i] = ih.GetHop(i);
    }
    if (measured)
    {
        const double w = std::min(tau * 1e-9, t) / t;
        m_u = (1 - w) * m_u + w * u;
    }
    return measured;
}

void
HpccCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& fb)
{
    if (fb.telemetry == nullptr || !state.baseRtt.IsStrictlyPositive())
    {
        return;
    }
    const RdmaIntHeader& ih = *fb.telemetry;
    const bool fullUpdate = !m_started || fb.ackedUpToBytes > m_lastUpdateSeq;
    if (!fullUpdate && !m_fastReact)
    {
        return;
    }
    if (!m_started || ih.GetNHops() != m_nHops)
    {
        // The first record (or a new path): keep it, measure from the next ACK.
        m_nHops = ih.GetNHops();
        for (uint8_t i = 0; i < m_nHops; ++i)
        {
            m_hop[i] = ih.GetHop(i);
        }
        if (!m_started)
        {
            m_lastUpdateSeq = state.bytesSent;
            m_started = true;
        }
        return;
    }
    if (!MeasureInflight(ih, state.baseRtt))
    {
        return;
    }
    const double t = state.baseRtt.GetSeconds();
    const double ai =
        m_aiWindow > 0 ? m_aiWindow * 8.0 / t : static_cast<double>(m_aiRate.GetBitRate());
    const double c = m_u / m_eta;
    double rate;
    uint32_t stage;
    if (c >= 1 || m_incStage >= m_maxStage)
    {
        rate = m_refRate / c + ai;
        stage = 0;
    }
    else
    {
        rate = m_refRate + ai;
        stage = m_incStage + 1;
    }
    rate = std::max<double>(rate, m_minRate.GetBitRate());
    rate = std::min<double>(rate, state.lineRate.GetBitRate());
    const uint64_t newRate = static_cast<uint64_t>(rate);
    if (fullUpdate)
    {
        m_refRate = newRate;
        m_incStage = stage;
        m_lastUpdateSeq = std::max(m_lastUpdateSeq, state.bytesSent);
    }
    NS_LOG_LOGIC("U " << m_u << " rate " << newRate << (fullUpdate ? " (update)" : " (fast)"));
    const uint64_t window = m_useWindow ? Window(state, newRate) : 0;
    if (newRate != state.rate.GetBitRate() || window != state.window)
    {
        state.rate = DataRate(newRate);
        state.window = window;
        NotifyRateChange();
    }
}

double
HpccCongestionControl::GetUtilisation() const
{
    return m_u;
}

DataRate
HpccCongestionControl::GetReferenceRate() const
{
    return DataRate(m_refRate);
}

uint32_t
HpccCongestionControl::GetTelemetryMultiplier() const
{
    return m_intMultiplier;
}

uint32_t
HpccCongestionControl::GetIncreaseStage() const
{
    return m_incStage;
}

} // namespace ns3
