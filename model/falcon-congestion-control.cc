/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "falcon-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FalconCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(FalconCongestionControl);

TypeId
FalconCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FalconCongestionControl")
            .SetParent<SwiftCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<FalconCongestionControl>()
            .AddAttribute("MaxDecreaseOnEarlyRetransmit",
                          "Cut the fabric window by MaxMdf (once per RTT) when a NAK or RACK "
                          "detects a loss, as Swift's fast recovery (default off: Falcon "
                          "simulator max_decrease_on_eack_nack_drop; OCP Falcon 10.3.1 "
                          "processes a NACK like an ACK).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FalconCongestionControl::m_earlyRetxDecrease),
                          MakeBooleanChecker())
            .AddAttribute("DelaySmoothing",
                          "EWMA weight of a new fabric delay sample, in (0, 1] (OCP Falcon "
                          "10.1; default 1, the instantaneous delay: Falcon simulator "
                          "delay_smoothing_alpha 0 in its reversed form).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FalconCongestionControl::m_delaySmoothing),
                          MakeDoubleChecker<double>())
            .AddAttribute("NicTargetDelay",
                          "Target of the receiver's delay t3 - t2 that drives the NIC window "
                          "(Swift section 3.2's endpoint delay standing in for Falcon 10.2's "
                          "Rx buffer level; default 5 us: our choice, no published value).",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&FalconCongestionControl::m_nicTarget),
                          MakeTimeChecker(Time(1)))
            .AddAttribute("NicAdditiveIncrement",
                          "NIC window additive increment, packets (OCP Falcon 10.5.2; "
                          "default 1: Falcon simulator nic_additive_increment_factor).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FalconCongestionControl::m_nicAi),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("NicBeta",
                          "NIC window multiplicative decrease factor, in (0, 1) (OCP Falcon "
                          "10.5.2; default 0.8: Falcon simulator "
                          "nic_multiplicative_decrease_factor).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&FalconCongestionControl::m_nicBeta),
                          MakeDoubleChecker<double>())
            .AddAttribute("NicMaxMdf",
                          "Largest NIC window decrease, in (0, 1) (OCP Falcon 10.5.2; default "
                          "0.5: Falcon simulator max_nic_multiplicative_decrease).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FalconCongestionControl::m_nicMaxMdf),
                          MakeDoubleChecker<double>())
            .AddAttribute("MinNcwnd",
                          "Smallest NIC window, packets (OCP Falcon 10.5.2; default 1: Falcon "
                          "simulator min_nic_congestion_window).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&FalconCongestionControl::m_minNcwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxNcwnd",
                          "Largest NIC window, packets (OCP Falcon 10.5.2; default 256: "
                          "Falcon simulator max_nic_congestion_window).",
                          DoubleValue(256),
                          MakeDoubleAccessor(&FalconCongestionControl::m_maxNcwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("InitialNcwnd",
                          "NIC window at connection, packets (default 64: Falcon simulator "
                          "initial_ncwnd).",
                          DoubleValue(64),
                          MakeDoubleAccessor(&FalconCongestionControl::m_initialNcwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("PlbEnabled",
                          "Protective load balancing: re-path after repeated congested "
                          "rounds (OCP Falcon 10.4; default off: Falcon simulator "
                          "randomize_path false).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FalconCongestionControl::m_plb),
                          MakeBooleanChecker())
            .AddAttribute("PlbTargetDelayMultiplier",
                          "An ACK is congested when the delay exceeds the target x this (OCP "
                          "Falcon 10.5.3; default 1.01: Falcon simulator "
                          "plb_target_rtt_multiplier).",
                          DoubleValue(1.01),
                          MakeDoubleAccessor(&FalconCongestionControl::m_plbMultiplier),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PlbCongestionThreshold",
                          "Fraction of a round's packets that must be congested for the "
                          "round to be, in (0, 1] (OCP Falcon 10.5.3; default 0.5: Falcon "
                          "simulator plb_congestion_threshold).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FalconCongestionControl::m_plbThreshold),
                          MakeDoubleChecker<double>())
            .AddAttribute("PlbAttemptThreshold",
                          "Consecutive congested rounds before a re-path (OCP Falcon 10.5.3; "
                          "default 5: Falcon simulator plb_attempt_threshold).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&FalconCongestionControl::m_plbAttempts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Ncwnd",
                            "The NIC window, packets.",
                            MakeTraceSourceAccessor(&FalconCongestionControl::m_ncwnd),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

FalconCongestionControl::FalconCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

FalconCongestionControl::~FalconCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
FalconCongestionControl::GetName() const
{
    return "Falcon";
}

Ptr<RdmaCongestionControl>
FalconCongestionControl::Fork()
{
    return CopyObject<FalconCongestionControl>(this);
}

void
FalconCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this);
    auto open01 = [](double v) { return v > 0 && v < 1; };
    NS_ABORT_MSG_UNLESS(m_delaySmoothing > 0 && m_delaySmoothing <= 1,
                        "ns3::FalconCongestionControl::DelaySmoothing = "
                            << m_delaySmoothing << " is invalid; valid: (0, 1]");
    NS_ABORT_MSG_UNLESS(open01(m_nicBeta),
                        "ns3::FalconCongestionControl::NicBeta = " << m_nicBeta
                                                                   << " is invalid; valid: (0, 1)");
    NS_ABORT_MSG_UNLESS(open01(m_nicMaxMdf),
                        "ns3::FalconCongestionControl::NicMaxMdf = "
                            << m_nicMaxMdf << " is invalid; valid: (0, 1)");
    NS_ABORT_MSG_UNLESS(m_minNcwnd >= 1 && m_minNcwnd <= m_maxNcwnd,
                        "ns3::FalconCongestionControl::MinNcwnd = "
                            << m_minNcwnd
                            << " packets is invalid; valid: [1, MaxNcwnd = " << m_maxNcwnd << "]");
    NS_ABORT_MSG_UNLESS(m_initialNcwnd >= m_minNcwnd && m_initialNcwnd <= m_maxNcwnd,
                        "ns3::FalconCongestionControl::InitialNcwnd = "
                            << m_initialNcwnd << " packets is invalid; valid: [MinNcwnd = "
                            << m_minNcwnd << ", MaxNcwnd = " << m_maxNcwnd << "]");
    NS_ABORT_MSG_UNLESS(m_plbThreshold > 0 && m_plbThreshold <= 1,
                        "ns3::FalconCongestionControl::PlbCongestionThreshold = "
                            << m_plbThreshold << " is invalid; valid: (0, 1]");
    m_ncwnd = m_initialNcwnd;
    m_smoothedDelay = Time(0);
    m_nicMarkerSet = false;
    m_nicIncreasing = false;
    m_plbAcked = 0;
    m_plbCongested = 0;
    m_plbRounds = 0;
    m_repaths = 0;
    SwiftCongestionControl::Init(state); // checks the fabric window's attributes, applies
}

double
FalconCongestionControl::GetNcwnd() const
{
    return m_ncwnd;
}

Time
FalconCongestionControl::GetSmoothedDelay() const
{
    return m_smoothedDelay;
}

uint64_t
FalconCongestionControl::GetRepaths() const
{
    return m_repaths;
}

void
FalconCongestionControl::ApplyWindow(RdmaCcState& state)
{
    state.window =
        std::min(PacketsToBytes(m_cwnd, state.mtu), PacketsToBytes(std::floor(m_ncwnd), state.mtu));
}

void
FalconCongestionControl::UpdateNicWindow(Time signal, Time rtt)
{
    const Time now = Simulator::Now();
    const bool elapsed = !m_nicMarkerSet || now - m_nicMarker >= rtt;
    const double previous = m_ncwnd;
    if (signal < m_nicTarget)
    {
        if (!m_nicIncreasing || elapsed)
        {
            m_ncwnd = previous + m_nicAi;
            m_nicIncreasing = true;
        }
    }
    else if (elapsed)
    {
        const double d = signal.GetSeconds();
        const double t = m_nicTarget.GetSeconds();
        m_ncwnd = previous * std::max(1 - m_nicBeta * (d - t) / d, 1 - m_nicMaxMdf);
        m_nicIncreasing = false;
    }
    m_ncwnd = std::clamp(m_ncwnd.Get(), m_minNcwnd, m_maxNcwnd);
    if (m_ncwnd != previous)
    {
        m_nicMarker = now;
        m_nicMarkerSet = true;
    }
    else if (m_nicMarkerSet && now - m_nicMarker > rtt)
    {
        m_nicMarker = now - rtt; // UpdateTimeMarker
    }
}

bool
FalconCongestionControl::ComputePlb(double oldWindow, bool congested, double acked)
{
    const double ackedNow = m_plbAcked + acked;
    const double congestedNow = m_plbCongested + (congested ? acked : 0);
    if (ackedNow < oldWindow)
    {
        m_plbAcked = ackedNow;
        m_plbCongested = congestedNow;
        return false;
    }
    bool reroute = false;
    if (congestedNow / ackedNow < m_plbThreshold)
    {
        m_plbRounds = 0;
    }
    else if (++m_plbRounds >= m_plbAttempts)
    {
        reroute = true;
        m_plbRounds = 0;
    }
    m_plbAcked = 0;
    m_plbCongested = 0;
    return reroute;
}

void
FalconCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback)
{
    const Time delay = feedback.GetFabricDelay();
    if (!delay.IsStrictlyPositive())
    {
        return; // no delay sample (a NAK, or an ambiguous RTT)
    }
    m_smoothedDelay =
        m_smoothedDelay.IsZero()
            ? delay
            : Time(static_cast<int64_t>(m_delaySmoothing * delay.GetTimeStep() +
                                        (1 - m_delaySmoothing) * m_smoothedDelay.GetTimeStep()));
    const double acked = double(feedback.ackedBytes + feedback.sackedBytes) / state.mtu;
    const double oldWindow = std::min(m_cwnd.Get(), std::floor(m_ncwnd.Get()));
    const Time rtt = GuardRtt(state, feedback.rtt);
    UpdateFabricWindow(m_smoothedDelay, acked, feedback.hops, rtt);
    if (feedback.hasTimestamps)
    {
        UpdateNicWindow(feedback.t3 - feedback.t2, rtt);
    }
    ApplyWindow(state);
    if (m_plb &&
        ComputePlb(oldWindow,
                   m_smoothedDelay.GetSeconds() > m_target.Get().GetSeconds() * m_plbMultiplier,
                   acked))
    {
        ++m_repaths;
        NS_LOG_LOGIC("PLB: re-path after " << m_plbAttempts << " congested rounds");
        RequestRepath();
    }
}

void
FalconCongestionControl::OnLoss(RdmaCcState& state, RdmaLossEvent event, uint64_t /* seq */)
{
    NS_LOG_FUNCTION(this << RdmaLossEventName(event));
    FabricLoss(event, GuardRtt(state, Time(0)), m_earlyRetxDecrease);
    ApplyWindow(state);
}

} // namespace ns3
