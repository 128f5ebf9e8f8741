/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ECMP_LOAD_BALANCER_H
#define RDMA_ECMP_LOAD_BALANCER_H

#include "ns3/rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-flow equal-cost multipath (hash-threshold ECMP, RFC 2991/2992): the egress port
 * is a function of the 5-tuple and the switch's seed only,
 *
 *   port = ports[((FlowHash(key) >> 32) x n) >> 32],
 *
 * so every packet of a flow takes the same path and is never reordered by the fabric. RoCEv2
 * NICs put the per-queue-pair entropy in the UDP source port (IBTA annex A17), so distinct
 * queue pairs between the same two hosts may take distinct paths.
 *
 * This is the default policy of RdmaSwitch, and the mapping the switch used before load
 * balancers were pluggable (RdmaSwitch::FlowHash and the same range reduction). Stateless,
 * deterministic, no random streams.
 */
class RdmaEcmpLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaEcmpLoadBalancer();
    ~RdmaEcmpLoadBalancer() override;

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;
};

} // namespace ns3

#endif /* RDMA_ECMP_LOAD_BALANCER_H */
