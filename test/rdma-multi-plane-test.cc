/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FatTreeHelper::SetPlanes: multi-plane (multi-rail) fabrics. Node and link counts per plane
// and in total against the formulas of fat-tree-helper.h, the cabling (host port p on an
// edge switch of plane p, no link between planes), reachability of every host pair, and in
// every plane the exact equal-cost next hops of every switch toward every host and the
// number of forwarding paths ((k/2)^2 between pods of a k-ary fat-tree, per plane). Then
// traffic: a sprayed WRITE splits evenly over the planes, queue-pair affinity spreads
// several queue pairs over the planes exactly as RdmaQpPathSelector::PortOf says, and one
// spraying queue pair over two planes has twice the goodput of one plane.

#include "rdma-test-utils.h"

#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// \return the device at the other end of a device's cable
Ptr<RdmaNetDevice>
PeerDevice(Ptr<RdmaNetDevice> d)
{
    return DynamicCast<RdmaNetDevice>(d->GetRdmaChannel()->GetPeer(d));
}

/// \return the node at the other end of a switch port
Ptr<Node>
PeerOf(Ptr<RdmaSwitch> sw, uint32_t port)
{
    return PeerDevice(sw->GetPort(port))->GetNode();
}

/// \return the nodes of a container as a set
std::set<Ptr<Node>>
SetOf(const NodeContainer& c)
{
    return std::set<Ptr<Node>>(c.Begin(), c.End());
}

/// The shape of a fabric, for the analytical counts.
struct Shape
{
    bool leafSpine{false};
    uint32_t k{0};            //!< three-tier radix
    uint32_t leaves{0};       //!< leaf-spine
    uint32_t spines{0};       //!< leaf-spine
    uint32_t hostsPerEdge{0}; //!< h
    uint32_t planes{1};       //!< P

    uint32_t Hosts() const
    {
        return leafSpine ? leaves * hostsPerEdge : k * k / 2 * hostsPerEdge;
    }

    uint32_t EdgePerPlane() const
    {
        return leafSpine ? leaves : k * k / 2;
    }

    uint32_t AggregationPerPlane() const
    {
        return leafSpine ? spines : k * k / 2;
    }

    uint32_t CorePerPlane() const
    {
        return leafSpine ? 0 : k * k / 4;
    }

    /// Links per plane of a tier: k^2 h/2 (hosts), k^3/4, k^3/4; or hosts, leaves x spines, 0.
    uint32_t LinksPerPlane(FatTreeHelper::Tier t) const
    {
        switch (t)
        {
        case FatTreeHelper::HOST_EDGE:
            return Hosts();
        case FatTreeHelper::EDGE_AGGREGATION:
            return leafSpine ? leaves * spines : k * k * k / 4;
        case FatTreeHelper::AGGREGATION_CORE:
            return leafSpine ? 0 : k * k * k / 4;
        }
        return 0;
    }
};

/// Configure a FatTreeHelper for a shape.
void
Configure(const Shape& s, FatTreeHelper& ft)
{
    if (s.leafSpine)
    {
        ft.SetLeafSpine(s.leaves, s.spines, s.hostsPerEdge);
    }
    else
    {
        ft.SetThreeTier(s.k);
        ft.SetHostsPerEdge(s.hostsPerEdge);
    }
    ft.SetPlanes(s.planes);
}

/**
 * Counts, cabling and numbering of a multi-plane fabric: per plane and in total against
 * the formulas; host port p (NIC port p, device p, device 2i of GetDevices(HOST_EDGE, p))
 * on host i's edge switch of plane p; every switch port either to a host's port of its own
 * plane or to a switch of its own plane; nodes numbered hosts, then plane after plane.
 */
