/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FatTreeHelper: node and link counts of k-ary fat-trees and leaf-spines, reachability and
// hop counts of every host pair, every equal-cost path in the forwarding tables,
// oversubscription, per-tier links, the numbering of the HPCC simulator's fat-tree files,
// and clear errors for bad parameters.

#include "rdma-test-utils.h"

#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// \return the node at the other end of a switch port
Ptr<Node>
PeerOf(Ptr<RdmaSwitch> sw, uint32_t port)
{
    Ptr<RdmaNetDevice> d = sw->GetPort(port);
    return d->GetRdmaChannel()->GetPeer(d)->GetNode();
}

/// Index of every node of a container.
std::map<Ptr<Node>, uint32_t>
IndexOf(const NodeContainer& c)
{
    std::map<Ptr<Node>, uint32_t> m;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        m[c.Get(i)] = i;
    }
    return m;
}

/// Host-side node one hop up from a host: its edge switch.
Ptr<Node>
EdgeOf(Ptr<Node> host)
{
    Ptr<RdmaNetDevice> d = RdmaHelper::GetNic(host)->GetDevice();
    return d->GetRdmaChannel()->GetPeer(d)->GetNode();
}

/**
 * Follow the forwarding tables from a switch to a host address.
 * \param paths receives the number of distinct forwarding paths (all ECMP branches)
 * \return the hop count along the first route at every switch (links from `from` to the
 * host), or UINT32_MAX if a switch has no route or the walk loops
 */
uint32_t
WalkTables(Ptr<Node> from, Ptr<Node> host, uint64_t* paths)
{
    const Ipv4Address dst = RdmaHelper::GetNic(host)->GetAddress();
    // Number of paths by memoised depth-first search (the tables are loop-free if every
    // step goes one hop closer, which the hop-count walk checks).
    std::map<Ptr<Node>, uint64_t> memo;
    std::function<uint64_t(Ptr<Node>, uint32_t)> count = [&](Ptr<Node> n, uint32_t depth) {
        if (n == host)
        {
            return uint64_t(1);
        }
        if (depth > 16)
        {
            return uint64_t(0);
        }
        auto it = memo.find(n);
        if (it != memo.end())
        {
            return it->second;
        }
        Ptr<RdmaSwitch> sw = n->GetObject<RdmaSwitch>();
        uint64_t total = 0;
        if (sw)
        {
            for (uint32_t port : sw->GetRoutes(dst))
            {
                total += count(PeerOf(sw, port), depth + 1);
            }
        }
        memo[n] = total;
        return total;
    };
    *paths = count(from, 0);
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
    return hops;
}

/// Count the devices of a node.
uint32_t
Ports(Ptr<Node> n)
{
    return n->GetNDevices();
}

/// Build and check the counts of a k-ary fat-tree with the default hosts per edge.
void
CheckFatTreeCounts(uint32_t k)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(k);
    // Before Install the counts are known from the parameters.
    EXPECT_EQ(ft.GetNHosts(), k * k * k / 4);
    EXPECT_EQ(ft.GetNLinks(), 3 * k * k * k / 4);
    ft.Install(rdma);

    EXPECT_EQ(ft.GetK(), k);
    EXPECT_FALSE(ft.IsLeafSpine());
    EXPECT_EQ(ft.GetNPods(), k);
    EXPECT_EQ(ft.GetHostsPerEdge(), k / 2);
    EXPECT_EQ(ft.GetHosts().GetN(), k * k * k / 4);
    EXPECT_EQ(ft.GetEdgeSwitches().GetN(), k * k / 2);
    EXPECT_EQ(ft.GetAggregationSwitches().GetN(), k * k / 2);
    EXPECT_EQ(ft.GetCoreSwitches().GetN(), k * k / 4);
    EXPECT_EQ(ft.GetSwitches().GetN(), 5 * k * k / 4);
    EXPECT_EQ(ft.GetNodes().GetN(), k * k * k / 4 + 5 * k * k / 4);
    // Links per tier: k^3/4 each; two devices per link.
    for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
    {
        const auto tier = static_cast<FatTreeHelper::Tier>(t);
        EXPECT_EQ(ft.GetNLinks(tier), k * k * k / 4) << "tier " << t;
        EXPECT_EQ(ft.GetDevices(tier).GetN(), 2 * k * k * k / 4) << "tier " << t;
    }
    // Every switch has k ports, every host one.
    for (uint32_t i = 0; i < ft.GetSwitches().GetN(); ++i)
    {
        EXPECT_EQ(Ports(ft.GetSwitches().Get(i)), k);
        EXPECT_EQ(ft.GetSwitches().Get(i)->GetObject<RdmaSwitch>()->GetNPorts(), k);
    }
    for (uint32_t i = 0; i < ft.GetHosts().GetN(); ++i)
    {
        EXPECT_EQ(Ports(ft.GetHosts().Get(i)), 1u);
    }
    // Addresses: consecutive from RdmaHelper's base 10.0.0.1.
    std::set<uint32_t> addresses;
    for (uint32_t i = 0; i < ft.GetNHosts(); ++i)
    {
        EXPECT_EQ(ft.GetHostAddress(i), Ipv4Address(Ipv4Address("10.0.0.1").Get() + i));
        addresses.insert(ft.GetHostAddress(i).Get());
    }
    EXPECT_EQ(addresses.size(), ft.GetNHosts());
    Simulator::Destroy();
}

