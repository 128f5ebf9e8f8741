/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PATH_SELECTOR_H
#define RDMA_PATH_SELECTOR_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What a path selector may read about the next data packet of a queue pair: exactly
 * what the selectors of this module use, filled by the transport endpoint
 * (RdmaTransportEndpoint::GetPathRequest), so that a selector depends on no queue pair.
 */
struct RdmaPathRequest
{
    Ipv4Address localAddress;  //!< the NIC's address (RdmaQpPathSelector's hash)
    Ipv4Address remoteAddress; //!< the remote NIC's address (RdmaQpPathSelector's hash)
    uint16_t sourcePort{0};    //!< the queue pair's own UDP source port (hash, entropy base)
    uint64_t packetsSent{0};   //!< data packets it sent so far (RdmaSprayPathSelector's turn)
    uint32_t mtu{0};           //!< its path MTU (RdmaAddressInterleavePathSelector's check)
    /// Remote memory address of the next packet's first byte: WRITE, the virtual address;
    /// SEND, the byte offset in the message. Filled only for selectors whose NeedsAddress()
    /// is true (finding it costs a message look-up).
    uint64_t address{0};
};

/**
 * \ingroup rdma
 * \brief A NIC's host-side load-balancing policy: which of its ports (planes) and which UDP
 * source port (ECMP entropy) each data packet of a queue pair takes.
 *
 * Multi-rail and multi-plane AI fabrics give every NIC P ports, each on its own
 * independent plane of switches; scale-up pods (NVLink/UALink style) cable each
 * accelerator port to its own plane switch. The NIC (RdmaNic) asks its selector before it
 * hands the next packet of a queue pair to a port, so that the same transport can pin
 * queue pairs to planes, spray packets across planes and entropies, or interleave by
 * remote address. Pluggable like ns-3's TcpCongestionOps: attribute
 * ns3::RdmaNic::PathSelector (a TypeId) or RdmaNic::SetPathSelector /
 * RdmaHelper::SetPathSelector with a configured instance; one instance per NIC.
 *
 * Subclasses:
 * - RdmaQpPathSelector (default): every queue pair on one port, chosen by a hash of its
 *   addresses and entropy, as a multi-port NIC does with ECMP-like "QP affinity".
 * - RdmaSprayPathSelector: per packet, round-robin over the ports or the first idle port,
 *   optionally rotating the UDP source port over several entropies (UEC-style multipath).
 * - RdmaAddressInterleavePathSelector: the port from the remote memory address bits at a
 *   configurable granularity, so the same address always takes the same plane (scale-up
 *   address interleaving).
 *
 * Only data packets are steered; ACKs, NAKs and CNPs leave through the port the packet
 * that triggered them arrived on. The decisions run once per data packet: implementations
 * must not allocate; they see the queue pair only through an RdmaPathRequest.
 */
class RdmaPathSelector : public Object
{
  public:
    /// SelectPort's answer when any port may send the packet (the first idle one will).
    static constexpr uint32_t ANY_PORT = 0xffffffff;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaPathSelector();
    ~RdmaPathSelector() override;

    /**
     * \return true if one queue pair's packets may use more than one port. The NIC then
     * gives its queue pairs the sum of the port rates as their line rate (the congestion
     * control's maximum), otherwise the rate of one port.
     */
    virtual bool SpreadsQueuePairs() const = 0;

    /**
     * \return true if SelectSourcePort may return something other than the queue pair's
     * own source port (the NIC skips the call otherwise).
     */
    virtual bool VariesSourcePort() const;

    /**
     * \return true if SelectPort reads RdmaPathRequest::address (the NIC fills it only
     * then)
     */
    virtual bool NeedsAddress() const;

    /**
     * The port the next data packet of a queue pair must leave on. Only called when the
     * NIC has two or more ports and the queue pair has a packet to send now.
     * \param request the queue pair and its next packet
     * \param nPorts number of NIC ports
     * \return a port index below nPorts, or ANY_PORT
     */
    virtual uint32_t SelectPort(const RdmaPathRequest& request, uint32_t nPorts) = 0;

    /**
     * The UDP source port of the next data packet of a queue pair (its ECMP entropy).
     * \param request the queue pair and its next packet
     * \param nPorts number of NIC ports
     * \return the source port; the default is the queue pair's own (request.sourcePort)
     */
    virtual uint16_t SelectSourcePort(const RdmaPathRequest& request, uint32_t nPorts);
};

} // namespace ns3

#endif /* RDMA_PATH_SELECTOR_H */