void
CheckCountsAndCabling(const Shape& s)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    Configure(s, ft);
    const uint32_t P = s.planes;
    const uint32_t n = s.Hosts();
    const uint32_t switchesPerPlane = s.EdgePerPlane() + s.AggregationPerPlane() + s.CorePerPlane();
    uint32_t linksPerPlane = 0;
    // Before Install the counts are known from the parameters.
    EXPECT_EQ(ft.GetNPlanes(), P);
    EXPECT_EQ(ft.GetNHosts(), n);
    for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
    {
        const auto tier = static_cast<FatTreeHelper::Tier>(t);
        EXPECT_EQ(ft.GetNLinksPerPlane(tier), s.LinksPerPlane(tier)) << "tier " << t;
        EXPECT_EQ(ft.GetNLinks(tier), P * s.LinksPerPlane(tier)) << "tier " << t;
        linksPerPlane += s.LinksPerPlane(tier);
    }
    EXPECT_EQ(ft.GetNLinks(), P * linksPerPlane);
    ft.Install(rdma);

    // Per plane.
    std::vector<std::set<Ptr<Node>>> planeSwitches(P);
    for (uint32_t p = 0; p < P; ++p)
    {
        EXPECT_EQ(ft.GetEdgeSwitches(p).GetN(), s.EdgePerPlane()) << "plane " << p;
        EXPECT_EQ(ft.GetAggregationSwitches(p).GetN(), s.AggregationPerPlane()) << "plane " << p;
        EXPECT_EQ(ft.GetCoreSwitches(p).GetN(), s.CorePerPlane()) << "plane " << p;
        EXPECT_EQ(ft.GetSwitches(p).GetN(), switchesPerPlane) << "plane " << p;
        for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
        {
            const auto tier = static_cast<FatTreeHelper::Tier>(t);
            EXPECT_EQ(ft.GetDevices(tier, p).GetN(), 2 * s.LinksPerPlane(tier))
                << "plane " << p << " tier " << t;
        }
        planeSwitches[p] = SetOf(ft.GetSwitches(p));
        EXPECT_EQ(planeSwitches[p].size(), switchesPerPlane) << "distinct switches";
    }
    // In total: the hosts once, the switches and links P times; planes share no switch.
    EXPECT_EQ(ft.GetHosts().GetN(), n);
    EXPECT_EQ(ft.GetEdgeSwitches().GetN(), P * s.EdgePerPlane());
    EXPECT_EQ(ft.GetAggregationSwitches().GetN(), P * s.AggregationPerPlane());
    EXPECT_EQ(ft.GetCoreSwitches().GetN(), P * s.CorePerPlane());
    EXPECT_EQ(ft.GetSwitches().GetN(), P * switchesPerPlane);
    EXPECT_EQ(SetOf(ft.GetSwitches()).size(), P * switchesPerPlane) << "planes share a switch";
    EXPECT_EQ(ft.GetNodes().GetN(), n + P * switchesPerPlane);
    uint32_t devices = 0;
    for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
    {
        const auto tier = static_cast<FatTreeHelper::Tier>(t);
        EXPECT_EQ(ft.GetDevices(tier).GetN(), 2 * P * s.LinksPerPlane(tier)) << "tier " << t;
        devices += ft.GetDevices(tier).GetN();
        // All planes, plane after plane.
        for (uint32_t p = 0, i = 0; p < P; ++p)
        {
            NetDeviceContainer d = ft.GetDevices(tier, p);
            for (uint32_t j = 0; j < d.GetN(); ++j, ++i)
            {
                ASSERT_EQ(ft.GetDevices(tier).Get(i), d.Get(j));
            }
        }
    }
    EXPECT_EQ(devices, 2 * P * linksPerPlane);

    // Numbering: hosts, then plane 0's edge, aggregation, core switches, then plane 1's...
    NodeContainer nodes = ft.GetNodes();
    const uint32_t firstId = nodes.Get(0)->GetId();
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        ASSERT_EQ(nodes.Get(i)->GetId(), firstId + i) << "node " << i;
    }
    for (uint32_t p = 0; p < P; ++p)
    {
        const uint32_t base = n + p * switchesPerPlane;
        EXPECT_EQ(nodes.Get(base), ft.GetEdgeSwitches(p).Get(0)) << "plane " << p;
        EXPECT_EQ(nodes.Get(base + s.EdgePerPlane()), ft.GetAggregationSwitches(p).Get(0));
        if (s.CorePerPlane() > 0)
        {
            EXPECT_EQ(nodes.Get(base + s.EdgePerPlane() + s.AggregationPerPlane()),
                      ft.GetCoreSwitches(p).Get(0));
        }
    }

    // Hosts: P ports, port p to host i's edge switch of plane p.
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> host = ft.GetHost(i);
        Ptr<RdmaNic> nic = RdmaHelper::GetNic(host);
        ASSERT_EQ(host->GetNDevices(), P) << "host " << i;
        ASSERT_EQ(nic->GetNDevices(), P) << "host " << i;
        for (uint32_t p = 0; p < P; ++p)
        {
            Ptr<RdmaNetDevice> port = nic->GetDevice(p);
            EXPECT_EQ(port, host->GetDevice(p)) << "host " << i << " port " << p;
            EXPECT_EQ(port, ft.GetDevices(FatTreeHelper::HOST_EDGE, p).Get(2 * i));
            Ptr<Node> edge = PeerDevice(port)->GetNode();
            EXPECT_EQ(edge, ft.GetEdgeSwitches(p).Get(ft.GetEdgeOfHost(i)))
                << "host " << i << " port " << p;
            EXPECT_TRUE(planeSwitches[p].count(edge)) << "host " << i << " port " << p;
        }
    }

    // Switches: the single-plane port counts; every port stays in the switch's plane (a host
    // port of the same plane, or a switch of the same plane).
    const uint32_t edgePorts = s.hostsPerEdge + (s.leafSpine ? s.spines : s.k / 2);
    for (uint32_t p = 0; p < P; ++p)
    {
        for (uint32_t e = 0; e < s.EdgePerPlane(); ++e)
        {
            EXPECT_EQ(ft.GetEdgeSwitches(p).Get(e)->GetObject<RdmaSwitch>()->GetNPorts(),
                      edgePorts);
        }
        for (uint32_t a = 0; a < s.AggregationPerPlane(); ++a)
        {
            EXPECT_EQ(ft.GetAggregationSwitches(p).Get(a)->GetObject<RdmaSwitch>()->GetNPorts(),
                      s.leafSpine ? s.leaves : s.k);
        }
        for (uint32_t c = 0; c < s.CorePerPlane(); ++c)
        {
            EXPECT_EQ(ft.GetCoreSwitches(p).Get(c)->GetObject<RdmaSwitch>()->GetNPorts(), s.k);
        }
        for (Ptr<Node> node : planeSwitches[p])
        {
            Ptr<RdmaSwitch> sw = node->GetObject<RdmaSwitch>();
            ASSERT_TRUE(sw);
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                Ptr<RdmaNetDevice> peer = PeerDevice(sw->GetPort(port));
                if (Ptr<RdmaNic> nic = peer->GetNode()->GetObject<RdmaNic>())
                {
                    EXPECT_EQ(peer, nic->GetDevice(p)) << "plane " << p << ": host port of "
                                                       << "another plane";
                }
                else
                {
                    EXPECT_TRUE(planeSwitches[p].count(peer->GetNode()))
                        << "plane " << p << ": link to a switch of another plane";
                }
            }
        }
    }
    Simulator::Destroy();
}

