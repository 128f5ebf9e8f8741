/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fixed-rate-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFixedRateCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(RdmaFixedRateCongestionControl);

TypeId
RdmaFixedRateCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFixedRateCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFixedRateCongestionControl>()
            .AddAttribute("Rate",
                          "Sending rate of every queue pair; 0 means the NIC's line rate.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaFixedRateCongestionControl::m_rate),
                          MakeDataRateChecker());
    return tid;
}

std::string
RdmaFixedRateCongestionControl::GetName() const
{
    return "FixedRate";
}

Ptr<RdmaCongestionControl>
RdmaFixedRateCongestionControl::Fork()
{
    return CopyObject<RdmaFixedRateCongestionControl>(this);
}

void
RdmaFixedRateCongestionControl::Init(RdmaCcState& state)
{
    NS_ABORT_MSG_IF(m_rate > state.lineRate,
                    "RdmaFixedRateCongestionControl::Rate "
                        << m_rate << " exceeds the line rate " << state.lineRate
                        << "; valid: 0 (line rate) to " << state.lineRate);
    state.rate = m_rate.GetBitRate() == 0 ? state.lineRate : m_rate;
    state.window = 0;
}

} // namespace ns3
