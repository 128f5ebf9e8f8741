/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-net-device.h"

#include "pfc-pause-header.h"
#include "rdma-aeth-header.h"
#include "rdma-atomic-ack-eth-header.h"
#include "rdma-atomic-eth-header.h"
#include "rdma-bth-header.h"
#include "rdma-channel.h"
#include "rdma-header-stack.h"
#include "rdma-link-flow-control.h"
#include "rdma-link-framing.h"
#include "rdma-link-retry-trailer.h"
#include "rdma-link-retry.h"
#include "rdma-packet-room.h"
#include "rdma-pfc-flow-control.h"
#include "rdma-reth-header.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RdmaNetDevice);

/**
 * The end-of-frame event of a device: calls TransmitComplete. The device keeps one and
 * schedules it again for every frame on a busy port (ns-3's scheduler holds a reference per
 * pending schedule and releases it after the event ran): no event object is made or
 * destroyed per frame. Nothing cancels it.
 */
class RdmaNetDevice::TxCompleteEvent : public RdmaSimulatorImpl::DirectEvent
{
  public:
    /// \param device the device
    explicit TxCompleteEvent(RdmaNetDevice* device)
        : m_device(device)
    {
    }

    /// The device is disposed: a pending schedule does nothing.
    void Detach()
    {
        m_device = nullptr;
    }

    void Fire() override
    {
        if (m_device)
        {
            m_device->TransmitComplete();
        }
    }

    void Prefetch(uint32_t stage) const override
    {
        if (m_device)
        {
            m_device->PrefetchTransmit(stage);
        }
    }

  private:
    RdmaNetDevice* m_device; //!< the device (it owns this event), null once disposed
};

/**
 * The Ethernet II header of an IPv4 frame as 14 ready bytes. Adding it to a packet costs a
 * copy; an ns3::EthernetHeader would rebuild and serialize two Mac48Address objects per
 * frame. It reports ns3::EthernetHeader as its instance TypeId, so packet metadata (printing,
 * ascii traces) and RemoveHeader(EthernetHeader) see exactly what an EthernetHeader would
 * have left: the bytes are the same. On a router's port it also carries the first 12 bytes
 * of the IPv4 header with the TTL decremented (SetDecrementedIpv4Head), in place of those
 * the packet had: then metadata shows one 26-byte item whose first 14 bytes print as the
 * Ethernet header.
 */
class RdmaNetDevice::Ipv4FrameHeader : public Header
{
  public:
    /// Bytes of the IPv4 header a TTL update rewrites: version .. header checksum.
    static constexpr uint32_t IPV4_HEAD_BYTES = 12;
    /// ... and with the rest of the bytes a switch reads (addresses and transport ports).
    static constexpr uint32_t ROUTE_HEAD_BYTES = RdmaPortHandler::ROUTE_HEAD_BYTES;

    /**
     * Serialize the header once.
     * \param source the source MAC address
     * \param destination the destination MAC address
     */
    void Set(Mac48Address source, Mac48Address destination)
    {
        m_source = source;
        m_destination = destination;
        destination.CopyTo(m_bytes);
        source.CopyTo(m_bytes + 6);
        m_bytes[12] = static_cast<uint8_t>(ETHERTYPE_IPV4 >> 8);
        m_bytes[13] = static_cast<uint8_t>(ETHERTYPE_IPV4 & 0xff);
    }

    /**
     * Carry, after the Ethernet header, the first 12 bytes of the IPv4 header with the TTL
     * one lower (the caller removes those bytes from the packet): a router's hop is then one
     * header write instead of two. With routeBytes, the 12 bytes after them too (addresses
     * and transport ports, unchanged), for the next switch to read beside the packet.
     * \param ipv4Head the packet's first 12 bytes (ROUTE_HEAD_BYTES with routeBytes), TTL not
     *        yet decremented
     * \param routeBytes carry ROUTE_HEAD_BYTES instead of 12
     */
    void SetDecrementedIpv4Head(const uint8_t* ipv4Head, bool routeBytes)
    {
        uint8_t* out = m_bytes + ETHERNET_HEADER_BYTES;
        // Constant sizes: no library call.
        if (routeBytes)
        {
            std::memcpy(out, ipv4Head, ROUTE_HEAD_BYTES);
        }
        else
        {
            std::memcpy(out, ipv4Head, IPV4_HEAD_BYTES);
        }
        if (ipv4Head[10] != 0 || ipv4Head[11] != 0) // a zero checksum is "not computed"
        {
            const uint16_t c =
                TtlDecrementChecksum(static_cast<uint16_t>((ipv4Head[10] << 8) | ipv4Head[11]),
                                     ipv4Head[8],
                                     ipv4Head[9]);
            out[10] = static_cast<uint8_t>(c >> 8);
            out[11] = static_cast<uint8_t>(c);
        }
        out[8] = static_cast<uint8_t>(ipv4Head[8] - 1);
        m_size = ETHERNET_HEADER_BYTES + (routeBytes ? ROUTE_HEAD_BYTES : IPV4_HEAD_BYTES);
    }

    /**
     * Carry, after the Ethernet header, the packet's first ROUTE_HEAD_BYTES as they are (a
     * host's port: no TTL to decrement), for the switch to read beside the packet.
     * \param ipv4Head the packet's first ROUTE_HEAD_BYTES
     */
    void SetIpv4Head(const uint8_t* ipv4Head)
    {
        std::memcpy(m_bytes + ETHERNET_HEADER_BYTES, ipv4Head, ROUTE_HEAD_BYTES);
        m_size = ETHERNET_HEADER_BYTES + ROUTE_HEAD_BYTES;
    }

    /// Carry the Ethernet header alone.
    void ClearIpv4Head()
    {
        m_size = ETHERNET_HEADER_BYTES;
    }

    /**
     * Carry a head received beside its packet (RdmaNetDevice::WriteHead).
     * \param head the Ethernet header, possibly followed by the first 12 or 24 IPv4 bytes
     * \param headBytes 14, 26 or 38
     */
    void SetHead(const uint8_t* head, uint32_t headBytes)
    {
        std::copy(head, head + headBytes, m_bytes);
        m_destination.CopyFrom(head);
        m_source.CopyFrom(head + 6);
        m_size = headBytes;
    }

    /// \return the serialized bytes (GetSerializedSize of them)
    const uint8_t* GetBytes() const
    {
        return m_bytes;
    }

    // For printing, the frame's header is an Ethernet header (the IPv4 bytes it may carry
    // are those of the packet's own IPv4 header, which ns-3's metadata already describes).
    TypeId GetInstanceTypeId() const override
    {
        // Asked by ns-3's packet metadata on every header write: look it up once.
        static const TypeId tid = EthernetHeader::GetTypeId();
        return tid;
    }

    uint32_t GetSerializedSize() const override
    {
        return m_size;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        start.Write(m_bytes, m_size);
    }

    uint32_t Deserialize(Buffer::Iterator start) override
    {
        start.Read(m_bytes, ETHERNET_HEADER_BYTES);
        m_size = ETHERNET_HEADER_BYTES;
        return ETHERNET_HEADER_BYTES;
    }

    void Print(std::ostream& os) const override
    {
        os << "length/type=0x" << std::hex << ETHERTYPE_IPV4 << std::dec << ", source=" << m_source
           << ", destination=" << m_destination;
    }

  private:
    uint8_t m_bytes[ETHERNET_HEADER_BYTES + ROUTE_HEAD_BYTES]{};
    uint32_t m_size{ETHERNET_HEADER_BYTES};
    Mac48Address m_source;
    Mac48Address m_destination;
};