/**
 * Follow the forwarding tables of one plane from a switch to a host.
 * \param plane the plane
 * \param planeSwitches the switches of the plane
 * \param from a switch of the plane
 * \param host the destination
 * \param paths receives the number of distinct forwarding paths (every ECMP branch)
 * \return the links from `from` to the host along the first route of every switch, or
 * UINT32_MAX if a switch has no route, the walk loops, leaves the plane, or reaches the
 * host on another port than its port `plane`
 */
uint32_t
WalkPlane(uint32_t plane,
          const std::set<Ptr<Node>>& planeSwitches,
          Ptr<Node> from,
          Ptr<Node> host,
          uint64_t* paths)
{
    Ptr<RdmaNic> nic = RdmaHelper::GetNic(host);
    const Ipv4Address dst = nic->GetAddress();
    bool stray = false;
    // Paths by memoised depth-first search (loop-free if every step is one hop closer,
    // which the hop-count walk below checks).
    std::map<Ptr<Node>, uint64_t> memo;
    std::function<uint64_t(Ptr<Node>, uint32_t)> count = [&](Ptr<Node> n, uint32_t depth) {
        if (depth > 16 || !planeSwitches.count(n))
        {
            stray = true;
            return uint64_t(0);
        }
        auto it = memo.find(n);
        if (it != memo.end())
        {
            return it->second;
        }
        Ptr<RdmaSwitch> sw = n->GetObject<RdmaSwitch>();
        uint64_t total = 0;
        for (uint32_t port : sw->GetRoutes(dst))
        {
            Ptr<RdmaNetDevice> peer = PeerDevice(sw->GetPort(port));
            if (peer->GetNode() == host)
            {
                stray |= peer != nic->GetDevice(plane);
                total += 1;
            }
            else
            {
                total += count(peer->GetNode(), depth + 1);
            }
        }
        memo[n] = total;
        return total;
    };
    *paths = count(from, 0);
    if (stray)
    {
        return UINT32_MAX;
    }
    uint32_t hops = 0;
    Ptr<Node> n = from;
    while (n != host)
    {
        Ptr<RdmaSwitch> sw = n->GetObject<RdmaSwitch>();
        if (!sw || sw->GetRoutes(dst).empty() || hops > 16)
        {
            return UINT32_MAX;
        }
        n = PeerOf(sw, sw->GetRoutes(dst)[0]);
        ++hops;
    }
    return hops + 1; // host to host: plus the first host link
}

