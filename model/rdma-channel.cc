/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-channel.h"

#include "rdma-net-device.h"
#include "rdma-prefetch-cursor.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cstring>
#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");

NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

/**
 * The arrival of the next frame of one direction: calls RdmaChannel::DeliverNext. The
 * channel keeps one per direction and schedules it once per frame (ns-3's scheduler holds a
 * reference per pending schedule and releases it after the event ran).
 */
class RdmaChannel::ArrivalEvent : public RdmaSimulatorImpl::DirectEvent
{
  public:
    /**
     * \param channel the channel (it owns this event)
     * \param side the receiving device's index
     */
    ArrivalEvent(RdmaChannel* channel, uint32_t side)
        : m_channel(channel),
          m_side(side)
    {
    }

    /// The channel is disposed: a pending schedule does nothing.
    void Detach()
    {
        m_channel = nullptr;
    }

    void Fire() override
    {
        m_cursor.Fired();
        if (m_channel)
        {
            m_channel->DeliverNext(m_side);
        }
    }

    void Prefetch(uint32_t stage) const override
    {
        if (!m_channel)
        {
            return;
        }
        // Stages 2 to 5 read this schedule's frame, not the oldest (RdmaPrefetchCursor).
        m_channel->PrefetchDelivery(m_side, stage, stage == 1 ? 0 : m_cursor.Next(stage - 2));
    }

  private:
    RdmaChannel* m_channel; //!< the channel, null once disposed
    uint32_t m_side;        //!< the receiving device's index
    /// Which frame on the wire each stage's schedule will take.
    mutable RdmaPrefetchCursor<4> m_cursor;
};

TypeId
RdmaChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaChannel")
            .SetParent<Channel>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable (one way)",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaChannel::m_delay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("TxRxRdma",
                            "A frame left a device: packet, source device, destination device, "
                            "serialization time, serialization time plus propagation delay",
                            MakeTraceSourceAccessor(&RdmaChannel::m_txrxTrace),
                            "ns3::RdmaChannel::TxRxTracedCallback");
    return tid;
}

RdmaChannel::RdmaChannel()
    : Channel()
{
    NS_LOG_FUNCTION(this);
    m_arrival[0] = Create<ArrivalEvent>(this, 0);
    m_arrival[1] = Create<ArrivalEvent>(this, 1);
    m_txrxTrace.Watch(&m_wholeFrames, WATCH_TXRX);
}

RdmaChannel::~RdmaChannel()
{
    ReleaseFramesInFlight(); // a channel destroyed without Dispose
}

void
RdmaChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t side = 0; side < 2; ++side)
    {
        m_arrival[side]->Detach();
    }
    ReleaseFramesInFlight();
    Channel::DoDispose();
}

void
RdmaChannel::ReleaseFramesInFlight()
{
    for (uint32_t side = 0; side < 2; ++side)
    {
        RdmaFifo<InFlightFrame>& frames = m_inFlight[side];
        while (!frames.empty())
        {
            if (Packet* packet = frames.front().packet)
            {
                packet->Unref();
            }
            frames.pop_front();
        }
        frames.clear();
    }
}

void
RdmaChannel::PrefetchDelivery(uint32_t side, uint32_t stage, std::size_t frameIndex) const
{
    if (stage == 1)
    {
        __builtin_prefetch(&m_inFlight[side]);
        __builtin_prefetch(&m_devices[side]);
        return;
    }
    if (frameIndex >= m_inFlight[side].size())
    {
        return;
    }
    const InFlightFrame& frame = m_inFlight[side][frameIndex];
    if (stage == 2)
    {
        // Loaded, not prefetched (see RdmaSimulatorImpl::Touch): stage 3 reads the packet
        // pointer and the head from it.
        RdmaSimulatorImpl::Touch(&frame);
        if (m_devices[side])
        {
            m_devices[side]->PrefetchFrameLines();
        }
        return;
    }
    if (stage == 3 && (!m_devices[side] || m_devices[side]->ReadsPacketAtArrival(frame.bytes)))
    {
        RdmaSimulatorImpl::PrefetchLines(frame.packet);
    }
    if (m_devices[side])
    {
        m_devices[side]->PrefetchReceive(frame.data.data(), frame.bytes, stage - 2);
    }
}

