/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ROUND_ROBIN_SPRAY_LOAD_BALANCER_H
#define RDMA_ROUND_ROBIN_SPRAY_LOAD_BALANCER_H

#include "ns3/rdma-load-balancer.h"

#include <unordered_map>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Round-robin packet spraying: the packets to one destination address take its
 * equal-cost ports in turn, ports[0], ports[1], ..., ports[n - 1], ports[0], ...
 *
 * The turn is kept per destination address, that is per next-hop group: switch chips keep
 * the round-robin pointer of a "dynamic" ECMP member selection with the group, and this
 * switch's routes are host routes, one group per destination. With a pointer per switch
 * instead, the packets of one destination would skip ports whenever packets to other
 * destinations (with other, possibly differently sized, groups) are interleaved; per group,
 * the k-th packet to a destination takes ports[k mod n] exactly, and over any window of
 * packets to a destination the port loads differ by at most one packet, whatever the flows.
 * (Per-packet round robin at every switch of a Clos is the idea of DRB, Cao et al., CoNEXT
 * 2013, which sprays per source-destination pair at the edge.)
 *
 * The pointer of a destination starts at ports[0] when its first packet is seen; if its group
 * later shrinks below the pointer the pointer restarts at 0. State: one 32-bit counter per
 * destination seen (an unordered_map entry created with the destination's first packet).
 * Deterministic, no random streams. Packets of a flow are reordered as with random spraying
 * (see RdmaRandomSprayLoadBalancer).
 */
class RdmaRoundRobinSprayLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaRoundRobinSprayLoadBalancer();
    ~RdmaRoundRobinSprayLoadBalancer() override;

    /**
     * \param dst a destination address (host byte order, as in RdmaFlowKey::dst)
     * \return the index in its port list that its next packet takes (0 if none seen)
     */
    uint32_t GetNextIndex(uint32_t dst) const;

  protected:
    void DoDispose() override;

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;

    std::unordered_map<uint32_t, uint32_t> m_next; //!< destination -> next port index
};

} // namespace ns3

#endif /* RDMA_ROUND_ROBIN_SPRAY_LOAD_BALANCER_H */