/// Check that a switch's routes toward dst lead exactly to the nodes `expected`, once each.
void
ExpectNextHops(Ptr<Node> node,
               Ipv4Address dst,
               const std::set<Ptr<Node>>& expected,
               const std::string& what)
{
    Ptr<RdmaSwitch> sw = node->GetObject<RdmaSwitch>();
    const auto& routes = sw->GetRoutes(dst);
    std::set<Ptr<Node>> got;
    for (uint32_t port : routes)
    {
        got.insert(PeerOf(sw, port));
    }
    EXPECT_EQ(routes.size(), expected.size()) << what;
    EXPECT_TRUE(got == expected) << what << ": next hops are not the plane's equal-cost ones";
}

/**
 * Routes of a multi-plane fabric. Every host pair: reachable, and in every plane the
 * forwarding tables from the source's edge switch of that plane reach the destination's
 * port of that plane, never leave the plane, with the single-plane hop count and the
 * analytical number of equal-cost paths: same edge 1; same pod k/2; other pod (k/2)^2
 * (leaf-spine: other leaf, one per spine). Every switch of every plane toward every host:
 * exactly the equal-cost next hops of its plane.
 * \param reachability also ask RdmaRoutingHelper::IsReachable for every pair
 */
void
CheckRoutes(const Shape& s, bool reachability)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    Configure(s, ft);
    ft.Install(rdma);
    const uint32_t P = s.planes;
    const uint32_t n = ft.GetNHosts();
    const uint32_t half = s.k / 2;
    std::vector<std::set<Ptr<Node>>> planeSwitches(P);
    for (uint32_t p = 0; p < P; ++p)
    {
        planeSwitches[p] = SetOf(ft.GetSwitches(p));
    }

    std::vector<uint64_t> pathsPerPlane(P, 0);
    uint64_t expectedPathsPerPlane = 0;
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a == b)
            {
                continue;
            }
            if (reachability)
            {
                ASSERT_TRUE(RdmaRoutingHelper::IsReachable(ft.GetHost(a), ft.GetHost(b)))
                    << a << " -> " << b;
            }
            const bool sameEdge = ft.GetEdgeOfHost(a) == ft.GetEdgeOfHost(b);
            const bool samePod = ft.GetPodOfHost(a) == ft.GetPodOfHost(b);
            uint32_t expectedHops = 0;
            uint64_t expectedPaths = 0;
            if (s.leafSpine)
            {
                expectedHops = sameEdge ? 2 : 4;
                expectedPaths = sameEdge ? 1 : s.spines;
            }
            else
            {
                expectedHops = sameEdge ? 2 : (samePod ? 4 : 6);
                expectedPaths = sameEdge ? 1 : (samePod ? half : half * half);
            }
            expectedPathsPerPlane += expectedPaths;
            for (uint32_t p = 0; p < P; ++p)
            {
                uint64_t paths = 0;
                Ptr<Node> edge = ft.GetEdgeSwitches(p).Get(ft.GetEdgeOfHost(a));
                const uint32_t hops = WalkPlane(p, planeSwitches[p], edge, ft.GetHost(b), &paths);
                ASSERT_EQ(hops, expectedHops) << a << " -> " << b << " plane " << p;
                ASSERT_EQ(paths, expectedPaths) << a << " -> " << b << " plane " << p;
                pathsPerPlane[p] += paths;
            }
        }
    }
    for (uint32_t p = 0; p < P; ++p)
    {
        EXPECT_EQ(pathsPerPlane[p], expectedPathsPerPlane) << "plane " << p;
    }

    // Next hops of every switch of every plane toward every host.
    for (uint32_t h = 0; h < n; ++h)
    {
        const Ipv4Address dst = ft.GetHostAddress(h);
        const uint32_t edgeOfHost = ft.GetEdgeOfHost(h);
        const uint32_t pod = ft.GetPodOfHost(h);
        for (uint32_t p = 0; p < P; ++p)
        {
            NodeContainer edge = ft.GetEdgeSwitches(p);
            NodeContainer agg = ft.GetAggregationSwitches(p);
            NodeContainer core = ft.GetCoreSwitches(p);
            const std::string where =
                "plane " + std::to_string(p) + ", host " + std::to_string(h) + ", ";
            for (uint32_t e = 0; e < edge.GetN(); ++e)
            {
                std::set<Ptr<Node>> expected;
                if (e == edgeOfHost)
                {
                    expected.insert(ft.GetHost(h));
                }
                else if (s.leafSpine)
                {
                    expected = SetOf(agg); // up through every spine
                }
                else
                {
                    for (uint32_t j = 0; j < half; ++j) // every aggregation switch of its pod
                    {
                        expected.insert(agg.Get(e / half * half + j));
                    }
                }
                ExpectNextHops(edge.Get(e), dst, expected, where + "edge " + std::to_string(e));
            }
            for (uint32_t a = 0; a < agg.GetN(); ++a)
            {
                std::set<Ptr<Node>> expected;
                if (s.leafSpine || a / half == pod)
                {
                    expected.insert(edge.Get(edgeOfHost)); // down to the host's edge switch
                }
                else
                {
                    for (uint32_t c = 0; c < half; ++c) // up through each of its k/2 cores
                    {
                        expected.insert(core.Get(a % half * half + c));
                    }
                }
                ExpectNextHops(agg.Get(a),
                               dst,
                               expected,
                               where + "aggregation " + std::to_string(a));
            }
            for (uint32_t c = 0; c < core.GetN(); ++c)
            {
                // Down to aggregation switch c / (k/2) of the host's pod.
                ExpectNextHops(core.Get(c),
                               dst,
                               {agg.Get(pod * half + c / half)},
                               where + "core " + std::to_string(c));
            }
        }
    }
    Simulator::Destroy();
}

} // namespace

