/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-transport-endpoint.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaTransportEndpoint);

TypeId
RdmaTransportEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTransportEndpoint").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaTransportEndpoint::RdmaTransportEndpoint() = default;

RdmaTransportEndpoint::~RdmaTransportEndpoint() = default;

} // namespace ns3
