/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-link-flow-control.h"

#include "rdma-net-device.h"
#include "rdma-switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLinkFlowControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaLinkFlowControl);

TypeId
RdmaLinkFlowControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLinkFlowControl").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaLinkFlowControl::RdmaLinkFlowControl()
{
    NS_LOG_FUNCTION(this);
}

RdmaLinkFlowControl::~RdmaLinkFlowControl()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaLinkFlowControl::DoDispose()
{
    m_device = nullptr;
    m_mmu = nullptr;
    m_mmuRaw = nullptr;
    Object::DoDispose();
}

void
RdmaLinkFlowControl::SetDevice(RdmaNetDevice* device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_device && m_device != device,
                    "RdmaLinkFlowControl: this " << GetInstanceTypeId().GetName()
                                                 << " already serves another device; create "
                                                    "one per device");
    m_device = device;
    DoSetDevice();
}

RdmaNetDevice*
RdmaLinkFlowControl::GetDevice() const
{
    return m_device;
}

void
RdmaLinkFlowControl::SetSwitchPort(Ptr<RdmaSwitchMmu> mmu, uint32_t port)
{
    NS_LOG_FUNCTION(this << mmu << port);
    m_mmu = mmu;
    m_mmuRaw = PeekPointer(mmu);
    m_port = port;
    DoSetSwitchPort();
}

bool
RdmaLinkFlowControl::IsSwitchPort() const
{
    return m_mmu != nullptr;
}

Time
RdmaLinkFlowControl::GetNextUnblockTime(Time /* now */, uint8_t /* classesWithWork */) const
{
    return Time::Max();
}

void
RdmaLinkFlowControl::NotifyTransmit(uint8_t /* cls */, uint32_t /* ipv4Bytes */)
{
}

void
RdmaLinkFlowControl::NotifyReceive(uint8_t /* cls */, uint32_t /* ipv4Bytes */)
{
}

void
RdmaLinkFlowControl::NotifyIngressAdmitted(uint8_t /* cls */, uint32_t /* bytes */)
{
}

void
RdmaLinkFlowControl::NotifyIngressReleased(uint8_t /* cls */, uint32_t /* bytes */)
{
}

void
RdmaLinkFlowControl::DoSetDevice()
{
}

void
RdmaLinkFlowControl::DoSetSwitchPort()
{
}

void
RdmaLinkFlowControl::SetNotifications(bool transmit, bool receive)
{
    m_wantsTransmit = transmit;
    m_wantsReceive = receive;
}

void
RdmaLinkFlowControl::TriggerDeviceTransmit() const
{
    if (m_device)
    {
        m_device->TriggerTransmit();
    }
}

} // namespace ns3
