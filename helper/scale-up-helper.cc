/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scale-up-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-routing-helper.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScaleUpHelper");

ScaleUpHelper::ScaleUpHelper()
    : m_linkLatency(NanoSeconds(10)),
      m_switchLatency(NanoSeconds(150))
{
}

void
ScaleUpHelper::CheckNotInstalled(const char* what) const
{
    NS_ABORT_MSG_IF(m_installed,
                    "ScaleUpHelper::" << what << ": the pod is already installed; configure "
                                      << "the helper before Install()");
}

void
ScaleUpHelper::SetAccelerators(uint32_t n)
{
    CheckNotInstalled("SetAccelerators");
    NS_ABORT_MSG_IF(n < 2,
                    "ScaleUpHelper: " << n
                                      << " accelerators is invalid; a scale-up pod needs at "
                                         "least 2 (e.g. 8 for an HGX-style pod)");
    NS_ABORT_MSG_IF(n > 0xFFFFFF,
                    "ScaleUpHelper: " << n << " accelerators is more than the 2^24 - 1 supported");
    m_accelerators = n;
}

void
ScaleUpHelper::SetPlanes(uint32_t p)
{
    CheckNotInstalled("SetPlanes");
    NS_ABORT_MSG_IF(p == 0,
                    "ScaleUpHelper: 0 planes is invalid; need at least 1 (one port per "
                    "accelerator and plane switch per plane)");
    m_planes = p;
}

void
ScaleUpHelper::SetLinkRate(DataRate rate)
{
    CheckNotInstalled("SetLinkRate");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "ScaleUpHelper: link rate 0 is invalid; need > 0");
    m_rate = rate;
}

void
ScaleUpHelper::SetLinkLatency(Time latency)
{
    CheckNotInstalled("SetLinkLatency");
    NS_ABORT_MSG_IF(latency.IsStrictlyNegative(),
                    "ScaleUpHelper: negative link latency " << latency << "; need >= 0");
    m_linkLatency = latency;
}

void
ScaleUpHelper::SetSwitchLatency(Time latency)
{
    CheckNotInstalled("SetSwitchLatency");
    NS_ABORT_MSG_IF(latency.IsStrictlyNegative(),
                    "ScaleUpHelper: negative switch latency " << latency << "; need >= 0");
    m_switchLatency = latency;
}

void
ScaleUpHelper::SetAckInterval(uint32_t packets)
{
    CheckNotInstalled("SetAckInterval");
    NS_ABORT_MSG_IF(packets == 0,
                    "ScaleUpHelper: ACK interval 0 is invalid; need at least 1 (an ACK per "
                    "packet; default "
                        << DEFAULT_ACK_INTERVAL << ")");
    m_ackInterval = packets;
}

uint32_t
ScaleUpHelper::GetAckInterval() const
{
    return m_ackInterval;
}

void
ScaleUpHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    CheckNotInstalled("SetDeviceAttribute");
    NS_ABORT_MSG_IF(name == "DataRate",
                    "ScaleUpHelper: set the port rate with SetLinkRate, not the DataRate "
                    "attribute");
    m_link.SetDeviceAttribute(name, value);
}

void
ScaleUpHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    CheckNotInstalled("SetChannelAttribute");
    NS_ABORT_MSG_IF(name == "Delay",
                    "ScaleUpHelper: set the delay with SetLinkLatency and SetSwitchLatency, "
                    "not the Delay attribute");
    m_link.SetChannelAttribute(name, value);
}

uint32_t
ScaleUpHelper::GetNAccelerators() const
{
    return m_accelerators;
}

uint32_t
ScaleUpHelper::GetNPlanes() const
{
    return m_planes;
}

uint32_t
ScaleUpHelper::GetNLinks() const
{
    return m_accelerators * m_planes;
}

DataRate
ScaleUpHelper::GetLinkRate() const
{
    return m_rate;
}

Time
ScaleUpHelper::GetLinkLatency() const
{
    return m_linkLatency;
}

Time
ScaleUpHelper::GetSwitchLatency() const
{
    return m_switchLatency;
}

