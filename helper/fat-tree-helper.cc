/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-routing-helper.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeHelper");

namespace
{
/// \return the tier's name for messages
const char*
TierName(FatTreeHelper::Tier tier)
{
    switch (tier)
    {
    case FatTreeHelper::HOST_EDGE:
        return "HOST_EDGE";
    case FatTreeHelper::EDGE_AGGREGATION:
        return "EDGE_AGGREGATION";
    case FatTreeHelper::AGGREGATION_CORE:
        return "AGGREGATION_CORE";
    }
    return "?";
}
} // namespace

FatTreeHelper::FatTreeHelper()
{
    for (auto& link : m_links)
    {
        link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    }
}

void
FatTreeHelper::CheckNotInstalled(const char* what) const
{
    NS_ABORT_MSG_IF(m_installed,
                    "FatTreeHelper::" << what << ": the fabric is already installed; configure "
                                      << "the helper before Install()");
}

void
FatTreeHelper::SetThreeTier(uint32_t k)
{
    CheckNotInstalled("SetThreeTier");
    NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                    "FatTreeHelper: k = " << k
                                          << " is invalid; a k-ary fat-tree needs an even k >= 2 "
                                             "(k = 4: 16 hosts, k = 32: 8192 hosts)");
    m_leafSpine = false;
    m_k = k;
    m_pods = 0;
    m_hostsPerEdgeSetting = 0;
    m_oversubscription = 0;
}

void
FatTreeHelper::SetPods(uint32_t pods)
{
    CheckNotInstalled("SetPods");
    NS_ABORT_MSG_IF(m_leafSpine,
                    "FatTreeHelper::SetPods: a leaf-spine has no pods; call "
                    "SetThreeTier(k) first");
    NS_ABORT_MSG_IF(pods == 0 || pods > m_k,
                    "FatTreeHelper: pods = " << pods << " is invalid for k = " << m_k
                                             << "; valid: 1 .. " << m_k
                                             << " (a core switch has one port per pod)");
    m_pods = pods;
}

void
FatTreeHelper::SetHpcc320()
{
    CheckNotInstalled("SetHpcc320");
    SetThreeTier(8);
    SetPods(5);
    SetHostsPerEdge(16);
    SetLinkRate(HOST_EDGE, DataRate("100Gbps"));
    SetLinkRate(EDGE_AGGREGATION, DataRate("400Gbps"));
    SetLinkRate(AGGREGATION_CORE, DataRate("400Gbps"));
    for (auto tier : {HOST_EDGE, EDGE_AGGREGATION, AGGREGATION_CORE})
    {
        SetLinkDelay(tier, MicroSeconds(1));
    }
}

void
FatTreeHelper::SetLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    CheckNotInstalled("SetLeafSpine");
    NS_ABORT_MSG_IF(leaves == 0, "FatTreeHelper: leaf-spine with 0 leaves; need at least 1");
    NS_ABORT_MSG_IF(spines == 0, "FatTreeHelper: leaf-spine with 0 spines; need at least 1");
    NS_ABORT_MSG_IF(hostsPerLeaf == 0,
                    "FatTreeHelper: leaf-spine with 0 hosts per leaf; need at least 1");
    m_leafSpine = true;
    m_k = 0;
    m_pods = 0;
    m_leaves = leaves;
    m_spines = spines;
    m_hostsPerEdgeSetting = hostsPerLeaf;
    m_oversubscription = 0;
}

void
FatTreeHelper::SetHostsPerEdge(uint32_t hosts)
{
    CheckNotInstalled("SetHostsPerEdge");
    NS_ABORT_MSG_IF(hosts == 0, "FatTreeHelper: 0 hosts per edge switch; need at least 1");
    m_hostsPerEdgeSetting = hosts;
    m_oversubscription = 0;
}

void
FatTreeHelper::SetOversubscription(double ratio)
{
    CheckNotInstalled("SetOversubscription");
    NS_ABORT_MSG_IF(!(ratio > 0) || !std::isfinite(ratio),
                    "FatTreeHelper: oversubscription " << ratio
                                                       << " is invalid; need a ratio > 0 (hosts "
                                                          "per uplink of an edge switch)");
    m_oversubscription = ratio;
}

