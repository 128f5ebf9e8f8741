/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scale-up-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-link-flow-control.h"
#include "ns3/rdma-link-framing.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-routing-helper.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

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

namespace
{
/// Abort, listing the valid names, unless type is "" or a constructible subclass of base.
void
CheckType(const char* what, const std::string& type, TypeId base)
{
    TypeId tid;
    if (type.empty() ||
        (TypeId::LookupByNameFailSafe(type, &tid) && tid.IsChildOf(base) && tid.HasConstructor()))
    {
        return;
    }
    std::ostringstream valid;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t != base && t.IsChildOf(base) && t.HasConstructor())
        {
            valid << ", " << t.GetName();
        }
    }
    NS_ABORT_MSG("ScaleUpHelper::" << what << ": \"" << type << "\" is not a " << base.GetName()
                                   << "; valid: \"\"" << valid.str());
}
} // namespace

void
ScaleUpHelper::SetProfile(const std::string& name)
{
    CheckNotInstalled("SetProfile");
    if (name == "roce")
    {
        m_rate = DataRate("200Gbps");
        m_switchLatency = NanoSeconds(150);
        m_framing = "";
        m_flowControl = "";
        m_linkRetry = false;
        m_lossRecovery = "";
    }
    else if (name == "ualink")
    {
        m_rate = UalinkPortRate(UALINK_DEFAULT_LANES);
        m_switchLatency = NanoSeconds(150);
        m_framing = "ns3::RdmaUalinkFlitFraming";
        m_flowControl = "ns3::RdmaCreditFlowControl";
        m_linkRetry = true;
        m_lossRecovery = "ns3::RdmaNoRetransmitLossRecovery";
        m_reorderWindow = UALINK_REORDER_WINDOW;
    }
    else if (name == "sue" || name == "sue-pfc")
    {
        m_rate = DataRate("800Gbps");
        m_switchLatency = NanoSeconds(250);
        m_framing = "ns3::RdmaCompressedHeaderFraming";
        m_flowControl = name == "sue" ? "ns3::RdmaCreditFlowControl" : "ns3::RdmaPfcFlowControl";
        m_linkRetry = true;
        m_lossRecovery = "";
    }
    else
    {
        NS_ABORT_MSG("ScaleUpHelper: profile \"" << name << "\" is not known; valid: " << PROFILES);
    }
    m_replayBytes = 0;
    if (name != "ualink")
    {
        m_reorderWindow = 0;
    }
    m_profile = name;
}

std::string
ScaleUpHelper::GetProfile() const
{
    return m_profile;
}

DataRate
ScaleUpHelper::UalinkPortRate(uint32_t lanes)
{
    NS_ABORT_MSG_IF(lanes != 1 && lanes != 2 && lanes != 4,
                    "ScaleUpHelper: a UALink port of " << lanes
                                                       << " lanes is invalid; valid: 1, 2, 4");
    return DataRate(lanes * UALINK_LANE_BPS);
}

void
ScaleUpHelper::SetLinkFraming(const std::string& type)
{
    CheckNotInstalled("SetLinkFraming");
    CheckType("SetLinkFraming", type, RdmaLinkFraming::GetTypeId());
    m_framing = type;
}

void
ScaleUpHelper::SetLinkFlowControl(const std::string& type)
{
    CheckNotInstalled("SetLinkFlowControl");
    CheckType("SetLinkFlowControl", type, RdmaLinkFlowControl::GetTypeId());
    m_flowControl = type;
}

void
ScaleUpHelper::SetLinkRetry(bool on)
{
    CheckNotInstalled("SetLinkRetry");
    m_linkRetry = on;
}

void
ScaleUpHelper::SetReplayBufferBytes(uint32_t bytes)
{
    CheckNotInstalled("SetReplayBufferBytes");
    m_replayBytes = bytes;
}

void
ScaleUpHelper::SetLossRecovery(const std::string& type)
{
    CheckNotInstalled("SetLossRecovery");
    CheckType("SetLossRecovery", type, RdmaLossRecovery::GetTypeId());
    m_lossRecovery = type;
}

std::string
ScaleUpHelper::GetLinkFraming() const
{
    return m_framing;
}

std::string
ScaleUpHelper::GetLinkFlowControl() const
{
    return m_flowControl;
}

bool
ScaleUpHelper::GetLinkRetry() const
{
    return m_linkRetry;
}

std::string
ScaleUpHelper::GetLossRecovery() const
{
    return m_lossRecovery;
}

uint32_t
ScaleUpHelper::GetReplayBufferBytes() const
{
    if (m_replayBytes != 0)
    {
        return m_replayBytes;
    }
    // ns3::RdmaLinkRetry's sizing: the ACK round trip at the port rate, plus one frame.
    const uint64_t frame = m_deviceMtu + RdmaNetDevice::ETHERNET_HEADER_BYTES + 2;
    const Time ackLatency = NanoSeconds(500); // RdmaLinkRetry::AckLatency's default
    const Time rtt = GetChannelDelay() + GetChannelDelay() + ackLatency;
    const double bits = m_rate.GetBitRate() * rtt.GetSeconds() + 8.0 * (2 * frame + 84);
    return static_cast<uint32_t>(std::ceil(bits / 8)) + frame;
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
    if (name == "Mtu")
    {
        const auto* mtu = dynamic_cast<const UintegerValue*>(&value);
        NS_ABORT_MSG_IF(mtu == nullptr, "ScaleUpHelper: the Mtu attribute takes a UintegerValue");
        m_deviceMtu = mtu->Get();
    }
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
    // The profile's link options (none for "roce": the link helper is left as it was).
    if (!m_framing.empty())
    {
        m_link.SetLinkFraming(m_framing);
    }
    if (!m_flowControl.empty())
    {
        m_link.SetLinkFlowControl(m_flowControl);
    }
    if (m_linkRetry)
    {
        m_link.EnableLinkRetry();
        m_link.SetLinkRetryAttribute("ReplayBufferBytes", UintegerValue(GetReplayBufferBytes()));
    }
    if (m_lossRecovery == "ns3::RdmaNoRetransmitLossRecovery" && m_reorderWindow > 0)
    {
        rdma.SetLossRecovery(m_lossRecovery, "ReorderWindow", UintegerValue(m_reorderWindow));
    }
    else if (!m_lossRecovery.empty())
    {
        rdma.SetLossRecovery(m_lossRecovery);
    }
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
