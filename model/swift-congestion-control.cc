/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "swift-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwiftCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(SwiftCongestionControl);

TypeId
SwiftCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwiftCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<SwiftCongestionControl>()
            .AddAttribute("BaseTarget",
                          "Base target of the fabric delay, before hop and flow scaling "
                          "(Swift section 3.5; default 25 us: Falcon simulator base_delay_us).",
                          TimeValue(MicroSeconds(25)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_baseTarget),
                          MakeTimeChecker(Time(1)))
            .AddAttribute("PerHopScaling",
                          "Target added per switch on the path, h (Swift section 3.5; default "
                          "1 us: Falcon simulator topo_scaling_per_hop). 0 disables it.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_perHop),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowScalingRange",
                          "Largest target added by flow scaling, fs_range (Swift section 3.5; "
                          "default 100 us: Falcon simulator max_flow_scaling). 0 disables it.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FlowScalingMinCwnd",
                          "Window (packets) at which flow scaling adds the whole range, "
                          "fs_min_cwnd (Swift section 3.5; default 0.1: Falcon simulator "
                          "min_flow_scaling_window).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMinCwnd),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FlowScalingMaxCwnd",
                          "Window (packets) from which flow scaling adds nothing, fs_max_cwnd "
                          "(Swift section 3.5; default 256: Falcon simulator "
                          "max_flow_scaling_window, equal to its max window).",
                          DoubleValue(256),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("AdditiveIncrement",
                          "Additive increase ai, packets per RTT (Swift Algorithm 1; default "
                          "1: Falcon simulator fabric_additive_increment_factor).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_ai),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Beta",
                          "Multiplicative decrease constant beta, in (0, 1) (Swift Algorithm "
                          "1; default 0.8: Falcon simulator "
                          "fabric_multiplicative_decrease_factor).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_beta),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxMdf",
                          "Largest multiplicative decrease max_mdf, in (0, 1) (Swift "
                          "Algorithm 1; default 0.5: Falcon simulator "
                          "max_fabric_multiplicative_decrease).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxMdf),
                          MakeDoubleChecker<double>())
            .AddAttribute("MinCwnd",
                          "Smallest window, packets (Swift Algorithm 1 min_cwnd; default "
                          "0.01: Falcon simulator min_fabric_congestion_window).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_minCwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxCwnd",
                          "Largest window, packets (Swift Algorithm 1 max_cwnd; default 256: "
                          "Falcon simulator max_fabric_congestion_window).",
                          DoubleValue(256),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxCwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("InitialCwnd",
                          "Window at connection, packets (default 32: Falcon simulator "
                          "initial_fcwnd; the paper gives none).",
                          DoubleValue(32),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_initialCwnd),
                          MakeDoubleChecker<double>())
            .AddAttribute("RetxResetThreshold",
                          "Consecutive retransmission timeouts from which the window drops "
                          "to MinCwnd, RETX_RESET_THRESHOLD (Swift Algorithm 1; default 3: "
                          "Falcon simulator retransmit_limit).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&SwiftCongestionControl::m_retxThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Pacing",
                          "How the queue pair paces the window (RdmaWindowPacing). BelowOnePacket: "
                          "the paper's (Algorithm 1, pacing_delay = rtt / cwnd only when cwnd < 1; "
                          "section 3.5), ACK-clocked from one packet on. SmoothedRtt: every packet "
                          "followed by payload x srtt / window (the same below one packet); the "
                          "default, because it reconverges faster after a join (doc/cc-delay.rst).",
                          EnumValue(SwiftCongestionControl::SMOOTHED_RTT),
                          MakeEnumAccessor(&SwiftCongestionControl::m_pacing),
                          MakeEnumChecker(SwiftCongestionControl::SMOOTHED_RTT,
                                          "SmoothedRtt",
                                          SwiftCongestionControl::BELOW_ONE_PACKET,
                                          "BelowOnePacket"))
            .AddTraceSource("Cwnd",
                            "The fabric window, packets.",
                            MakeTraceSourceAccessor(&SwiftCongestionControl::m_cwnd),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetDelay",
                            "The target delay of the last ACK with a delay sample.",
                            MakeTraceSourceAccessor(&SwiftCongestionControl::m_target),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

SwiftCongestionControl::SwiftCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

SwiftCongestionControl::~SwiftCongestionControl()
{
    NS_LOG_FUNCTION(this);
}

std::string
SwiftCongestionControl::GetName() const
{
    return "Swift";
}

Ptr<RdmaCongestionControl>
SwiftCongestionControl::Fork()
{
    // CopyObject copies the attributes; the per-flow state is set again in Init. The traced
    // values' connections are not copied (TracedValue's copy constructor drops them).
    return CopyObject<SwiftCongestionControl>(this);
}

bool
SwiftCongestionControl::NeedsTimestamps() const
{
    return true;
}

void
SwiftCongestionControl::CheckAndPrepare(const RdmaCcState& state)
{
    auto open01 = [](double v) { return v > 0 && v < 1; };
    NS_ABORT_MSG_UNLESS(open01(m_beta),
                        "ns3::SwiftCongestionControl::Beta = " << m_beta
                                                               << " is invalid; valid: (0, 1)");
    NS_ABORT_MSG_UNLESS(open01(m_maxMdf),
                        "ns3::SwiftCongestionControl::MaxMdf = " << m_maxMdf
                                                                 << " is invalid; valid: (0, 1)");
    NS_ABORT_MSG_UNLESS(m_minCwnd > 0 && m_minCwnd <= m_maxCwnd,
                        "ns3::SwiftCongestionControl::MinCwnd = "
                            << m_minCwnd
                            << " packets is invalid; valid: (0, MaxCwnd = " << m_maxCwnd << "]");
    NS_ABORT_MSG_UNLESS(m_initialCwnd >= m_minCwnd && m_initialCwnd <= m_maxCwnd,
                        "ns3::SwiftCongestionControl::InitialCwnd = "
                            << m_initialCwnd << " packets is invalid; valid: [MinCwnd = "
                            << m_minCwnd << ", MaxCwnd = " << m_maxCwnd << "]");
    NS_ABORT_MSG_IF(state.baseRtt.IsStrictlyPositive() && m_baseTarget <= state.baseRtt,
                    "ns3::SwiftCongestionControl::BaseTarget = "
                        << m_baseTarget.As(Time::US) << " is invalid; valid: above the base RTT "
                        << state.baseRtt.As(Time::US)
                        << " (the target is a round-trip fabric delay)");
    if (m_fsRange.IsStrictlyPositive())
    {
        NS_ABORT_MSG_UNLESS(m_fsMinCwnd > 0 && m_fsMinCwnd < m_fsMaxCwnd,
                            "ns3::SwiftCongestionControl::FlowScalingMinCwnd = "
                                << m_fsMinCwnd << " is invalid; valid: (0, FlowScalingMaxCwnd = "
                                << m_fsMaxCwnd << ")");
        // Section 3.5: the adder is fs_range at fs_min_cwnd and 0 at fs_max_cwnd.
        m_fsAlpha =
            m_fsRange.GetSeconds() / (1 / std::sqrt(m_fsMinCwnd) - 1 / std::sqrt(m_fsMaxCwnd));
        m_fsBeta = -m_fsAlpha / std::sqrt(m_fsMaxCwnd);
    }
}

void
SwiftCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this);
    CheckAndPrepare(state);
    m_cwnd = m_initialCwnd;
    m_target = m_baseTarget;
    m_decreased = false;
    m_retransmits = 0;
    m_decreases = 0;
    state.rate = state.lineRate;
    state.windowPacing = m_pacing == BELOW_ONE_PACKET ? RdmaWindowPacing::BELOW_ONE_PACKET
                                                      : RdmaWindowPacing::SMOOTHED_RTT;
    ApplyWindow(state);
}

