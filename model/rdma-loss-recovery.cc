/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-loss-recovery.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaLossRecovery);

TypeId
RdmaLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLossRecovery").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

} // namespace ns3