void
FatTreeHelper::SetPlanes(uint32_t planes)
{
    CheckNotInstalled("SetPlanes");
    NS_ABORT_MSG_IF(planes == 0,
                    "FatTreeHelper: planes = " << planes
                                               << " is invalid; need at least 1 plane (1: a "
                                                  "single-plane fabric, P > 1: P NIC ports per "
                                                  "host, one per plane)");
    m_planes = planes;
}

void
FatTreeHelper::SetLinkRate(Tier tier, DataRate rate)
{
    CheckNotInstalled("SetLinkRate");
    NS_ABORT_MSG_IF(tier >= NUM_TIERS, "FatTreeHelper: tier " << tier << " does not exist");
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "FatTreeHelper: rate 0 for tier " << TierName(tier) << "; need > 0");
    m_links[tier].SetDeviceAttribute("DataRate", DataRateValue(rate));
}

void
FatTreeHelper::SetLinkDelay(Tier tier, Time delay)
{
    CheckNotInstalled("SetLinkDelay");
    NS_ABORT_MSG_IF(tier >= NUM_TIERS, "FatTreeHelper: tier " << tier << " does not exist");
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "FatTreeHelper: negative delay " << delay << " for tier " << TierName(tier));
    m_links[tier].SetChannelAttribute("Delay", TimeValue(delay));
}

void
FatTreeHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    CheckNotInstalled("SetDeviceAttribute");
    for (auto& link : m_links)
    {
        link.SetDeviceAttribute(name, value);
    }
}

void
FatTreeHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    CheckNotInstalled("SetChannelAttribute");
    for (auto& link : m_links)
    {
        link.SetChannelAttribute(name, value);
    }
}

uint32_t
FatTreeHelper::GetUplinksPerEdge() const
{
    return m_leafSpine ? m_spines : m_k / 2;
}

uint32_t
FatTreeHelper::GetHostsPerEdge() const
{
    if (m_oversubscription > 0)
    {
        const double hosts = m_oversubscription * GetUplinksPerEdge();
        const double rounded = std::round(hosts);
        NS_ABORT_MSG_IF(std::fabs(hosts - rounded) > 1e-9 || rounded < 1,
                        "FatTreeHelper: oversubscription "
                            << m_oversubscription << " x " << GetUplinksPerEdge()
                            << " uplinks per edge switch = " << hosts
                            << " hosts, not a whole number >= 1; choose a ratio that is a "
                               "multiple of 1/"
                            << GetUplinksPerEdge());
        return static_cast<uint32_t>(rounded);
    }
    if (m_hostsPerEdgeSetting > 0)
    {
        return m_hostsPerEdgeSetting;
    }
    return m_k / 2;
}

void
FatTreeHelper::Validate()
{
    if (!m_leafSpine)
    {
        NS_ABORT_MSG_IF(m_k < 2 || m_k % 2 != 0,
                        "FatTreeHelper: k = " << m_k << " is invalid; need an even k >= 2");
    }
    m_hostsPerEdge = GetHostsPerEdge();
    // Host counts must fit 32 bits; whether the addresses suffice is RdmaHelper's check.
    const uint64_t hosts = m_leafSpine ? uint64_t(m_leaves) * m_hostsPerEdge
                                       : uint64_t(GetNPods()) * (m_k / 2) * m_hostsPerEdge;
    NS_ABORT_MSG_IF(hosts > 0xFFFFFF,
                    "FatTreeHelper: " << hosts << " hosts is more than the 2^24 - 1 supported");
    const uint64_t switches =
        uint64_t(m_planes) * (m_leafSpine
                                  ? uint64_t(m_leaves) + m_spines
                                  : uint64_t(GetNPods()) * m_k + uint64_t(m_k / 2) * (m_k / 2));
    NS_ABORT_MSG_IF(hosts + switches > 0x7FFFFFFF,
                    "FatTreeHelper: " << m_planes << " planes of " << switches / m_planes
                                      << " switches and " << hosts
                                      << " hosts are more nodes than the 2^31 - 1 supported");
}

uint32_t
FatTreeHelper::GetNHosts() const
{
    const uint32_t h = GetHostsPerEdge();
    return m_leafSpine ? m_leaves * h : GetNPods() * (m_k / 2) * h;
}

uint32_t
FatTreeHelper::GetNLinks(Tier tier) const
{
    return m_planes * GetNLinksPerPlane(tier);
}