Time
SwiftCongestionControl::ComputeTargetDelay(double cwnd, uint8_t hops) const
{
    double flow = 0;
    if (m_fsRange.IsStrictlyPositive())
    {
        flow = std::clamp(m_fsAlpha / std::sqrt(cwnd) + m_fsBeta, 0.0, m_fsRange.GetSeconds());
    }
    return m_baseTarget + m_perHop * int64_t(hops) + Seconds(flow);
}

double
SwiftCongestionControl::GetCwnd() const
{
    return m_cwnd;
}

uint64_t
SwiftCongestionControl::GetDecreases() const
{
    return m_decreases;
}

Time
SwiftCongestionControl::GuardRtt(const RdmaCcState& state, Time sample)
{
    if (state.srtt.IsStrictlyPositive())
    {
        return state.srtt;
    }
    return sample.IsStrictlyPositive() ? sample : state.baseRtt;
}

uint64_t
SwiftCongestionControl::PacketsToBytes(double packets, uint32_t mtu)
{
    return std::max<uint64_t>(1, std::llround(packets * mtu));
}

void
SwiftCongestionControl::ApplyWindow(RdmaCcState& state)
{
    state.window = PacketsToBytes(m_cwnd, state.mtu);
}

void
SwiftCongestionControl::FinishUpdate(double previous)
{
    m_cwnd = std::clamp(m_cwnd.Get(), m_minCwnd, m_maxCwnd);
    if (m_cwnd < previous)
    {
        m_lastDecrease = Simulator::Now();
        m_decreased = true;
        ++m_decreases;
    }
}

