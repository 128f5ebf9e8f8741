/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAT_TREE_HELPER_H
#define FAT_TREE_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-link-helper.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

class RdmaHelper;

/**
 * \ingroup rdma
 * \brief Builds the Clos fabrics of data centers and AI clusters: the k-ary three-tier
 * fat-tree of Al-Fares, Loukissas and Vahdat ("A Scalable, Commodity Data Center Network
 * Architecture", SIGCOMM 2008) and the two-tier leaf-spine, with RdmaLinkHelper links,
 * RdmaHelper NICs and switches and RdmaRoutingHelper (ECMP) routes.
 *
 * <b>Three-tier fat-tree</b> (SetThreeTier(k), k even): k pods, each with k/2 edge (ToR)
 * and k/2 aggregation switches; (k/2)^2 core switches. Edge switch e of a pod connects
 * to every aggregation switch of its pod; aggregation switch j of every pod connects to
 * core switches j k/2 .. j k/2 + k/2 - 1. With the default k/2 hosts per edge switch
 * (SetHostsPerEdge) the tree is non-blocking and has
 *
 *   hosts k^3/4, edge k^2/2, aggregation k^2/2, core k^2/4, links 3 k^3/4
 *
 * (k = 4: 16 hosts, 20 switches, 48 links; k = 32: 8,192 hosts, 1,280 switches). With
 * h hosts per edge switch the host links are k^2 h / 2, and the oversubscription of the
 * edge tier is h / (k/2) (SetOversubscription sets h from the ratio instead).
 *
 * <b>Leaf-spine</b> (SetLeafSpine(leaves, spines, hostsPerLeaf)): every leaf connects to
 * every spine; leaves are the edge tier, spines the aggregation tier, there is no core.
 * Links: leaves x hostsPerLeaf + leaves x spines; oversubscription hostsPerLeaf / spines.
 *
 * <b>Numbering.</b> Nodes are created in the order hosts, edge (leaf), aggregation
 * (spine), core, each pod after pod; links in the order host-edge, edge-aggregation
 * (edge by edge), aggregation-core (aggregation by aggregation), which is also the order
 * of the HPCC simulator's fat-tree topology files (see HpccTopologyReader), so that a
 * k-ary tree built here and one read from such a file have the same node and device
 * numbering. Host i is under edge switch i / h; edge switch e is in pod e / (k/2).
 * Hosts get consecutive addresses from the RdmaHelper's base address (GetHostAddress).
 *
 * <b>Links.</b> Each tier has its own rate and delay (SetLinkRate, SetLinkDelay:
 * HOST_EDGE, EDGE_AGGREGATION, AGGREGATION_CORE; 100 Gb/s and 1 us by default); other
 * RdmaNetDevice and RdmaChannel attributes apply to every tier (SetDeviceAttribute,
 * SetChannelAttribute).
 *
 * <b>Memory.</b> The helper keeps only the node containers and per-tier device
 * containers: O(nodes + links). The routes are computed by RdmaRoutingHelper (one
 * breadth-first search per host).
 *
 * <b>Not yet: multi-plane fabrics.</b> Multi-plane designs (each host has one NIC port
 * per plane and every plane is a separate copy of the switch tiers) need multi-port
 * NICs, which RdmaNic does not have yet (it drives exactly one port). The extension point
 * is BuildPlane(): it builds all switch tiers of one plane and the host links of that
 * plane; a SetPlanes(n) would create n sets of switch containers and call BuildPlane
 * once per plane, connecting host port p to plane p.
 */
class FatTreeHelper
{
  public:
    /// The link tiers of the fabric.
    enum Tier
    {
        HOST_EDGE = 0,        //!< host to edge (ToR, leaf) switch
        EDGE_AGGREGATION = 1, //!< edge to aggregation switch (leaf to spine)
        AGGREGATION_CORE = 2  //!< aggregation to core switch (three-tier only)
    };

    /// Number of tiers.
    static constexpr uint32_t NUM_TIERS = 3;

    /// A three-tier fat-tree with k = 4 until configured otherwise.
    FatTreeHelper();

    /**
     * Build a k-ary three-tier fat-tree, with the default k/2 hosts per edge switch
     * (SetThreeTier and SetLeafSpine reset the hosts per edge switch and the
     * oversubscription: call SetHostsPerEdge or SetOversubscription afterwards).
     * \param k switch radix: even and at least 2
     */
    void SetThreeTier(uint32_t k);

