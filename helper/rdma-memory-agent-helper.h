/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMORY_AGENT_HELPER_H
#define RDMA_MEMORY_AGENT_HELPER_H

#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-memory-agent.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RdmaHelper;

/**
 * \ingroup rdma
 * \brief Installs an RdmaMemoryAgent on every node of a group (accelerators with an RdmaNic)
 * and connects every ordered pair with one RC queue pair, so that agent i reaches agent j
 * as peer j (its index in the container).
 *
 *   RdmaMemoryAgentHelper agents;
 *   agents.SetAgentAttribute("MaxOutstanding", UintegerValue(64));
 *   agents.Install(pod.GetAccelerators(), rdma);
 *   agents.Get(0)->Load(1, 0x1000, 256);
 *
 * The queue pairs get InitiatorDepth and ResponderResources of at least the agents'
 * MaxOutstanding (SetQueuePairDepth overrides), so that the agent's load queue, not the
 * queue pair's READ limit (16 by default, ConnectX's), bounds the operations in flight.
 * Loss recovery, congestion control and path selection are the RdmaHelper's (use
 * RdmaAddressInterleavePathSelector to interleave by address over the planes).
 */
class RdmaMemoryAgentHelper
{
  public:
    RdmaMemoryAgentHelper();

    /**
     * \param name an attribute of ns3::RdmaMemoryAgent
     * \param value its value
     */
    void SetAgentAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param depth InitiatorDepth and ResponderResources of the agents' queue pairs; 0 (the
     * default): the agents' MaxOutstanding
     */
    void SetQueuePairDepth(uint32_t depth);

    /**
     * Create the agents (aggregated to the nodes, memory set to the node's RdmaMemory) and
     * connect every ordered pair of nodes through rdma. Aborts, naming the value, if
     * MaxOutstanding is 0.
     * \param nodes nodes with an RdmaNic (at least two)
     * \param rdma the helper that installed their NICs
     */
    void Install(NodeContainer nodes, RdmaHelper& rdma);

    /// \return agent i (in the order of Install's container)
    Ptr<RdmaMemoryAgent> Get(uint32_t i) const;
    /// \return number of agents
    uint32_t GetN() const;

  private:
    ObjectFactory m_factory;
    uint32_t m_qpDepth{0};
    std::vector<Ptr<RdmaMemoryAgent>> m_agents;
};

} // namespace ns3

#endif /* RDMA_MEMORY_AGENT_HELPER_H */
