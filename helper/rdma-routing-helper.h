/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ROUTING_HELPER_H
#define RDMA_ROUTING_HELPER_H

#include "ns3/node-container.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Node;
class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief Computes the switches' forwarding tables: every shortest path to every host, so
 * that each switch holds all equal-cost next hops (ECMP) for each host address.
 *
 * The topology is read from the links themselves (RdmaNetDevice -> RdmaChannel -> peer),
 * so it works for any graph built with RdmaLinkHelper. Hosts (nodes with an RdmaNic)
 * terminate paths: traffic is never routed through a host. One breadth-first search per
 * destination host: O(hosts x (nodes + links)).
 */
class RdmaRoutingHelper
{
  public:
    /// Fill the tables of every switch in the simulation (ns3::NodeList).
    static void PopulateRoutingTables();

    /**
     * Fill the tables of the switches among nodes, for the hosts among nodes.
     * \param nodes hosts and switches
     */
    static void PopulateRoutingTables(NodeContainer nodes);

    /**
     * \param from a host
     * \param to another host
     * \return true if a path of switches joins them
     */
    static bool IsReachable(Ptr<Node> from, Ptr<Node> to);

    /**
     * \param port a port (RdmaNetDevice) of a host
     * \param to another host
     * \return true if `to` is reachable through that port: the port is cabled to `to`, or
     *         to a switch from which a path of switches leads to `to`
     */
    static bool IsReachableThrough(Ptr<RdmaNetDevice> port, Ptr<Node> to);

    /**
     * \param from a host
     * \param to another host
     * \return number of links on a shortest path, or UINT32_MAX if unreachable
     */
    static uint32_t GetHopCount(Ptr<Node> from, Ptr<Node> to);

  private:
    /**
     * Hop distance of every node (indexed by node id) from a host, through switches only.
     * \param host the origin
     * \return distances, UINT32_MAX where unreachable
     */
    static std::vector<uint32_t> Distances(Ptr<Node> host);
};

} // namespace ns3

#endif /* RDMA_ROUTING_HELPER_H */