void
RdmaChannel::DeliverNext(uint32_t side)
{
    // The slot's reference goes to the device (no copy: the Ptr adopts it).
    RdmaFifo<InFlightFrame>& frames = m_inFlight[side];
    const InFlightFrame& frame = frames.front();
    Packet* const packet = frame.packet;
    if (frame.bytes == 0)
    {
        frames.pop_front();
        m_devices[side]->Receive(Ptr<Packet>(packet, false));
        return;
    }
    const InFlightFrame copy = frame; // the receiver may send (and queue) synchronously
    frames.pop_front();
    m_devices[side]->ReceiveWithHead(Ptr<Packet>(packet, false),
                                     copy.data.data(),
                                     copy.bytes,
                                     copy.size);
}

void
RdmaChannel::Attach(Ptr<RdmaNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "RdmaChannel::Attach: null device");
    NS_ABORT_MSG_IF(m_nDevices >= 2,
                    "RdmaChannel::Attach: a channel connects exactly two devices; cannot attach "
                    "a third (device "
                        << device->GetAddress() << ")");
    NS_ABORT_MSG_IF(m_nDevices == 1 && m_devices[0] == device,
                    "RdmaChannel::Attach: device " << device->GetAddress()
                                                   << " is already attached to this channel");
    m_devices[m_nDevices++] = device;
    // Frames travel with their head beside the packet only through this class's own
    // TransmitStart: a subclass (an MPI link, a test's reordering cable) sees whole frames.
    const bool ownTransmit = typeid(*this) == typeid(RdmaChannel);
    m_wholeFrames = static_cast<uint16_t>(ownTransmit ? (m_wholeFrames & ~NOT_OWN_TRANSMIT)
                                                      : (m_wholeFrames | NOT_OWN_TRANSMIT));
}

uint32_t
RdmaChannel::SideOf(const Ptr<RdmaNetDevice>& src)
{
    NS_ABORT_MSG_IF(m_nDevices < 2,
                    "RdmaChannel::TransmitStart: the channel has " << m_nDevices
                                                                   << " device(s) attached; a "
                                                                      "frame needs two ends");
    // Per-frame path: raw pointers (the channel holds both devices) and the receiver's
    // context looked up once.
    const uint32_t side = PeekPointer(m_devices[0]) == PeekPointer(src) ? 1 : 0;
    NS_ABORT_MSG_IF(side == 0 && m_devices[1] != src,
                    "RdmaChannel::TransmitStart: the sender is not attached to this channel");
    if (m_context[side] == NO_CONTEXT)
    {
        Ptr<Node> dstNode = m_devices[side]->GetNode();
        NS_ABORT_MSG_IF(!dstNode,
                        "RdmaChannel::TransmitStart: peer device "
                            << m_devices[side]->GetAddress() << " is not installed on a node");
        m_context[side] = dstNode->GetId();
    }
    return side;
}

void
RdmaChannel::FillSlot(InFlightFrame& slot,
                      Packet* frame,
                      uint32_t size,
                      const uint8_t* head,
                      uint32_t headBytes)
{
    constexpr uint32_t ETHERNET = RdmaNetDevice::ETHERNET_HEADER_BYTES;
    constexpr uint32_t WITH_IPV4 = ETHERNET + RdmaPortHandler::IPV4_HEAD_BESIDE_BYTES;
    static_assert(sizeof(InFlightFrame) == 64, "a frame on the wire: one cache line");
    static_assert(MAX_HEAD_BYTES == ETHERNET + RdmaPortHandler::ROUTE_HEAD_BYTES,
                  "the head RdmaNetDevice::ReadsPacketAtArrival takes for a switch's");
    slot.packet = frame;
    slot.size = size;
    slot.bytes = static_cast<uint8_t>(headBytes);
    // Constant sizes: copies the compiler inlines.
    if (headBytes == MAX_HEAD_BYTES)
    {
        std::memcpy(slot.data.data(), head, MAX_HEAD_BYTES);
    }
    else if (headBytes == WITH_IPV4)
    {
        std::memcpy(slot.data.data(), head, WITH_IPV4);
    }
    else if (headBytes == ETHERNET)
    {
        std::memcpy(slot.data.data(), head, ETHERNET);
    }
}

