/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-control.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

uint64_t
RdmaCongestionControl::BdpWindow(const RdmaCcState& state, uint64_t rate)
{
    const uint64_t line = state.lineRate.GetBitRate();
    const uint64_t bdp = static_cast<uint64_t>(static_cast<unsigned __int128>(line) *
                                               state.baseRtt.GetNanoSeconds() / 8000000000ULL);
    return std::max<uint64_t>(
        1,
        static_cast<uint64_t>(static_cast<unsigned __int128>(bdp) * rate / line));
}

void
RdmaCongestionControl::OnPacketSent(RdmaCcState& /* state */, uint32_t /* wireBytes */)
{
}

void
RdmaCongestionControl::OnAck(RdmaCcState& /* state */, const RdmaAckFeedback& /* feedback */)
{
}

void
RdmaCongestionControl::OnLoss(RdmaCcState& /* state */,
                              RdmaLossEvent /* event */,
                              uint64_t /* seq */)
{
}

void
RdmaCongestionControl::OnCnp(RdmaCcState& /* state */)
{
}

bool
RdmaCongestionControl::NeedsTelemetry() const
{
    return false;
}

uint32_t
RdmaCongestionControl::GetTelemetryMultiplier() const
{
    return 1;
}

bool
RdmaCongestionControl::NeedsTimestamps() const
{
    return false;
}

void
RdmaCongestionControl::SetRepathCallback(Callback<void> cb)
{
    m_repath = cb;
}

void
RdmaCongestionControl::RequestRepath()
{
    if (!m_repath.IsNull())
    {
        m_repath();
    }
}

void
RdmaCongestionControl::SetRateChangeCallback(Callback<void> cb)
{
    m_rateChange = cb;
}

void
RdmaCongestionControl::NotifyRateChange()
{
    if (!m_rateChange.IsNull())
    {
        m_rateChange();
    }
}

} // namespace ns3
