/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "rdma-aeth-header.h"
#include "rdma-bth-header.h"
#include "rdma-net-device.h"
#include "rdma-queue-pair.h"
#include "rdma-transport-endpoint.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <utility>
#include <vector>

namespace ns3
{

class Node;
class RdmaNetDevice;
class RdmaCongestionControl;
class RdmaLossRecovery;
class RdmaPathSelector;

/**
 * \ingroup rdma
 * \brief A RoCEv2 NIC: one or more Ethernet ports, an IPv4 address, and reliable-connected
 * queue pairs with a verbs-like API.
 *
 * The NIC owns the transmit arbitration of its ports: when a port is idle and has no
 * ACK/NAK/CNP queued, it offers the next packet of the queue pairs in round-robin order,
 * skipping queue pairs whose traffic class is paused by PFC on that port, whose pacer (the
 * congestion control's rate) has not expired, or whose window is full. Received RoCEv2
 * packets are demultiplexed by the BTH destination QP. The responder is modelled as
 * infinitely fast (no receive-side buffer or PCIe limits).
 *
 * <b>Multi-port NICs</b> (multi-rail and multi-plane fabrics, scale-up pods): AddDevice
 * attaches further ports; the NIC keeps one IPv4 address, reachable through every port
 * (RdmaRoutingHelper routes each plane to the host's port on that plane). Which port each
 * data packet takes, and with which UDP source port, is the choice of the NIC's
 * RdmaPathSelector (attribute PathSelector; default RdmaQpPathSelector: one port per
 * queue pair). If the selector spreads a queue pair over ports, the queue pair's line
 * rate is the sum of the port rates. ACKs, NAKs and CNPs leave through the port the
 * packet that triggered them arrived on. All ports must have the same rate.
 *
 * Congestion control and loss recovery are chosen by TypeId (CongestionControl and
 * LossRecovery attributes, or SetCongestionControl/SetLossRecovery with a configured
 * prototype); each queue pair gets its own Fork() of the prototype.
 *
 * The NIC drives its queue pairs only through RdmaTransportEndpoint (the transport
 * endpoint seam): the queue-pair factory may make an RdmaQueuePair subclass or any other
 * endpoint type (CreateEndpoint, ConnectEndpoints), and path selectors see an
 * RdmaPathRequest, not the queue pair.
 */
class RdmaNic : public Object, public RdmaPortHandler
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// TracedCallback signature for discarded received packets.
    typedef void (*RxDiscardTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    RdmaNic();
    ~RdmaNic() override;

    /**
     * Attach the NIC to its node's (first) port; the same as AddDevice on a NIC without
     * ports.
     * \param device the port
     */
    void SetDevice(Ptr<RdmaNetDevice> device);
    /**
     * Attach one more port (multi-port NIC). All ports must be on the NIC's node and have
     * the same data rate.
     * \param device the port
     * \return its port index
     */
    uint32_t AddDevice(Ptr<RdmaNetDevice> device);
    /// \return the first port
    Ptr<RdmaNetDevice> GetDevice() const;
    /**
     * \param i port index, 0 .. GetNDevices()-1
     * \return the port
     */
    Ptr<RdmaNetDevice> GetDevice(uint32_t i) const;
    /// \return number of ports
    uint32_t GetNDevices() const;
    /**
     * \param i port index
     * \return data packets (first transmissions and retransmissions) sent on the port
     */
    uint64_t GetDataPacketsSent(uint32_t i) const;

    /// \param selector the host-side path selection policy (one instance per NIC)
    void SetPathSelector(Ptr<RdmaPathSelector> selector);
    /// \return the path selection policy (created from the PathSelector attribute if unset)
    Ptr<RdmaPathSelector> GetPathSelector();
    /// \return the node
    Ptr<Node> GetNode() const;
    /**
     * The node's memory, against which its queue pairs execute RDMA atomics: the
     * RdmaMemory aggregated to the node, created and aggregated on first use (shared by
     * every NIC of the node, as host memory is).
     * \return the node's RdmaMemory
     */
    Ptr<RdmaMemory> GetMemory() const;

    /// \param address the NIC's IPv4 address
    void SetAddress(Ipv4Address address);
    /// \return the NIC's IPv4 address
    Ipv4Address GetAddress() const;

    /// \param prototype a configured congestion control, forked for each new queue pair
    void SetCongestionControl(Ptr<RdmaCongestionControl> prototype);
    /// \param prototype a configured loss recovery, forked for each new queue pair
    void SetLossRecovery(Ptr<RdmaLossRecovery> prototype);

    /**
     * Set an attribute of the queue pairs this NIC creates from now on.
     * \param name attribute of ns3::RdmaQueuePair
     * \param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param factory creates the queue pairs of this NIC: a TypeId derived from
     * ns3::RdmaTransportEndpoint (ns3::RdmaQueuePair or a subclass, or another transport)
     * with the attributes to apply
     */
    void SetQueuePairFactory(const ObjectFactory& factory);

    /**
     * Create a queue pair (verbs: ibv_create_qp, RC). Connect it with
     * RdmaQueuePair::Connect, or use RdmaHelper::Connect for both ends at once.
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair();

    /**
     * Create a queue pair from another factory: a copy of GetQueuePairFactory() with this
     * queue pair's own attributes set (RdmaHelper::Connect's per-connection attributes).
     * \param factory makes an ns3::RdmaQueuePair (or a subclass)
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair(const ObjectFactory& factory);

    /**
     * Create a transport endpoint of any RdmaTransportEndpoint type, give it the next QPN,
     * a fork of the congestion control and loss recovery prototypes and the NIC's
     * callbacks (RdmaTransportEndpoint::Setup). CreateQueuePair is this for RC queue pairs.
     * \param factory makes an ns3::RdmaTransportEndpoint
     * \return the endpoint
     */
    Ptr<RdmaTransportEndpoint> CreateEndpoint(const ObjectFactory& factory);

    /**
     * As Connect, for endpoints of any RdmaTransportEndpoint type.
     * \param peer the responder's NIC
     * \param factory makes this end
     * \param peerFactory makes the peer's end
     * \return this end and the peer's
     */
    std::pair<Ptr<RdmaTransportEndpoint>, Ptr<RdmaTransportEndpoint>> ConnectEndpoints(
        Ptr<RdmaNic> peer,
        const ObjectFactory& factory,
        const ObjectFactory& peerFactory);

    /// \return the factory of this NIC's queue pairs (its attributes as set so far)
    const ObjectFactory& GetQueuePairFactory() const;

    /**
     * Create a queue pair here and one on `peer` from the two factories and connect them
     * to each other (verbs: create both ends, exchange QPN and PSN out of band; both start
     * from this end's InitialPsn). The one connection code of RdmaHelper::Connect and the
     * traffic applications.
     * \param peer the responder's NIC
     * \param factory makes this end (a copy of GetQueuePairFactory(), maybe with attributes)
     * \param peerFactory makes the peer's end
     * \return this end (requester) and the peer's (responder)
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> peer,
                                                              const ObjectFactory& factory,
                                                              const ObjectFactory& peerFactory);

    /**
     * \param qpn a queue pair number
     * \return the queue pair, or nullptr (also if that endpoint is not an RdmaQueuePair)
     */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /**
     * \param qpn a queue pair number
     * \return the endpoint, or nullptr
     */
    Ptr<RdmaTransportEndpoint> GetEndpoint(uint32_t qpn) const;
    /// \return number of queue pairs created
    uint32_t GetNQueuePairs() const;
    /**
     * \param i index, 0 .. GetNQueuePairs()-1
     * \return the i-th queue pair created (nullptr if that endpoint is not an
     * RdmaQueuePair)
     */
    Ptr<RdmaQueuePair> GetQueuePairByIndex(uint32_t i) const;

    /// \return received packets dropped because their QP does not exist or they are malformed
    uint64_t GetRxDiscards() const;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    /// First QPN handed out (QP0/QP1 are reserved for management by the IBTA).
    static constexpr uint32_t FIRST_QPN = 2;

    // The received packet's BTH and AETH, read from its raw bytes in Receive. Kept as members
    // so that no ns-3 Header object is built and destroyed per packet (about 240
    // instructions each); the queue pair reads them only during the call.
    RdmaBthHeader m_rxBth;
    RdmaAethHeader m_rxAeth;

    /// Port `port` asks for the next data packet.
    Ptr<Packet> PullPacket(uint32_t port, uint8_t pausedMask, uint8_t* cls);
    /// A queue pair may have become eligible: wake the idle ports.
    void NotifyTxReady();
    /// Pacer wake-up.
    void PacerExpired();
    /// Wake every idle port (multi-port: a queue pair's next packet may want another one).
    void KickIdlePorts();
    /// Schedule KickIdlePorts now unless one is pending.
    void ScheduleKick();
    /// Arm the pacer for the earliest time a queue pair may send.
    void ArmPacer(Time earliest, Time now);
    /// Queue an ACK/NAK/CNP on the port the current packet arrived on.
    void SendControl(Ptr<Packet> packet, uint8_t cls);
    // RdmaPortHandler: each port hands its received packets here, with the headers it read.
    void HandleReceive(uint32_t port,
                       Ptr<Packet>& packet,
                       const uint8_t* head,
                       uint32_t headBytes,
                       bool headBeside,
                       uint32_t size) override;
    /// The NIC's own ACKs, NAKs and CNPs leave a port's class queues: nothing to do.
    void HandleDequeue(uint32_t port,
                       const Ptr<Packet>& packet,
                       uint8_t cls,
                       uint32_t size) override;
    /**
     * Prefetch for PullPacket, which offers the port to the queue pairs in turn from
     * m_rrNext[port]: stage 1 loads the first two queue pairs' pointers, stage 2 prefetches
     * the lines of those queue pairs it reads first.
     * \param port the port
     * \param cls unused (the NIC pulls when the class queues are empty)
     * \param stage 1 or 2
     */
    void PrefetchTransmit(uint32_t port, uint32_t cls, uint32_t stage) const override;
    /// Count and trace a received packet the NIC cannot use.
    void DiscardRx(Ptr<const Packet> packet, const char* reason);
    /// \return the NIC-wide settings passed to queue pairs
    RdmaQpParameters GetQpParameters() const;

    Ptr<Node> m_node;
    std::vector<Ptr<RdmaNetDevice>> m_ports;
    std::vector<std::size_t> m_rrNext;       //!< per port: queue pair to offer first
    std::vector<uint64_t> m_portDataPackets; //!< per port: data packets sent
    uint32_t m_controlPort{0};               //!< port of the packet being received
    Ipv4Address m_address;
    uint32_t m_addressBits{0}; //!< m_address.Get(), kept: compared per packet received
    std::vector<Ptr<RdmaTransportEndpoint>> m_qps; //!< indexed by QPN - FIRST_QPN
    EventId m_pacerEvent;
    Time m_pacerAt{Time::Max()}; //!< when m_pacerEvent fires; Time::Max() if none is pending
    EventId m_kickEvent;
    TypeId m_pathSelectorTypeId;
    Ptr<RdmaPathSelector> m_pathSelector;
    bool m_spreads{false};         //!< m_pathSelector->SpreadsQueuePairs(), cached
    bool m_variesEntropy{false};   //!< m_pathSelector->VariesSourcePort(), cached
    bool m_needsAddress{false};    //!< m_pathSelector->NeedsAddress(), cached
    RdmaPathRequest m_pathRequest; //!< the request PullPacket fills (kept: no per-packet set-up)
    uint64_t m_rxDiscards{0};

    TypeId m_ccTypeId;
    TypeId m_lrTypeId;
    Ptr<RdmaCongestionControl> m_ccPrototype;
    Ptr<RdmaLossRecovery> m_lrPrototype;
    ObjectFactory m_qpFactory;

    uint32_t m_mtu;
    uint32_t m_ackInterval;
    Time m_retransmitTimeout;
    Time m_cnpInterval;
    bool m_cnpEnabled;
    uint8_t m_cnpDscp;
    int16_t m_ackDscp;
    bool m_ecnCapable;

    TracedCallback<Ptr<const Packet>, const std::string&> m_rxDiscardTrace;
};

} // namespace ns3

#endif /* RDMA_NIC_H */
