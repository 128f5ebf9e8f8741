/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaLoadBalancer);

TypeId
RdmaLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLoadBalancer").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaLoadBalancer::RdmaLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RdmaLoadBalancer::~RdmaLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

int64_t
RdmaLoadBalancer::AssignStreams(int64_t /* stream */)
{
    return 0;
}

} // namespace ns3