    /**
     * Build a two-tier leaf-spine fabric.
     * \param leaves number of leaf (ToR) switches, at least 1
     * \param spines number of spine switches, at least 1
     * \param hostsPerLeaf hosts under each leaf, at least 1
     */
    void SetLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);

    /**
     * Hosts under each edge switch of the three-tier tree (default k/2, non-blocking), or
     * under each leaf of the leaf-spine.
     * \param hosts at least 1
     */
    void SetHostsPerEdge(uint32_t hosts);

    /**
     * Set the hosts per edge (leaf) switch from the oversubscription ratio of the edge
     * tier: hosts = ratio x uplinks per edge switch (k/2, or the number of spines). The
     * product must be a whole number of at least 1. Overrides SetHostsPerEdge.
     * \param ratio hosts per uplink, e.g. 1 (non-blocking) or 3 (3:1)
     */
    void SetOversubscription(double ratio);

    /**
     * \param tier a link tier
     * \param rate the line rate of its links
     */
    void SetLinkRate(Tier tier, DataRate rate);
    /**
     * \param tier a link tier
     * \param delay the propagation delay of its links
     */
    void SetLinkDelay(Tier tier, Time delay);

    /**
     * Set an RdmaNetDevice attribute on every link (DataRate is per tier: SetLinkRate).
     * \param name attribute of ns3::RdmaNetDevice
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an RdmaChannel attribute on every link (Delay is per tier: SetLinkDelay).
     * \param name attribute of ns3::RdmaChannel
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Create the nodes and links, install NICs on the hosts and switches on the switch
     * nodes with the given RdmaHelper (configured by the caller: congestion control, MMU,
     * ECN, ...), and compute the forwarding tables of the fabric's switches. Call once.
     * \param rdma the helper that installs NICs and switches
     */
    void Install(RdmaHelper& rdma);

    /// \return true for the leaf-spine, false for the three-tier fat-tree
    bool IsLeafSpine() const;
    /// \return k of the three-tier tree (0 for the leaf-spine)
    uint32_t GetK() const;
    /// \return hosts under each edge (leaf) switch, as Install uses it
    uint32_t GetHostsPerEdge() const;
    /// \return uplinks of each edge (leaf) switch: k/2, or the number of spines
    uint32_t GetUplinksPerEdge() const;
    /// \return number of pods (three-tier: k; leaf-spine: 1)
    uint32_t GetNPods() const;

    /// \return the hosts, in host order
    NodeContainer GetHosts() const;
    /// \return the edge (ToR, leaf) switches
    NodeContainer GetEdgeSwitches() const;
    /// \return the aggregation switches (the spines of a leaf-spine)
    NodeContainer GetAggregationSwitches() const;
    /// \return the core switches (none in a leaf-spine)
    NodeContainer GetCoreSwitches() const;
    /// \return all switches: edge, aggregation, core
    NodeContainer GetSwitches() const;
    /// \return all nodes: hosts, then the switches
    NodeContainer GetNodes() const;

    /// \return number of hosts (valid before Install)
    uint32_t GetNHosts() const;
    /// \return number of links (valid before Install)
    uint32_t GetNLinks() const;
    /**
     * \param tier a link tier
     * \return number of links of the tier (valid before Install)
     */
    uint32_t GetNLinks(Tier tier) const;

    /**
     * \param i host index, 0 .. GetNHosts()-1
     * \return the host node
     */
    Ptr<Node> GetHost(uint32_t i) const;
    /**
     * \param i host index
     * \return its IPv4 address (after Install)
     */
    Ipv4Address GetHostAddress(uint32_t i) const;
    /**
     * \param i host index
     * \return the index of its edge switch in GetEdgeSwitches()
     */
    uint32_t GetEdgeOfHost(uint32_t i) const;
    /**
     * \param i host index
     * \return its pod (0 in a leaf-spine)
     */
    uint32_t GetPodOfHost(uint32_t i) const;

    /**
     * \param tier a link tier
     * \return the devices of the tier's links, two per link in link order (the lower
     * tier's device first)
     */
    NetDeviceContainer GetDevices(Tier tier) const;

    /**
     * The link helper of a tier (rate and delay of the tier already set), e.g. for pcap.
     * \param tier a link tier
     * \return the helper
     */
    RdmaLinkHelper& GetLinkHelper(Tier tier);

  private:
    /// Abort unless the configuration is valid; computes m_hostsPerEdge.
    void Validate();
    /// Abort if Install was called already.
    void CheckNotInstalled(const char* what) const;
    /**
     * Create the switch tiers of one plane and connect them, and the host links of the
     * plane. Today there is one plane (see the class documentation).
     * \param plane plane index (0)
     */
    void BuildPlane(uint32_t plane);
    /**
     * Connect two nodes with the link helper of a tier.
     * \param tier the tier
     * \param lower the node of the lower tier
     * \param upper the node of the upper tier
     */
    void Connect(Tier tier, Ptr<Node> lower, Ptr<Node> upper);

    bool m_leafSpine{false};
    uint32_t m_k{4};
    uint32_t m_leaves{0};
    uint32_t m_spines{0};
    uint32_t m_hostsPerEdgeSetting{0}; //!< 0 = default
    double m_oversubscription{0};      //!< 0 = not set
    uint32_t m_hostsPerEdge{0};        //!< resolved by Validate
    bool m_installed{false};

    std::array<RdmaLinkHelper, NUM_TIERS> m_links;
    std::array<NetDeviceContainer, NUM_TIERS> m_devices;
    NodeContainer m_hosts;
    NodeContainer m_edge;
    NodeContainer m_aggregation;
    NodeContainer m_core;
};

} // namespace ns3

#endif /* FAT_TREE_HELPER_H */