TypeId
RdmaNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&RdmaNetDevice::SetDataRate, &RdmaNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "The MAC-level Maximum Transmission Unit: the largest IPv4 packet a "
                          "frame carries (9000: jumbo frames, needed for RoCE MTU 4096)",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RdmaNetDevice::SetMtu, &RdmaNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Address",
                          "The MAC address of this device",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&RdmaNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("SchedulingPolicy",
                          "How the port chooses among non-empty, unpaused class queues",
                          EnumValue(RdmaNetDevice::STRICT_PRIORITY),
                          MakeEnumAccessor(&RdmaNetDevice::m_policy),
                          MakeEnumChecker(RdmaNetDevice::STRICT_PRIORITY,
                                          "StrictPriority",
                                          RdmaNetDevice::ROUND_ROBIN,
                                          "RoundRobin"))
            .AddAttribute("Framing",
                          "What a frame costs on the wire: Ethernet (real: FCS, padding to 64 "
                          "bytes, preamble, SFD, inter-frame gap) or HpccSimulator (the bytes "
                          "of the HPCC simulator's packets, for comparisons with it: data "
                          "payload + 36 + HpccIntBytes, ACK 48, CNP 0, PFC 31)",
                          EnumValue(RdmaNetDevice::ETHERNET),
                          MakeEnumAccessor(&RdmaNetDevice::m_framing),
                          MakeEnumChecker(RdmaNetDevice::ETHERNET,
                                          "Ethernet",
                                          RdmaNetDevice::HPCC_SIMULATOR,
                                          "HpccSimulator"))
            .AddAttribute("HpccIntBytes",
                          "Framing HpccSimulator: the INT header the HPCC simulator adds to "
                          "data packets and ACKs for its congestion control (IntHeader::"
                          "GetStaticSize: 0 for DCQCN and DCTCP, 42 for HPCC, 8 for TIMELY, "
                          "1 or 2 for HPCC-PINT)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNetDevice::m_hpccIntBytes),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("LinkFlowControl",
                          "The link flow control (an RdmaLinkFlowControl, one per device): "
                          "ns3::RdmaPfcFlowControl (IEEE 802.1Qbb PFC, the default) or "
                          "ns3::RdmaCreditFlowControl (InfiniBand-style credits). Both ends "
                          "of a link must use the same kind.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNetDevice::SetLinkFlowControl,
                                              &RdmaNetDevice::GetLinkFlowControl),
                          MakePointerChecker<RdmaLinkFlowControl>())
            .AddAttribute(
                "LinkFraming",
                "A scale-up link framing that charges frames in place of Framing "
                "(an RdmaLinkFraming: ns3::RdmaUalinkFlitFraming, "
                "ns3::RdmaCompressedHeaderFraming); none (the default): Ethernet. "
                "Both ends of a link must use the same.",
                PointerValue(),
                MakePointerAccessor(&RdmaNetDevice::SetLinkFraming, &RdmaNetDevice::GetLinkFraming),
                MakePointerChecker<RdmaLinkFraming>())
            .AddAttribute(
                "LinkRetry",
                "Link-level retry (an RdmaLinkRetry, one per device; null, the "
                "default: none). Both ends of a link must run it.",
                PointerValue(),
                MakePointerAccessor(&RdmaNetDevice::SetLinkRetry, &RdmaNetDevice::GetLinkRetry),
                MakePointerChecker<RdmaLinkRetry>())
            .AddAttribute("ReceiveErrorModel",
                          "The receiver error model used to simulate frame loss",
                          PointerValue(),
                          MakePointerAccessor(&RdmaNetDevice::SetReceiveErrorModel,
                                              &RdmaNetDevice::GetReceiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "An IPv4 packet was accepted into a class queue or pulled from the "
                            "pull source for transmission",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "An IPv4 packet was received and is delivered up the stack "
                            "(Ethernet header removed)",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame (Ethernet header included) began serialization",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame finished serialization (inter-frame gap included)",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame was completely received",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped (error model, malformed MAC control "
                            "frame or unsupported EtherType)",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "A complete frame (Ethernet header included) at transmission start "
                            "and at reception",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "A complete frame (Ethernet header included) at transmission start "
                            "and at reception; pcap tracing (DLT_EN10MB) hooks here",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was queued for transmission; fired once per class "
                            "whose enable bit is set",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_pfcTxTrace),
                            "ns3::RdmaNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame was received; fired once per class whose enable bit "
                            "is set",
                            MakeTraceSourceAccessor(&RdmaNetDevice::m_pfcRxTrace),
                            "ns3::RdmaNetDevice::PfcTracedCallback");
    return tid;
}

namespace
{

/**
 * Give ns-3's packet buffers room for this module's headers, once per process.
 *
 * ns-3's Buffer (src/network/model/buffer.cc) keeps freed data areas on a free list, but only
 * those at least as large as the largest it has seen, and gives a new packet
 * min(area size, largest header run seen) bytes of room in front. A RoCEv2 packet is built
 * from a zero-filled payload by two header additions (IPv4 to BTH, then Ethernet), so its area
 * is sized exactly to its headers: 54 to 70 bytes, most below the largest, so most are freed,
 * the list stays empty and every new packet reallocates and copies its area twice (about 2 %
 * of the instructions of a DCQCN fabric run). Areas of HEADROOM + TAILROOM bytes put on the
 * list here are recycled for good: a packet gets HEADROOM bytes in front (Ethernet, IPv4, UDP,
 * BTH and RETH: 70) and TAILROOM behind (the INT area and ICRC: 48). Memory only: no result
 * depends on it. ns-3 keeps at most 1,000 areas, fewer than the packets alive in a loaded
 * fabric: the queue pairs build their packets so that the areas made for the rest are
 * recycled too (RdmaPacketRoom).
 */
void
ReservePacketBufferRoom()
{
    static bool done = false;
    if (done)
    {
        return;
    }
    done = true;
    constexpr uint32_t HEADROOM = 80;
    constexpr uint32_t TAILROOM = RdmaPacketRoom::AREA_BYTES - HEADROOM;
    constexpr uint32_t AREAS = 1000; // the most ns-3 keeps on its list
    static const uint8_t zeros[HEADROOM] = {};
    std::vector<Ptr<Packet>> packets;
    packets.reserve(AREAS);
    for (uint32_t i = 0; i < AREAS; ++i)
    {
        Ptr<Packet> p = Create<Packet>(zeros, HEADROOM); // an area with HEADROOM bytes in front
        p->AddPaddingAtEnd(TAILROOM);                    // ... and TAILROOM behind
        packets.push_back(p);
    }
}

/// \param classes a mask of traffic classes, not 0 \return the highest class in it
uint32_t
HighestClass(uint32_t classes)
{
    return 31 - static_cast<uint32_t>(__builtin_clz(classes));
}

} // namespace

RdmaNetDevice::RdmaNetDevice()
    : m_policy(STRICT_PRIORITY),
      m_mtu(9000),
      m_ipv4Header(std::make_unique<Ipv4FrameHeader>())
{
    m_txCompleteEvent = Create<TxCompleteEvent>(this);
    m_phyTxBeginTrace.Watch(&m_watched, WATCH_PHY_TX_BEGIN);
    m_snifferTrace.Watch(&m_watched, WATCH_SNIFFER);
    m_promiscSnifferTrace.Watch(&m_watched, WATCH_PROMISC_SNIFFER);
    m_phyTxEndTrace.Watch(&m_watched, WATCH_PHY_TX_END);
    m_phyRxEndTrace.Watch(&m_watched, WATCH_PHY_RX_END);
    m_macRxTrace.Watch(&m_watched, WATCH_MAC_RX);
    m_macTxTrace.Watch(&m_watched, WATCH_MAC_TX);
    NS_LOG_FUNCTION(this);
    ReservePacketBufferRoom();
    SetLinkFlowControl(nullptr);
}

