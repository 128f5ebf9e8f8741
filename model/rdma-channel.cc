/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-channel.h"

#include "rdma-net-device.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");

NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

/**
 * The arrival of the next frame of one direction: calls RdmaChannel::DeliverNext. The
 * channel keeps one per direction and schedules it once per frame (ns-3's scheduler holds a
 * reference per pending schedule and releases it after the event ran).
 */
class RdmaChannel::ArrivalEvent : public EventImpl
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

  private:
    void Notify() override
    {
        if (m_channel)
        {
            m_channel->DeliverNext(m_side);
        }
    }

    RdmaChannel* m_channel; //!< the channel, null once disposed
    uint32_t m_side;        //!< the receiving device's index
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
}

RdmaChannel::~RdmaChannel() = default;

void
RdmaChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t side = 0; side < 2; ++side)
    {
        m_arrival[side]->Detach();
        m_inFlight[side].clear();
    }
    Channel::DoDispose();
}

void
RdmaChannel::DeliverNext(uint32_t side)
{
    // The queue's reference goes to Receive's parameter (no copy: take_front adopts it).
    m_devices[side]->Receive(m_inFlight[side].take_front());
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
}

bool
RdmaChannel::TransmitStart(const Ptr<Packet>& frame, const Ptr<RdmaNetDevice>& src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    NS_ABORT_MSG_IF(m_nDevices < 2,
                    "RdmaChannel::TransmitStart: the channel has " << m_nDevices
                                                                   << " device(s) attached; a "
                                                                      "frame needs two ends");
    // Per-frame path: raw pointers (the channel holds both devices) and the receiver's
    // context looked up once.
    const uint32_t side = PeekPointer(m_devices[0]) == PeekPointer(src) ? 1 : 0;
    NS_ABORT_MSG_IF(side == 0 && m_devices[1] != src,
                    "RdmaChannel::TransmitStart: the sender is not attached to this channel");
    RdmaNetDevice* dst = PeekPointer(m_devices[side]);
    if (m_context[side] == NO_CONTEXT)
    {
        Ptr<Node> dstNode = dst->GetNode();
        NS_ABORT_MSG_IF(!dstNode,
                        "RdmaChannel::TransmitStart: peer device "
                            << dst->GetAddress() << " is not installed on a node");
        m_context[side] = dstNode->GetId();
    }
    const Time rxTime = txTime + m_delay;
    if (!m_txrxTrace.IsEmpty())
    {
        m_txrxTrace(frame, src, m_devices[side], txTime, rxTime);
    }
    m_inFlight[side].push_back(frame); // the channel's own reference
    m_arrival[side]->Ref();            // released by the scheduler after the event ran
    RdmaSimulatorImpl::ScheduleWithContextNow(m_context[side],
                                              rxTime,
                                              PeekPointer(m_arrival[side]));
    return true;
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
