/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOAD_BALANCER_H
#define RDMA_LOAD_BALANCER_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaSwitchMmu;

/**
 * \ingroup rdma
 * \brief What an RdmaSwitch knows of a packet when it chooses among equal-cost egress ports:
 * the 5-tuple parsed from the IPv4 header and the transport ports, the switch's hash seed,
 * and the packet's size, ingress port and traffic class.
 *
 * For RoCEv2 (IBTA annex A17) the destination port is always 4791 and the UDP source port
 * is the per-queue-pair entropy (RdmaQueuePair::SourcePort).
 */
struct RdmaFlowKey
{
    /// Ingress port value of a key built outside the forwarding path (SelectEgressPort).
    static constexpr uint32_t NO_PORT = 0xffffffff;

    uint32_t src{0};          //!< IPv4 source address
    uint32_t dst{0};          //!< IPv4 destination address
    uint8_t protocol{0};      //!< IP protocol number
    uint16_t srcPort{0};      //!< UDP/TCP source port (0 for other protocols)
    uint16_t dstPort{0};      //!< UDP/TCP destination port (0 for other protocols)
    uint64_t seed{0};         //!< the switch's effective ECMP seed
    uint32_t size{0};         //!< IPv4 bytes of the packet
    uint32_t inPort{NO_PORT}; //!< ingress port index
    uint8_t cls{0};           //!< traffic class (DSCP >> 3)
};

/**
 * \ingroup rdma
 * \brief A switch's load-balancing policy: chooses the egress port of a packet among the
 * equal-cost ports of its destination.
 *
 * Pluggable in the manner of ns-3's TcpCongestionOps and QueueDisc: an RdmaSwitch holds one
 * (attribute ns3::RdmaSwitch::LoadBalancer, default RdmaEcmpLoadBalancer) and calls
 * SelectPort for every packet whose destination has two or more equal-cost ports; with one
 * port the balancer is not consulted. The public SelectPort is non-virtual and counts the
 * decisions; subclasses implement the private DoSelectPort. A balancer holds per-switch state
 * (counters, flowlet tables, random streams): every switch needs its own instance
 * (RdmaHelper::SetLoadBalancer creates one per switch).
 *
 * The decision sees the packet's RdmaFlowKey and, read-only, the switch's RdmaSwitchMmu, whose
 * GetEgressBytes(port, class) is the occupancy adaptive policies compare. It runs on the
 * per-packet path: implementations must not allocate per packet.
 *
 * Subclasses: RdmaEcmpLoadBalancer (per-flow hash, RFC 2992), RdmaRandomSprayLoadBalancer
 * and RdmaRoundRobinSprayLoadBalancer (per-packet spraying), RdmaFlowletLoadBalancer
 * (LetFlow, Vanini et al., NSDI 2017), RdmaAdaptiveLoadBalancer (least-occupied egress
 * queue, DRILL-like, Ghorbani et al., SIGCOMM 2017), RdmaHpccEcmpLoadBalancer (the HPCC
 * simulator's flow hash, for comparisons with it).
 *
 * The flow hash shared by the hashing policies (see RdmaSwitch):
 *
 *   h = mix(mix(((src << 32) | dst) ^ mix(seed + 0x9e3779b97f4a7c15))
 *           + ((proto << 32) | (srcPort << 16) | dstPort))
 *
 * with mix the SplitMix64 finalizer (Steele, Lea and Flood, OOPSLA 2014), and the choice
 * among n ports is Lemire's multiply-shift reduction of the high 32 bits: ((h >> 32) n) >> 32.
 */
class RdmaLoadBalancer : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaLoadBalancer();
    ~RdmaLoadBalancer() override;

    /**
     * Choose the egress port of a packet.
     * \param key the packet's flow key
     * \param ports the equal-cost egress ports of its destination (at least two)
     * \param mmu the switch's MMU, for the egress queue occupancy
     * \return one of ports
     */
    uint32_t SelectPort(const RdmaFlowKey& key,
                        const std::vector<uint32_t>& ports,
                        const RdmaSwitchMmu& mmu)
    {
        ++m_decisions;
        return DoSelectPort(key, ports, mmu);
    }

    /// \return the number of SelectPort calls so far
    uint64_t GetDecisions() const
    {
        return m_decisions;
    }

    /**
     * Assign fixed random variable stream numbers to the balancer's random variables.
     * \param stream first stream index to use
     * \return the number of streams assigned (0 for deterministic policies)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * SplitMix64 finalizer (Steele, Lea, Flood 2014; Stafford's Mix13 constants): a
     * bijection of 64-bit integers in which every input bit affects every output bit.
     * \param z input
     * \return mixed value
     */
    static uint64_t Mix64(uint64_t z)
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /**
     * The flow hash (class documentation); RdmaSwitch::FlowHash is this function.
     * \param src source address
     * \param dst destination address
     * \param protocol IP protocol number
     * \param srcPort source port
     * \param dstPort destination port
     * \param seed the switch's seed
     * \return the 64-bit hash
     */
    static uint64_t FlowHash(uint32_t src,
                             uint32_t dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort,
                             uint64_t seed)
    {
        const uint64_t addresses = (uint64_t(src) << 32) | dst;
        const uint64_t rest = (uint64_t(protocol) << 32) | (uint64_t(srcPort) << 16) | dstPort;
        return Mix64(Mix64(addresses ^ Mix64(seed + 0x9e3779b97f4a7c15ULL)) + rest);
    }

    /**
     * \param key a flow key
     * \return the flow hash of its 5-tuple and seed
     */
    static uint64_t FlowHash(const RdmaFlowKey& key)
    {
        return FlowHash(key.src, key.dst, key.protocol, key.srcPort, key.dstPort, key.seed);
    }

    /**
     * Lemire's multiply-shift reduction of the high 32 bits of a hash to [0, n).
     * \param hash the hash
     * \param n range (at least 1)
     * \return index
     */
    static uint32_t ReduceToRange(uint64_t hash, uint32_t n)
    {
        return static_cast<uint32_t>(((hash >> 32) * n) >> 32);
    }

  private:
    /**
     * The policy.
     * \param key the packet's flow key
     * \param ports the equal-cost egress ports (at least two)
     * \param mmu the switch's MMU
     * \return one of ports
     */
    virtual uint32_t DoSelectPort(const RdmaFlowKey& key,
                                  const std::vector<uint32_t>& ports,
                                  const RdmaSwitchMmu& mmu) = 0;

    uint64_t m_decisions{0};
};

} // namespace ns3

#endif /* RDMA_LOAD_BALANCER_H */