TEST(RdmaMultiPlane, FatTreeK4TwoPlanesCounts)
{
    // Per plane 8 edge, 8 aggregation, 4 core switches and 16 + 16 + 16 links; in total 16
    // hosts, 40 switches, 96 links.
    CheckCountsAndCabling({false, 4, 0, 0, 2, 2});
}

TEST(RdmaMultiPlane, FatTreeK8TwoPlanesCounts)
{
    // Per plane 32 + 32 + 16 switches, 128 + 128 + 128 links; in total 128 hosts, 160
    // switches, 768 links.
    CheckCountsAndCabling({false, 8, 0, 0, 4, 2});
}

TEST(RdmaMultiPlane, OversubscribedFatTreeTwoPlanesCounts)
{
    // k = 4 with 3 hosts per edge switch (3:2): 24 hosts, 24 host links per plane.
    CheckCountsAndCabling({false, 4, 0, 0, 3, 2});
}

TEST(RdmaMultiPlane, LeafSpineTwoAndFourPlanesCounts)
{
    // 3 leaves, 2 spines, 4 hosts per leaf: per plane 5 switches, 12 + 6 links.
    CheckCountsAndCabling({true, 0, 3, 2, 4, 2});
    CheckCountsAndCabling({true, 0, 3, 2, 4, 4});
}

