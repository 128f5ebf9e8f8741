/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TRANSPORT_ENDPOINT_H
#define RDMA_TRANSPORT_ENDPOINT_H

#include "rdma-aeth-header.h"
#include "rdma-bth-header.h"
#include "rdma-path-selector.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class RdmaCongestionControl;
class RdmaLossRecovery;
class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief NIC-wide settings a queue pair needs, copied into it when it is created.
 */
struct RdmaQpParameters
{
    uint32_t mtu{1024};            //!< payload bytes per packet (IB path MTU)
    uint32_t ackInterval{1};       //!< responder: ACK every this many in-order packets
    Time retransmitTimeout;        //!< requester: local ACK timeout
    Time cnpInterval;              //!< responder: minimum gap between CNPs of one QP
    bool cnpEnabled{true};         //!< responder: CE-marked packets make CNPs (DCQCN's NP)
    uint8_t cnpDscp{48};           //!< DSCP of CNPs
    int16_t ackDscp{-1};           //!< DSCP of ACKs and NAKs, -1 = the queue pair's data DSCP
    bool ecnCapable{true};         //!< data packets are sent ECT(0)
    uint16_t partitionKey{0xFFFF}; //!< BTH P_Key
    /// A port of the NIC: what a packet costs on its wire under the port's Framing (the
    /// pacer charges that). Null: real Ethernet framing.
    Ptr<const RdmaNetDevice> port;
};

/**
 * \ingroup rdma
 * \brief What an RdmaNic needs of a transport endpoint (a queue pair): the seam between
 * the NIC's arbitration and demultiplexing and the transport protocol behind one QPN.
 *
 * The NIC creates endpoints from its queue-pair factory (RdmaNic::SetQueuePairFactory,
 * any TypeId derived from this class), hands each its QPN and callbacks (Setup), offers it
 * the port when it is eligible (HasDataToSend, GetNextSendTime, GetNextPacket) and hands it
 * the RoCEv2 packets whose BTH names its QPN (ReceiveData, ReceiveAck, ReceiveCnp). The
 * NIC reads nothing else, so a different transport (another reliability scheme, a
 * memory-semantic agent's endpoint) plugs in here without touching the NIC. RdmaQueuePair
 * is the RC implementation (IBTA vol. 1 ch. 9, RoCEv2 annex A17): SEND, WRITE, READ and
 * the atomics.
 *
 * The NIC calls these once or more per packet, so implementations keep them cheap and
 * allocation-free except for the packet GetNextPacket builds.
 */
class RdmaTransportEndpoint : public Object
{
  public:
    /// Hands a control packet (ACK, NAK, CNP: IPv4 packet) and its traffic class to the NIC.
    typedef Callback<void, Ptr<Packet>, uint8_t> ControlSendCallback;

    /// GetNextPacket's sourcePort: use the endpoint's own UDP source port.
    static constexpr uint16_t OWN_SOURCE_PORT = 0;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaTransportEndpoint();
    ~RdmaTransportEndpoint() override;

    /**
     * Called once by the NIC right after it creates the endpoint.
     * \param qpn local queue pair number (the BTH destination QP of its incoming packets)
     * \param localAddress the NIC's IPv4 address
     * \param lineRate the most the endpoint may send at (a port's rate, or the sum of
     *        the ports' when the path selector spreads queue pairs)
     * \param params NIC-wide settings
     * \param cc its own congestion control (already forked)
     * \param lr its own loss recovery (already forked)
     * \param txReady to call when the endpoint may have become eligible to send (the NIC
     *        then offers idle ports again)
     * \param sendControl to send an ACK/NAK/CNP through the port the packet being
     *        received arrived on
     */
    virtual void Setup(uint32_t qpn,
                       Ipv4Address localAddress,
                       DataRate lineRate,
                       const RdmaQpParameters& params,
                       Ptr<RdmaCongestionControl> cc,
                       Ptr<RdmaLossRecovery> lr,
                       Callback<void> txReady,
                       ControlSendCallback sendControl) = 0;

