/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QP_PATH_SELECTOR_H
#define RDMA_QP_PATH_SELECTOR_H

#include "rdma-path-selector.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Queue-pair affinity: every packet of a queue pair leaves through one port, chosen
 * by hashing the queue pair's addresses and UDP source port.
 *
 * This is how multi-port RoCE NICs and multi-rail collectives libraries map connections
 * onto rails when no multipath transport is used: per connection, like ECMP per flow
 * (RFC 2992), so a queue pair's packets stay in order and several queue pairs spread over
 * the planes only statistically. The hash is the SplitMix64 finalizer (Steele, Lea and
 * Flood, OOPSLA 2014) of (local address, remote address, source port), reduced with
 * Lemire's multiply-shift. The default policy of RdmaNic; with one port it is never
 * consulted.
 */
class RdmaQpPathSelector : public RdmaPathSelector
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaQpPathSelector();
    ~RdmaQpPathSelector() override;

    bool SpreadsQueuePairs() const override;
    uint32_t SelectPort(const RdmaPathRequest& request, uint32_t nPorts) override;

    /**
     * The port every packet of a queue pair takes.
     * \param localAddress the queue pair's local IPv4 address (host order)
     * \param remoteAddress its remote IPv4 address (host order)
     * \param sourcePort its UDP source port
     * \param nPorts number of NIC ports, at least 1
     * \return the port index
     */
    static uint32_t PortOf(uint32_t localAddress,
                           uint32_t remoteAddress,
                           uint16_t sourcePort,
                           uint32_t nPorts);
};

} // namespace ns3

#endif /* RDMA_QP_PATH_SELECTOR_H */