/**
 * Check every host pair of a k-ary fat-tree: reachable, hop counts (same edge 2, same
 * pod 4, other pod 6), and the number of equal-cost paths in the forwarding tables
 * (same edge 1, same pod k/2, other pod (k/2)^2); and the number of next hops of every
 * switch toward every host.
 * \param useRoutingHelper also ask RdmaRoutingHelper (one BFS per pair) for every pair
 */
void
CheckFatTreeRoutes(uint32_t k, bool useRoutingHelper)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(k);
    ft.Install(rdma);
    const uint32_t half = k / 2;
    const uint32_t n = ft.GetNHosts();

    uint32_t pairs = 0;
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a == b)
            {
                continue;
            }
            const bool sameEdge = ft.GetEdgeOfHost(a) == ft.GetEdgeOfHost(b);
            const bool samePod = ft.GetPodOfHost(a) == ft.GetPodOfHost(b);
            const uint32_t expectedHops = sameEdge ? 2 : (samePod ? 4 : 6);
            const uint64_t expectedPaths = sameEdge ? 1 : (samePod ? half : half * half);
            uint64_t paths = 0;
            // From a's edge switch: one hop less than host to host.
            const uint32_t hops = WalkTables(EdgeOf(ft.GetHost(a)), ft.GetHost(b), &paths);
            ASSERT_EQ(hops + 1, expectedHops) << "hosts " << a << " -> " << b;
            ASSERT_EQ(paths, expectedPaths) << "hosts " << a << " -> " << b;
            if (useRoutingHelper)
            {
                ASSERT_TRUE(RdmaRoutingHelper::IsReachable(ft.GetHost(a), ft.GetHost(b)));
                ASSERT_EQ(RdmaRoutingHelper::GetHopCount(ft.GetHost(a), ft.GetHost(b)),
                          expectedHops);
            }
            ++pairs;
        }
    }
    EXPECT_EQ(pairs, n * (n - 1));

    // Next hops of every switch toward every host.
    const auto edgeIndex = IndexOf(ft.GetEdgeSwitches());
    const auto aggIndex = IndexOf(ft.GetAggregationSwitches());
    const auto coreIndex = IndexOf(ft.GetCoreSwitches());
    for (uint32_t h = 0; h < n; ++h)
    {
        const Ipv4Address dst = ft.GetHostAddress(h);
        const uint32_t pod = ft.GetPodOfHost(h);
        for (uint32_t e = 0; e < ft.GetEdgeSwitches().GetN(); ++e)
        {
            Ptr<RdmaSwitch> sw = ft.GetEdgeSwitches().Get(e)->GetObject<RdmaSwitch>();
            const auto& routes = sw->GetRoutes(dst);
            if (e == ft.GetEdgeOfHost(h))
            {
                ASSERT_EQ(routes.size(), 1u);
                EXPECT_EQ(PeerOf(sw, routes[0]), ft.GetHost(h));
                continue;
            }
            // Up through every aggregation switch of the pod (k/2 equal-cost next hops).
            ASSERT_EQ(routes.size(), half) << "edge " << e << " -> host " << h;
            std::set<uint32_t> aggs;
            for (uint32_t port : routes)
            {
                auto it = aggIndex.find(PeerOf(sw, port));
                ASSERT_NE(it, aggIndex.end());
                EXPECT_EQ(it->second / half, e / half) << "leaves its pod";
                aggs.insert(it->second);
            }
            EXPECT_EQ(aggs.size(), half);
        }
        for (uint32_t a = 0; a < ft.GetAggregationSwitches().GetN(); ++a)
        {
            Ptr<RdmaSwitch> sw = ft.GetAggregationSwitches().Get(a)->GetObject<RdmaSwitch>();
            const auto& routes = sw->GetRoutes(dst);
            if (a / half == pod)
            {
                // Down to the host's edge switch only.
                ASSERT_EQ(routes.size(), 1u) << "aggregation " << a << " -> host " << h;
                EXPECT_EQ(edgeIndex.at(PeerOf(sw, routes[0])), ft.GetEdgeOfHost(h));
                continue;
            }
            // Toward a remote pod: up through each of its k/2 core switches.
            ASSERT_EQ(routes.size(), half) << "aggregation " << a << " -> host " << h;
            std::set<uint32_t> cores;
            for (uint32_t port : routes)
            {
                auto it = coreIndex.find(PeerOf(sw, port));
                ASSERT_NE(it, coreIndex.end());
                EXPECT_EQ(it->second / half, a % half);
                cores.insert(it->second);
            }
            EXPECT_EQ(cores.size(), half);
        }
        for (uint32_t c = 0; c < ft.GetCoreSwitches().GetN(); ++c)
        {
            Ptr<RdmaSwitch> sw = ft.GetCoreSwitches().Get(c)->GetObject<RdmaSwitch>();
            const auto& routes = sw->GetRoutes(dst);
            // Exactly one: down to aggregation switch c / (k/2) of the host's pod.
            ASSERT_EQ(routes.size(), 1u) << "core " << c << " -> host " << h;
            EXPECT_EQ(aggIndex.at(PeerOf(sw, routes[0])), pod * half + c / half);
        }
    }
    Simulator::Destroy();
}

} // namespace