RdmaNetDevice::~RdmaNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wakeUpEvent.Cancel();
    // A pending end-of-frame event does nothing.
    m_txCompleteEvent->Detach();
    m_wakeUpPending = false;
    m_node = nullptr;
    m_channel = nullptr;
    m_peer = nullptr;
    m_peerSide = NO_PEER_SIDE;
    m_portHandler = nullptr;
    m_handlerReadsRouteHead = false;
    m_receiveErrorModel = nullptr;
    SetWatched(WATCH_PEER_UNKNOWN, true);
    if (m_flowControl)
    {
        m_flowControl->Dispose();
    }
    m_flowControl = nullptr;
    m_fc = nullptr;
    m_linkFraming = nullptr;
    if (m_linkRetry)
    {
        m_linkRetry->Dispose();
    }
    m_linkRetry = nullptr;
    m_lr = nullptr;
    m_currentFrame = nullptr;
    m_controlQueue.clear();
    for (uint32_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        while (!m_queues[cls].empty())
        {
            m_queues[cls].front().packet->Unref(); // the queue's reference
            m_queues[cls].pop_front();
        }
        m_queues[cls].clear();
        m_queueBytes[cls] = 0;
    }
    m_queuedClasses = 0;
    m_txPull = TxPullCallback();
    m_dequeueCallback = DequeueCallback();
    m_rxCallback = NetDevice::ReceiveCallback();
    m_rdmaRxCallback = RdmaReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    UpdateWatchedOptions();
    NetDevice::DoDispose();
}

bool
RdmaNetDevice::Attach(Ptr<RdmaChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(!channel, "RdmaNetDevice::Attach: null channel");
    NS_ABORT_MSG_IF(m_channel,
                    "RdmaNetDevice::Attach: device " << m_address
                                                     << " is already attached to a channel");
    m_channel = channel;
    m_channel->Attach(this);
    m_linkChangeCallbacks();
    return true;
}

void
RdmaNetDevice::Enqueue(const Ptr<Packet>& packet, uint8_t cls)
{
    NS_ABORT_MSG_IF(!packet, "RdmaNetDevice::Enqueue: null packet");
    Ptr<Packet> reference = packet; // the queue's own
    EnqueueTaking(reference, cls, packet->GetSize());
}

void
RdmaNetDevice::EnqueueTaking(Ptr<Packet>& packet, uint8_t cls, uint32_t size)
{
    NS_LOG_FUNCTION(this << packet << +cls << size);
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::Enqueue: traffic class " << +cls
                                                             << " is invalid; valid classes are "
                                                                "0.."
                                                             << NUM_CLASSES - 1);
    NS_ABORT_MSG_IF(size > m_mtu,
                    "RdmaNetDevice::Enqueue: packet of " << size << " bytes exceeds the MTU of "
                                                         << m_mtu << " bytes");
    NS_ASSERT_MSG(packet && packet->GetSize() == size,
                  "RdmaNetDevice::EnqueueTaking: size " << size << " is not the packet's");
    m_queueBytes[cls] += size;
    m_macTxBytes += size;
    if (m_watched & WATCH_MAC_TX)
    {
        m_macTxTrace(packet);
    }
    m_queues[cls].push_back(QueuedPacket{RdmaTakeReference(packet), size});
    m_queuedClasses |= static_cast<uint8_t>(1U << cls);
    TryTransmit();
}

void
RdmaNetDevice::SendPfc(uint8_t classEnableVector, const std::array<uint16_t, NUM_CLASSES>& quanta)
{
    NS_LOG_FUNCTION(this << +classEnableVector);
    PfcPauseHeader pfc;
    pfc.SetClassEnableVector(classEnableVector);
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (classEnableVector & (1U << cls))
        {
            pfc.SetQuanta(cls, quanta[cls]);
        }
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    AddEthernetHeader(frame, ETHERTYPE_MAC_CONTROL);
    m_controlQueue.push_back(frame);
    ++m_pfcSent;
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (classEnableVector & (1U << cls))
        {
            m_pfcTxTrace(cls, quanta[cls]);
        }
    }
    TryTransmit();
}

void
RdmaNetDevice::SendControlFrame(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_controlQueue.push_back(frame);
    TryTransmit();
}

void
RdmaNetDevice::SetLinkFlowControl(Ptr<RdmaLinkFlowControl> flowControl)
{
    NS_LOG_FUNCTION(this << flowControl);
    if (!flowControl)
    {
        if (m_flowControl)
        {
            return; // the attribute's null initial value: keep what is there
        }
        flowControl = CreateObject<RdmaPfcFlowControl>();
    }
    if (m_flowControl && m_flowControl != flowControl)
    {
        m_flowControl->Dispose();
    }
    m_flowControl = flowControl;
    m_fc = PeekPointer(flowControl);
    m_fc->SetDevice(this);
}

void
RdmaNetDevice::SetLinkFraming(Ptr<RdmaLinkFraming> framing)
{
    NS_LOG_FUNCTION(this << framing);
    NS_ABORT_MSG_IF(framing && m_framing != ETHERNET,
                    "RdmaNetDevice: LinkFraming " << framing->GetInstanceTypeId().GetName()
                                                  << " with Framing HpccSimulator; valid: "
                                                     "one of the two");
    m_linkFraming = framing;
    UpdateWatchedOptions();
    if (framing)
    {
        framing->SetDevice(this);
    }
}

Ptr<RdmaLinkFraming>
RdmaNetDevice::GetLinkFraming() const
{
    return m_linkFraming;
}

Ptr<RdmaLinkFlowControl>
RdmaNetDevice::GetLinkFlowControl() const
{
    return m_flowControl;
}

void
RdmaNetDevice::SetLinkRetry(Ptr<RdmaLinkRetry> linkRetry)
{
    NS_LOG_FUNCTION(this << linkRetry);
    if (m_linkRetry && m_linkRetry != linkRetry)
    {
        m_linkRetry->Dispose();
    }
    m_linkRetry = linkRetry;
    m_lr = PeekPointer(linkRetry);
    UpdateWatchedOptions();
    if (m_lr)
    {
        m_lr->SetDevice(this);
    }
}

Ptr<RdmaLinkRetry>
RdmaNetDevice::GetLinkRetry() const
{
    return m_linkRetry;
}

void
RdmaNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    NS_LOG_FUNCTION(this << model);
    m_receiveErrorModel = model;
    UpdateWatchedOptions();
}

Ptr<ErrorModel>
RdmaNetDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
}

void
RdmaNetDevice::TriggerTransmit()
{
    NS_LOG_FUNCTION(this);
    TryTransmit();
}

void
RdmaNetDevice::SetTxPullCallback(TxPullCallback cb)
{
    m_txPull = cb;
}

void
RdmaNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
}

void
RdmaNetDevice::SetPortHandler(RdmaPortHandler* handler, uint32_t port)
{
    m_portHandler = handler;
    m_handlerPort = port;
    m_handlerReadsRouteHead =
        handler && handler->GetHeadBytesRead() <= RdmaPortHandler::ROUTE_HEAD_BYTES;
    UpdateWatchedOptions();
    if (m_channel && m_channel->GetNDevices() == 2)
    {
        // The peer's senders read this once (LearnPeerHandler): make it read again.
        GetPeerDevice()->SetWatched(WATCH_PEER_UNKNOWN, true);
    }
}

