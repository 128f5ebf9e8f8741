/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-routing-helper.h"

#include "ns3/abort.h"
#include "ns3/channel-list.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <deque>
#include <limits>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRoutingHelper");

namespace
{
constexpr uint32_t UNREACHABLE = std::numeric_limits<uint32_t>::max();

/// \return the node at the other end of an RdmaNetDevice's cable, or nullptr
Ptr<Node>
PeerNode(Ptr<RdmaNetDevice> d)
{
    Ptr<RdmaChannel> ch = d->GetRdmaChannel();
    if (!ch || ch->GetNDevices() < 2)
    {
        return nullptr;
    }
    return ch->GetPeer(d)->GetNode();
}

/**
 * The topology as plain integers, read once from the links: node ids, which nodes are
 * switches, and for every switch port the node at its other end. Searching this is far
 * cheaper than walking Ptr<Node>/GetObject for every host (8,192 hosts at k = 32).
 */
struct Graph
{
    std::vector<Ptr<RdmaSwitch>> sw;               //!< by node id; null for hosts
    std::vector<std::vector<uint32_t>> neighbours; //!< by node id: peer node ids
    std::vector<std::vector<uint32_t>> portPeer;   //!< switches: port index -> peer node id

    /// The graph of every node of the simulation (ns3::NodeList).
    Graph()
        : sw(NodeList::GetNNodes()),
          neighbours(NodeList::GetNNodes()),
          portPeer(NodeList::GetNNodes())
    {
        for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
        {
            AddNode(NodeList::GetNode(i));
        }
    }

    void AddNode(Ptr<Node> n)
    {
        const uint32_t id = n->GetId();
        sw[id] = n->GetObject<RdmaSwitch>();
        if (sw[id])
        {
            for (uint32_t p = 0; p < sw[id]->GetNPorts(); ++p)
            {
                Ptr<Node> peer = PeerNode(sw[id]->GetPort(p));
                portPeer[id].push_back(peer ? peer->GetId() : UNREACHABLE);
            }
        }
        for (uint32_t i = 0; i < n->GetNDevices(); ++i)
        {
            Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(n->GetDevice(i));
            Ptr<Node> peer = d ? PeerNode(d) : nullptr;
            if (peer)
            {
                neighbours[id].push_back(peer->GetId());
            }
        }
    }

    /// Hop distances from origin; only the origin and switches forward.
    std::vector<uint32_t> Distances(uint32_t origin) const
    {
        std::vector<uint32_t> dist(sw.size(), UNREACHABLE);
        std::deque<uint32_t> frontier{origin};
        dist[origin] = 0;
        while (!frontier.empty())
        {
            const uint32_t n = frontier.front();
            frontier.pop_front();
            if (n != origin && !sw[n])
            {
                continue; // hosts are leaves
            }
            for (uint32_t peer : neighbours[n])
            {
                if (dist[peer] == UNREACHABLE)
                {
                    dist[peer] = dist[n] + 1;
                    frontier.push_back(peer);
                }
            }
        }
        return dist;
    }
};

/// Every node of the simulation, as a container.
NodeContainer
AllNodes()
{
    NodeContainer all;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        all.Add(NodeList::GetNode(i));
    }
    return all;
}

} // namespace

std::vector<uint32_t>
RdmaRoutingHelper::Distances(Ptr<Node> host)
{
    return Graph().Distances(host->GetId());
}

void
RdmaRoutingHelper::PopulateRoutingTables()
{
    PopulateRoutingTables(AllNodes());
}

