/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dctcp-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DctcpCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(DctcpCongestionControl);

TypeId
DctcpCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<DctcpCongestionControl>()
            .AddAttribute("G",
                          "Gain g of alpha = (1 - g) alpha + g F, once per window of data. "
                          "1/16: DCTCP paper section 3.4 and RFC 8257 section 4.2; the HPCC "
                          "simulator's EwmaGain default and its run.py for DCTCP.",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "alpha of a new flow. 1: the HPCC simulator (dctcp.m_alpha) and "
                          "Linux (dctcp_alpha_on_init 1024/1024), so the first mark halves "
                          "the rate.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AdditiveIncreaseRate",
                          "Rate added once per window of data outside CWR. 1000 Mb/s: the "
                          "HPCC simulator's DctcpRateAI default (its run.py uses 615 Mb/s "
                          "at 100 Gb/s: DCTCP_RATE_AI).",
                          DataRateValue(DataRate("1000Mbps")),
                          MakeDataRateAccessor(&DctcpCongestionControl::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of the rate. 100 Mb/s: the HPCC simulator's MinRate "
                          "default (its run.py sets MIN_RATE 1000 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DctcpCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("UseWindow",
                          "Also cap the payload bytes in flight at line rate x base RTT "
                          "(the HPCC simulator's HAS_WIN; its run.py: 1).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DctcpCongestionControl::m_useWindow),
                          MakeBooleanChecker())
            .AddAttribute("VariableWindow",
                          "With UseWindow: the window is line rate x base RTT x rate / line "
                          "rate, following every rate change (the HPCC simulator's VAR_WIN; "
                          "its run.py: 1). false: the full BDP.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DctcpCongestionControl::m_variableWindow),
                          MakeBooleanChecker())
            .AddAttribute("FractionMode",
                          "F, the marked fraction of a window: Packets (HPCC simulator: "
                          "ECN-echoing ACKs / (outstanding bytes at the window start / MTU "
                          "+ 1), at most 1) or Bytes (RFC 8257 section 3.3: bytes "
                          "acknowledged by ECN-echoing ACKs / bytes acknowledged).",
                          EnumValue(DctcpCongestionControl::PACKETS),
                          MakeEnumAccessor(&DctcpCongestionControl::m_fraction),
                          MakeEnumChecker(DctcpCongestionControl::PACKETS,
                                          "Packets",
                                          DctcpCongestionControl::BYTES,
                                          "Bytes"))
            .AddTraceSource("Alpha",
                            "alpha, at each end of an observation window.",
                            MakeTraceSourceAccessor(&DctcpCongestionControl::m_alpha),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

std::string
DctcpCongestionControl::GetName() const
{
    return "DCTCP";
}

Ptr<RdmaCongestionControl>
DctcpCongestionControl::Fork()
{
    return CopyObject<DctcpCongestionControl>(this);
}

void
DctcpCongestionControl::Init(RdmaCcState& state)
{
    NS_LOG_FUNCTION(this << state.lineRate);
    NS_ABORT_MSG_IF(state.lineRate.GetBitRate() == 0, "DctcpCongestionControl: line rate is 0");
    NS_ABORT_MSG_IF(m_minRate > state.lineRate,
                    "DctcpCongestionControl::MinRate " << m_minRate << " exceeds the line rate "
                                                       << state.lineRate << "; valid: 0 to "
                                                       << state.lineRate);
    NS_ABORT_MSG_IF(m_g <= 0.0,
                    "DctcpCongestionControl::G " << m_g << " freezes alpha; valid: (0, 1]");
    state.rate = state.lineRate;
    state.windowPacing = RdmaWindowPacing::BASE_RTT; // the window caps, the rate paces
    m_alpha = m_initialAlpha;
    m_started = false;
    m_windowEnd = 0;
    m_windowPackets = 0;
    m_markedAcks = 0;
    m_markedBytes = 0;
    m_ackedBytes = 0;
    m_cwr = false;
    m_cwrEnd = 0;
    UpdateWindow(state);
}

void
DctcpCongestionControl::UpdateWindow(RdmaCcState& state) const
{
    if (!m_useWindow || !state.baseRtt.IsStrictlyPositive())
    {
        state.window = 0; // the queue pair learns baseRtt from the first RTT sample
        return;
    }
    // In integers as the simulator (third.cc maxBdp, RdmaQueuePair::GetWin): BDP = line
    // rate x T / 8, times rate / line rate with VariableWindow, at least 1 byte.
    state.window =
        BdpWindow(state, m_variableWindow ? state.rate.GetBitRate() : state.lineRate.GetBitRate());
}

void
DctcpCongestionControl::OnAck(RdmaCcState& state, const RdmaAckFeedback& fb)
{
    const uint64_t una = fb.ackedUpToBytes;
    const uint64_t acked = fb.ackedBytes + fb.sackedBytes;
    const DataRate before = state.rate;
    const uint64_t windowBefore = state.window;
    m_markedAcks += fb.ecnEcho ? 1 : 0;
    m_markedBytes += fb.ecnEcho ? acked : 0;
    m_ackedBytes += acked;
    bool newWindow = false;
    if (!m_started || una > m_windowEnd)
    {
        newWindow = true;
        if (m_started)
        {
            double f = 0.0;
            if (m_fraction == PACKETS)
            {
                f = std::min(1.0, double(m_markedAcks) / m_windowPackets);
            }
            else if (m_ackedBytes > 0)
            {
                f = double(m_markedBytes) / m_ackedBytes;
            }
            m_alpha = (1 - m_g) * m_alpha + m_g * f;
            NS_LOG_LOGIC("alpha " << m_alpha << " F " << f);
            m_markedAcks = 0;
            m_markedBytes = 0;
            m_ackedBytes = 0;
        }
        // The simulator's first window counts snd_nxt / MTU + 1 packets and keeps its marks.
        const uint64_t outstanding =
            m_started ? state.bytesSent - std::min(una, state.bytesSent) : state.bytesSent;
        m_windowPackets = outstanding / state.mtu + 1;
        m_windowEnd = state.bytesSent;
        m_started = true;
    }
    if (m_cwr && una > m_cwrEnd)
    {
        m_cwr = false;
    }
    if (fb.ecnEcho && !m_cwr)
    {
        const double cut = state.rate.GetBitRate() * (1 - m_alpha / 2);
        state.rate = std::max(m_minRate, DataRate(static_cast<uint64_t>(cut)));
        m_cwr = true;
        m_cwrEnd = state.bytesSent;
    }
    if (!m_cwr && newWindow)
    {
        state.rate = std::min(state.lineRate, state.rate + m_aiRate);
    }
    if (state.baseRtt.IsStrictlyPositive() && (m_variableWindow || state.window == 0))
    {
        UpdateWindow(state);
    }
    if (state.rate != before || state.window != windowBefore)
    {
        NotifyRateChange();
    }
}

double
DctcpCongestionControl::GetAlpha() const
{
    return m_alpha;
}

bool
DctcpCongestionControl::InCwr() const
{
    return m_cwr;
}

} // namespace ns3