void
RdmaNetDevice::UpdateWatchedOptions()
{
    SetWatched(WATCH_ERROR_MODEL, m_receiveErrorModel != nullptr);
    SetWatched(WATCH_PROMISC_CALLBACK, !m_promiscRxCallback.IsNull());
    SetWatched(WATCH_LINK_RETRY, m_lr != nullptr);
    SetWatched(WATCH_LINK_FRAMING, m_linkFraming != nullptr);
    SetWatched(WATCH_NO_PORT_HANDLER, m_portHandler == nullptr);
}

void
RdmaNetDevice::LearnPeerHandler()
{
    const RdmaNetDevice* peer = GetPeerDevice();
    SetWatched(WATCH_PEER_NO_HANDLER, peer->m_portHandler == nullptr);
    m_peerReadsRouteHead = peer->m_handlerReadsRouteHead;
    SetWatched(WATCH_PEER_UNKNOWN, false);
}

void
RdmaNetDevice::SetDecrementTtl(bool decrement)
{
    m_decrementTtl = decrement;
}

bool
RdmaNetDevice::GetDecrementTtl() const
{
    return m_decrementTtl;
}

uint16_t
RdmaNetDevice::TtlDecrementChecksum(uint16_t checksum, uint8_t ttl, uint8_t protocol)
{
    // RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), one's complement sums of 16-bit words, with
    // m the word holding TTL and protocol before the change and m' after it.
    const uint16_t m = static_cast<uint16_t>((ttl << 8) | protocol);
    const uint16_t m1 = static_cast<uint16_t>(((ttl - 1) << 8) | protocol);
    uint32_t sum = uint32_t(static_cast<uint16_t>(~checksum)) + static_cast<uint16_t>(~m) + m1;
    sum = (sum & 0xffffU) + (sum >> 16);
    sum = (sum & 0xffffU) + (sum >> 16);
    return static_cast<uint16_t>(~sum);
}

bool
RdmaNetDevice::IsClassPaused(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::IsClassPaused: traffic class "
                        << +cls << " is invalid; valid classes are 0.." << NUM_CLASSES - 1);
    return (m_fc->GetBlockedMask(RdmaSimulatorImpl::CurrentTime()) >> cls) & 1U;
}

uint8_t
RdmaNetDevice::GetPausedMask() const
{
    return PausedMaskAt(RdmaSimulatorImpl::CurrentTime());
}

uint8_t
RdmaNetDevice::PausedMaskAt(Time now) const
{
    return m_fc->GetBlockedMask(now); // inline: one comparison while nothing is blocked
}

bool
RdmaNetDevice::IsBusy() const
{
    return RdmaSimulatorImpl::CurrentTime() < m_txEnd;
}

uint32_t
RdmaNetDevice::GetQueueBytes(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::GetQueueBytes: traffic class "
                        << +cls << " is invalid; valid classes are 0.." << NUM_CLASSES - 1);
    return m_queueBytes[cls];
}

Ptr<Packet>
RdmaNetDevice::RemoveQueuedPacket(uint8_t cls)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::RemoveQueuedPacket: traffic class "
                        << +cls << " is invalid; valid classes are 0.." << NUM_CLASSES - 1);
    uint32_t size;
    return m_queues[cls].empty() ? nullptr : PopQueued(cls, size);
}

Ptr<Packet>
RdmaNetDevice::PopQueued(uint32_t cls, uint32_t& size)
{
    const QueuedPacket slot = m_queues[cls].front();
    m_queues[cls].pop_front();
    Ptr<Packet> packet(slot.packet, false); // adopts the queue's reference
    size = slot.size;
    m_queueBytes[cls] -= size;
    if (m_queues[cls].empty())
    {
        m_queuedClasses &= static_cast<uint8_t>(~(1U << cls));
    }
    return packet;
}

Time
RdmaNetDevice::GetLastPauseReceived(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::GetLastPauseReceived: traffic class "
                        << +cls << " is invalid; valid classes are 0.." << NUM_CLASSES - 1);
    const auto pfc = DynamicCast<RdmaPfcFlowControl>(m_flowControl);
    return pfc ? pfc->GetLastPauseReceived(cls) : Time::Min();
}

uint32_t
RdmaNetDevice::GetQueuePackets(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaNetDevice::GetQueuePackets: traffic class "
                        << +cls << " is invalid; valid classes are 0.." << NUM_CLASSES - 1);
    return static_cast<uint32_t>(m_queues[cls].size());
}

DataRate
RdmaNetDevice::GetDataRate() const
{
    return m_dataRate;
}

void
RdmaNetDevice::SetDataRate(DataRate rate)
{
    // Refused here, where every helper sets the rate: a 0 bit/s port would divide by zero
    // in the serialization time and in the queue pairs' pacing.
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "RdmaNetDevice::SetDataRate: rate " << rate
                                                        << " is not valid; valid: > 0 bit/s");
    m_dataRate = rate;
    m_bitRate = rate.GetBitRate();
}

uint32_t
RdmaNetDevice::WireBytes(uint32_t frameBytes)
{
    return std::max(frameBytes + FCS_BYTES, MIN_FRAME_BYTES) + PREAMBLE_SFD_BYTES + IFG_BYTES;
}

namespace
{

// The peer's headers (HPCC repository, simulation/src): PppHeader 2, Ipv4Header 20,
// UdpHeader 8, SeqTsHeader 6 (seq 4, pg 2), qbbHeader 12 (ports, flags, pg, seq),
// PauseHeader 9.
constexpr uint32_t PEER_PPP = 2;
constexpr uint32_t PEER_IPV4 = 20;
constexpr uint32_t PEER_DATA = PEER_PPP + PEER_IPV4 + 8 + 6;
constexpr uint32_t PEER_QBB = 12;
// RdmaHw::ReceiveUdp pads the qbb header to 60 - 14 - 20 bytes.
constexpr uint32_t PEER_ACK_MIN = 60 - 14 - 20;
constexpr uint32_t PEER_PFC = PEER_PPP + PEER_IPV4 + 9;
// Byte offsets in an IPv4 packet: UDP 20, BTH 28.
constexpr uint32_t IP_UDP = 20;
constexpr uint32_t IP_BTH = IP_UDP + 8;
constexpr uint32_t IP_PREFIX = IP_BTH + RdmaBthHeader::SIZE;

/**
 * The HPCC simulator's bytes for the packet whose IPv4 header starts at ip.
 * \param ip the first bytes of the IPv4 packet
 * \param n how many of them there are (at most IP_PREFIX are read)
 * \param intBytes the peer's INT header
 * \return wire bytes
 */
uint32_t
HpccSimulatorIpv4Bytes(const uint8_t* ip, uint32_t n, uint32_t intBytes)
{
    constexpr uint32_t ICRC = 4;
    constexpr uint32_t ROCEV2_UDP_PORT = 4791; // IANA; IBTA vol. 1 annex A17.3.5
    const uint32_t ipBytes = n >= 4 ? uint32_t((ip[2] << 8) | ip[3]) : n;
    if (n < IP_PREFIX || ip[9] != 17 || ((ip[IP_UDP + 2] << 8) | ip[IP_UDP + 3]) != ROCEV2_UDP_PORT)
    {
        return PEER_PPP + ipBytes; // not RoCEv2
    }
    const uint8_t opcode = ip[IP_BTH];
    if (opcode == CNP)
    {
        return 0;
    }
    if (opcode == RC_ACKNOWLEDGE || opcode == RC_READ_REQUEST)
    {
        return PEER_PPP + PEER_IPV4 + std::max(PEER_QBB + intBytes, PEER_ACK_MIN);
    }
    const uint32_t udpBytes = (ip[IP_UDP + 4] << 8) | ip[IP_UDP + 5];
    const uint32_t padBytes = (ip[IP_BTH + 1] >> 4) & 3;
    const uint32_t extBytes =
        (RdmaBthHeader::HasReth(opcode) ? RdmaRethHeader::SIZE : 0) +
        (RdmaBthHeader::HasAeth(opcode) ? RdmaAethHeader::SIZE : 0) +
        (RdmaBthHeader::HasImmediate(opcode) ? 4 : 0) +
        (RdmaBthHeader::HasAtomicEth(opcode) ? RdmaAtomicEthHeader::SIZE : 0) +
        (RdmaBthHeader::HasAtomicAckEth(opcode) ? RdmaAtomicAckEthHeader::SIZE : 0);
    const uint32_t headers = 8 + RdmaBthHeader::SIZE + extBytes + padBytes + ICRC;
    const uint32_t payload = udpBytes > headers ? udpBytes - headers : 0;
    return PEER_DATA + intBytes + payload;
}

} // namespace

