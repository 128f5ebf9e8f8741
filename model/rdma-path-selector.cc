/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-path-selector.h"

#include "rdma-queue-pair.h"

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

uint16_t
RdmaPathSelector::SelectSourcePort(const RdmaQueuePair& qp, uint32_t /* nPorts */)
{
    return qp.GetSourcePort();
}

} // namespace ns3
