/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_HELPER_H
#define RDMA_COLLECTIVE_HELPER_H

#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-collective.h"

#include <string>

namespace ns3
{

class RdmaHelper;

/**
 * \ingroup rdma
 * \brief Creates collective jobs (RdmaCollective) on sets of hosts and connects the pairs of
 * ranks their schedules use.
 *
 * \code
 *   RdmaCollectiveHelper allReduce;
 *   allReduce.SetAttribute("Operation", StringValue("AllReduce"));
 *   allReduce.SetAttribute("Bytes", UintegerValue(16 << 20));
 *   allReduce.SetAlgorithm("ns3::RdmaHalvingDoublingCollectiveAlgorithm");
 *   Ptr<RdmaCollective> job = allReduce.Install(hosts, rdma);
 *   job->Start(Seconds(0));
 *   ...Simulator::Run()...
 *   job->GetMeanIterationTime(); job->GetBusBandwidth();
 * \endcode
 * Rank i is host i of the container. Install checks the job (RdmaCollective::Prepare: ranks,
 * bytes, operation against algorithm) and stops with a message naming the value before the
 * run; each (sender, receiver) pair gets one connection from RdmaHelper::Connect, so the
 * queue pairs have the NICs' congestion control, loss recovery and path selection. Several
 * jobs may share hosts: each has its own connections.
 */
class RdmaCollectiveHelper
{
  public:
    RdmaCollectiveHelper();

    /**
     * \param name an attribute of ns3::RdmaCollective (Operation, Bytes, ChunkBytes,
     * Iterations, BufferAddress)
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param typeId a subclass of ns3::RdmaCollectiveAlgorithm (RdmaRingCollectiveAlgorithm,
     * RdmaHalvingDoublingCollectiveAlgorithm, RdmaDirectCollectiveAlgorithm)
     */
    void SetAlgorithm(const std::string& typeId);

    /**
     * \param ranks the hosts (installed and routed), rank i = ranks.Get(i)
     * \param rdma the helper that installed them (its Connect makes the connections)
     * \return the job, prepared and connected; call Start
     */
    Ptr<RdmaCollective> Install(const NodeContainer& ranks, RdmaHelper& rdma) const;

  private:
    ObjectFactory m_factory;
    ObjectFactory m_algorithm;
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_HELPER_H */
