/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-channel.h"

#include "rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaChannel");

NS_OBJECT_ENSURE_REGISTERED(RdmaChannel);

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
RdmaChannel::TransmitStart(Ptr<Packet> frame, Ptr<RdmaNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    NS_ABORT_MSG_IF(m_nDevices < 2,
                    "RdmaChannel::TransmitStart: the channel has " << m_nDevices
                                                                   << " device(s) attached; a "
                                                                      "frame needs two ends");
    Ptr<RdmaNetDevice> dst = GetPeer(src);
    Ptr<Node> dstNode = dst->GetNode();
    NS_ABORT_MSG_IF(!dstNode,
                    "RdmaChannel::TransmitStart: peer device " << dst->GetAddress()
                                                               << " is not installed on a node");
    Simulator::ScheduleWithContext(dstNode->GetId(),
                                   txTime + m_delay,
                                   &RdmaNetDevice::Receive,
                                   dst,
                                   frame);
    m_txrxTrace(frame, src, dst, txTime, txTime + m_delay);
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