TEST(RdmaTopology, FatTreeK4Counts)
{
    // 16 hosts, 8 edge, 8 aggregation, 4 core switches, 48 links.
    CheckFatTreeCounts(4);
}

TEST(RdmaTopology, FatTreeK8Counts)
{
    // 128 hosts, 32 edge, 32 aggregation, 16 core switches, 384 links.
    CheckFatTreeCounts(8);
}

TEST(RdmaTopology, FatTreeK4AllPairsAndEqualCostPaths)
{
    CheckFatTreeRoutes(4, true);
}

TEST(RdmaTopology, FatTreeK8AllPairsAndEqualCostPaths)
{
    // 128 x 127 pairs through the forwarding tables; RdmaRoutingHelper (one BFS per call)
    // is asked for a sample below.
    CheckFatTreeRoutes(8, false);
}

TEST(RdmaTopology, FatTreeK8RoutingHelperHopCounts)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(8);
    ft.Install(rdma);
    // Host 0 to every other host: same edge (hosts 1-3), same pod (4-15), other pods.
    for (uint32_t b = 1; b < ft.GetNHosts(); ++b)
    {
        const uint32_t expected = b < 4 ? 2 : (b < 16 ? 4 : 6);
        ASSERT_EQ(RdmaRoutingHelper::GetHopCount(ft.GetHost(0), ft.GetHost(b)), expected)
            << "host " << b;
    }
    EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ft.GetHost(127), ft.GetHost(64)), 6u);
    Simulator::Destroy();
}

