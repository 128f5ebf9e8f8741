/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-routing-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <deque>
#include <limits>

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
} // namespace

std::vector<uint32_t>
RdmaRoutingHelper::Distances(Ptr<Node> host)
{
    std::vector<uint32_t> dist(NodeList::GetNNodes(), UNREACHABLE);
    std::deque<Ptr<Node>> frontier;
    dist[host->GetId()] = 0;
    frontier.push_back(host);
    while (!frontier.empty())
    {
        Ptr<Node> n = frontier.front();
        frontier.pop_front();
        // Only the origin host and switches forward; other hosts are leaves.
        if (n != host && !n->GetObject<RdmaSwitch>())
        {
            continue;
        }
        for (uint32_t i = 0; i < n->GetNDevices(); ++i)
        {
            Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(n->GetDevice(i));
            if (!d)
            {
                continue;
            }
            Ptr<Node> peer = PeerNode(d);
            if (peer && dist[peer->GetId()] == UNREACHABLE)
            {
                dist[peer->GetId()] = dist[n->GetId()] + 1;
                frontier.push_back(peer);
            }
        }
    }
    return dist;
}

void
RdmaRoutingHelper::PopulateRoutingTables()
{
    NodeContainer all;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        all.Add(NodeList::GetNode(i));
    }
    PopulateRoutingTables(all);
}

void
RdmaRoutingHelper::PopulateRoutingTables(NodeContainer nodes)
{
    std::vector<Ptr<RdmaSwitch>> switches;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaSwitch> sw = (*it)->GetObject<RdmaSwitch>();
        if (sw)
        {
            sw->ClearRoutes();
            switches.push_back(sw);
        }
    }
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>();
        if (!nic)
        {
            continue;
        }
        const std::vector<uint32_t> dist = Distances(*it);
        for (const auto& sw : switches)
        {
            const uint32_t ds = dist[sw->GetNode()->GetId()];
            if (ds == UNREACHABLE)
            {
                continue;
            }
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                Ptr<Node> peer = PeerNode(sw->GetPort(port));
                // Next hops are switches one hop closer, or the destination itself.
                if (peer && dist[peer->GetId()] + 1 == ds &&
                    (peer == *it || peer->GetObject<RdmaSwitch>()))
                {
                    sw->AddRoute(nic->GetAddress(), port);
                }
            }
        }
    }
}

bool
RdmaRoutingHelper::IsReachable(Ptr<Node> from, Ptr<Node> to)
{
    return GetHopCount(from, to) != UNREACHABLE;
}

uint32_t
RdmaRoutingHelper::GetHopCount(Ptr<Node> from, Ptr<Node> to)
{
    return Distances(to)[from->GetId()];
}

} // namespace ns3