TEST(RdmaMultiPlane, FatTreeK4TwoPlanesRoutes)
{
    CheckRoutes({false, 4, 0, 0, 2, 2}, true);
}

TEST(RdmaMultiPlane, FatTreeK8TwoPlanesRoutes)
{
    // 128 x 127 pairs through both planes' tables (every pair's paths > 0 in every plane:
    // reachable); RdmaRoutingHelper is asked for a sample.
    CheckRoutes({false, 8, 0, 0, 4, 2}, false);
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(8);
    ft.SetPlanes(2);
    ft.Install(rdma);
    for (uint32_t b = 1; b < ft.GetNHosts(); b += 7)
    {
        ASSERT_TRUE(RdmaRoutingHelper::IsReachable(ft.GetHost(0), ft.GetHost(b)));
        EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ft.GetHost(0), ft.GetHost(b)),
                  b < 4 ? 2u : (b < 16 ? 4u : 6u))
            << "host " << b;
    }
    Simulator::Destroy();
}

TEST(RdmaMultiPlane, LeafSpineFourPlanesRoutes)
{
    CheckRoutes({true, 0, 3, 2, 4, 4}, true);
}

TEST(RdmaMultiPlane, OnePlaneIsTheSingleFabric)
{
    // SetPlanes(1) is the default: every accessor with plane 0 equals the one without.
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    EXPECT_EQ(ft.GetNPlanes(), 1u);
    ft.SetPlanes(1);
    ft.Install(rdma);
    EXPECT_EQ(ft.GetSwitches().GetN(), 20u);
    EXPECT_EQ(ft.GetNLinks(), 48u);
    for (uint32_t i = 0; i < 20; ++i)
    {
        EXPECT_EQ(ft.GetSwitches().Get(i), ft.GetSwitches(0).Get(i));
    }
    for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
    {
        const auto tier = static_cast<FatTreeHelper::Tier>(t);
        ASSERT_EQ(ft.GetDevices(tier).GetN(), 32u);
        for (uint32_t i = 0; i < 32; ++i)
        {
            EXPECT_EQ(ft.GetDevices(tier).Get(i), ft.GetDevices(tier, 0).Get(i));
        }
    }
    EXPECT_EQ(RdmaHelper::GetNic(ft.GetHost(0))->GetNDevices(), 1u);
    Simulator::Destroy();
}