// The routing helper gives each switch, toward each host, exactly the ports whose far end is
// one hop closer to the host (a host only as the destination itself), in ascending port
// order: the order is the ECMP bucket order, so it must not change when the helper sets a
// whole edge switch's hosts at once (RdmaSwitch::SetRoutes with several addresses). The
// distances are found here independently, by a BFS over the switches' ports from each host.
// Every distinct list is one next-hop set of the switch.
TEST(RdmaTopology, FatTreeNextHopsAreTheShortestPathPortsInOrder)
{
    for (uint32_t k : {4u, 6u})
    {
        RdmaHelper rdma;
        FatTreeHelper ft;
        ft.SetThreeTier(k);
        ft.Install(rdma);
        const NodeContainer switches = ft.GetSwitches();
        std::map<Ptr<Node>, Ptr<RdmaSwitch>> swOf;
        for (uint32_t i = 0; i < switches.GetN(); ++i)
        {
            swOf[switches.Get(i)] = switches.Get(i)->GetObject<RdmaSwitch>();
        }
        std::map<Ptr<RdmaSwitch>, std::set<std::vector<uint32_t>>> sets;
        for (uint32_t h = 0; h < ft.GetNHosts(); ++h)
        {
            // BFS from the host's edge switch (distance 1 from the host).
            std::map<Ptr<Node>, uint32_t> dist{{ft.GetHost(h), 0}, {EdgeOf(ft.GetHost(h)), 1}};
            std::vector<Ptr<Node>> frontier{EdgeOf(ft.GetHost(h))};
            for (std::size_t f = 0; f < frontier.size(); ++f)
            {
                Ptr<RdmaSwitch> sw = swOf.at(frontier[f]);
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    Ptr<Node> peer = PeerOf(sw, p);
                    if (swOf.count(peer) && !dist.count(peer))
                    {
                        dist[peer] = dist.at(frontier[f]) + 1;
                        frontier.push_back(peer);
                    }
                }
            }
            const Ipv4Address dst = ft.GetHostAddress(h);
            for (const auto& [node, sw] : swOf)
            {
                std::vector<uint32_t> expected;
                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                {
                    auto it = dist.find(PeerOf(sw, p));
                    if (it != dist.end() && it->second + 1 == dist.at(node))
                    {
                        expected.push_back(p);
                    }
                }
                ASSERT_EQ(sw->GetRoutes(dst), expected)
                    << "k = " << k << ", switch node " << node->GetId() << " -> host " << h;
                sets[sw].insert(expected);
            }
        }
        for (const auto& [sw, distinct] : sets)
        {
            EXPECT_EQ(sw->GetNRouteSets(), distinct.size()) << "k = " << k;
        }
        Simulator::Destroy();
    }
}

// The routing helper sets a k = 16 fat-tree's routes from 10.0.3.x on; every switch must still
// hold all 1,024 hosts in its flat forwarding table (bug: 767 went to the hash table) and
// share a few next-hop sets among them.
TEST(RdmaTopology, FatTreeK16ForwardingTablesAreFlat)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(16);
    ft.Install(rdma);
    ASSERT_EQ(ft.GetNHosts(), 1024u);
    const NodeContainer switches = ft.GetSwitches();
    ASSERT_EQ(switches.GetN(), 320u);
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<RdmaSwitch> sw = switches.Get(i)->GetObject<RdmaSwitch>();
        ASSERT_TRUE(sw);
        EXPECT_EQ(sw->GetNSparseRoutes(), 0u) << "switch " << i;
        // Edge: 8 host ports + the 8 uplinks; aggregation: 8 edges + the 8 uplinks; core:
        // one port per pod.
        EXPECT_LE(sw->GetNRouteSets(), 16u) << "switch " << i;
    }
    Simulator::Destroy();
}

TEST(RdmaTopology, K2IsTheSmallestFatTree)
{
    // k = 2: 2 pods of 1 edge and 1 aggregation switch, 1 core, 1 host per edge.
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(2);
    ft.Install(rdma);
    EXPECT_EQ(ft.GetNHosts(), 2u);
    EXPECT_EQ(ft.GetSwitches().GetN(), 5u);
    EXPECT_EQ(ft.GetNLinks(), 6u);
    EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ft.GetHost(0), ft.GetHost(1)), 6u);
    Simulator::Destroy();
}