uint32_t
RdmaNetDevice::HpccSimulatorWireBytes(const Ptr<const Packet>& frame, uint32_t intBytes)
{
    uint8_t b[ETHERNET_HEADER_BYTES + IP_PREFIX];
    const uint32_t n = frame->CopyData(b, sizeof(b));
    if (n < ETHERNET_HEADER_BYTES || ((b[12] << 8) | b[13]) != ETHERTYPE_IPV4)
    {
        return PEER_PFC; // MAC control: PFC
    }
    return HpccSimulatorIpv4Bytes(b + ETHERNET_HEADER_BYTES, n - ETHERNET_HEADER_BYTES, intBytes);
}

uint32_t
RdmaNetDevice::GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const
{
    if (m_linkFraming)
    {
        return m_linkFraming->GetPacketWireBytes(ipv4Packet);
    }
    if (m_framing == ETHERNET)
    {
        return WireBytes(ipv4Packet->GetSize() + ETHERNET_HEADER_BYTES);
    }
    uint8_t b[IP_PREFIX];
    const uint32_t n = ipv4Packet->CopyData(b, sizeof(b));
    return HpccSimulatorIpv4Bytes(b, n, m_hpccIntBytes);
}

Time
RdmaNetDevice::GetWireTime(uint32_t frameBytes) const
{
    return m_dataRate.CalculateBytesTxTime(WireBytes(frameBytes));
}

Time
RdmaNetDevice::SerializationTimeCarried(uint32_t wireBytes)
{
    // Exact rational arithmetic in simulator time steps, carrying the remainder to the
    // next frame: the long-run rate is exact at any Time resolution (at the default 1 ns
    // a 100 Gb/s frame of 88.48 ns would otherwise be cut to 88 ns, 0.5 % too fast).
    const uint64_t bitRate = m_bitRate;
    if (bitRate != m_stepsPerByteRate)
    {
        m_stepsPerByteRate = bitRate;
        const unsigned __int128 perSecond8 =
            static_cast<unsigned __int128>(Seconds(1).GetTimeStep()) * 8;
        m_stepsPerByte =
            perSecond8 % bitRate == 0 ? static_cast<uint64_t>(perSecond8 / bitRate) : 0;
    }
    if (m_stepsPerByte != 0 && m_txTimeCarry == 0)
    {
        return TimeStep(wireBytes * m_stepsPerByte); // exact: 100 Gb/s in ps is 80 per byte
    }
    const unsigned __int128 stepsPerSecond =
        static_cast<unsigned __int128>(Seconds(1).GetTimeStep());
    const unsigned __int128 numerator =
        static_cast<unsigned __int128>(wireBytes) * 8 * stepsPerSecond + m_txTimeCarry;
    m_txTimeCarry = static_cast<uint64_t>(numerator % bitRate);
    return TimeStep(static_cast<uint64_t>(numerator / bitRate));
}

Time
RdmaNetDevice::GetQuantumTime() const
{
    return m_dataRate.CalculateBitsTxTime(512);
}

uint32_t
RdmaNetDevice::PickClass(uint8_t pausedMask)
{
    const uint32_t eligible = m_queuedClasses & ~static_cast<uint32_t>(pausedMask);
    if (eligible == 0)
    {
        return NUM_CLASSES;
    }
    if (m_policy == STRICT_PRIORITY)
    {
        return HighestClass(eligible);
    }
    for (uint32_t k = 0; k < NUM_CLASSES; ++k)
    {
        uint32_t i = (m_rrNext + k) % NUM_CLASSES;
        if (eligible & (1U << i))
        {
            m_rrNext = (i + 1) % NUM_CLASSES;
            return i;
        }
    }
    return NUM_CLASSES;
}

// Asked once per frame, from TryTransmit only: inline there.
__attribute__((always_inline)) inline bool
RdmaNetDevice::CanSendHeadBeside()
{
    // The receiver checks its own observers when the frame arrives (ReceiveWithHead).
    if (m_watched & WATCH_PEER_UNKNOWN)
    {
        LearnPeerHandler(); // once, and after the peer's handler changed
    }
    return !(m_watched & TX_WHOLE_FRAME) && m_channel->CarriesFrameHeads() &&
           RdmaPacketRoom::IsMetadataOff();
}

void
RdmaNetDevice::TryTransmit()
{
    NS_LOG_FUNCTION(this);
    if (!m_channel)
    {
        return;
    }
    const Time now = RdmaSimulatorImpl::CurrentTime();
    if (now < m_txEnd)
    {
        // Still serializing: make sure the end of the frame wakes us (see StartTransmission).
        if (m_txCompleteAt != m_txEnd)
        {
            ScheduleTransmitComplete(m_txEnd - now);
        }
        return;
    }
    if (!m_controlQueue.empty())
    {
        StartTransmission(m_controlQueue.take_front(), now);
        return;
    }
    if (m_lr)
    {
        // Link-level retry: a replay goes before any new frame; none starts while the replay
        // buffer is full (an ACK that frees it triggers the device again).
        if (m_lr->HasReplay())
        {
            StartTransmission(m_lr->NextReplayFrame(), now);
            return;
        }
        if (!m_lr->CanSendNew())
        {
            return;
        }
    }
    const uint8_t paused = m_fc->GetBlockedMask(now); // inline: no call while none is blocked
    const uint32_t cls = PickClass(paused);
    if (cls < NUM_CLASSES)
    {
        uint32_t size;
        Ptr<Packet> packet = PopQueued(cls, size);
        if (m_fc->WantsTransmitNotifications())
        {
            m_fc->NotifyTransmit(static_cast<uint8_t>(cls), size);
        }
        if (m_portHandler)
        {
            m_portHandler->HandleDequeue(m_handlerPort, packet, static_cast<uint8_t>(cls), size);
        }
        if (!m_dequeueCallback.IsNull()) // a NIC's port may have both
        {
            m_dequeueCallback(this, packet, static_cast<uint8_t>(cls));
            size = packet->GetSize(); // the callback may have resized it
        }
        if (CanSendHeadBeside())
        {
            StartTransmissionWithHead(packet, size, now);
            return;
        }
        AddIpv4EthernetHeader(packet);
        if (m_lr)
        {
            m_lr->SendNew(packet); // sequence number appended, frame kept for replay
        }
        StartTransmission(packet, now);
        return;
    }
    if (!m_txPull.IsNull())
    {
        uint8_t pulledCls = NUM_CLASSES;
        Ptr<Packet> packet = m_txPull(paused, &pulledCls);
        if (packet)
        {
            NS_ABORT_MSG_IF(pulledCls >= NUM_CLASSES,
                            "RdmaNetDevice: the pull source returned traffic class "
                                << +pulledCls << "; valid classes are 0.." << NUM_CLASSES - 1);
            NS_ABORT_MSG_IF(paused & (1U << pulledCls),
                            "RdmaNetDevice: the pull source returned a packet of class "
                                << +pulledCls << ", which is paused (paused mask 0x" << std::hex
                                << +paused << std::dec << ")");
            NS_ABORT_MSG_IF(packet->GetSize() > m_mtu,
                            "RdmaNetDevice: pulled packet of "
                                << packet->GetSize() << " bytes exceeds the MTU of " << m_mtu
                                << " bytes");
            m_macTxBytes += packet->GetSize();
            if (m_watched & WATCH_MAC_TX)
            {
                m_macTxTrace(packet);
            }
            if (m_fc->WantsTransmitNotifications())
            {
                m_fc->NotifyTransmit(pulledCls, packet->GetSize());
            }
            if (CanSendHeadBeside())
            {
                StartTransmissionWithHead(packet, packet->GetSize(), now);
                return;
            }
            AddIpv4EthernetHeader(packet);
            if (m_lr)
            {
                m_lr->SendNew(packet);
            }
            StartTransmission(packet, now);
            return;
        }
    }
    ScheduleWakeUp();
}

