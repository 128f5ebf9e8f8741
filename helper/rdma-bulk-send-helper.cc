/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-bulk-send-helper.h"

#include "rdma-helper.h"

#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/rdma-bulk-send-application.h"
#include "ns3/rdma-nic.h"

namespace ns3
{

RdmaBulkSendHelper::RdmaBulkSendHelper(Ptr<Node> responder)
{
    m_factory.SetTypeId("ns3::RdmaBulkSendApplication");
    m_factory.Set("Remote", Ipv4AddressValue(RdmaHelper::GetNic(responder)->GetAddress()));
}

void
RdmaBulkSendHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RdmaBulkSendHelper::Install(NodeContainer senders) const
{
    ApplicationContainer apps;
    for (auto it = senders.Begin(); it != senders.End(); ++it)
    {
        Ptr<Application> app = m_factory.Create<RdmaBulkSendApplication>();
        (*it)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

ApplicationContainer
RdmaBulkSendHelper::Install(Ptr<Node> sender) const
{
    return Install(NodeContainer(sender));
}

} // namespace ns3