uint32_t
FatTreeHelper::GetNLinksPerPlane(Tier tier) const
{
    const uint32_t half = m_k / 2;
    switch (tier)
    {
    case HOST_EDGE:
        return GetNHosts();
    case EDGE_AGGREGATION:
        return m_leafSpine ? m_leaves * m_spines : GetNPods() * half * half;
    case AGGREGATION_CORE:
        return m_leafSpine ? 0 : GetNPods() * half * half;
    }
    NS_ABORT_MSG("FatTreeHelper: tier " << tier << " does not exist");
    return 0;
}

uint32_t
FatTreeHelper::GetNLinks() const
{
    return GetNLinks(HOST_EDGE) + GetNLinks(EDGE_AGGREGATION) + GetNLinks(AGGREGATION_CORE);
}

void
FatTreeHelper::Connect(uint32_t plane, Tier tier, Ptr<Node> lower, Ptr<Node> upper)
{
    m_plane[plane].devices[tier].Add(m_links[tier].Install(lower, upper));
}

void
FatTreeHelper::BuildPlane(uint32_t plane)
{
    // Host port p is the host's device p: the planes must be built once each, in order.
    NS_ABORT_MSG_IF(plane != m_plane.size() || plane >= m_planes,
                    "FatTreeHelper::BuildPlane(" << plane << "): plane " << m_plane.size() << " of "
                                                 << m_planes << " is next");
    m_plane.emplace_back();
    Plane& pl = m_plane.back();
    const uint32_t h = m_hostsPerEdge;
    // Host i's device `plane` (its NIC port `plane`) goes to edge switch i / h of the plane.
    if (m_leafSpine)
    {
        pl.edge.Create(m_leaves);
        pl.aggregation.Create(m_spines);
        for (uint32_t i = 0; i < m_hosts.GetN(); ++i)
        {
            Connect(plane, HOST_EDGE, m_hosts.Get(i), pl.edge.Get(i / h));
        }
        for (uint32_t l = 0; l < m_leaves; ++l)
        {
            for (uint32_t s = 0; s < m_spines; ++s)
            {
                Connect(plane, EDGE_AGGREGATION, pl.edge.Get(l), pl.aggregation.Get(s));
            }
        }
        return;
    }
    const uint32_t half = m_k / 2;
    pl.edge.Create(GetNPods() * half);
    pl.aggregation.Create(GetNPods() * half);
    pl.core.Create(half * half);
    for (uint32_t i = 0; i < m_hosts.GetN(); ++i)
    {
        Connect(plane, HOST_EDGE, m_hosts.Get(i), pl.edge.Get(i / h));
    }
    // Edge e of pod p connects to the aggregation switches p*half .. p*half + half - 1.
    for (uint32_t e = 0; e < pl.edge.GetN(); ++e)
    {
        const uint32_t pod = e / half;
        for (uint32_t j = 0; j < half; ++j)
        {
            Connect(plane, EDGE_AGGREGATION, pl.edge.Get(e), pl.aggregation.Get(pod * half + j));
        }
    }
    // Aggregation switch j of each pod connects to the cores j*half .. j*half + half - 1.
    for (uint32_t a = 0; a < pl.aggregation.GetN(); ++a)
    {
        const uint32_t j = a % half;
        for (uint32_t c = 0; c < half; ++c)
        {
            Connect(plane, AGGREGATION_CORE, pl.aggregation.Get(a), pl.core.Get(j * half + c));
        }
    }
}

void
FatTreeHelper::Install(RdmaHelper& rdma)
{
    CheckNotInstalled("Install");
    Validate();
    NS_LOG_FUNCTION(this << (m_leafSpine ? "leaf-spine" : "fat-tree") << m_k << m_hostsPerEdge
                         << m_planes);
    m_hosts.Create(GetNHosts());
    m_plane.reserve(m_planes);
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        BuildPlane(p);
    }
    m_installed = true;
    rdma.InstallHosts(m_hosts);
    rdma.InstallSwitches(GetSwitches());
    RdmaRoutingHelper::PopulateRoutingTables(GetNodes());
}

bool
FatTreeHelper::IsLeafSpine() const
{
    return m_leafSpine;
}

uint32_t
FatTreeHelper::GetK() const
{
    return m_leafSpine ? 0 : m_k;
}

uint32_t
FatTreeHelper::GetNPods() const
{
    return m_leafSpine ? 1 : (m_pods != 0 ? m_pods : m_k);
}

uint32_t
FatTreeHelper::GetNPlanes() const
{
    return m_planes;
}