    /**
     * Connect to the remote endpoint (verbs: modify to RTR and RTS).
     * \param remoteAddress the remote NIC's IPv4 address
     * \param remoteQpn the remote queue pair number
     */
    virtual void Connect(Ipv4Address remoteAddress, uint32_t remoteQpn) = 0;

    /// \return the first PSN this endpoint sends (exchanged out of band by RdmaNic::Connect)
    virtual uint32_t GetInitialPsn() const = 0;
    /// \param psn the first PSN both ends use; called before Connect
    virtual void SetInitialPsn(uint32_t psn) = 0;

    /// \return the local queue pair number given in Setup
    virtual uint32_t GetQpn() const = 0;

    /// \return the traffic class of its data (DSCP >> 3): the NIC skips the endpoint while
    /// PFC pauses that class on the port. Not virtual: the NIC reads it for every endpoint
    /// at every port offer, so the endpoint keeps it in m_trafficClass.
    uint8_t GetTrafficClass() const
    {
        return m_trafficClass;
    }

    /// Prefetch the lines the NIC reads first when it offers the port to this endpoint (its
    /// virtual table pointer and m_trafficClass; a hint, for RdmaNic::PrefetchTransmit).
    void PrefetchOfferLines() const
    {
        __builtin_prefetch(this);
        __builtin_prefetch(&m_trafficClass);
    }

    /// \return true if a data packet is ready and the window allows it (not the pacer)
    virtual bool HasDataToSend() const = 0;

    /// \return the earliest time the pacer allows the next data packet; the NIC arms its
    /// pacer for the earliest of these. Not virtual, as GetTrafficClass: the endpoint
    /// keeps it in m_nextSendTime.
    Time GetNextSendTime() const
    {
        return m_nextSendTime;
    }

    /**
     * Build the next data packet and advance the send state. Only called when
     * HasDataToSend() and GetNextSendTime() <= now.
     * \param sourcePort the UDP source port of this packet (a path selector's entropy), or
     *        OWN_SOURCE_PORT for the endpoint's own
     * \return the IPv4 packet (IPv4, UDP, BTH, ..., ICRC)
     */
    virtual Ptr<Packet> GetNextPacket(uint16_t sourcePort) = 0;

    /**
     * Describe the next data packet to the NIC's path selector. Only called when the NIC
     * has two or more ports or the selector varies entropy, and HasDataToSend().
     * \param[out] request what the selector reads
     * \param withAddress fill request.address too (only the selectors that ask for it:
     *        RdmaPathSelector::NeedsAddress)
     */
    virtual void GetPathRequest(RdmaPathRequest& request, bool withAddress) const = 0;

    /**
     * A data packet for this QPN arrived (responder side).
     * \param payload the packet after the BTH (extension headers, payload, ICRC)
     * \param bth its BTH (valid during the call only)
     * \param ecnCe true if the IPv4 ECN field was CE
     * \param ttl the IPv4 TTL it arrived with (the hop count is 64 - ttl)
     */
    virtual void ReceiveData(Ptr<Packet> payload,
                             const RdmaBthHeader& bth,
                             bool ecnCe,
                             uint8_t ttl) = 0;

    /**
     * An ACK or NAK arrived (requester side).
     * \param bth its BTH (valid during the call only)
     * \param aeth its AETH (valid during the call only)
     * \param rest the packet after the AETH (extensions, then the ICRC), or nullptr
     */
    virtual void ReceiveAck(const RdmaBthHeader& bth,
                            const RdmaAethHeader& aeth,
                            Ptr<Packet> rest) = 0;

    /// A CNP for this QPN arrived (requester side: the congestion control's reaction point).
    virtual void ReceiveCnp() = 0;

  protected:
    /// What GetTrafficClass returns; the implementation keeps it up to date.
    uint8_t m_trafficClass{0};
    /// What GetNextSendTime returns; the implementation keeps it up to date.
    Time m_nextSendTime;
};

} // namespace ns3

#endif /* RDMA_TRANSPORT_ENDPOINT_H */