void
RdmaNetDevice::ScheduleTransmitComplete(Time delay)
{
    // In this node's context, as Simulator::Schedule from the node's own events would; no
    // EventId is made (nothing cancels it). The scheduler releases this reference after the
    // event ran (or at Simulator::Destroy).
    m_txCompleteEvent->Ref();
    RdmaSimulatorImpl::ScheduleDirectNow(m_node ? m_nodeId : RdmaSimulatorImpl::CurrentContext(),
                                         delay,
                                         PeekPointer(m_txCompleteEvent));
    m_txCompleteAt = m_txEnd;
}

void
RdmaNetDevice::StartTransmission(const Ptr<Packet>& frame, Time now)
{
    NS_LOG_FUNCTION(this << frame);
    NS_ASSERT_MSG(now >= m_txEnd, "RdmaNetDevice: transmission started while busy");
    // The channel takes the frame itself (no copy); keep a copy only for PhyTxEnd sinks.
    if (!m_phyTxEndTrace.IsEmpty())
    {
        m_currentFrame = frame->Copy();
    }
    uint32_t wireBytes;
    Time wireTime;
    Time delivery;
    if (m_linkFraming)
    {
        const RdmaLinkFraming::FrameCost cost = m_linkFraming->StartFrame(frame, now);
        wireBytes = cost.wireBytes;
        wireTime = cost.timed ? cost.busy : SerializationTime(wireBytes);
        delivery = cost.timed ? cost.delivery : wireTime;
    }
    else
    {
        wireBytes = m_framing == ETHERNET ? WireBytes(frame->GetSize())
                                          : HpccSimulatorWireBytes(frame, m_hpccIntBytes);
        wireTime = SerializationTime(wireBytes);
        delivery = wireTime;
    }
    ++m_txFrames;
    m_txWireBytes += wireBytes;
    // Traces are tested for sinks first: calling an empty one still copies a Ptr per call.
    if (!m_phyTxBeginTrace.IsEmpty())
    {
        m_phyTxBeginTrace(frame);
    }
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }
    m_txEnd = now + wireTime;
    m_channel->TransmitStart(frame, this, delivery);
    // The end of a frame needs an event only if something may be sent next or a PhyTxEnd
    // sink listens; otherwise TryTransmit schedules it when work arrives during the frame.
    // An uncongested switch port thus costs one event per frame instead of two.
    if (!m_controlQueue.empty() || !m_txPull.IsNull() || m_currentFrame || HasQueuedPackets() ||
        m_lr)
    {
        ScheduleTransmitComplete(wireTime);
    }
}

void
RdmaNetDevice::StartTransmissionWithHead(Ptr<Packet>& packet, uint32_t size, Time now)
{
    NS_LOG_FUNCTION(this << packet << size);
    NS_ASSERT_MSG(now >= m_txEnd, "RdmaNetDevice: transmission started while busy");
    NS_ASSERT_MSG(packet->GetSize() == size,
                  "RdmaNetDevice::StartTransmissionWithHead: size " << size
                                                                    << " is not the packet's");
    const bool replaces = PrepareIpv4EthernetHeader(packet, size);
    const uint8_t* head = m_ipv4Header->GetBytes();
    const uint32_t headBytes = m_ipv4Header->GetSerializedSize();
    // The wire bytes of the frame the head and the packet make (StartTransmission's).
    uint32_t wireBytes;
    if (m_framing == ETHERNET)
    {
        wireBytes = WireBytes(size + ETHERNET_HEADER_BYTES);
    }
    else
    {
        uint8_t b[IP_PREFIX];
        const uint32_t n = packet->CopyData(b, sizeof(b));
        if (replaces)
        {
            std::copy(head + ETHERNET_HEADER_BYTES, head + headBytes, b);
        }
        wireBytes = HpccSimulatorIpv4Bytes(b, n, m_hpccIntBytes);
    }
    const Time wireTime = SerializationTime(wireBytes);
    ++m_txFrames;
    ++m_txFramesHeadBeside;
    m_txWireBytes += wireBytes;
    m_txEnd = now + wireTime;
    if (m_peerSide == NO_PEER_SIDE)
    {
        m_peerSide = m_channel->SideOf(this);
    }
    m_channel->TransmitStartWithHead(packet, size, m_peerSide, wireTime, head, headBytes);
    // No PhyTxEnd sink and no link-level retry here (CanSendHeadBeside): as StartTransmission.
    if (!m_controlQueue.empty() || !m_txPull.IsNull() || HasQueuedPackets())
    {
        ScheduleTransmitComplete(wireTime);
    }
}

void
RdmaNetDevice::PrefetchTransmit(uint32_t stage) const
{
    if (stage == 1)
    {
        PrefetchFrameLines();
        return;
    }
    // The class strict priority serves next (a hint: pauses and round robin may differ).
    const uint32_t cls = m_queuedClasses ? HighestClass(m_queuedClasses) : 0;
    if (stage == 2)
    {
        __builtin_prefetch(m_fc);
        __builtin_prefetch(PeekPointer(m_channel));
        __builtin_prefetch(m_peer);
        if (!m_queues[cls].empty())
        {
            // Loaded, not prefetched (RdmaSimulatorImpl::Touch): stage 3 reads it on a host's
            // port, TryTransmit on every port.
            RdmaSimulatorImpl::Touch(&m_queues[cls].front());
        }
        return;
    }
    if (stage == 3)
    {
        if (!m_queues[cls].empty() && !m_decrementTtl)
        {
            // The packet itself, which a host's port reads (PrepareIpv4EthernetHeader); a
            // router's port reads no line of it (its size is in the slot, its head in the
            // switch's entry), unless a stage changed the head.
            RdmaSimulatorImpl::PrefetchLines(m_queues[cls].front().packet);
        }
        if (m_portHandler) // none where the receiver is a callback
        {
            RdmaSimulatorImpl::Touch(m_portHandler); // its virtual table pointer, for 4 and 5
        }
        return;
    }
    if (m_portHandler)
    {
        m_portHandler->PrefetchTransmit(m_handlerPort, cls, stage - 3);
    }
}

void
RdmaNetDevice::PrefetchReceive(const uint8_t* head, uint32_t headBytes, uint32_t stage) const
{
    // ReceiveWithHead's fast path, where the handler is given the route bytes beside.
    if (ReadsPacketAtArrival(headBytes))
    {
        return;
    }
    if (stage == 1)
    {
        RdmaSimulatorImpl::Touch(m_portHandler); // its virtual table pointer, for stages 2, 3
        return;
    }
    m_portHandler->PrefetchReceive(m_handlerPort,
                                   head + ETHERNET_HEADER_BYTES,
                                   RdmaPortHandler::ROUTE_HEAD_BYTES,
                                   stage - 1);
}

