/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-qp-path-selector.h"

#include "rdma-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpPathSelector");

NS_OBJECT_ENSURE_REGISTERED(RdmaQpPathSelector);

TypeId
RdmaQpPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaQpPathSelector")
                            .SetParent<RdmaPathSelector>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaQpPathSelector>();
    return tid;
}

RdmaQpPathSelector::RdmaQpPathSelector()
{
    NS_LOG_FUNCTION(this);
}

RdmaQpPathSelector::~RdmaQpPathSelector()
{
    NS_LOG_FUNCTION(this);
}

bool
RdmaQpPathSelector::SpreadsQueuePairs() const
{
    return false;
}

uint32_t
RdmaQpPathSelector::PortOf(uint32_t localAddress,
                           uint32_t remoteAddress,
                           uint16_t sourcePort,
                           uint32_t nPorts)
{
    // The SplitMix64 finalizer, shared with the switches' hashes (RdmaLoadBalancer::Mix64).
    const uint64_t h = RdmaLoadBalancer::Mix64(((uint64_t(localAddress) << 32) | remoteAddress) ^
                                               (uint64_t(sourcePort) * 0x9e3779b97f4a7c15ULL));
    return static_cast<uint32_t>(((h >> 32) * uint64_t(nPorts)) >> 32);
}

uint32_t
RdmaQpPathSelector::SelectPort(const RdmaPathRequest& request, uint32_t nPorts)
{
    return PortOf(request.localAddress.Get(),
                  request.remoteAddress.Get(),
                  request.sourcePort,
                  nPorts);
}

} // namespace ns3