TEST(RdmaTopology, LeafSpineCountsRoutesAndHops)
{
    RdmaHelper rdma;
    FatTreeHelper ls;
    ls.SetLeafSpine(4, 3, 5);
    EXPECT_EQ(ls.GetNHosts(), 20u);
    EXPECT_EQ(ls.GetNLinks(), 20u + 4 * 3);
    ls.Install(rdma);
    EXPECT_TRUE(ls.IsLeafSpine());
    EXPECT_EQ(ls.GetK(), 0u);
    EXPECT_EQ(ls.GetEdgeSwitches().GetN(), 4u);
    EXPECT_EQ(ls.GetAggregationSwitches().GetN(), 3u);
    EXPECT_EQ(ls.GetCoreSwitches().GetN(), 0u);
    EXPECT_EQ(ls.GetNLinks(FatTreeHelper::AGGREGATION_CORE), 0u);
    EXPECT_EQ(ls.GetDevices(FatTreeHelper::EDGE_AGGREGATION).GetN(), 2u * 12);
    for (uint32_t l = 0; l < 4; ++l)
    {
        EXPECT_EQ(Ports(ls.GetEdgeSwitches().Get(l)), 5u + 3);
    }
    for (uint32_t s = 0; s < 3; ++s)
    {
        EXPECT_EQ(Ports(ls.GetAggregationSwitches().Get(s)), 4u);
    }
    for (uint32_t a = 0; a < 20; ++a)
    {
        for (uint32_t b = 0; b < 20; ++b)
        {
            if (a == b)
            {
                continue;
            }
            const bool sameLeaf = a / 5 == b / 5;
            uint64_t paths = 0;
            const uint32_t hops = WalkTables(EdgeOf(ls.GetHost(a)), ls.GetHost(b), &paths);
            ASSERT_EQ(hops + 1, sameLeaf ? 2u : 4u) << a << " -> " << b;
            ASSERT_EQ(paths, sameLeaf ? 1u : 3u) << a << " -> " << b;
        }
    }
    EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ls.GetHost(0), ls.GetHost(19)), 4u);
    EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ls.GetHost(0), ls.GetHost(4)), 2u);
    // A spine has exactly one next hop (the host's leaf) toward every host.
    for (uint32_t s = 0; s < 3; ++s)
    {
        Ptr<RdmaSwitch> sw = ls.GetAggregationSwitches().Get(s)->GetObject<RdmaSwitch>();
        for (uint32_t h = 0; h < 20; ++h)
        {
            ASSERT_EQ(sw->GetRoutes(ls.GetHostAddress(h)).size(), 1u);
            EXPECT_EQ(PeerOf(sw, sw->GetRoutes(ls.GetHostAddress(h))[0]),
                      ls.GetEdgeSwitches().Get(h / 5));
        }
    }
    Simulator::Destroy();
}

TEST(RdmaTopology, Oversubscription)
{
    // Three-tier k = 4: 2 uplinks per edge switch.
    {
        FatTreeHelper ft;
        ft.SetThreeTier(4);
        ft.SetOversubscription(2); // 2:1 -> 4 hosts per edge
        EXPECT_EQ(ft.GetHostsPerEdge(), 4u);
        EXPECT_EQ(ft.GetNHosts(), 32u);
        EXPECT_EQ(ft.GetNLinks(FatTreeHelper::HOST_EDGE), 32u);
        EXPECT_EQ(ft.GetNLinks(), 32u + 16 + 16);
        ft.SetOversubscription(1.5); // 3 hosts per edge
        EXPECT_EQ(ft.GetNHosts(), 24u);
        ft.SetHostsPerEdge(1); // 1:2, underprovisioned edge
        EXPECT_EQ(ft.GetNHosts(), 8u);
        ft.SetLeafSpine(2, 2, 7); // choosing the shape resets the hosts per edge switch
        EXPECT_EQ(ft.GetNHosts(), 14u);
        ft.SetThreeTier(4);
        EXPECT_EQ(ft.GetNHosts(), 16u);
    }
    // Leaf-spine with 4 spines at 3:1: 12 hosts per leaf.
    RdmaHelper rdma;
    FatTreeHelper ls;
    ls.SetLeafSpine(2, 4, 1);
    ls.SetOversubscription(3);
    ls.Install(rdma);
    EXPECT_EQ(ls.GetHostsPerEdge(), 12u);
    EXPECT_EQ(ls.GetNHosts(), 24u);
    EXPECT_EQ(Ports(ls.GetEdgeSwitches().Get(0)), 12u + 4);
    EXPECT_EQ(ls.GetEdgeOfHost(11), 0u);
    EXPECT_EQ(ls.GetEdgeOfHost(12), 1u);
    EXPECT_EQ(RdmaRoutingHelper::GetHopCount(ls.GetHost(0), ls.GetHost(23)), 4u);
    Simulator::Destroy();
}

