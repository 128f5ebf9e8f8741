/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ADAPTIVE_LOAD_BALANCER_H
#define RDMA_ADAPTIVE_LOAD_BALANCER_H

#include "ns3/rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Adaptive routing on local queue occupancy: every packet takes the equal-cost egress
 * port whose queue of the packet's traffic class holds the fewest bytes
 * (RdmaSwitchMmu::GetEgressBytes: admitted, not yet started transmission), as the adaptive
 * routing of InfiniBand and of Ethernet AI fabrics does; DRILL (Ghorbani et al., "DRILL:
 * Micro Load Balancing for Low-latency Data Center Networks", SIGCOMM 2017) makes the same
 * comparison on a sample of the ports.
 *
 * Ties (in particular all queues empty) are broken by the flow hash among the tied ports:
 * the (((FlowHash(key) >> 32) x t) >> 32)-th of the t tied ports, in route order. So with
 * empty queues the choice is exactly the ECMP choice (RdmaEcmpLoadBalancer), and the policy
 * departs from ECMP only under load. Packets of a flow may be reordered when the least
 * occupied port changes. Deterministic: no random streams. Cost: one pass over the ports
 * (two when there is a tie).
 */
class RdmaAdaptiveLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaAdaptiveLoadBalancer();
    ~RdmaAdaptiveLoadBalancer() override;

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;
};

} // namespace ns3

#endif /* RDMA_ADAPTIVE_LOAD_BALANCER_H */
