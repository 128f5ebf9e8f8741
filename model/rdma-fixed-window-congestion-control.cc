/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fixed-window-congestion-control.h"

#include "ns3/enum.h"
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
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute(
                "Pacing",
                "How the window paces (RdmaWindowPacing): SmoothedRtt (each packet followed "
                "by payload x srtt / window: Little's law over the measured RTT; the "
                "default, no paper prescribes it), BaseRtt (payload x base RTT / window: "
                "HPCC, SIGCOMM 2019 section 3.2) or BelowOnePacket (ACK-clocked, paced only "
                "below one packet: Swift, SIGCOMM 2020 Algorithm 1).",
                EnumValue(RdmaFixedWindowCongestionControl::SMOOTHED_RTT),
                MakeEnumAccessor(&RdmaFixedWindowCongestionControl::m_pacing),
                MakeEnumChecker(RdmaFixedWindowCongestionControl::SMOOTHED_RTT,
                                "SmoothedRtt",
                                RdmaFixedWindowCongestionControl::BASE_RTT,
                                "BaseRtt",
                                RdmaFixedWindowCongestionControl::BELOW_ONE_PACKET,
                                "BelowOnePacket"));
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
    switch (m_pacing)
    {
    case SMOOTHED_RTT:
        state.windowPacing = RdmaWindowPacing::SMOOTHED_RTT;
        break;
    case BASE_RTT:
        state.windowPacing = RdmaWindowPacing::BASE_RTT;
        break;
    case BELOW_ONE_PACKET:
        state.windowPacing = RdmaWindowPacing::BELOW_ONE_PACKET;
        break;
    }
}

} // namespace ns3