TEST(RdmaTopology, PerTierRatesAndDelays)
{
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.SetLinkRate(FatTreeHelper::HOST_EDGE, DataRate("25Gbps"));
    ft.SetLinkDelay(FatTreeHelper::HOST_EDGE, NanoSeconds(500));
    ft.SetLinkRate(FatTreeHelper::EDGE_AGGREGATION, DataRate("100Gbps"));
    ft.SetLinkDelay(FatTreeHelper::EDGE_AGGREGATION, MicroSeconds(1));
    ft.SetLinkRate(FatTreeHelper::AGGREGATION_CORE, DataRate("400Gbps"));
    ft.SetLinkDelay(FatTreeHelper::AGGREGATION_CORE, MicroSeconds(2));
    ft.SetDeviceAttribute("Mtu", UintegerValue(4200));
    ft.Install(rdma);
    const char* rates[3] = {"25Gbps", "100Gbps", "400Gbps"};
    const Time delays[3] = {NanoSeconds(500), MicroSeconds(1), MicroSeconds(2)};
    for (uint32_t t = 0; t < 3; ++t)
    {
        NetDeviceContainer d = ft.GetDevices(static_cast<FatTreeHelper::Tier>(t));
        ASSERT_EQ(d.GetN(), 32u);
        for (uint32_t i = 0; i < d.GetN(); ++i)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(d.Get(i));
            EXPECT_EQ(dev->GetDataRate(), DataRate(rates[t])) << "tier " << t;
            EXPECT_EQ(dev->GetRdmaChannel()->GetDelay(), delays[t]) << "tier " << t;
            EXPECT_EQ(dev->GetMtu(), 4200);
        }
    }
    // Lower tier's device first: hosts in tier 0, cores last in tier 2.
    EXPECT_EQ(ft.GetDevices(FatTreeHelper::HOST_EDGE).Get(0)->GetNode(), ft.GetHost(0));
    EXPECT_EQ(ft.GetDevices(FatTreeHelper::AGGREGATION_CORE).Get(1)->GetNode(),
              ft.GetCoreSwitches().Get(0));
    Simulator::Destroy();
}

TEST(RdmaTopology, NumberingMatchesTheHpccFatTreeFile)
{
    // test/data/hpcc/fattree_k4.txt is the HPCC simulator's k = 4 fat-tree (hosts 0-15,
    // edge 16-23, aggregation 24-31, core 32-35): same nodes, same links, same order.
    HpccTopologyReader topo;
    topo.Read(std::string(RDMA_SOURCE_DIR) + "/test/data/hpcc/fattree_k4.txt");
    RdmaHelper rdma;
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.Install(rdma);
    const auto index = IndexOf(ft.GetNodes());
    ASSERT_EQ(ft.GetNodes().GetN(), topo.GetNNodes());
    ASSERT_EQ(ft.GetNLinks(), topo.GetLinks().size());
    for (uint32_t i = 0; i < topo.GetNNodes(); ++i)
    {
        EXPECT_EQ(topo.IsSwitch(i), i >= ft.GetNHosts()) << "node " << i;
    }
    uint32_t l = 0;
    for (uint32_t t = 0; t < FatTreeHelper::NUM_TIERS; ++t)
    {
        NetDeviceContainer d = ft.GetDevices(static_cast<FatTreeHelper::Tier>(t));
        for (uint32_t i = 0; i < d.GetN(); i += 2, ++l)
        {
            const HpccLink& link = topo.GetLinks()[l];
            EXPECT_EQ(index.at(d.Get(i)->GetNode()), link.src) << "link line " << link.line;
            EXPECT_EQ(index.at(d.Get(i + 1)->GetNode()), link.dst) << "link line " << link.line;
        }
    }
    EXPECT_EQ(l, 48u);
    Simulator::Destroy();
}