void
RdmaNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    if (m_currentFrame)
    {
        Ptr<Packet> frame = std::move(m_currentFrame);
        m_currentFrame = nullptr;
        m_phyTxEndTrace(frame);
    }
    TryTransmit();
}

void
RdmaNetDevice::PauseExpired()
{
    NS_LOG_FUNCTION(this);
    m_wakeUpPending = false;
    TryTransmit();
}

void
RdmaNetDevice::ScheduleWakeUp()
{
    NS_LOG_FUNCTION(this);
    const Time now = RdmaSimulatorImpl::CurrentTime();
    if (now >= m_fc->GetBlockHorizon() && !m_wakeUpPending)
    {
        return; // nothing paused, no wake-up to cancel (the common case)
    }
    if (m_wakeUpPending)
    {
        m_wakeUpEvent.Cancel();
        m_wakeUpPending = false;
    }
    if (now < m_txEnd)
    {
        return; // the end of the frame re-evaluates
    }
    // Classes with work: non-empty queues; with a pull source, any class may have work there.
    uint8_t work = 0xff;
    if (m_txPull.IsNull())
    {
        work = m_queuedClasses;
    }
    const Time earliest = m_fc->GetNextUnblockTime(now, work);
    if (earliest != Time::Max())
    {
        m_wakeUpEvent = Simulator::Schedule(earliest - now, &RdmaNetDevice::PauseExpired, this);
        m_wakeUpPending = true;
    }
}

void
RdmaNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        NS_LOG_LOGIC("frame " << frame->GetUid() << " corrupted by the error model");
        ++m_rxDrops;
        uint8_t eth[ETHERNET_HEADER_BYTES];
        const bool ipv4 = frame->CopyData(eth, sizeof(eth)) == sizeof(eth) &&
                          ((eth[12] << 8) | eth[13]) == ETHERTYPE_IPV4;
        if (ipv4)
        {
            m_ipv4CorruptedBytes +=
                frame->GetSize() - ETHERNET_HEADER_BYTES - (m_lr ? RdmaLinkRetryTrailer::SIZE : 0);
        }
        if (m_lr)
        {
            m_lr->NotifyCorrupted(ipv4); // a NAK asks for the replay
        }
        m_phyRxDropTrace(frame);
        return;
    }
    if (!m_phyRxEndTrace.IsEmpty())
    {
        m_phyRxEndTrace(frame);
    }
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }

    // Ethernet II header read from the raw bytes, together with the start of the IPv4 packet
    // for a port handler: one copy per hop, no Header object on the per-frame path.
    uint8_t eth[ETHERNET_HEADER_BYTES + RdmaPortHandler::HEAD_BYTES];
    const uint32_t copied = frame->CopyData(eth, sizeof(eth));
    if (copied < ETHERNET_HEADER_BYTES)
    {
        NS_LOG_LOGIC("dropping a runt frame of " << frame->GetSize() << " bytes");
        ++m_rxDrops;
        m_phyRxDropTrace(frame);
        return;
    }
    const uint16_t etherType = static_cast<uint16_t>((eth[12] << 8) | eth[13]);
    if (etherType != ETHERTYPE_IPV4)
    {
        if (m_lr && m_lr->HandleControlFrame(frame, etherType))
        {
            return;
        }
        if (m_fc->HandleControlFrame(frame, etherType))
        {
            return;
        }
        NS_LOG_LOGIC("dropping a frame of EtherType 0x" << std::hex << etherType
                                                        << " the link flow control does not take");
        ++m_rxDrops;
        m_phyRxDropTrace(frame);
        return;
    }
    if (m_lr && !m_lr->Accept(frame))
    {
        return; // out of sequence: dropped and counted by the link-level retry
    }
    frame->RemoveAtStart(ETHERNET_HEADER_BYTES);
    m_ipv4RxBytes += frame->GetSize();
    if (m_fc->WantsReceiveNotifications())
    {
        // The class of an IPv4 packet: DSCP >> 3, the top three bits of its TOS byte.
        const uint8_t cls =
            copied > ETHERNET_HEADER_BYTES + 1 ? eth[ETHERNET_HEADER_BYTES + 1] >> 5 : 0;
        m_fc->NotifyReceive(cls, frame->GetSize());
    }
    if (!m_macRxTrace.IsEmpty())
    {
        m_macRxTrace(frame);
    }
    if (m_portHandler && m_promiscRxCallback.IsNull())
    {
        m_portHandler->HandleReceive(m_handlerPort,
                                     frame,
                                     eth + ETHERNET_HEADER_BYTES,
                                     copied - ETHERNET_HEADER_BYTES,
                                     false,
                                     frame->GetSize());
        return;
    }
    if (!m_promiscRxCallback.IsNull())
    {
        Mac48Address source;
        Mac48Address destination;
        destination.CopyFrom(eth);
        source.CopyFrom(eth + 6);
        m_promiscRxCallback(this,
                            frame,
                            ETHERTYPE_IPV4,
                            source,
                            destination,
                            NetDevice::PACKET_HOST);
    }
    if (m_portHandler)
    {
        m_portHandler->HandleReceive(m_handlerPort,
                                     frame,
                                     eth + ETHERNET_HEADER_BYTES,
                                     copied - ETHERNET_HEADER_BYTES,
                                     false,
                                     frame->GetSize());
    }
    else if (!m_rdmaRxCallback.IsNull())
    {
        m_rdmaRxCallback(this, frame);
    }
    else if (!m_rxCallback.IsNull())
    {
        Mac48Address source;
        source.CopyFrom(eth + 6);
        m_rxCallback(this, frame, ETHERTYPE_IPV4, source);
    }
}

void
RdmaNetDevice::ReceiveWithHead(Ptr<Packet> packet,
                               const uint8_t* head,
                               uint32_t headBytes,
                               uint32_t size)
{
    NS_LOG_FUNCTION(this << packet << headBytes << size);
    NS_ASSERT_MSG(packet->GetSize() == size,
                  "RdmaNetDevice::ReceiveWithHead: size " << size << " is not the packet's");
    if (m_watched & RX_SLOW_PATH)
    {
        // Something here may read the frame: it gets the bytes a whole frame has.
        WriteHead(packet, head, headBytes);
        Receive(packet);
        return;
    }
    // Receive's IPv4 path, with the first bytes read from the head beside the packet.
    uint8_t ipv4[RdmaPortHandler::HEAD_BYTES];
    uint32_t copied;
    const bool headBeside = headBytes > ETHERNET_HEADER_BYTES;
    if (headBytes == RdmaChannel::MAX_HEAD_BYTES && m_handlerReadsRouteHead)
    {
        // A switch reads no more than traveled beside: the packet's bytes are not read.
        std::memcpy(ipv4, head + ETHERNET_HEADER_BYTES, RdmaPortHandler::ROUTE_HEAD_BYTES);
        copied = RdmaPortHandler::ROUTE_HEAD_BYTES;
    }
    else
    {
        copied = packet->CopyData(ipv4, sizeof(ipv4));
        if (headBeside) // 12 bytes: a constant-size copy, no library call
        {
            std::memcpy(ipv4,
                        head + ETHERNET_HEADER_BYTES,
                        RdmaPortHandler::IPV4_HEAD_BESIDE_BYTES);
        }
    }
    m_ipv4RxBytes += size;
    if (m_fc->WantsReceiveNotifications())
    {
        // The class of an IPv4 packet: DSCP >> 3, the top three bits of its TOS byte.
        m_fc->NotifyReceive(copied > 1 ? ipv4[1] >> 5 : 0, size);
    }
    m_portHandler->HandleReceive(m_handlerPort, packet, ipv4, copied, headBeside, size);
}

