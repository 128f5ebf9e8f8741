/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-random-spray-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRandomSprayLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaRandomSprayLoadBalancer);

TypeId
RdmaRandomSprayLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRandomSprayLoadBalancer")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRandomSprayLoadBalancer>();
    return tid;
}

RdmaRandomSprayLoadBalancer::RdmaRandomSprayLoadBalancer()
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

RdmaRandomSprayLoadBalancer::~RdmaRandomSprayLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaRandomSprayLoadBalancer::DoDispose()
{
    m_rng = nullptr;
    RdmaLoadBalancer::DoDispose();
}

int64_t
RdmaRandomSprayLoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
RdmaRandomSprayLoadBalancer::DoSelectPort(const RdmaFlowKey& /* key */,
                                          const std::vector<uint32_t>& ports,
                                          const RdmaSwitchMmu& /* mmu */)
{
    return ports[m_rng->GetInteger(0, static_cast<uint32_t>(ports.size()) - 1)];
}

} // namespace ns3
