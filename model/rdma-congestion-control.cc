/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-control.h"

#include "ns3/log.h"

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
