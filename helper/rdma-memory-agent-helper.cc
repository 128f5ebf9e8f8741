/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-agent-helper.h"

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/rdma-nic.h"
#include "ns3/uinteger.h"

namespace ns3
{

RdmaMemoryAgentHelper::RdmaMemoryAgentHelper()
{
    m_factory.SetTypeId(RdmaMemoryAgent::GetTypeId());
}

void
RdmaMemoryAgentHelper::SetAgentAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
RdmaMemoryAgentHelper::SetQueuePairDepth(uint32_t depth)
{
    m_qpDepth = depth;
}

void
RdmaMemoryAgentHelper::Install(NodeContainer nodes, RdmaHelper& rdma)
{
    NS_ABORT_MSG_IF(nodes.GetN() < 2,
                    "RdmaMemoryAgentHelper::Install: " << nodes.GetN()
                                                       << " nodes; at least 2 are needed");
    const std::size_t first = m_agents.size();
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<RdmaMemoryAgent> agent = m_factory.Create<RdmaMemoryAgent>();
        NS_ABORT_MSG_IF(agent->GetMaxOutstanding() == 0,
                        "RdmaMemoryAgentHelper: MaxOutstanding 0 is not valid; at least 1 "
                        "operation must be allowed in flight");
        agent->SetMemory(RdmaHelper::GetNic(nodes.Get(i))->GetMemory());
        nodes.Get(i)->AggregateObject(agent);
        m_agents.push_back(agent);
    }
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<RdmaMemoryAgent> agent = m_agents[first + i];
        const uint32_t depth = m_qpDepth != 0 ? m_qpDepth : agent->GetMaxOutstanding();
        for (uint32_t j = 0; j < nodes.GetN(); ++j)
        {
            if (j == i)
            {
                continue;
            }
            auto [qp, peer] = rdma.Connect(nodes.Get(i),
                                           nodes.Get(j),
                                           "InitiatorDepth",
                                           UintegerValue(depth),
                                           "ResponderResources",
                                           UintegerValue(depth));
            agent->AddPeer(j, qp);
        }
    }
}

Ptr<RdmaMemoryAgent>
RdmaMemoryAgentHelper::Get(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_agents.size(),
                    "RdmaMemoryAgentHelper::Get: agent " << i << " of " << m_agents.size());
    return m_agents[i];
}

uint32_t
RdmaMemoryAgentHelper::GetN() const
{
    return static_cast<uint32_t>(m_agents.size());
}

} // namespace ns3
