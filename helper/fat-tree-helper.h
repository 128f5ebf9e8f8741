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
#include <vector>

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
 * (k = 4: 16 hosts, 20 switches, 48 links; k = 32: 8,192 hosts, 1,280 switches). SetPods
 * builds fewer than k pods (HPCC's 320-host tree, SetHpcc320, is 5 of the 8 pods of k = 8). With
 * h hosts per edge switch the host links are k^2 h / 2, and the oversubscription of the
 * edge tier is h / (k/2) (SetOversubscription sets h from the ratio instead).
 *
 * <b>Leaf-spine</b> (SetLeafSpine(leaves, spines, hostsPerLeaf)): every leaf connects to
 * every spine; leaves are the edge tier, spines the aggregation tier, there is no core.
 * Links: leaves x hostsPerLeaf + leaves x spines; oversubscription hostsPerLeaf / spines.
 *
 * <b>Multi-plane fabrics</b> (SetPlanes(P), default 1) model the multi-rail and
 * multi-plane back-end networks of AI clusters: every host NIC has P ports and port p is
 * cabled to its edge switch in plane p; each plane is a full, independent copy of the
 * switch tiers (three-tier fat-tree or leaf-spine), and no link joins two planes. The NIC
 * keeps one IPv4 address, reachable through every plane: RdmaRoutingHelper routes each
 * plane's switches to the host's port on that plane. Which plane a packet takes is the
 * NIC's choice (RdmaPathSelector, see RdmaHelper::SetPathSelector): by default one plane
 * per queue pair (RdmaQpPathSelector), or per-packet spraying (RdmaSprayPathSelector), or
 * address interleaving (RdmaAddressInterleavePathSelector). Counts, per plane, with h
 * hosts per edge switch:
 *
 *   three-tier: switches 5k^2/4 (edge k^2/2, aggregation k^2/2, core k^2/4);
 *               links k^2 h/2 host-edge + k^3/4 edge-aggregation + k^3/4 aggregation-core
 *   leaf-spine: switches leaves + spines;
 *               links leaves x hostsPerLeaf host-edge + leaves x spines leaf-spine
 *
 * and in total: the hosts once (k^2 h/2, or leaves x hostsPerLeaf), P times the switches
 * and P times the links of each tier (GetNLinks(tier) counts all planes,
 * GetNLinksPerPlane(tier) one). Every host has P links; every switch has the same ports as
 * in a single-plane fabric (k for the non-blocking tree). k = 4, P = 2: 16 hosts, 40
 * switches, 96 links.
 *
 * <b>Numbering.</b> Nodes are created in the order hosts, edge (leaf), aggregation
 * (spine), core, each pod after pod; links in the order host-edge, edge-aggregation
 * (edge by edge), aggregation-core (aggregation by aggregation), which is also the order
 * of the HPCC simulator's fat-tree topology files (see HpccTopologyReader), so that a
 * k-ary tree built here and one read from such a file have the same node and device
 * numbering. Host i is under edge switch i / h; edge switch e is in pod e / (k/2).
 * Hosts get consecutive addresses from the RdmaHelper's base address (GetHostAddress).
 * With P planes the hosts come first, then the switches of plane 0 (edge, aggregation,
 * core), then those of plane 1, and so on; plane p's links are created after those of
 * plane p - 1, so host i's device p (its NIC port p) is on plane p, and a single-plane
 * fabric is numbered exactly as above. Within a plane the numbering is that of a
 * single-plane fabric: host i is under edge switch i / h of every plane.
 *
 * <b>Accessors and planes.</b> The accessors with a plane argument (GetEdgeSwitches(p),
 * GetAggregationSwitches(p), GetCoreSwitches(p), GetSwitches(p), GetDevices(tier, p))
 * return one plane; those without it return all planes, plane after plane (plane 0's
 * edge switches, then plane 1's, ...), so that with one plane they are unchanged and
 * GetSwitches()/GetNodes() always cover the whole fabric. GetEdgeOfHost(i) is the index
 * of host i's edge switch within GetEdgeSwitches(p), the same for every plane.
 *
 * <b>Links.</b> Each tier has its own rate and delay (SetLinkRate, SetLinkDelay:
 * HOST_EDGE, EDGE_AGGREGATION, AGGREGATION_CORE; 100 Gb/s and 1 us by default), the same
 * in every plane; other RdmaNetDevice and RdmaChannel attributes apply to every tier
 * (SetDeviceAttribute, SetChannelAttribute).
 *
 * <b>Memory.</b> The helper keeps only the node containers and per-tier device
 * containers: O(nodes + links). The routes are computed by RdmaRoutingHelper (one
 * breadth-first search per edge switch, or per host when hosts have several ports).
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
     * Build only `pods` of the k pods of the three-tier tree (default k): the core switches
     * stay (k/2)^2, each with one link per pod built (and k - pods ports unused). Reset by
     * SetThreeTier and SetLeafSpine.
     * \param pods 1 .. k
     */
    void SetPods(uint32_t pods);

    /**
     * The fat-tree of the HPCC paper's evaluation (Li et al., SIGCOMM 2019, section 5.1) as
     * its simulator ships it (simulation/mix/fat.txt of
     * alibaba-edu/High-Precision-Congestion-Control): 320 hosts, 20 ToRs of 16 hosts, 5 pods
     * of 4 ToRs and 4 aggregation switches, 16 core switches; 100 Gb/s host links, 400 Gb/s
     * ToR-aggregation and aggregation-core links, 1 us each; non-blocking (16 x 100 Gb/s
     * down, 4 x 400 Gb/s up per ToR). This is SetThreeTier(8), SetPods(5),
     * SetHostsPerEdge(16) with those rates and delays; its node and link numbering is the
     * file's (hosts 0-319, ToRs 320-339, aggregation 340-359, core 360-375).
     */
    void SetHpcc320();

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
     * Build P independent planes: every host gets P NIC ports, port p cabled to its edge
     * switch in plane p, and every plane is a full copy of the switch tiers (see the class
     * documentation). Independent of SetThreeTier/SetLeafSpine (they do not reset it).
     * \param planes number of planes, at least 1 (default 1)
     */
    void SetPlanes(uint32_t planes);

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
    /// \return number of pods (three-tier: k, or SetPods; leaf-spine: 1)
    uint32_t GetNPods() const;
    /// \return number of planes (SetPlanes; 1 by default)
    uint32_t GetNPlanes() const;

    /// \return the hosts, in host order
    NodeContainer GetHosts() const;
    /// \return the edge (ToR, leaf) switches of all planes, plane after plane
    NodeContainer GetEdgeSwitches() const;
    /**
     * \param plane plane index, 0 .. GetNPlanes()-1
     * \return the edge (ToR, leaf) switches of the plane
     */
    NodeContainer GetEdgeSwitches(uint32_t plane) const;
    /// \return the aggregation switches (the spines of a leaf-spine) of all planes
    NodeContainer GetAggregationSwitches() const;
    /**
     * \param plane plane index
     * \return the aggregation switches (spines) of the plane
     */
    NodeContainer GetAggregationSwitches(uint32_t plane) const;
    /// \return the core switches of all planes (none in a leaf-spine)
    NodeContainer GetCoreSwitches() const;
    /**
     * \param plane plane index
     * \return the core switches of the plane (none in a leaf-spine)
     */
    NodeContainer GetCoreSwitches(uint32_t plane) const;
    /// \return all switches: plane after plane, each plane's edge, aggregation, core
    NodeContainer GetSwitches() const;
    /**
     * \param plane plane index
     * \return the switches of the plane: edge, aggregation, core
     */
    NodeContainer GetSwitches(uint32_t plane) const;
    /// \return all nodes: hosts, then the switches (GetSwitches())
    NodeContainer GetNodes() const;

    /// \return number of hosts (valid before Install)
    uint32_t GetNHosts() const;
    /// \return number of links of all tiers and planes (valid before Install)
    uint32_t GetNLinks() const;
    /**
     * \param tier a link tier
     * \return number of links of the tier in all planes (valid before Install)
     */
    uint32_t GetNLinks(Tier tier) const;
    /**
     * \param tier a link tier
     * \return number of links of the tier in one plane (the same in every plane)
     */
    uint32_t GetNLinksPerPlane(Tier tier) const;

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
     * \return the index of its edge switch in GetEdgeSwitches(plane), the same in every
     * plane (and in GetEdgeSwitches() for plane 0)
     */
    uint32_t GetEdgeOfHost(uint32_t i) const;
    /**
     * \param i host index
     * \return its pod (0 in a leaf-spine)
     */
    uint32_t GetPodOfHost(uint32_t i) const;

    /**
     * \param tier a link tier
     * \return the devices of the tier's links in all planes, two per link in link order
     * (the lower tier's device first), plane after plane
     */
    NetDeviceContainer GetDevices(Tier tier) const;
    /**
     * \param tier a link tier
     * \param plane plane index
     * \return the devices of the tier's links in the plane, two per link in link order
     * (HOST_EDGE: host i's port `plane` is device 2 i)
     */
    NetDeviceContainer GetDevices(Tier tier, uint32_t plane) const;

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
    /// Abort unless plane is a plane index.
    void CheckPlane(uint32_t plane) const;
    /**
     * Create the switch tiers of one plane and connect them, and the host links of the
     * plane (each host's next device, so host port p is on plane p when the planes are
     * built in order).
     * \param plane plane index, 0 .. m_planes - 1
     */
    void BuildPlane(uint32_t plane);
    /**
     * Connect two nodes of a plane with the link helper of a tier.
     * \param plane the plane
     * \param tier the tier
     * \param lower the node of the lower tier
     * \param upper the node of the upper tier
     */
    void Connect(uint32_t plane, Tier tier, Ptr<Node> lower, Ptr<Node> upper);

    /// The switches and links of one plane.
    struct Plane
    {
        NodeContainer edge;                                //!< edge (leaf) switches
        NodeContainer aggregation;                         //!< aggregation switches (spines)
        NodeContainer core;                                //!< core switches
        std::array<NetDeviceContainer, NUM_TIERS> devices; //!< per tier, two per link
    };

    bool m_leafSpine{false};
    uint32_t m_k{4};
    uint32_t m_pods{0}; //!< three-tier pods, 0 = k
    uint32_t m_leaves{0};
    uint32_t m_spines{0};
    uint32_t m_hostsPerEdgeSetting{0}; //!< 0 = default
    double m_oversubscription{0};      //!< 0 = not set
    uint32_t m_hostsPerEdge{0};        //!< resolved by Validate
    uint32_t m_planes{1};
    bool m_installed{false};

    std::array<RdmaLinkHelper, NUM_TIERS> m_links;
    NodeContainer m_hosts;
    std::vector<Plane> m_plane; //!< built by Install, one per plane

    /**
     * \param tier a tier of Plane
     * \return that tier of every plane, plane after plane
     */
    NodeContainer AllPlanes(NodeContainer Plane::*tier) const;
    /**
     * \param tier a tier of Plane
     * \param plane a plane index (checked)
     * \return that tier of one plane
     */
    NodeContainer OnePlane(NodeContainer Plane::*tier, uint32_t plane) const;
};

} // namespace ns3

#endif /* FAT_TREE_HELPER_H */