TEST(RdmaTopology, WriteAcrossPodsCompletes)
{
    // One 100 kB WRITE from host 0 (pod 0) to host 15 (pod 3) over 6 links of 100 Gb/s,
    // 1 us: back-to-back packets, store-and-forward at 5 switches, then the ACK back.
    // Exact to the picosecond.
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    FatTreeHelper ft;
    ft.SetThreeTier(4);
    ft.Install(rdma);
    auto [qp, peer] = rdma.Connect(ft.GetHost(0), ft.GetHost(15));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, ft.GetHost(0), Seconds(0), 100000);
    Simulator::Run();
    ASSERT_EQ(log.sends.size(), 1u);
    ASSERT_EQ(log.receives.size(), 1u);
    // Wire bytes: 100 packets of 1000 + 82, the first with a 16-byte RETH; ACK 86 (48-byte
    // IPv4 packet in a 66-byte frame, plus preamble and inter-frame gap). The host sends
    // the packets back to back; each of the 5 switches starts forwarding when the first
    // (largest) packet is in and is never starved after that, so the stream reaches the
    // receiver (6 - 1) first-packet times and 6 delays after the host finished it.
    const double bit = 1e-11;                                      // seconds per bit at 100 Gb/s
    const double all = (100 * 1082.0 + 16) * 8 * bit;              // 8657.28 ns
    const double first = 1098 * 8 * bit;                           // 87.84 ns
    const double ack = 86 * 8 * bit;                               // 6.88 ns
    const double expected = all + 5 * first + 6 * ack + 12 * 1e-6; // 21137.76 ns
    const double fct = (log.sends[0].completionTime - log.sends[0].postTime).GetSeconds();
    EXPECT_NEAR(fct, expected, 1e-12) << "expected " << expected * 1e6 << " us";
    Simulator::Destroy();
}

TEST(RdmaTopologyDeathTest, BadParametersAreRejected)
{
    FatTreeHelper ft;
    EXPECT_DEATH(ft.SetThreeTier(3), "k = 3 is invalid; a k-ary fat-tree needs an even k >= 2");
    EXPECT_DEATH(ft.SetThreeTier(0), "k = 0 is invalid");
    EXPECT_DEATH(ft.SetLeafSpine(0, 2, 2), "leaf-spine with 0 leaves");
    EXPECT_DEATH(ft.SetLeafSpine(2, 0, 2), "leaf-spine with 0 spines");
    EXPECT_DEATH(ft.SetLeafSpine(2, 2, 0), "leaf-spine with 0 hosts per leaf");
    EXPECT_DEATH(ft.SetHostsPerEdge(0), "0 hosts per edge switch; need at least 1");
    EXPECT_DEATH(ft.SetOversubscription(0), "oversubscription 0 is invalid; need a ratio > 0");
    EXPECT_DEATH(ft.SetOversubscription(-1), "oversubscription -1 is invalid");
    EXPECT_DEATH(ft.SetLinkRate(FatTreeHelper::HOST_EDGE, DataRate(0)),
                 "rate 0 for tier HOST_EDGE");
    EXPECT_DEATH(ft.SetLinkDelay(FatTreeHelper::AGGREGATION_CORE, NanoSeconds(-1)),
                 "negative delay .* for tier AGGREGATION_CORE");
    // k = 4 has 2 uplinks per edge switch: a ratio of 0.75 would need 1.5 hosts.
    ft.SetOversubscription(0.75);
    EXPECT_DEATH(ft.GetNHosts(), "oversubscription 0.75 x 2 uplinks per edge switch = 1.5 hosts");
    ft.SetHostsPerEdge(2);
    EXPECT_DEATH(ft.GetHost(0), "host 0 does not exist; the fabric has 0 hosts .call Install");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            FatTreeHelper twice;
            twice.SetThreeTier(2);
            twice.Install(rdma);
            twice.Install(rdma);
        },
        "FatTreeHelper::Install: the fabric is already installed");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            FatTreeHelper late;
            late.SetThreeTier(2);
            late.Install(rdma);
            late.SetLinkRate(FatTreeHelper::HOST_EDGE, DataRate("1Gbps"));
        },
        "FatTreeHelper::SetLinkRate: the fabric is already installed");
}