void
FatTreeHelper::CheckPlane(uint32_t plane) const
{
    NS_ABORT_MSG_IF(plane >= m_planes,
                    "FatTreeHelper: plane " << plane << " does not exist; the fabric has "
                                            << m_planes << " plane(s), 0 .. " << m_planes - 1);
}

NodeContainer
FatTreeHelper::AllPlanes(NodeContainer Plane::*tier) const
{
    NodeContainer all;
    for (const auto& pl : m_plane)
    {
        all.Add(pl.*tier);
    }
    return all;
}

NodeContainer
FatTreeHelper::OnePlane(NodeContainer Plane::*tier, uint32_t plane) const
{
    CheckPlane(plane);
    // Before Install there are no planes yet: empty, like the all-planes accessors.
    return plane < m_plane.size() ? m_plane[plane].*tier : NodeContainer();
}

NodeContainer
FatTreeHelper::GetHosts() const
{
    return m_hosts;
}

NodeContainer
FatTreeHelper::GetEdgeSwitches() const
{
    return AllPlanes(&Plane::edge);
}

NodeContainer
FatTreeHelper::GetEdgeSwitches(uint32_t plane) const
{
    return OnePlane(&Plane::edge, plane);
}

NodeContainer
FatTreeHelper::GetAggregationSwitches() const
{
    return AllPlanes(&Plane::aggregation);
}

NodeContainer
FatTreeHelper::GetAggregationSwitches(uint32_t plane) const
{
    return OnePlane(&Plane::aggregation, plane);
}

NodeContainer
FatTreeHelper::GetCoreSwitches() const
{
    return AllPlanes(&Plane::core);
}

NodeContainer
FatTreeHelper::GetCoreSwitches(uint32_t plane) const
{
    return OnePlane(&Plane::core, plane);
}

NodeContainer
FatTreeHelper::GetSwitches() const
{
    NodeContainer all;
    for (uint32_t p = 0; p < m_plane.size(); ++p)
    {
        all.Add(GetSwitches(p));
    }
    return all;
}

NodeContainer
FatTreeHelper::GetSwitches(uint32_t plane) const
{
    CheckPlane(plane);
    if (plane >= m_plane.size())
    {
        return NodeContainer();
    }
    const Plane& pl = m_plane[plane];
    NodeContainer all(pl.edge, pl.aggregation);
    all.Add(pl.core);
    return all;
}

NodeContainer
FatTreeHelper::GetNodes() const
{
    return NodeContainer(m_hosts, GetSwitches());
}

Ptr<Node>
FatTreeHelper::GetHost(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.GetN(),
                    "FatTreeHelper: host " << i << " does not exist; the fabric has "
                                           << m_hosts.GetN() << " hosts"
                                           << (m_installed ? "" : " (call Install first)"));
    return m_hosts.Get(i);
}

Ipv4Address
FatTreeHelper::GetHostAddress(uint32_t i) const
{
    return RdmaHelper::GetNic(GetHost(i))->GetAddress();
}

uint32_t
FatTreeHelper::GetEdgeOfHost(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= GetNHosts(),
                    "FatTreeHelper: host " << i << " does not exist; the fabric has " << GetNHosts()
                                           << " hosts");
    return i / GetHostsPerEdge();
}

uint32_t
FatTreeHelper::GetPodOfHost(uint32_t i) const
{
    return m_leafSpine ? 0 : GetEdgeOfHost(i) / (m_k / 2);
}

NetDeviceContainer
FatTreeHelper::GetDevices(Tier tier) const
{
    NS_ABORT_MSG_IF(tier >= NUM_TIERS, "FatTreeHelper: tier " << tier << " does not exist");
    NetDeviceContainer all;
    for (const auto& pl : m_plane)
    {
        all.Add(pl.devices[tier]);
    }
    return all;
}

NetDeviceContainer
FatTreeHelper::GetDevices(Tier tier, uint32_t plane) const
{
    NS_ABORT_MSG_IF(tier >= NUM_TIERS, "FatTreeHelper: tier " << tier << " does not exist");
    CheckPlane(plane);
    return plane < m_plane.size() ? m_plane[plane].devices[tier] : NetDeviceContainer();
}

RdmaLinkHelper&
FatTreeHelper::GetLinkHelper(Tier tier)
{
    NS_ABORT_MSG_IF(tier >= NUM_TIERS, "FatTreeHelper: tier " << tier << " does not exist");
    return m_links[tier];
}

} // namespace ns3