namespace
{

/// A WRITE's data packets, sent and received, on a multi-plane k = 4 fat-tree.
struct PlaneRun
{
    std::vector<uint64_t> perPort; //!< requester's data packets per NIC port
    uint64_t packetsSent{0};       //!< requester queue pair: data packets incl. retransmissions
    uint64_t retransmissions{0};
    uint32_t completions{0};
    RdmaCompletion receive; //!< the responder's completion
};

/**
 * One WRITE from host 0 (pod 0) to host 15 (pod 3) of a k = 4 fat-tree of P planes, one
 * queue pair, with the spraying path selector in round-robin mode.
 */
PlaneRun
SprayWrite(uint32_t planes, uint32_t mtu, uint64_t bytes)
{
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetPathSelector("ns3::RdmaSprayPathSelector",
                         "Mode",
                         EnumValue(RdmaSprayPathSelector::ROUND_ROBIN));
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.SetPlanes(planes);
    ft.Install(rdma);
    auto [qp, peer] = rdma.Connect(ft.GetHost(0), ft.GetHost(15));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, ft.GetHost(0), Seconds(0), bytes);
    Simulator::Run();
    PlaneRun r;
    Ptr<RdmaNic> nic = RdmaHelper::GetNic(ft.GetHost(0));
    for (uint32_t p = 0; p < nic->GetNDevices(); ++p)
    {
        r.perPort.push_back(nic->GetDataPacketsSent(p));
    }
    r.packetsSent = qp->GetPacketsSent();
    r.retransmissions = qp->GetRetransmissions();
    r.completions = log.sends.size();
    if (log.receives.size() == 1)
    {
        r.receive = log.receives[0];
    }
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(RdmaMultiPlane, SprayedWriteSplitsEvenlyOverTwoPlanes)
{
    // 101 packets of 1000 bytes, round-robin over 2 ports: packet i on port i mod 2, so
    // 51 and 50 (half, +-1). The planes are identical, so nothing is reordered and
    // go-back-N retransmits nothing: the ports carry exactly the 101 packets.
    const PlaneRun r = SprayWrite(2, 1000, 100500);
    ASSERT_EQ(r.completions, 1u);
    EXPECT_EQ(r.receive.length, 100500u);
    EXPECT_EQ(r.retransmissions, 0u);
    EXPECT_EQ(r.packetsSent, 101u);
    ASSERT_EQ(r.perPort.size(), 2u);
    EXPECT_EQ(r.perPort[0] + r.perPort[1], 101u);
    EXPECT_NEAR(double(r.perPort[0]), 101 / 2.0, 1.0);
    EXPECT_NEAR(double(r.perPort[1]), 101 / 2.0, 1.0);
}

TEST(RdmaMultiPlane, SprayedWriteSplitsEvenlyOverFourLeafSpinePlanes)
{
    // Leaf-spine, 2 leaves of 2 hosts, 2 spines, 4 planes: 102 packets round-robin over 4
    // ports, 25.5 each (+-1), from host 0 (leaf 0) to host 3 (leaf 1).
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    rdma.SetPathSelector("ns3::RdmaSprayPathSelector");
    FatTreeHelper ls;
    ls.SetLeafSpine(2, 2, 2);
    ls.SetPlanes(4);
    ls.Install(rdma);
    auto [qp, peer] = rdma.Connect(ls.GetHost(0), ls.GetHost(3));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, ls.GetHost(0), Seconds(0), 102000);
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 1u);
    ASSERT_EQ(log.receives.size(), 1u);
    EXPECT_EQ(qp->GetRetransmissions(), 0u);
    Ptr<RdmaNic> nic = RdmaHelper::GetNic(ls.GetHost(0));
    ASSERT_EQ(nic->GetNDevices(), 4u);
    uint64_t sum = 0;
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_NEAR(double(nic->GetDataPacketsSent(p)), 102 / 4.0, 1.0) << "port " << p;
        sum += nic->GetDataPacketsSent(p);
    }
    EXPECT_EQ(sum, 102u);
    // The responder sends no data packets.
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_EQ(RdmaHelper::GetNic(ls.GetHost(3))->GetDataPacketsSent(p), 0u);
    }
    Simulator::Destroy();
}

TEST(RdmaMultiPlane, QueuePairAffinitySpreadsQueuePairsOverPlanes)
{
    // Default path selector (RdmaQpPathSelector): every queue pair on the one port
    // RdmaQpPathSelector::PortOf gives for its addresses and UDP source port. Eight queue
    // pairs from host 0 to host 15, 20 packets each: each port carries exactly 20 x the
    // number of queue pairs hashed onto it, and both planes carry some (the QPNs, hence the
    // source ports and the hash, are deterministic).
    constexpr uint32_t QPS = 8;
    constexpr uint64_t PACKETS = 20;
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.SetPlanes(2);
    ft.Install(rdma);
    const uint32_t src = ft.GetHostAddress(0).Get();
    const uint32_t dst = ft.GetHostAddress(15).Get();
    std::vector<uint64_t> expected(2, 0);
    std::vector<Ptr<RdmaQueuePair>> qps;
    std::vector<CompletionLog> logs(QPS);
    for (uint32_t q = 0; q < QPS; ++q)
    {
        auto [qp, peer] = rdma.Connect(ft.GetHost(0), ft.GetHost(15));
        logs[q].Attach(qp, peer);
        expected[RdmaQpPathSelector::PortOf(src, dst, qp->GetSourcePort(), 2)] += PACKETS;
        PostWriteAt(qp, ft.GetHost(0), Seconds(0), PACKETS * 1000);
        qps.push_back(qp);
    }
    Simulator::Run();
    Ptr<RdmaNic> nic = RdmaHelper::GetNic(ft.GetHost(0));
    std::cout << "queue-pair affinity: data packets per port " << nic->GetDataPacketsSent(0) << ", "
              << nic->GetDataPacketsSent(1) << " (hash: " << expected[0] << ", " << expected[1]
              << ")" << std::endl;
    for (uint32_t q = 0; q < QPS; ++q)
    {
        ASSERT_EQ(logs[q].sends.size(), 1u) << "queue pair " << q;
        EXPECT_EQ(qps[q]->GetRetransmissions(), 0u) << "queue pair " << q;
    }
    EXPECT_EQ(nic->GetDataPacketsSent(0), expected[0]);
    EXPECT_EQ(nic->GetDataPacketsSent(1), expected[1]);
    EXPECT_EQ(nic->GetDataPacketsSent(0) + nic->GetDataPacketsSent(1), QPS * PACKETS);
    EXPECT_GT(nic->GetDataPacketsSent(0), 0u) << "all queue pairs on plane 1";
    EXPECT_GT(nic->GetDataPacketsSent(1), 0u) << "all queue pairs on plane 0";
    Simulator::Destroy();
}

