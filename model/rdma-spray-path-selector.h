/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SPRAY_PATH_SELECTOR_H
#define RDMA_SPRAY_PATH_SELECTOR_H

#include "rdma-path-selector.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Host-side packet spraying: each data packet of a queue pair may take a different
 * NIC port (plane) and a different UDP source port (ECMP entropy).
 *
 * Ports: ROUND_ROBIN sends packet i of a queue pair (retransmissions included) on port
 * i mod P, an even split whatever the load; FIRST_IDLE lets whichever port asks first
 * send it, so a plane that is paused by PFC or slowed by congestion takes less (the
 * adaptive "any available rail" policy of multi-plane NICs).
 *
 * Entropies: with Entropies = E > 1 the source port of packet i cycles over E values
 * derived from the queue pair's own (base + j mod 2^14, j = i div P mod E, in the RoCEv2
 * range 0xC000..0xFFFF), so that ECMP switches inside a plane spread one queue pair's
 * packets over their equal-cost paths as well: the multipath entropy of the Ultra
 * Ethernet transport and of Google's PLB-style path re-selection, applied per packet.
 *
 * Either way one queue pair's packets arrive out of order whenever the paths differ in
 * delay: use a loss recovery that places out of order (RdmaSackLossRecovery), or
 * go-back-N will mistake reordering for loss (see examples/ecmp-vs-spray.cc).
 */
class RdmaSprayPathSelector : public RdmaPathSelector
{
  public:
    /// How the port of each packet is chosen.
    enum Mode
    {
        ROUND_ROBIN, //!< packet i on port i mod P
        FIRST_IDLE   //!< the first port ready to send
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaSprayPathSelector();
    ~RdmaSprayPathSelector() override;

    bool SpreadsQueuePairs() const override;
    bool VariesSourcePort() const override;
    uint32_t SelectPort(const RdmaPathRequest& request, uint32_t nPorts) override;
    uint16_t SelectSourcePort(const RdmaPathRequest& request, uint32_t nPorts) override;

  private:
    Mode m_mode;
    uint32_t m_entropies;
};

} // namespace ns3

#endif /* RDMA_SPRAY_PATH_SELECTOR_H */
