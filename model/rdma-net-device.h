/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NET_DEVICE_H
#define RDMA_NET_DEVICE_H

#include "rdma-fifo.h"
#include "rdma-watched-trace.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace ns3
{

class RdmaChannel;
class ErrorModel;
class Node;
class RdmaLinkFlowControl;
class RdmaLinkFraming;
class RdmaLinkRetry;
class RdmaPfcFlowControl;

/**
 * \ingroup rdma
 * \brief The packet sink of a port, called directly by the device (no Callback
 * indirection, no re-parsing: the device hands over the header bytes it has already read).
 *
 * RdmaSwitch and RdmaNic implement it; other receivers use RdmaNetDevice::
 * SetRdmaReceiveCallback, which the device uses when no handler is set. A DequeueCallback
 * (RdmaNetDevice::SetDequeueCallback) is called in any case, after HandleDequeue.
 */
class RdmaPortHandler
{
  public:
    /// Bytes of a received packet (from its IPv4 header on) the device reads for the handler:
    /// an IPv4 header without options, UDP, and a RoCEv2 BTH and AETH (a switch reads the
    /// addresses and transport ports, a NIC the RoCEv2 headers).
    static constexpr uint32_t HEAD_BYTES = 20 + 8 + 12 + 4;

    /// IPv4 bytes a switch's port rewrites per hop (version .. header checksum), which may
    /// travel beside the packet (HandleReceive's headBeside).
    static constexpr uint32_t IPV4_HEAD_BESIDE_BYTES = 12;

    /// Bytes of a packet a switch reads: the IPv4 header without options and the transport
    /// ports (routing, ECMP). A switch port sends them beside the packet when it has them
    /// (SetNextIpv4Head), so that the next switch finds them there instead of in the packet,
    /// which has been in flight since the hop before and is far from the caches.
    static constexpr uint32_t ROUTE_HEAD_BYTES = 20 + 4;

    /**
     * \return how many bytes of a packet's head HandleReceive reads: HEAD_BYTES, unless the
     *         handler reads no more than ROUTE_HEAD_BYTES (a switch): it is then given the
     *         head that traveled beside the packet, when that holds them, and the device does
     *         not read the packet. Asked once, when the handler is set.
     */
    virtual uint32_t GetHeadBytesRead() const
    {
        return HEAD_BYTES;
    }

    /**
     * Write into a packet the first IPv4 bytes it arrived with, received beside it
     * (HandleReceive's headBeside), in place of the bytes of the hop before that it holds:
     * a handler does so before anything else may read the packet (a trace, a stage).
     * \param packet the packet
     * \param ipv4Head its first IPV4_HEAD_BESIDE_BYTES bytes as it arrived
     */
    static void WriteArrivalHead(const Ptr<Packet>& packet, const uint8_t* ipv4Head);

    virtual ~RdmaPortHandler() = default;

    /**
     * An IPv4 packet arrived on a port (Ethernet header removed). The handler keeps a
     * reference if it keeps the packet: a Ptr copy, or the caller's own, taken with
     * RdmaNetDevice::EnqueueTaking or RdmaTakeReference (leaving \p packet null), which
     * spares a Ref/Unref pair per hop.
     * \param port the port number given to RdmaNetDevice::SetPortHandler
     * \param packet the packet (null afterwards if the handler took its reference)
     * \param head the packet's first bytes
     * \param headBytes how many bytes head holds: HEAD_BYTES, or the packet size if smaller,
     *        or ROUTE_HEAD_BYTES if the handler reads no more (GetHeadBytesRead) and they
     *        traveled beside the packet
     * \param headBeside true if the packet's first 12 bytes are still those it had one hop
     *        earlier and head holds those it arrived with (see RdmaNetDevice::
     *        ReceiveWithHead): the handler writes them into the packet before anything
     *        may read it (a trace, a stage), and the egress port writes them with its
     *        Ethernet header (SetNextIpv4Head)
     * \param size the packet's size in bytes (GetSize: known beside it, so a switch hop
     *        reads no line of the packet)
     */
    virtual void HandleReceive(uint32_t port,
                               Ptr<Packet>& packet,
                               const uint8_t* head,
                               uint32_t headBytes,
                               bool headBeside,
                               uint32_t size) = 0;

    /**
     * A queued packet leaves its class queue to be transmitted, before the Ethernet header
     * is added (see RdmaNetDevice::DequeueCallback).
     * \param port the port number given to RdmaNetDevice::SetPortHandler
     * \param packet the packet
     * \param cls its class
     * \param size the packet's size in bytes (kept in its queue slot)
     */
    virtual void HandleDequeue(uint32_t port,
                               const Ptr<Packet>& packet,
                               uint8_t cls,
                               uint32_t size) = 0;

    /**
     * Prefetch what HandleReceive will read for the next frame arriving on port, whose head
     * is given (a hint for RdmaSimulatorImpl's prefetching of the next events: it changes
     * nothing). Called for stage 1, then one event later for stage 2 (the lines reached
     * through those stage 1 loaded or prefetched).
     * \param port the port number given to RdmaNetDevice::SetPortHandler
     * \param head the frame's head as HandleReceive will be given it
     * \param headBytes how many bytes head holds
     * \param stage 1 or 2
     */
    virtual void PrefetchReceive(uint32_t /* port */,
                                 const uint8_t* /* head */,
                                 uint32_t /* headBytes */,
                                 uint32_t /* stage */) const
    {
    }

    /**
     * Prefetch what the next transmission of port will read here (HandleDequeue, or a NIC's
     * pull of its next packet), like PrefetchReceive.
     * \param port the port number given to RdmaNetDevice::SetPortHandler
     * \param cls the class the port will probably serve (the highest one queued)
     * \param stage 1 or 2
     */
    virtual void PrefetchTransmit(uint32_t /* port */,
                                  uint32_t /* cls */,
                                  uint32_t /* stage */) const
    {
    }
};

/**
 * \ingroup rdma
 * \brief A full-duplex Ethernet port with eight traffic classes and IEEE 802.1Qbb
 * priority-based flow control (PFC).
 *
 * Frames are Ethernet II (no 802.1Q tag): the traffic class of an IPv4 packet is its
 * DSCP >> 3 (the "trust DSCP" default of RoCE NICs and switches: DSCP 26 -> class 3,
 * DSCP 48 -> class 6). The serialization time of a frame counts the preamble and SFD
 * (8 bytes), the FCS (4 bytes, not carried in the ns-3 Packet so that pcaps stay plain
 * DLT_EN10MB), the inter-frame gap (12 bytes) and padding to the 64-byte minimum frame.
 *
 * Transmission order: PFC MAC control frames first (they are never paused), then the
 * class queues of classes that are not paused, chosen by the SchedulingPolicy
 * attribute, then the pull source (the host NIC), asked for a packet of an unpaused
 * class. A received PFC frame pauses exactly the classes whose enable bit is set for
 * quanta x 512 bit times (0 resumes at once); a later frame re-arms or cancels the
 * pause. A frame already being serialized is always completed (802.1Qbb clause 36).
 *
 * Which classes may transmit, and what control frames mean, is the link flow control's
 * (attribute LinkFlowControl, an RdmaLinkFlowControl): RdmaPfcFlowControl, the PFC
 * described here, by default; RdmaCreditFlowControl for InfiniBand-style credits.
 * Link-level retry (attribute LinkRetry, an RdmaLinkRetry; none by default) sequences the
 * data frames, keeps them for replay and answers losses with NAKs.
 *
 * What a frame costs on a scale-up link's wire (FLITs, a compressed header) is the link
 * framing's (attribute LinkFraming, an RdmaLinkFraming; none by default: Ethernet).
 *
 * Everything crossing the link, pause frames included, is a serialized frame handed to
 * RdmaChannel::TransmitStart, as ns-3's MPI engine requires.
 *
 * The Framing attribute chooses what a frame costs on the wire. ETHERNET (the default) is
 * the real cost above. HPCC_SIMULATOR charges the bytes the HPCC simulator family's
 * packets have (HPCC's ns-3 model, alibaba-edu/High-Precision-Congestion-Control:
 * RdmaHw::GetNxtPacket, RdmaHw::ReceiveUdp, QbbNetDevice::SendPfc; its links serialize
 * Packet::GetSize() bytes with no preamble, FCS or gap), so that a comparison with it can
 * tell model differences from framing differences. The frames themselves (and pcaps) are
 * unchanged; only their serialization time is the peer's:
 *  - data (any BTH opcode carrying a payload): PPP 2 + IPv4 20 + UDP 8 + its SeqTs header
 *    6 + INT (HpccIntBytes) + payload; RETH, AETH and immediate data are not counted (the
 *    peer has none), so a 1000-byte payload costs 1036 bytes with DCQCN;
 *  - ACK/NAK (and READ requests): PPP 2 + IPv4 20 + its qbb header 12 + INT, padded as
 *    the peer pads it to 60 - 14 - 20 bytes after the IPv4 header: 48 bytes (76 with
 *    HPCC's INT);
 *  - CNP: 0 bytes (the peer flags the ACK instead of sending a CNP);
 *  - PFC: PPP 2 + IPv4 20 + its pause header 9 = 31 bytes;
 *  - any other IPv4 packet: PPP 2 + the IPv4 packet.
 */
class RdmaNetDevice : public NetDevice
{
  public:
    /// Number of IEEE 802.1p traffic classes.
    static constexpr uint32_t NUM_CLASSES = 8;
    /// Preamble and start-of-frame delimiter, bytes.
    static constexpr uint32_t PREAMBLE_SFD_BYTES = 8;
    /// Frame check sequence, bytes (counted on the wire, not carried in the Packet).
    static constexpr uint32_t FCS_BYTES = 4;
    /// Minimum inter-frame gap, bytes.
    static constexpr uint32_t IFG_BYTES = 12;
    /// Ethernet II header: destination, source, EtherType.
    static constexpr uint32_t ETHERNET_HEADER_BYTES = 14;
    /// Wire bytes of a RoCEv2 data packet besides its payload (no RETH): Ethernet 14, IPv4
    /// 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble and SFD 8, inter-frame gap 12. The one
    /// definition of the 82 bytes behind every analytical goodput rate x MTU / (MTU + 82).
    static constexpr uint32_t ROCE_PACKET_OVERHEAD_BYTES =
        ETHERNET_HEADER_BYTES + 20 + 8 + 12 + 4 + FCS_BYTES + PREAMBLE_SFD_BYTES + IFG_BYTES;
    /// Minimum Ethernet frame, FCS included.
    static constexpr uint32_t MIN_FRAME_BYTES = 64;
    /// EtherType of IPv4.
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
    /// EtherType of MAC control (802.3 clause 31, carries PFC).
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808;

    /// What a frame costs on the wire (see the class description).
    enum Framing
    {
        ETHERNET,      //!< real Ethernet: FCS, padding, preamble, SFD, inter-frame gap
        HPCC_SIMULATOR //!< the bytes the HPCC simulator's packets have (compatibility)
    };

    /// How the device chooses among non-empty, unpaused class queues.
    enum SchedulingPolicy
    {
        STRICT_PRIORITY, //!< highest class number first
        ROUND_ROBIN      //!< one frame per class in turn
    };

    /**
     * Asked for the next packet when the device is idle and none of its own queues has
     * an eligible frame. Argument: bitmask of the classes currently paused; out
     * argument: the class of the returned packet. Returns an IPv4 packet without
     * Ethernet header, or nullptr when the source has nothing eligible (the source then
     * calls TriggerTransmit when it has).
     */
    typedef Callback<Ptr<Packet>, uint8_t, uint8_t*> TxPullCallback;

    /**
     * Called when a queued packet leaves its class queue to be transmitted, before the
     * Ethernet header is added: the switch MMU releases its buffer here, and a switch that
     * marks ECN at dequeue modifies the packet.
     * Arguments: this device, the packet, its class.
     */
    typedef Callback<void, Ptr<RdmaNetDevice>, Ptr<Packet>, uint8_t> DequeueCallback;

    /**
     * Fast receive path for the RDMA stack on this port (switch or NIC): receives every
     * IPv4 packet, Ethernet header removed, instead of the node's protocol handlers. The
     * packet belongs to the callee, which may modify it (no copy is made).
     * Arguments: this device, the packet.
     */
    typedef Callback<void, Ptr<RdmaNetDevice>, Ptr<Packet>> RdmaReceiveCallback;

    /**
     * TracedCallback signature for PFC events.
     * \param cls the traffic class
     * \param quanta pause time in quanta of 512 bit times (0 = resume)
     */
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaNetDevice();
    ~RdmaNetDevice() override;

    /**
     * Attach the device to a channel (at most two devices per channel).
     * \param channel the channel
     * \return true on success
     */
    bool Attach(Ptr<RdmaChannel> channel);

    /**
     * Queue an IPv4 packet (no Ethernet header) for transmission in a traffic class.
     * Admission control is the caller's (the switch MMU's): the device never drops.
     * \param packet the packet
     * \param cls traffic class, 0..7
     */
    void Enqueue(const Ptr<Packet>& packet, uint8_t cls);

    /**
     * Enqueue with the caller's reference and the packet's size: the queue takes the
     * reference \p packet holds (no Ref, no Unref) and keeps the size beside it, so a
     * switch hop reads no line of the packet (in a large fabric it has left the caches).
     * \param packet the packet; null afterwards
     * \param cls traffic class, 0..7
     * \param size the packet's size in bytes (its GetSize)
     */
    void EnqueueTaking(Ptr<Packet>& packet, uint8_t cls, uint32_t size);

    /**
     * Send an 802.1Qbb PFC frame to the peer, ahead of all queued data.
     * \param classEnableVector bit i set: the frame carries a pause time for class i
     * \param quanta pause time per class in quanta of 512 bit times (0 = resume)
     */
    void SendPfc(uint8_t classEnableVector, const std::array<uint16_t, NUM_CLASSES>& quanta);

    /// The pull source has something eligible: start transmitting if idle.
    void TriggerTransmit();

    /// \param cb the pull source (the host NIC)
    void SetTxPullCallback(TxPullCallback cb);
    /// \param cb called when a queued packet starts transmission (after the port handler's
    ///        HandleDequeue, if a handler is set)
    void SetDequeueCallback(DequeueCallback cb);
    /**
     * Deliver received IPv4 packets directly to the RDMA stack, bypassing the node's
     * protocol handlers (see RdmaReceiveCallback).
     * \param cb the receiver
     */
    void SetRdmaReceiveCallback(RdmaReceiveCallback cb);
    /**
     * Deliver received IPv4 packets and dequeue notifications to a handler (the switch),
     * in place of the receive and dequeue callbacks.
     * \param handler the handler (not owned; it must outlive the device's use, or be reset
     *        with nullptr)
     * \param port the number the handler knows this device by
     */
    void SetPortHandler(RdmaPortHandler* handler, uint32_t port);

    /**
     * Make this device a router's port: every IPv4 packet it sends leaves with its TTL one
     * lower (RFC 1812 section 5.3.1; the header checksum, when the packet carries one, updated
     * as RFC 1624 eqn. 3 does). The rewrite is done in the same header write that adds the
     * Ethernet header, so a hop costs one header write rather than two. The router drops
     * packets whose TTL would reach zero before queuing them (RdmaSwitch does).
     * \param decrement true on a switch's ports
     */
    void SetDecrementTtl(bool decrement);
    /// \return true if this device decrements the TTL of the IPv4 packets it sends
    bool GetDecrementTtl() const;

    /**
     * Give the first 12 bytes of the IPv4 header (version .. header checksum, TTL not yet
     * decremented) of the packet about to be sent, as the router read them at arrival: the
     * TTL rewrite then uses them instead of reading the packet again. For the next packet
     * only; call it from the port handler's HandleDequeue, and not if the header changed
     * since (a CE mark).
     * \param ipv4Head the 12 bytes, followed by the rest of RdmaPortHandler::ROUTE_HEAD_BYTES
     *        (their storage in any case)
     * \param routeBytes ipv4Head holds all ROUTE_HEAD_BYTES, as the packet has them: they
     *        travel beside it, for the next switch to read there
     */
    void SetNextIpv4Head(const uint8_t* ipv4Head, bool routeBytes)
    {
        std::memcpy(m_nextIpv4Head.data(), ipv4Head, sizeof(m_nextIpv4Head)); // inline moves
        m_hasNextIpv4Head = true;
        m_nextHasRouteBytes = routeBytes;
    }

    /**
     * The IPv4 header checksum after the TTL is decremented by one, by RFC 1624's
     * incremental update (eqn. 3), without summing the header again.
     * \param checksum the checksum before
     * \param ttl the TTL before (above 0)
     * \param protocol the protocol field (the TTL's 16-bit word partner)
     * \return the checksum after
     */
    static uint16_t TtlDecrementChecksum(uint16_t checksum, uint8_t ttl, uint8_t protocol);

    /**
     * \param cls traffic class
     * \return true if the link flow control currently blocks the class (under PFC: a
     *         received PFC frame pauses it)
     */
    bool IsClassPaused(uint8_t cls) const;
    /// \return bitmask of the classes the link flow control currently blocks
    uint8_t GetPausedMask() const;

    /**
     * Replace the link flow control (attribute LinkFlowControl; the default is an
     * RdmaPfcFlowControl). Set it before the simulation starts.
     * \param flowControl the flow control (one device per instance; null restores PFC)
     */
    void SetLinkFlowControl(Ptr<RdmaLinkFlowControl> flowControl);
    /// \return the link flow control
    Ptr<RdmaLinkFlowControl> GetLinkFlowControl() const;

    /**
     * Charge frames by a scale-up link framing instead of the Framing attribute (attribute
     * LinkFraming: RdmaUalinkFlitFraming, RdmaCompressedHeaderFraming). Set it before the
     * simulation starts, at both ends of the link.
     * \param framing the framing (one device per instance; null: Ethernet, the default)
     */
    void SetLinkFraming(Ptr<RdmaLinkFraming> framing);
    /// \return the link framing (null: Ethernet)
    Ptr<RdmaLinkFraming> GetLinkFraming() const;
    /**
     * Run link-level retry on this end of the link (attribute LinkRetry; none by default).
     * Set it before the simulation starts, on both ends.
     * \param linkRetry the link-level retry (one device per instance), or null for none
     */
    void SetLinkRetry(Ptr<RdmaLinkRetry> linkRetry);
    /// \return the link-level retry, or null
    Ptr<RdmaLinkRetry> GetLinkRetry() const;
    /**
     * Corrupt received frames as \p model says (attribute ReceiveErrorModel).
     * \param model the error model, or null for none
     */
    void SetReceiveErrorModel(Ptr<ErrorModel> model);
    /// \return the receive error model, or null
    Ptr<ErrorModel> GetReceiveErrorModel() const;

    /**
     * Queue a link-level control frame (a flow-control update of the link flow control):
     * it is sent before any data frame, like PFC frames.
     * \param frame the frame, Ethernet header included
     */
    void SendControlFrame(Ptr<Packet> frame);
    /// \return true while a frame is being serialized
    bool IsBusy() const;

    /**
     * \param cls traffic class
     * \return bytes (IPv4 packets, no Ethernet overhead) waiting in the class queue
     */
    uint32_t GetQueueBytes(uint8_t cls) const;
    /**
     * \param cls traffic class
     * \return packets waiting in the class queue
     */
    uint32_t GetQueuePackets(uint8_t cls) const;
    /**
     * Take the packet at the head of a class queue without sending it (a switch's PFC
     * watchdog discards the queue of a class stuck in a pause storm). The frame being
     * serialized, if any, is not in the queue and is not affected.
     * \param cls traffic class
     * \return the packet, or null if the queue is empty
     */
    Ptr<Packet> RemoveQueuedPacket(uint8_t cls);
    /**
     * \param cls traffic class
     * \return when the last PFC frame that paused the class (quanta > 0) arrived;
     *         Time::Min() if none has (or the link flow control is not PFC)
     */
    Time GetLastPauseReceived(uint8_t cls) const;

    /// \return the port's line rate
    DataRate GetDataRate() const;
    /// \param rate the port's line rate (attribute DataRate)
    void SetDataRate(DataRate rate);

    /**
     * Bytes a frame occupies on the wire: padding to the minimum frame, FCS, preamble,
     * SFD and inter-frame gap added to the frame as carried in the Packet.
     * \param frameBytes Ethernet header plus payload (no FCS)
     * \return wire bytes
     */
    static uint32_t WireBytes(uint32_t frameBytes);

    /**
     * Bytes the HPCC simulator charges for the packet this frame carries (Framing
     * HPCC_SIMULATOR; see the class description).
     * \param frame an Ethernet frame as transmitted (header included, no FCS)
     * \param intBytes the INT header of the peer's congestion control (HpccIntBytes)
     * \return wire bytes
     */
    static uint32_t HpccSimulatorWireBytes(const Ptr<const Packet>& frame, uint32_t intBytes);

    /**
     * Bytes an IPv4 packet occupies on this port's wire under its Framing: what a sender's
     * pacer should charge for it (WireBytes of its Ethernet frame, or the HPCC simulator's
     * bytes).
     * \param ipv4Packet an IPv4 packet (no Ethernet header)
     * \return wire bytes
     */
    uint32_t GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const;

    /**
     * \param frameBytes Ethernet header plus payload (no FCS)
     * \return the time the frame holds the wire at this port's rate
     */
    Time GetWireTime(uint32_t frameBytes) const;

    /// \return the time one PFC quantum (512 bit times) lasts at this port's rate
    Time GetQuantumTime() const;

    /**
     * Receive a frame from the channel at the end of its serialization plus propagation.
     * \param frame the frame, Ethernet header included; the device owns it from now on
     */
    void Receive(Ptr<Packet> frame);

    /**
     * Receive a frame whose first bytes travelled beside its packet (RdmaChannel::
     * TransmitStartWithHead): \p head, then \p packet without its first headBytes - 14
     * bytes. A switch port whose frame nothing can observe (no sink on this device's
     * traces, no error model, no link-level retry, no promiscuous callback) hands the
     * packet to its switch as it is, with the head read from \p head: a hop between
     * switches then writes no byte of the packet (the last hop to a host writes them, and
     * so does any observer's presence). Otherwise the bytes are written into the packet
     * first and the frame goes through Receive.
     * \param packet the IPv4 packet; the device owns it from now on
     * \param head the frame's first bytes: Ethernet header, possibly followed by the first
     *        12 bytes of the IPv4 header
     * \param headBytes 14 or 26
     * \param size the packet's size in bytes (its GetSize, carried beside it)
     */
    void ReceiveWithHead(Ptr<Packet> packet,
                         const uint8_t* head,
                         uint32_t headBytes,
                         uint32_t size);

    /**
     * \param headBytes the bytes of the head beside an arriving frame's packet
     * \return false if ReceiveWithHead will read no line of the packet (a switch's port
     *         whose handler reads the route bytes beside it, nothing observing: its fast
     *         path, which PrefetchReceive prefetches for): the arrival's prefetch then leaves
     *         the packet alone
     */
    bool ReadsPacketAtArrival(uint32_t headBytes) const
    {
        return headBytes != ETHERNET_HEADER_BYTES + RdmaPortHandler::ROUTE_HEAD_BYTES ||
               !m_handlerReadsRouteHead || (m_watched & RX_SLOW_PATH);
    }

    /// \return true if a sink listens to MacTx (which sees every packet Enqueue takes)
    bool IsMacTxTraced() const
    {
        return m_watched & WATCH_MAC_TX;
    }

    /// \return PFC frames this device sent
    uint64_t GetPfcFramesSent() const;
    /// \return PFC frames this device received
    uint64_t GetPfcFramesReceived() const;
    /// \return frames dropped on reception (error model), all counted in PhyRxDrop
    uint64_t GetRxDropCount() const;
    /// \return frames transmitted (data and control)
    uint64_t GetTxFrames() const;
    /**
     * \return frames of GetTxFrames sent with their head beside the packet (RdmaChannel::
     *         TransmitStartWithHead): nothing could observe them on the wire, so no header
     *         was written into the packet for them
     */
    uint64_t GetTxFramesWithHeadBeside() const;
    /// \return bytes transmitted on the wire (WireBytes of every frame)
    uint64_t GetTxWireBytes() const;
    /// \return IPv4 bytes handed to the device to send (what MacTx reports)
    uint64_t GetMacTxBytes() const;
    /// \return IPv4 bytes put on the wire (frames less their Ethernet header)
    uint64_t GetIpv4TxBytes() const;
    /// \return IPv4 bytes received intact (what MacRx reports)
    uint64_t GetIpv4RxBytes() const;
    /// \return IPv4 bytes of frames the receive error model corrupted (dropped on arrival)
    uint64_t GetIpv4CorruptedBytes() const;

    /// \return the channel this device is attached to
    Ptr<RdmaChannel> GetRdmaChannel() const;

    // NetDevice API
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /**
     * Queue an IPv4 packet in the class given by its DSCP (DSCP >> 3).
     * \param packet the packet
     * \param dest ignored: the link is point-to-point, frames go to the peer's MAC
     * \param protocolNumber must be 0x0800
     * \return true if queued
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /**
     * Prefetch the object's lines a frame's arrival or transmission reads: the members it
     * keeps first for that (see the order of the members) and the control queue's. For
     * RdmaSimulatorImpl's prefetching of the next events (RdmaChannel::PrefetchDelivery).
     */
    void PrefetchFrameLines() const
    {
        const char* first = reinterpret_cast<const char*>(this);
        const char* last = reinterpret_cast<const char*>(&m_controlQueue + 1);
        for (const char* line = first; line < last; line += 64)
        {
            __builtin_prefetch(line);
        }
    }

    /**
     * Prefetch for ReceiveWithHead of a frame with this head (RdmaChannel::PrefetchDelivery):
     * the port handler's stage of RdmaPortHandler::PrefetchReceive, when the handler will
     * be given the route bytes that traveled beside the packet (a switch's port): stage 1
     * the handler's object, stages 2 and 3 the handler's stages 1 and 2.
     * \param head the frame's head beside the packet
     * \param headBytes how many bytes head holds
     * \param stage 1 to 3
     */
    void PrefetchReceive(const uint8_t* head, uint32_t headBytes, uint32_t stage) const;

  protected:
    void DoDispose() override;

  private:
    friend class RdmaPfcFlowControl; // counts and traces received PFC frames here

    /// A control frame changed what may be sent: re-evaluate (and drop a stale wake-up).
    void ReEvaluateAfterControlFrame();

    /// \return true if any class queue holds a packet
    bool HasQueuedPackets() const
    {
        return m_queuedClasses != 0;
    }

    /// Transmit the next eligible frame if the device is idle.
    void TryTransmit();
    /**
     * \param now the current time
     * \return bitmask of the classes paused at now
     */
    uint8_t PausedMaskAt(Time now) const;
    /**
     * Serialize a complete frame onto the channel.
     * \param frame the frame
     * \param now the current time
     */
    void StartTransmission(const Ptr<Packet>& frame, Time now);
    /**
     * Serialize a frame whose head travels beside its packet (RdmaChannel::
     * TransmitStartWithHead): m_ipv4Header's bytes, then the packet without its first
     * bytes that those replace.
     * \param packet the IPv4 packet; the channel takes its reference (null afterwards)
     * \param size its size in bytes
     * \param now the current time
     */
    void StartTransmissionWithHead(Ptr<Packet>& packet, uint32_t size, Time now);
    /**
     * \return true if the next IPv4 frame may leave with its head beside its packet: the
     *         peer is a switch's port, and nothing on this side can observe the frame (no
     *         sink on the transmit traces or the channel's, no link-level retry or link
     *         framing, ns-3's packet metadata off)
     */
    bool CanSendHeadBeside();
    /**
     * Write a frame's head, received beside its packet, into the packet.
     * \param packet the IPv4 packet
     * \param head the frame's first bytes
     * \param headBytes 14 or 26
     */
    static void WriteHead(const Ptr<Packet>& packet, const uint8_t* head, uint32_t headBytes);
    /**
     * Schedule TransmitComplete at the end of the current frame (the device's one
     * end-of-frame event object, scheduled again for each frame on a busy port).
     * \param delay time until the end of the frame
     */
    void ScheduleTransmitComplete(Time delay);
    /// The end-of-frame event (see ScheduleTransmitComplete).
    class TxCompleteEvent;
    /**
     * Prefetch for TransmitComplete (TxCompleteEvent::Prefetch): stage 1 this object's
     * per-frame lines; stage 2 the flow control, the channel and the peer, and loads the
     * slot of the first packet of the class queue to be served; stage 3 that packet and the
     * port handler's object; stages 4 and 5 the handler's stages 1 and 2
     * (RdmaPortHandler::PrefetchTransmit).
     * \param stage 1 to 5
     */
    void PrefetchTransmit(uint32_t stage) const;
    /// The end-of-frame event object: scheduled once per frame on a busy port, with a
    /// reference per pending schedule, so no event is allocated or destroyed per frame.
    Ptr<TxCompleteEvent> m_txCompleteEvent;
    /// End of serialization of the current frame.
    void TransmitComplete();
    /**
     * Take the head packet of a non-empty class queue (transmission or RemoveQueuedPacket).
     * \param cls traffic class
     * \param[out] size its size in bytes, from its queue slot
     * \return the packet
     */
    Ptr<Packet> PopQueued(uint32_t cls, uint32_t& size);
    /// A pause timer expired: re-evaluate eligibility.
    void PauseExpired();
    /// Reschedule the wake-up at the earliest pending pause expiry of a class with work.
    void ScheduleWakeUp();

    /**
     * Serialization time of the next frame, carrying sub-step remainders between frames.
     * Inline for the exact case (a whole number of time steps per byte, nothing carried:
     * 80 ps per byte at 100 Gb/s); SerializationTimeCarried otherwise.
     * \param wireBytes the frame's wire bytes
     * \return the time it holds the wire
     */
    Time SerializationTime(uint32_t wireBytes)
    {
        if (m_bitRate == m_stepsPerByteRate && m_stepsPerByte != 0 && m_txTimeCarry == 0)
        {
            return TimeStep(wireBytes * m_stepsPerByte);
        }
        return SerializationTimeCarried(wireBytes);
    }

    /**
     * SerializationTime after a rate change, or when the time per byte is not a whole number
     * of steps: exact rational arithmetic with the remainder carried to the next frame.
     * \param wireBytes the frame's wire bytes
     * \return the time it holds the wire
     */
    Time SerializationTimeCarried(uint32_t wireBytes);
    /// Add the Ethernet II header addressed to the peer.
    void AddEthernetHeader(Ptr<Packet> packet, uint16_t etherType) const;
    /// Add the Ethernet II header of an IPv4 frame to the peer (per-frame fast path).
    void AddIpv4EthernetHeader(const Ptr<Packet>& packet);
    /**
     * Set m_ipv4Header to the head of the packet's frame to the peer: the Ethernet header,
     * and on a router's port the first 12 bytes of the IPv4 header with the TTL one lower
     * (24 with the addresses and ports when it has them); on a host's port whose peer is a
     * switch, the packet's first 24 bytes as they are.
     * \param packet the IPv4 packet
     * \param size its size in bytes
     * \return true if the head replaces the packet's first 12 (or 24) bytes
     */
    bool PrepareIpv4EthernetHeader(const Ptr<Packet>& packet, uint32_t size);
    /// \return the MAC address of the device at the other end of the link
    Mac48Address GetPeerAddress() const;

    /// \return the device at the other end of the link (aborts if there is none)
    RdmaNetDevice* GetPeerDevice() const
    {
        return m_peer ? m_peer : LookUpPeerDevice();
    }

    /// \return the device at the other end of the link, looked up and kept in m_peer
    RdmaNetDevice* LookUpPeerDevice() const;
    /**
     * Pick the class queue to serve next.
     * \param pausedMask the currently paused classes
     * \return the class, or NUM_CLASSES if no unpaused class queue has a packet
     */
    uint32_t PickClass(uint8_t pausedMask);

    // Members in the order a frame's transmission and arrival read them: the first lines
    // (after the Object's 32 bytes, up to and with the class queues) hold every member the
    // per-frame paths (TryTransmit, StartTransmission(WithHead), ReceiveWithHead) read, with
    // m_watched standing for the traces, callbacks and options they only need to know are
    // unset; configuration and statistics read elsewhere come after. In a large fabric every
    // device is far from the caches when its next frame comes; the order by topic had spread
    // those reads over 14 of the object's 18 lines.

    Ptr<RdmaChannel> m_channel;
    RdmaLinkFlowControl* m_fc{nullptr};      //!< m_flowControl, read per frame
    RdmaLinkRetry* m_lr{nullptr};            //!< m_linkRetry, read per frame
    RdmaPortHandler* m_portHandler{nullptr}; //!< the switch's fast path, if set
    uint32_t m_handlerPort{0};               //!< this device's number at m_portHandler
    uint32_t m_nodeId{0};                    //!< m_node's id (the context of this device's events)
    Time m_txEnd; //!< end of the frame being serialized (busy while now < it)
    /// When the last end-of-frame event was scheduled for: one is pending for the current
    /// frame iff this equals m_txEnd (cheaper than EventId::IsRunning per call).
    Time m_txCompleteAt{-1};
    uint64_t m_bitRate{0};          //!< m_dataRate in bit/s (read per frame)
    uint64_t m_txTimeCarry{0};      //!< remainder of the last serialization time, in bit-steps
    uint64_t m_stepsPerByteRate{0}; //!< the m_bitRate m_stepsPerByte was computed for
    uint64_t m_stepsPerByte{0};     //!< time steps per byte when exact, else 0
    mutable RdmaNetDevice* m_peer{nullptr}; //!< the other end of the link, once looked up
    /// The channel's index of the other end (RdmaChannel::SideOf), once looked up.
    uint32_t m_peerSide{NO_PEER_SIDE};
    /// m_peerSide before the lookup.
    static constexpr uint32_t NO_PEER_SIDE = UINT32_MAX;
    Framing m_framing{ETHERNET};
    SchedulingPolicy m_policy;
    uint32_t m_rrNext{0};
    /// Bit c set: m_queues[c] holds a packet (the queues' sizes lie on six cache lines).
    uint8_t m_queuedClasses{0};
    bool m_decrementTtl{false};      //!< a router's port (SetDecrementTtl)
    bool m_hasNextIpv4Head{false};   //!< SetNextIpv4Head gave the next packet's head
    bool m_nextHasRouteBytes{false}; //!< with all of RdmaPortHandler::ROUTE_HEAD_BYTES
    /// The port handler reads at most RdmaPortHandler::ROUTE_HEAD_BYTES (GetHeadBytesRead).
    bool m_handlerReadsRouteHead{false};
    /// So does the peer's (learned with its handler, LearnPeerHandler): a host's port sends
    /// the packet's route bytes beside it. A hint: the head is right for any receiver.
    bool m_peerReadsRouteHead{false};
    /// m_ipv4Header holds this device's and the peer's current MAC addresses (SetAddress on
    /// either end clears it): no address comparison per frame.
    bool m_ipv4HeaderValid{false};

    /**
     * What the per-frame paths must look at besides the fast path, one bit each (WATCH_*):
     * the traces' sinks (RdmaWatchedTrace keeps their bits), the callbacks, error model, link
     * retry and framing set, a missing port handler here or at the peer. One load answers
     * every "does anyone observe this frame" question a frame asks.
     */
    uint16_t m_watched{WATCH_NO_PORT_HANDLER | WATCH_PEER_UNKNOWN};
    static constexpr uint16_t WATCH_PHY_TX_BEGIN = 1U << 0;     //!< PhyTxBegin has a sink
    static constexpr uint16_t WATCH_SNIFFER = 1U << 1;          //!< Sniffer has a sink
    static constexpr uint16_t WATCH_PROMISC_SNIFFER = 1U << 2;  //!< PromiscSniffer has a sink
    static constexpr uint16_t WATCH_PHY_TX_END = 1U << 3;       //!< PhyTxEnd has a sink
    static constexpr uint16_t WATCH_PHY_RX_END = 1U << 4;       //!< PhyRxEnd has a sink
    static constexpr uint16_t WATCH_MAC_RX = 1U << 5;           //!< MacRx has a sink
    static constexpr uint16_t WATCH_MAC_TX = 1U << 6;           //!< MacTx has a sink
    static constexpr uint16_t WATCH_ERROR_MODEL = 1U << 7;      //!< a receive error model
    static constexpr uint16_t WATCH_PROMISC_CALLBACK = 1U << 8; //!< a promiscuous callback
    static constexpr uint16_t WATCH_LINK_RETRY = 1U << 9;       //!< link-level retry
    static constexpr uint16_t WATCH_LINK_FRAMING = 1U << 10;    //!< a scale-up framing
    static constexpr uint16_t WATCH_NO_PORT_HANDLER = 1U << 11; //!< no port handler here
    static constexpr uint16_t WATCH_PEER_NO_HANDLER = 1U << 12; //!< none at the peer
    /// The peer's handler is not known yet (or changed): WATCH_PEER_NO_HANDLER is stale.
    static constexpr uint16_t WATCH_PEER_UNKNOWN = 1U << 13;
    /// A frame arriving with its head beside goes the slow way (ReceiveWithHead).
    static constexpr uint16_t RX_SLOW_PATH =
        WATCH_NO_PORT_HANDLER | WATCH_ERROR_MODEL | WATCH_LINK_RETRY | WATCH_PROMISC_CALLBACK |
        WATCH_PHY_RX_END | WATCH_SNIFFER | WATCH_PROMISC_SNIFFER | WATCH_MAC_RX;
    /// A frame may not leave with its head beside (CanSendHeadBeside).
    static constexpr uint16_t TX_WHOLE_FRAME =
        WATCH_PEER_NO_HANDLER | WATCH_LINK_RETRY | WATCH_LINK_FRAMING | WATCH_PHY_TX_BEGIN |
        WATCH_SNIFFER | WATCH_PROMISC_SNIFFER | WATCH_PHY_TX_END;
    /// Look at the peer's port handler again (it is unknown or changed).
    void LearnPeerHandler();
    /// Set m_watched's bits of the options from the members themselves (the one place they
    /// are derived; every setter of an option calls it).
    void UpdateWatchedOptions();

    /// Set or clear \p bit of m_watched.
    void SetWatched(uint16_t bit, bool on)
    {
        m_watched = static_cast<uint16_t>(on ? (m_watched | bit) : (m_watched & ~bit));
    }

    uint16_t m_mtu;
    /// The head SetNextIpv4Head gave.
    std::array<uint8_t, RdmaPortHandler::ROUTE_HEAD_BYTES> m_nextIpv4Head{};
    /**
     * The Ethernet II header of IPv4 frames to the peer, serialized once (rebuilt when either
     * MAC address changes): adding it costs a 14-byte copy instead of an EthernetHeader.
     */
    class Ipv4FrameHeader;
    std::unique_ptr<Ipv4FrameHeader> m_ipv4Header;
    Ptr<Packet> m_currentFrame; //!< the frame being serialized, for PhyTxEnd
    TxPullCallback m_txPull;
    DequeueCallback m_dequeueCallback;
    uint64_t m_txFrames{0};
    uint64_t m_txFramesHeadBeside{0}; //!< of m_txFrames, sent with the head beside the packet
    uint64_t m_txWireBytes{0};
    uint64_t m_ipv4RxBytes{0}; //!< IPv4 bytes received intact
    uint64_t m_macTxBytes{0};  //!< IPv4 bytes given to the device to send
    uint64_t m_ipv4TxBytes{0}; //!< IPv4 bytes sent on the wire
    std::array<uint32_t, NUM_CLASSES> m_queueBytes{};

    RdmaFifo<Ptr<Packet>> m_controlQueue; //!< PFC frames, Ethernet header included

    /// A class queue's slot: the queue's reference to the packet, and its size beside it,
    /// so that serving the queue reads no line of the packet (EnqueueTaking).
    struct QueuedPacket
    {
        Packet* packet; //!< one reference, the queue's
        uint32_t size;  //!< the packet's GetSize
    };

    std::array<RdmaFifo<QueuedPacket>, NUM_CLASSES> m_queues;

    // The traces a frame may fire; their sinks are told by m_watched, not read per frame.
    RdmaWatchedTrace<Ptr<const Packet>> m_phyTxBeginTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_snifferTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_promiscSnifferTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_phyTxEndTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_phyRxEndTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_macRxTrace;
    RdmaWatchedTrace<Ptr<const Packet>> m_macTxTrace;
    NetDevice::PromiscReceiveCallback m_promiscRxCallback;
    Ptr<Node> m_node;
    Ptr<RdmaLinkFraming> m_linkFraming; //!< scale-up framing (null: Ethernet)
    Ptr<ErrorModel> m_receiveErrorModel;
    uint32_t m_hpccIntBytes{0}; //!< INT header bytes charged per packet (HPCC_SIMULATOR)

    // Configuration and statistics, read outside the per-frame paths.
    Mac48Address m_address;
    uint32_t m_ifIndex{0};
    DataRate m_dataRate;
    TracedCallback<> m_linkChangeCallbacks;
    Ptr<RdmaLinkFlowControl> m_flowControl; //!< the link flow control (PFC by default)
    Ptr<RdmaLinkRetry> m_linkRetry;         //!< link-level retry, if any
    EventId m_wakeUpEvent;
    bool m_wakeUpPending{false}; //!< m_wakeUpEvent is scheduled and has not run
    NetDevice::ReceiveCallback m_rxCallback;
    RdmaReceiveCallback m_rdmaRxCallback;
    uint64_t m_pfcSent{0};
    uint64_t m_pfcReceived{0};
    uint64_t m_rxDrops{0};
    uint64_t m_ipv4CorruptedBytes{0}; //!< IPv4 bytes lost to the receive error model
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
};

} // namespace ns3

#endif /* RDMA_NET_DEVICE_H */
