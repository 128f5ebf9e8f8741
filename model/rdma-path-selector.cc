/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-path-selector.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPathSelector");

NS_OBJECT_ENSURE_REGISTERED(RdmaPathSelector);

TypeId
RdmaPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPathSelector").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaPathSelector::RdmaPathSelector()
{
    NS_LOG_FUNCTION(this);
}

RdmaPathSelector::~RdmaPathSelector()
{
    NS_LOG_FUNCTION(this);
}

bool
RdmaPathSelector::VariesSourcePort() const
{
    return false;
}

bool
RdmaPathSelector::NeedsAddress() const
{
    return false;
}

uint16_t
RdmaPathSelector::SelectSourcePort(const RdmaPathRequest& request, uint32_t /* nPorts */)
{
    return request.sourcePort;
}

} // namespace ns3
