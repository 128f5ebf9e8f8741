/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-adaptive-load-balancer.h"

#include "ns3/log.h"
#include "ns3/rdma-switch-mmu.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAdaptiveLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaAdaptiveLoadBalancer);

TypeId
RdmaAdaptiveLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAdaptiveLoadBalancer")
                            .SetParent<RdmaLoadBalancer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAdaptiveLoadBalancer>();
    return tid;
}

RdmaAdaptiveLoadBalancer::RdmaAdaptiveLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RdmaAdaptiveLoadBalancer::~RdmaAdaptiveLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RdmaAdaptiveLoadBalancer::DoSelectPort(const RdmaFlowKey& key,
                                       const std::vector<uint32_t>& ports,
                                       const RdmaSwitchMmu& mmu)
{
    uint64_t least = std::numeric_limits<uint64_t>::max();
    uint32_t ties = 0;
    uint32_t first = ports[0];
    for (uint32_t p : ports)
    {
        const uint64_t q = mmu.GetEgressBytes(p, key.cls);
        if (q < least)
        {
            least = q;
            ties = 1;
            first = p;
        }
        else if (q == least)
        {
            ++ties;
        }
    }
    if (ties == 1)
    {
        return first;
    }
    uint32_t k = ReduceToRange(FlowHash(key), ties);
    for (uint32_t p : ports)
    {
        if (mmu.GetEgressBytes(p, key.cls) == least && k-- == 0)
        {
            return p;
        }
    }
    return first; // not reached
}

} // namespace ns3