TEST(RdmaMultiPlane, SprayingOverTwoPlanesDoublesGoodput)
{
    // One queue pair, one 1 MB WRITE (1000 packets of 1000 bytes), host 0 -> host 15 of a
    // k = 4 fat-tree, fixed-rate (line-rate) sender, round-robin spraying. The queue pair's
    // line rate is P x 100 Gb/s; each plane's path is uncongested, so each port sends back
    // to back and the goodput is
    //   G(P) = P x 100 Gb/s x MTU / (MTU + 82) = P x 92.421 Gb/s (1000-byte MTU).
    // Measured at the responder: its completion spans the first packet's arrival to the
    // last's, in which the payload of the other N - 1 packets arrives, so
    //   G = (bytes - MTU) / (completion - first arrival).
    // Deviations: the first packet's 16-byte RETH (one packet of 1000, < 0.02 %) and, with
    // two planes, the half-packet stagger between the ports, which is exact at the ends of
    // the stream only to one packet time (0.1 %). Tolerance 0.5 % of G, and the ratio
    // G(2) / G(1) = 2 within 0.5 %.
    constexpr uint32_t MTU = 1000;
    constexpr uint64_t BYTES = 1000 * MTU;
    auto goodput = [&](uint32_t planes) {
        const PlaneRun r = SprayWrite(planes, MTU, BYTES);
        EXPECT_EQ(r.completions, 1u) << planes << " planes";
        EXPECT_EQ(r.retransmissions, 0u) << planes << " planes";
        EXPECT_EQ(r.receive.length, BYTES) << planes << " planes";
        const double seconds = (r.receive.completionTime - r.receive.postTime).GetSeconds();
        return (BYTES - MTU) * 8 / seconds;
    };
    const double one = goodput(1);
    const double two = goodput(2);
    const double expectedOne = AnalyticalGoodput(100e9, MTU);
    std::cout << "goodput: 1 plane " << one / 1e9 << " Gb/s (expected " << expectedOne / 1e9
              << "), 2 planes " << two / 1e9 << " Gb/s (expected " << 2 * expectedOne / 1e9
              << "), ratio " << two / one << std::endl;
    EXPECT_NEAR(one, expectedOne, 0.005 * expectedOne);
    EXPECT_NEAR(two, 2 * expectedOne, 0.005 * 2 * expectedOne);
    EXPECT_NEAR(two / one, 2.0, 0.01);
}

TEST(RdmaMultiPlaneDeathTest, BadPlanesAreRejected)
{
    FatTreeHelper ft;
    EXPECT_DEATH(ft.SetPlanes(0), "planes = 0 is invalid; need at least 1 plane");
    ft.SetPlanes(2);
    EXPECT_DEATH(ft.GetEdgeSwitches(2), "plane 2 does not exist; the fabric has 2 plane");
    EXPECT_DEATH(ft.GetDevices(FatTreeHelper::HOST_EDGE, 5), "plane 5 does not exist");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            FatTreeHelper late;
            late.SetThreeTier(2);
            late.Install(rdma);
            late.SetPlanes(2);
        },
        "FatTreeHelper::SetPlanes: the fabric is already installed");
}
