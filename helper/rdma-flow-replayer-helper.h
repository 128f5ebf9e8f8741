/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_REPLAYER_HELPER_H
#define RDMA_FLOW_REPLAYER_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/hpcc-flow.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-flow-replayer.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Installs RdmaFlowReplayer applications that replay a flow list (HpccFlowReader's),
 * in the style of BulkSendHelper and OnOffHelper:
 * \code
 *   HpccFlowReader reader;
 *   reader.Read("flow.txt");
 *   RdmaFlowReplayerHelper replay(reader.GetFlows());
 *   ApplicationContainer apps = replay.Install(nodes); // node i = id i of the flow file
 * \endcode
 * One replayer per source host, in node order, each with that host's flows in list order.
 */
class RdmaFlowReplayerHelper
{
  public:
    /// \param flows the flows to replay
    explicit RdmaFlowReplayerHelper(const std::vector<HpccFlow>& flows);

    /**
     * \param name an attribute of ns3::RdmaFlowReplayer
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /// \param callback per-flow queue-pair attributes (RdmaFlowReplayer::SetConnectionAttributes)
    void SetConnectionAttributes(RdmaFlowReplayer::ConnectionAttributesCallback callback);

    /**
     * Install a replayer on every node that sends a flow.
     * \param nodes the nodes the flows' src and dst index (every id below GetN(), else the
     * program stops naming the flow's line)
     * \return the replayers, in node order
     */
    ApplicationContainer Install(const NodeContainer& nodes) const;

  private:
    std::vector<HpccFlow> m_flows;
    ObjectFactory m_factory;
    RdmaFlowReplayer::ConnectionAttributesCallback m_connectionAttributes;
};

} // namespace ns3

#endif /* RDMA_FLOW_REPLAYER_HELPER_H */
