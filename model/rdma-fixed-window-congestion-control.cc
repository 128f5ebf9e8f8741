/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fixed-window-congestion-control.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFixedWindowCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(RdmaFixedWindowCongestionControl);

TypeId
RdmaFixedWindowCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFixedWindowCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFixedWindowCongestionControl>()
            .AddAttribute("Window",
                          "Payload bytes a queue pair may have in flight (exact, need not be "
                          "a whole number of packets).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaFixedWindowCongestionControl::m_window),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

std::string
RdmaFixedWindowCongestionControl::GetName() const
{
    return "FixedWindow";
}

Ptr<RdmaCongestionControl>
RdmaFixedWindowCongestionControl::Fork()
{
    return CopyObject<RdmaFixedWindowCongestionControl>(this);
}

void
RdmaFixedWindowCongestionControl::Init(RdmaCcState& state)
{
    state.rate = state.lineRate;
    state.window = m_window;
}

} // namespace ns3