Time
ScaleUpHelper::GetChannelDelay() const
{
    // Half the switch latency on each of the two links of a switch traversal. An odd number
    // of time steps loses one step per traversal (1 ps at picosecond resolution).
    return m_linkLatency + TimeStep(m_switchLatency.GetTimeStep() / 2);
}

Time
ScaleUpHelper::GetPathDelay() const
{
    return GetChannelDelay() + GetChannelDelay();
}

void
ScaleUpHelper::Install(RdmaHelper& rdma)
{
    CheckNotInstalled("Install");
    NS_LOG_FUNCTION(this << m_accelerators << m_planes << m_rate << m_linkLatency
                         << m_switchLatency);
    m_link.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
    m_link.SetChannelAttribute("Delay", TimeValue(GetChannelDelay()));
    m_accelNodes.Create(m_accelerators);
    m_switchNodes.Create(m_planes);
    // Accelerator by accelerator, port by port: accelerator i's device p is its port on
    // plane p (RdmaHelper makes the devices NIC ports in device order) and switch p's
    // device i faces accelerator i.
    for (uint32_t i = 0; i < m_accelerators; ++i)
    {
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            m_devices.Add(m_link.Install(m_accelNodes.Get(i), m_switchNodes.Get(p)));
        }
    }
    m_installed = true;
    rdma.SetNicAttribute("AckInterval", UintegerValue(m_ackInterval));
    rdma.InstallHosts(m_accelNodes);
    rdma.InstallSwitches(m_switchNodes);
    RdmaRoutingHelper::PopulateRoutingTables(GetNodes());
}

NodeContainer
ScaleUpHelper::GetAccelerators() const
{
    return m_accelNodes;
}

NodeContainer
ScaleUpHelper::GetSwitches() const
{
    return m_switchNodes;
}

NodeContainer
ScaleUpHelper::GetNodes() const
{
    return NodeContainer(m_accelNodes, m_switchNodes);
}

void
ScaleUpHelper::CheckAccelerator(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_accelNodes.GetN(),
                    "ScaleUpHelper: accelerator " << i << " does not exist; the pod has "
                                                  << m_accelNodes.GetN() << " accelerators"
                                                  << (m_installed ? "" : " (call Install first)"));
}

void
ScaleUpHelper::CheckPlane(uint32_t p) const
{
    NS_ABORT_MSG_IF(p >= m_switchNodes.GetN(),
                    "ScaleUpHelper: plane " << p << " does not exist; the pod has "
                                            << m_switchNodes.GetN() << " planes"
                                            << (m_installed ? "" : " (call Install first)"));
}

Ptr<Node>
ScaleUpHelper::GetAccelerator(uint32_t i) const
{
    CheckAccelerator(i);
    return m_accelNodes.Get(i);
}

Ptr<Node>
ScaleUpHelper::GetSwitch(uint32_t p) const
{
    CheckPlane(p);
    return m_switchNodes.Get(p);
}

Ipv4Address
ScaleUpHelper::GetAcceleratorAddress(uint32_t i) const
{
    return RdmaHelper::GetNic(GetAccelerator(i))->GetAddress();
}

Ptr<RdmaNetDevice>
ScaleUpHelper::GetAcceleratorDevice(uint32_t i, uint32_t p) const
{
    CheckAccelerator(i);
    CheckPlane(p);
    return DynamicCast<RdmaNetDevice>(m_devices.Get(2 * (i * m_planes + p)));
}

Ptr<RdmaNetDevice>
ScaleUpHelper::GetSwitchDevice(uint32_t p, uint32_t i) const
{
    CheckAccelerator(i);
    CheckPlane(p);
    return DynamicCast<RdmaNetDevice>(m_devices.Get(2 * (i * m_planes + p) + 1));
}

NetDeviceContainer
ScaleUpHelper::GetDevices() const
{
    return m_devices;
}

RdmaLinkHelper&
ScaleUpHelper::GetLinkHelper()
{
    return m_link;
}

} // namespace ns3