void
RdmaChannel::Launch(Packet* frame,
                    uint32_t size,
                    uint32_t side,
                    const Time& rxTime,
                    const uint8_t* head,
                    uint32_t headBytes)
{
    if (RdmaSimulatorImpl::StoresPastCaches())
    {
        // Filled here and written to the ring in one line, past the caches: the arrival
        // reads it back a propagation delay later, long after it left them.
        InFlightFrame record;
        FillSlot(record, frame, size, head, headBytes);
        RdmaSimulatorImpl::StreamLine(m_inFlight[side].push_back_slot(), record);
    }
    else
    {
        FillSlot(m_inFlight[side].push_back_slot(), frame, size, head, headBytes);
    }
    m_arrival[side]->Ref(); // released by the scheduler after the event ran
    RdmaSimulatorImpl::ScheduleDirectNow(m_context[side], rxTime, PeekPointer(m_arrival[side]));
}

bool
RdmaChannel::TransmitStart(const Ptr<Packet>& frame, const Ptr<RdmaNetDevice>& src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    const uint32_t side = SideOf(src);
    const Time rxTime = txTime + m_delay;
    if (!m_txrxTrace.IsEmpty())
    {
        m_txrxTrace(frame, src, m_devices[side], txTime, rxTime);
    }
    Packet* const reference = PeekPointer(frame);
    if (reference)
    {
        reference->Ref(); // the frame on the wire's own
    }
    Launch(reference, reference ? reference->GetSize() : 0, side, rxTime, nullptr, 0);
    return true;
}

void
RdmaChannel::TransmitStartWithHead(Ptr<Packet>& packet,
                                   uint32_t size,
                                   uint32_t side,
                                   Time txTime,
                                   const uint8_t* head,
                                   uint32_t headBytes)
{
    NS_LOG_FUNCTION(this << packet << size << side << txTime << headBytes);
    NS_ASSERT_MSG(CarriesFrameHeads(), "RdmaChannel: a frame's head beside it, yet a sink");
    constexpr uint32_t ETHERNET = RdmaNetDevice::ETHERNET_HEADER_BYTES;
    constexpr uint32_t WITH_IPV4 = ETHERNET + RdmaPortHandler::IPV4_HEAD_BESIDE_BYTES;
    NS_ABORT_MSG_IF(headBytes != ETHERNET && headBytes != WITH_IPV4 && headBytes != MAX_HEAD_BYTES,
                    "RdmaChannel::TransmitStartWithHead: a head of "
                        << headBytes << " bytes; valid: " << ETHERNET << " (Ethernet), "
                        << WITH_IPV4 << " (and the first 12 IPv4 bytes) or " << MAX_HEAD_BYTES
                        << " (and the first 24)");
    NS_ASSERT_MSG(side < m_nDevices, "RdmaChannel::TransmitStartWithHead: side " << side);
    Launch(RdmaTakeReference(packet), size, side, txTime + m_delay, head, headBytes);
}

Time
RdmaChannel::GetDelay() const
{
    return m_delay;
}

Ptr<RdmaNetDevice>
RdmaChannel::GetPeer(Ptr<const RdmaNetDevice> device) const
{
    if (m_devices[0] == device)
    {
        return m_devices[1];
    }
    NS_ABORT_MSG_IF(m_devices[1] != device,
                    "RdmaChannel::GetPeer: the device is not attached to this channel");
    return m_devices[0];
}

std::size_t
RdmaChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RdmaChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices,
                    "RdmaChannel::GetDevice: index " << i << " out of range; the channel has "
                                                     << m_nDevices << " device(s)");
    return m_devices[i];
}

} // namespace ns3