void
SwiftCongestionControl::UpdateFabricWindow(Time delay, double ackedPackets, uint8_t hops, Time rtt)
{
    const double previous = m_cwnd;
    m_retransmits = 0;
    m_target = ComputeTargetDelay(previous, hops);
    if (delay < m_target)
    {
        m_cwnd = previous >= 1 ? previous + m_ai * ackedPackets / previous
                               : previous + m_ai * ackedPackets;
    }
    else if (!m_decreased || Simulator::Now() - m_lastDecrease >= rtt)
    {
        const double d = delay.GetSeconds();
        const double factor =
            std::max(1 - m_beta * (d - m_target.Get().GetSeconds()) / d, 1 - m_maxMdf);
        m_cwnd = previous * factor;
    }
    FinishUpdate(previous);
}

void
SwiftCongestionControl::FabricLoss(RdmaLossEvent event, Time rtt, bool fastRecoveryDecrease)
{
    const double previous = m_cwnd;
    const bool canDecrease = !m_decreased || Simulator::Now() - m_lastDecrease >= rtt;
    switch (event)
    {
    case RdmaLossEvent::RACK:
    case RdmaLossEvent::NAK:
        // Fast recovery.
        m_retransmits = 0;
        if (canDecrease && fastRecoveryDecrease)
        {
            m_cwnd = previous * (1 - m_maxMdf);
        }
        break;
    case RdmaLossEvent::TIMEOUT:
        ++m_retransmits;
        if (m_retransmits >= m_retxThreshold)
        {
            m_cwnd = m_minCwnd;
        }
        else if (canDecrease)
        {
            m_cwnd = previous * (1 - m_maxMdf);
        }
        break;
    case RdmaLossEvent::PROBE:
        return; // a tail-loss probe is not a loss
    }
    FinishUpdate(previous);
}

void
SwiftCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback)
{
    const Time delay = feedback.GetFabricDelay();
    if (!delay.IsStrictlyPositive())
    {
        return; // no delay sample: nothing to compare with the target
    }
    const double acked = double(feedback.ackedBytes + feedback.sackedBytes) / state.mtu;
    UpdateFabricWindow(delay, acked, feedback.hops, GuardRtt(state, feedback.rtt));
    ApplyWindow(state);
}

void
SwiftCongestionControl::OnLoss(RdmaCcState& state, RdmaLossEvent event, uint64_t /* seq */)
{
    NS_LOG_FUNCTION(this << RdmaLossEventName(event));
    FabricLoss(event, GuardRtt(state, Time(0)), true);
    ApplyWindow(state);
}

} // namespace ns3