void
RdmaRoutingHelper::PopulateRoutingTables(NodeContainer nodes)
{
    // Paths may cross nodes outside the container: the graph is the whole simulation.
    const Graph g;
    std::vector<uint32_t> switches;
    std::vector<std::pair<uint32_t, Ipv4Address>> hosts;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        const uint32_t id = (*it)->GetId();
        if (g.sw[id])
        {
            g.sw[id]->ClearRoutes();
            switches.push_back(id);
        }
        else if (Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>())
        {
            hosts.emplace_back(id, nic->GetAddress());
        }
    }

    // Hosts hanging off one switch share every route beyond that switch: one search per
    // attachment switch (k/2 hosts at once in a fat-tree) instead of one per host.
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, Ipv4Address>>> byAttachment;
    std::vector<std::pair<uint32_t, Ipv4Address>> others;
    for (const auto& h : hosts)
    {
        const auto& nb = g.neighbours[h.first];
        if (nb.size() == 1 && g.sw[nb[0]])
        {
            byAttachment[nb[0]].push_back(h);
        }
        else
        {
            others.push_back(h);
        }
    }

    std::vector<uint32_t> nextHops;
    // Next hops of switch s toward a destination whose distances are dist: ports leading
    // to a switch one hop closer, or to the destination host itself.
    auto fill = [&](uint32_t s, const auto& dist, uint32_t unreachable, uint32_t destination) {
        nextHops.clear();
        const uint32_t ds = dist[s];
        if (ds == unreachable)
        {
            return;
        }
        const auto& peers = g.portPeer[s];
        for (uint32_t port = 0; port < peers.size(); ++port)
        {
            const uint32_t peer = peers[port];
            if (peer != UNREACHABLE && dist[peer] + 1U == ds && (peer == destination || g.sw[peer]))
            {
                nextHops.push_back(port);
            }
        }
    };
    // The attachment switch's own routes: the port(s) to each of its hosts.
    auto setOwnHosts = [&](uint32_t attachment,
                           const std::vector<std::pair<uint32_t, Ipv4Address>>& group) {
        const auto& peers = g.portPeer[attachment];
        for (const auto& h : group)
        {
            nextHops.clear();
            for (uint32_t port = 0; port < peers.size(); ++port)
            {
                if (peers[port] == h.first)
                {
                    nextHops.push_back(port);
                }
            }
            g.sw[attachment]->SetRoutes(h.second, nextHops);
        }
    };

    // Distances from every attachment switch first (2 bytes per node: 70 MB at k = 48, freed
    // at the end), then each switch's whole table in turn, compacted at once
    // (RdmaSwitch::CompactRoutes): the flat tables of all switches, 4 bytes per host each,
    // never exist together (318 MB at k = 48). Each switch gets the same calls in the same
    // order as attachment by attachment, so the same next-hop sets.
    constexpr uint16_t FAR = std::numeric_limits<uint16_t>::max();
    std::vector<uint32_t> attachments;
    std::vector<const std::vector<std::pair<uint32_t, Ipv4Address>>*> groups;
    std::vector<std::vector<Ipv4Address>> groupAddresses;
    std::vector<std::vector<uint16_t>> distances;
    for (const auto& [attachment, group] : byAttachment)
    {
        attachments.push_back(attachment);
        groups.push_back(&group);
        groupAddresses.emplace_back();
        for (const auto& h : group)
        {
            groupAddresses.back().push_back(h.second);
        }
        const std::vector<uint32_t> dist = g.Distances(attachment);
        distances.emplace_back(dist.size(), FAR);
        for (std::size_t i = 0; i < dist.size(); ++i)
        {
            if (dist[i] != UNREACHABLE)
            {
                NS_ABORT_MSG_IF(dist[i] >= FAR,
                                "RdmaRoutingHelper: node "
                                    << i << " is " << dist[i] << " hops from switch node "
                                    << attachment << "; at most 65,534 are supported");
                distances.back()[i] = static_cast<uint16_t>(dist[i]);
            }
        }
    }
    std::vector<bool> isListed(g.sw.size(), false);
    for (uint32_t s : switches)
    {
        isListed[s] = true;
        for (std::size_t a = 0; a < attachments.size(); ++a)
        {
            if (s == attachments[a])
            {
                setOwnHosts(s, *groups[a]);
                continue;
            }
            fill(s, distances[a], FAR, UNREACHABLE);
            if (!nextHops.empty())
            {
                // Distances are measured from the attachment switch: one hop less than
                // from its hosts, the same next hops.
                g.sw[s]->SetRoutes(groupAddresses[a], nextHops); // one check and interning
            }
        }
        if (others.empty())
        {
            g.sw[s]->CompactRoutes();
        }
    }
    for (std::size_t a = 0; a < attachments.size(); ++a)
    {
        if (!isListed[attachments[a]])
        {
            setOwnHosts(attachments[a], *groups[a]); // an attachment outside `nodes`
        }
    }
    distances.clear();
    for (const auto& h : others)
    {
        const std::vector<uint32_t> dist = g.Distances(h.first);
        for (uint32_t s : switches)
        {
            fill(s, dist, UNREACHABLE, h.first);
            if (!nextHops.empty())
            {
                g.sw[s]->SetRoutes(h.second, nextHops);
            }
        }
    }
    if (!others.empty())
    {
        for (uint32_t s : switches)
        {
            g.sw[s]->CompactRoutes();
        }
    }
}

