/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-replayer-helper.h"

#include "ns3/abort.h"
#include "ns3/node.h"

#include <map>

namespace ns3
{

RdmaFlowReplayerHelper::RdmaFlowReplayerHelper(const std::vector<HpccFlow>& flows)
    : m_flows(flows)
{
    m_factory.SetTypeId("ns3::RdmaFlowReplayer");
}

void
RdmaFlowReplayerHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
RdmaFlowReplayerHelper::SetConnectionAttributes(
    RdmaFlowReplayer::ConnectionAttributesCallback callback)
{
    m_connectionAttributes = std::move(callback);
}

ApplicationContainer
RdmaFlowReplayerHelper::Install(const NodeContainer& nodes) const
{
    std::map<uint32_t, std::vector<HpccFlow>> bySource; // node order
    for (const auto& f : m_flows)
    {
        NS_ABORT_MSG_IF(f.src >= nodes.GetN() || f.dst >= nodes.GetN(),
                        "RdmaFlowReplayerHelper: flow of line "
                            << f.line << " (" << f.src << " -> " << f.dst
                            << ") names a node beyond the " << nodes.GetN() << " given");
        bySource[f.src].push_back(f);
    }
    ApplicationContainer apps;
    for (const auto& [src, flows] : bySource)
    {
        Ptr<RdmaFlowReplayer> app = m_factory.Create<RdmaFlowReplayer>();
        app->SetFlows(flows, nodes);
        app->SetConnectionAttributes(m_connectionAttributes);
        nodes.Get(src)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

} // namespace ns3
