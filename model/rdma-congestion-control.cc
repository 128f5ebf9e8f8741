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
RdmaCongestionControl::OnAck(RdmaCcState& /* state */, uint64_t /* ackedBytes */, Time /* rtt */)
{
}

void
RdmaCongestionControl::OnCnp(RdmaCcState& /* state */)
{
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