bool
RdmaRoutingHelper::IsReachable(Ptr<Node> from, Ptr<Node> to)
{
    // Connected components of the switches (hosts do not forward), cached until the
    // topology changes: one pass over the links for any number of queue pairs. Two hosts
    // reach each other if switches they are cabled to share a component.
    static uint64_t cachedKey = 0;
    static std::vector<uint32_t> parent;
    auto find = [](uint32_t x) {
        while (parent[x] != x)
        {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    };
    auto rebuild = [&find]() {
        const Graph g;
        parent.resize(NodeList::GetNNodes());
        for (uint32_t i = 0; i < parent.size(); ++i)
        {
            parent[i] = i;
        }
        for (uint32_t n = 0; n < parent.size(); ++n)
        {
            for (uint32_t peer : g.neighbours[n])
            {
                if (g.sw[n] && g.sw[peer])
                {
                    parent[find(n)] = find(peer);
                }
            }
        }
    };
    // Nodes and cables only ever get added: their counts identify the topology (O(1)).
    const uint64_t key = (uint64_t(NodeList::GetNNodes()) << 32) | ChannelList::GetNChannels();
    bool fresh = false;
    if (key != cachedKey)
    {
        rebuild();
        cachedKey = key;
        fresh = true;
    }
    // Each end's attachment points: itself if it is a switch, else the nodes it is cabled
    // to (a switch, or a host directly: back to back).
    auto attachments = [](Ptr<Node> n) {
        std::vector<Ptr<Node>> v;
        if (n->GetObject<RdmaSwitch>())
        {
            v.push_back(n);
            return v;
        }
        for (uint32_t i = 0; i < n->GetNDevices(); ++i)
        {
            Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(n->GetDevice(i));
            Ptr<Node> peer = d ? PeerNode(d) : nullptr;
            if (peer)
            {
                v.push_back(peer);
            }
        }
        return v;
    };
    const auto fromAt = attachments(from);
    const auto toAt = attachments(to);
    for (int attempt = 0; attempt < 2; ++attempt)
    {
        for (const auto& x : fromAt)
        {
            if (x == to)
            {
                return true; // cabled back to back
            }
            for (const auto& y : toAt)
            {
                if (x->GetObject<RdmaSwitch>() && y->GetObject<RdmaSwitch>() &&
                    find(x->GetId()) == find(y->GetId()))
                {
                    return true;
                }
            }
        }
        if (fresh)
        {
            break;
        }
        // Switches installed since the cache was built do not change the counts: look
        // again from scratch before answering no.
        rebuild();
        fresh = true;
    }
    return false;
}

bool
RdmaRoutingHelper::IsReachableThrough(Ptr<RdmaNetDevice> port, Ptr<Node> to)
{
    Ptr<Node> peer = PeerNode(port);
    if (!peer)
    {
        return false; // not cabled
    }
    if (peer == to)
    {
        return true; // back to back
    }
    // From a switch, IsReachable looks for `to` in the switch's own component.
    return peer->GetObject<RdmaSwitch>() && IsReachable(peer, to);
}

uint32_t
RdmaRoutingHelper::GetHopCount(Ptr<Node> from, Ptr<Node> to)
{
    return Distances(to)[from->GetId()];
}

} // namespace ns3
