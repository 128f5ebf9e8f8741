/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-ecmp-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaEcmpLoadBalancer);

TypeId
RdmaEcmpLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEcmpLoadBalancer")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaEcmpLoadBalancer>();
    return tid;
}

RdmaEcmpLoadBalancer::RdmaEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RdmaEcmpLoadBalancer::~RdmaEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RdmaEcmpLoadBalancer::DoSelectPort(const RdmaFlowKey& key,
                                   const std::vector<uint32_t>& ports,
                                   const RdmaSwitchMmu& /* mmu */)
{
    return ports[ReduceToRange(FlowHash(key), static_cast<uint32_t>(ports.size()))];
}

} // namespace ns3
