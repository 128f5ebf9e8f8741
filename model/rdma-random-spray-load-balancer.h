/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RANDOM_SPRAY_LOAD_BALANCER_H
#define RDMA_RANDOM_SPRAY_LOAD_BALANCER_H

#include "ns3/random-variable-stream.h"
#include "ns3/rdma-load-balancer.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Random packet spraying (RPS, Dixit et al., IEEE INFOCOM 2013): every packet takes
 * an egress port drawn uniformly at random among the equal-cost ports, independently of its
 * flow.
 *
 * The load of every port is binomial: of N packets each port receives N/n on average with
 * standard deviation sqrt(N (1/n)(1 - 1/n)). Packets of one flow take paths of different
 * queueing delays and may arrive out of order: a go-back-N receiver (RdmaGoBackNLossRecovery)
 * answers every gap with a NAK and a retransmission, so spraying is meant for transports that
 * place out of order (selective repeat) or for studying that cost.
 *
 * One UniformRandomVariable; AssignStreams fixes its stream (RdmaSwitch::AssignStreams and
 * RdmaHelper::AssignStreams call it).
 */
class RdmaRandomSprayLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaRandomSprayLoadBalancer();
    ~RdmaRandomSprayLoadBalancer() override;

    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;

    Ptr<UniformRandomVariable> m_rng; //!< the port draws
};

} // namespace ns3

#endif /* RDMA_RANDOM_SPRAY_LOAD_BALANCER_H */
