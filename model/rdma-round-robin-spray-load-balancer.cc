/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-round-robin-spray-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRoundRobinSprayLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaRoundRobinSprayLoadBalancer);

TypeId
RdmaRoundRobinSprayLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRoundRobinSprayLoadBalancer")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRoundRobinSprayLoadBalancer>();
    return tid;
}

RdmaRoundRobinSprayLoadBalancer::RdmaRoundRobinSprayLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RdmaRoundRobinSprayLoadBalancer::~RdmaRoundRobinSprayLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaRoundRobinSprayLoadBalancer::DoDispose()
{
    m_next.clear();
    RdmaLoadBalancer::DoDispose();
}

uint32_t
RdmaRoundRobinSprayLoadBalancer::GetNextIndex(uint32_t dst) const
{
    auto it = m_next.find(dst);
    return it == m_next.end() ? 0 : it->second;
}

uint32_t
RdmaRoundRobinSprayLoadBalancer::DoSelectPort(const RdmaFlowKey& key,
                                              const std::vector<uint32_t>& ports,
                                              const RdmaSwitchMmu& /* mmu */)
{
    const uint32_t n = static_cast<uint32_t>(ports.size());
    uint32_t& next = m_next[key.dst];
    if (next >= n)
    {
        next = 0; // the group shrank
    }
    const uint32_t port = ports[next];
    next = next + 1 == n ? 0 : next + 1;
    return port;
}

} // namespace ns3