void
RdmaNetDevice::ReEvaluateAfterControlFrame()
{
    if (IsBusy())
    {
        m_wakeUpEvent.Cancel();
        m_wakeUpPending = false;
        TryTransmit(); // makes sure the end of the frame re-evaluates
    }
    else
    {
        TryTransmit();
    }
}

void
RdmaNetDevice::AddEthernetHeader(Ptr<Packet> packet, uint16_t etherType) const
{
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(etherType == ETHERTYPE_MAC_CONTROL ? PfcPauseHeader::GetMulticastAddress()
                                                          : GetPeerAddress());
    eth.SetLengthType(etherType);
    packet->AddHeader(eth);
}

bool
RdmaNetDevice::PrepareIpv4EthernetHeader(const Ptr<Packet>& packet, uint32_t size)
{
    if (!m_ipv4HeaderValid)
    {
        m_ipv4Header->Set(m_address, GetPeerDevice()->m_address);
        m_ipv4HeaderValid = true;
    }
    m_ipv4TxBytes += size;
    const uint8_t* head = nullptr;
    bool routeBytes = false;
    uint8_t copied[RdmaPortHandler::ROUTE_HEAD_BYTES];
    if (m_hasNextIpv4Head)
    {
        head = m_nextIpv4Head.data(); // read by the router at arrival
        routeBytes = m_nextHasRouteBytes;
    }
    else if (m_decrementTtl || m_peerReadsRouteHead)
    {
        // Read here (a router's packet whose head changed, or a host's packet, just built):
        // the route bytes then travel beside it, and the next switch does not read it.
        const uint32_t n = packet->CopyData(copied, sizeof(copied));
        if (n >= Ipv4FrameHeader::IPV4_HEAD_BYTES)
        {
            head = copied;
            routeBytes = n == sizeof(copied);
        }
    }
    m_hasNextIpv4Head = false;
    if (head && (head[0] >> 4) == 4)
    {
        if (m_decrementTtl && head[8] > 0)
        {
            m_ipv4Header->SetDecrementedIpv4Head(head, routeBytes);
            return true;
        }
        if (!m_decrementTtl && routeBytes)
        {
            m_ipv4Header->SetIpv4Head(head);
            return true;
        }
    }
    m_ipv4Header->ClearIpv4Head();
    return false;
}

void
RdmaNetDevice::AddIpv4EthernetHeader(const Ptr<Packet>& packet)
{
    if (PrepareIpv4EthernetHeader(packet, packet->GetSize()))
    {
        // The header carries the packet's first 12 (or 24) bytes, rewritten.
        packet->RemoveAtStart(m_ipv4Header->GetSerializedSize() - ETHERNET_HEADER_BYTES);
    }
    packet->AddHeader(*m_ipv4Header);
}

void
RdmaNetDevice::WriteHead(const Ptr<Packet>& packet, const uint8_t* head, uint32_t headBytes)
{
    if (headBytes > ETHERNET_HEADER_BYTES)
    {
        packet->RemoveAtStart(headBytes - ETHERNET_HEADER_BYTES);
    }
    Ipv4FrameHeader header;
    header.SetHead(head, headBytes);
    packet->AddHeader(header);
}

void
RdmaPortHandler::WriteArrivalHead(const Ptr<Packet>& packet, const uint8_t* ipv4Head)
{
    RdmaHeaderStack ip;
    ip.SetSize(IPV4_HEAD_BESIDE_BYTES);
    packet->RemoveHeader(ip);
    ip.Overwrite(0, ipv4Head, IPV4_HEAD_BESIDE_BYTES);
    packet->AddHeader(ip);
}

RdmaNetDevice*
RdmaNetDevice::LookUpPeerDevice() const
{
    NS_ABORT_MSG_IF(!m_channel || m_channel->GetNDevices() < 2,
                    "RdmaNetDevice " << m_address << ": the link has no peer device");
    m_peer = PeekPointer(m_channel->GetPeer(this));
    return m_peer;
}

Mac48Address
RdmaNetDevice::GetPeerAddress() const
{
    return GetPeerDevice()->m_address;
}

uint64_t
RdmaNetDevice::GetPfcFramesSent() const
{
    return m_pfcSent;
}

uint64_t
RdmaNetDevice::GetPfcFramesReceived() const
{
    return m_pfcReceived;
}

uint64_t
RdmaNetDevice::GetRxDropCount() const
{
    return m_rxDrops;
}

uint64_t
RdmaNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
RdmaNetDevice::GetTxFramesWithHeadBeside() const
{
    return m_txFramesHeadBeside;
}

uint64_t
RdmaNetDevice::GetTxWireBytes() const
{
    return m_txWireBytes;
}

uint64_t
RdmaNetDevice::GetMacTxBytes() const
{
    return m_macTxBytes;
}

uint64_t
RdmaNetDevice::GetIpv4TxBytes() const
{
    return m_ipv4TxBytes;
}

uint64_t
RdmaNetDevice::GetIpv4RxBytes() const
{
    return m_ipv4RxBytes;
}

uint64_t
RdmaNetDevice::GetIpv4CorruptedBytes() const
{
    return m_ipv4CorruptedBytes;
}

Ptr<RdmaChannel>
RdmaNetDevice::GetRdmaChannel() const
{
    return m_channel;
}

void
RdmaNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RdmaNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RdmaNetDevice::GetChannel() const
{
    return m_channel;
}

void
RdmaNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
    // Both ends' IPv4 frame headers hold this address: rebuilt at their next frame.
    m_ipv4HeaderValid = false;
    if (m_channel && m_channel->GetNDevices() == 2)
    {
        GetPeerDevice()->m_ipv4HeaderValid = false;
    }
}

Address
RdmaNetDevice::GetAddress() const
{
    return m_address;
}

bool
RdmaNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    m_mtu = mtu;
    return true;
}

uint16_t
RdmaNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
RdmaNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
RdmaNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
RdmaNetDevice::IsBroadcast() const
{
    return true;
}

Address
RdmaNetDevice::GetBroadcast() const
{
    return Mac48Address("ff:ff:ff:ff:ff:ff");
}

bool
RdmaNetDevice::IsMulticast() const
{
    return true;
}

Address
RdmaNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
RdmaNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RdmaNetDevice::IsPointToPoint() const
{
    return true;
}

bool
RdmaNetDevice::IsBridge() const
{
    return false;
}

bool
RdmaNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    NS_ABORT_MSG_IF(protocolNumber != ETHERTYPE_IPV4,
                    "RdmaNetDevice::Send: protocol 0x" << std::hex << protocolNumber
                                                       << " is not supported; only IPv4 (0x0800)");
    if (!IsLinkUp())
    {
        return false;
    }
    Ipv4Header ip;
    packet->PeekHeader(ip);
    Enqueue(packet, static_cast<uint8_t>(ip.GetDscp() >> 3));
    return true;
}

bool
RdmaNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return false;
}

Ptr<Node>
RdmaNetDevice::GetNode() const
{
    return m_node;
}

void
RdmaNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node ? node->GetId() : 0;
}

bool
RdmaNetDevice::NeedsArp() const
{
    return false;
}

void
RdmaNetDevice::SetRdmaReceiveCallback(RdmaReceiveCallback cb)
{
    m_rdmaRxCallback = cb;
}

void
RdmaNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
RdmaNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
    UpdateWatchedOptions();
}

bool
RdmaNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
