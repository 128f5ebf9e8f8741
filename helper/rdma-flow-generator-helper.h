/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_GENERATOR_HELPER_H
#define RDMA_FLOW_GENERATOR_HELPER_H

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-flow-size-distribution.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Installs an RdmaFlowGenerator on every host of a set, in the style of ns-3's
 * OnOffHelper.
 *
 * \code
 *   RdmaFlowGeneratorHelper gen(RdmaFlowSizeReader::Read("data/flow-size/web-search.txt"));
 *   gen.SetAttribute("Load", DoubleValue(0.5));
 *   ApplicationContainer apps = gen.Install(hosts);
 *   apps.Start(Seconds(0));
 *   apps.Stop(MilliSeconds(10));
 * \endcode
 * Every host is a possible destination of every generator (host i of the container is index
 * i of the patterns' Target, Destination and racks). Pattern Permutation: each host sends to
 * the next host of one random cycle through all of them (Sattolo's algorithm: a permutation
 * without fixed points, drawn from ns-3's RNG); pattern Incast: every host but Target sends.
 * Install checks every generator (RdmaFlowGenerator::Validate) so bad input stops before
 * the run.
 */
class RdmaFlowGeneratorHelper
{
  public:
    /// \param distribution the flow sizes of every generator
    explicit RdmaFlowGeneratorHelper(const RdmaFlowSizeDistribution& distribution);

    /**
     * \param name an attribute of ns3::RdmaFlowGenerator
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param hosts hosts with an RdmaNic (installed and routed)
     * \return one generator per sending host
     */
    ApplicationContainer Install(NodeContainer hosts);

    /**
     * \param apps generators from Install
     * \param stream first stream number
     * \return streams used
     */
    static int64_t AssignStreams(ApplicationContainer apps, int64_t stream);

    /**
     * Print one line per distinct (load, rate) pair: the CDF's mean and the derived arrival
     * rate, the figures a reader checks the workload by.
     * \param apps generators from Install
     * \param os the stream
     */
    static void PrintSummary(ApplicationContainer apps, std::ostream& os);

  private:
    ObjectFactory m_factory;
    RdmaFlowSizeDistribution m_distribution;
};

} // namespace ns3

#endif /* RDMA_FLOW_GENERATOR_HELPER_H */
