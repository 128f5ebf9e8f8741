/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_ECMP_LOAD_BALANCER_H
#define RDMA_HPCC_ECMP_LOAD_BALANCER_H

#include "ns3/rdma-load-balancer.h"

#include <cstddef>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Per-flow ECMP with the HPCC simulator's hash, so that a comparison with that
 * simulator (examples/hpcc-compat --ecmp=hpcc-sim) puts every data packet on the path the
 * peer chooses: the HPCC repository's SwitchNode::GetOutDev and SwitchNode::EcmpHash
 * (alibaba-edu/High-Precision-Congestion-Control, simulation/src/point-to-point/model/
 * switch-node.cc) take
 *   port = ports[MurmurHash3_x86_32(key, 12, Seed) mod n]
 * over the 12 bytes (source address, destination address, source port | destination port
 * << 16), each a 32-bit little-endian word, with the switch's node id as seed, and the
 * equal-cost next hops in the order the peer's routing found them (for the fat-tree files
 * of the HPCC simulator family: ascending node id, which is the order of their links).
 * The peer's data packets carry the flow file's UDP destination port where RoCEv2 carries
 * 4791: DestinationPort substitutes it (0 keeps the packet's). The peer hashes its ACKs with
 * their own ports; this class sees RoCEv2 ACKs and CNPs, whose paths therefore differ.
 * Stateless, deterministic.
 */
class RdmaHpccEcmpLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaHpccEcmpLoadBalancer();
    ~RdmaHpccEcmpLoadBalancer() override;

    /**
     * MurmurHash3_x86_32 (Austin Appleby), as the HPCC simulator's EcmpHash computes it.
     * \param key the bytes
     * \param len their number
     * \param seed the seed
     * \return the hash
     */
    static uint32_t Murmur3(const uint8_t* key, std::size_t len, uint32_t seed);

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;

    uint32_t m_seed{0};            //!< the peer's seed: the switch's node id
    uint16_t m_destinationPort{0}; //!< the peer's UDP destination port (0: the packet's)
};

} // namespace ns3

#endif /* RDMA_HPCC_ECMP_LOAD_BALANCER_H */
