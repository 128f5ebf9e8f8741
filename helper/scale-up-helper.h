/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCALE_UP_HELPER_H
#define SCALE_UP_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-link-helper.h"

#include <cstdint>
#include <string>

namespace ns3
{

class RdmaHelper;
class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief Builds a single-tier scale-up pod: N accelerators, each with P ports, port p of
 * every accelerator cabled to plane switch p (P independent planes of one switch each), as
 * in NVLink/NVSwitch systems (HGX H100: 8 GPUs, 4 NVSwitch chips) and UALink pods (UALink
 * 200G 1.0 Specification, UALink Consortium, April 2025: accelerators with x1/x2/x4 ports of
 * 200 Gb/s lanes, one switch per plane).
 *
 *   accelerator 0 --- port 0 ---\      /--- port 0 --- accelerator 1
 *                 --- port 1 --\ \    / /-- port 1 ---
 *                               plane switch 0 ... plane switch P-1
 *
 * Every accelerator reaches every other one through any plane in two hops (accelerator,
 * plane switch, accelerator); each plane switch has exactly one next hop to each
 * accelerator (its port facing it). The accelerators are multi-port RdmaNic hosts: which
 * plane each data packet takes is the choice of the NIC's RdmaPathSelector, configured on
 * the RdmaHelper before Install (RdmaAddressInterleavePathSelector for scale-up address
 * interleaving, RdmaSprayPathSelector, or the default RdmaQpPathSelector that pins a queue
 * pair to one plane).
 *
 * <b>Counts.</b> N + P nodes (accelerators first, then the switches) and N x P links,
 * created accelerator by accelerator, port by port: link i P + p joins accelerator i's
 * port p (its device p) and switch p's port i (its device i). Accelerators get
 * consecutive addresses from the RdmaHelper's base address.
 *
 * <b>Defaults.</b> 200 Gb/s per port and direction: one fourth-generation NVLink link
 * (H100: 18 links, 900 GB/s bidirectional per GPU, i.e. 25 GB/s = 200 Gb/s per link and
 * direction; NVIDIA H100 Tensor Core GPU Architecture whitepaper, 2022) and one UALink
 * 200G lane (a x1 port). Link propagation 10 ns (about 2 m of copper in a rack, 5 ns/m).
 * Switch latency 150 ns: the UALink Consortium's target port-to-port latency of a 25.6
 * Tb/s switch with 400G ports ("<= 150 ns", UALink 200G 1.0 specification webinar Q&A,
 * 2025); NVIDIA does not publish NVSwitch latency.
 *
 * <b>Switch latency.</b> RdmaSwitch forwards a packet as soon as it is received (store and
 * forward, no pipeline delay), and has no forwarding-latency attribute. The helper
 * therefore models the switch latency L as propagation delay on the switch side of the
 * links: every link gets delay linkLatency + L/2, so that a path accelerator - switch -
 * accelerator has 2 linkLatency + L of delay besides the two serializations. The same
 * delay applies to PFC pause frames between a switch and an accelerator (they arrive
 * L/2 later than a switch with a true forwarding pipeline would make them arrive).
 *
 * <b>Acknowledgements.</b> Scale-up transports and RDMA NICs coalesce acknowledgements:
 * IBTA vol. 1 §9.7.5.1 lets a responder acknowledge several packets with one ACK, and
 * the Linux hfi1 driver (Intel Omni-Path, drivers/infiniband/hw/hfi1) defers the ACK of
 * an RC queue pair until HFI1_PSN_CREDIT = 16 packets have arrived (commit 7c091e5c,
 * "add ACK coalescing logic"; earlier on a FECN). Install therefore sets
 * ns3::RdmaNic::AckInterval to 16 (SetAckInterval; the last packet of a message is always
 * acknowledged). An ACK per packet (1, RdmaNic's default) spends about 7 % of every
 * ring link on ACKs (86 of 1106 + 86 wire bytes at MTU 1024).
 */
class ScaleUpHelper
{
  public:
    /// Default ACK coalescing: one ACK per 16 packets (HFI1_PSN_CREDIT, see above).
    static constexpr uint32_t DEFAULT_ACK_INTERVAL = 16;

    /// Eight accelerators, four planes, 200 Gb/s ports, 10 ns links, 150 ns switches.
    ScaleUpHelper();

    /**
     * \param n number of accelerators, at least 2
     */
    void SetAccelerators(uint32_t n);
    /**
     * \param p number of planes (ports per accelerator, plane switches), at least 1
     */
    void SetPlanes(uint32_t p);
    /**
     * \param rate the line rate of every port (per direction)
     */
    void SetLinkRate(DataRate rate);
    /**
     * \param latency the propagation delay of every cable (accelerator to switch)
     */
    void SetLinkLatency(Time latency);
    /**
     * \param latency the forwarding latency of the plane switches (modelled as link
     * propagation delay: half on each link of a switch, see the class documentation)
     */
    void SetSwitchLatency(Time latency);
    /**
     * \param packets the responder acknowledges every this many in-order packets (and the
     * last packet of every message): ns3::RdmaNic::AckInterval, set on the RdmaHelper by
     * Install; at least 1 (an ACK per packet)
     */
    void SetAckInterval(uint32_t packets);

    /**
     * Set an RdmaNetDevice attribute on every link (DataRate: SetLinkRate).
     * \param name attribute of ns3::RdmaNetDevice
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an RdmaChannel attribute on every link (Delay: SetLinkLatency and
     * SetSwitchLatency).
     * \param name attribute of ns3::RdmaChannel
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Create the nodes and links, install multi-port NICs on the accelerators and switches
     * on the plane switches with the given RdmaHelper (configured by the caller: path
     * selector, congestion control, MMU, ...), and compute the forwarding tables. Call once.
     * Sets ns3::RdmaNic::AckInterval on the RdmaHelper to the helper's (SetAckInterval).
     * \param rdma the helper that installs NICs and switches
     */
    void Install(RdmaHelper& rdma);

    /// \return number of accelerators (valid before Install)
    uint32_t GetNAccelerators() const;
    /// \return number of planes: ports per accelerator, plane switches (valid before Install)
    uint32_t GetNPlanes() const;
    /// \return number of links, N x P (valid before Install)
    uint32_t GetNLinks() const;
    /// \return the port rate
    DataRate GetLinkRate() const;
    /// \return the cable propagation delay (without the switch latency)
    Time GetLinkLatency() const;
    /// \return the switch latency
    Time GetSwitchLatency() const;
    /// \return packets per ACK (ns3::RdmaNic::AckInterval that Install sets)
    uint32_t GetAckInterval() const;
    /// \return the delay of every RdmaChannel: link latency + switch latency / 2
    Time GetChannelDelay() const;
    /**
     * Propagation and switching delay between two accelerators, serialization excluded:
     * 2 x link latency + switch latency.
     * \return the delay
     */
    Time GetPathDelay() const;

    /// \return the accelerators, in index order
    NodeContainer GetAccelerators() const;
    /// \return the plane switches, switch p is plane p
    NodeContainer GetSwitches() const;
    /// \return all nodes: accelerators, then switches
    NodeContainer GetNodes() const;
    /**
     * \param i accelerator index, 0 .. N-1
     * \return the node
     */
    Ptr<Node> GetAccelerator(uint32_t i) const;
    /**
     * \param p plane index, 0 .. P-1
     * \return the plane's switch node
     */
    Ptr<Node> GetSwitch(uint32_t p) const;
    /**
     * \param i accelerator index
     * \return its IPv4 address (after Install)
     */
    Ipv4Address GetAcceleratorAddress(uint32_t i) const;
    /**
     * \param i accelerator index
     * \param p plane index
     * \return accelerator i's port on plane p (its device p)
     */
    Ptr<RdmaNetDevice> GetAcceleratorDevice(uint32_t i, uint32_t p) const;
    /**
     * \param p plane index
     * \param i accelerator index
     * \return switch p's port facing accelerator i (its device i, switch port i)
     */
    Ptr<RdmaNetDevice> GetSwitchDevice(uint32_t p, uint32_t i) const;
    /// \return the devices of all links, two per link in link order (accelerator's first)
    NetDeviceContainer GetDevices() const;

    /// \return the link helper (rate and delay set), e.g. for pcap tracing
    RdmaLinkHelper& GetLinkHelper();

  private:
    /// Abort if Install was called already.
    void CheckNotInstalled(const char* what) const;
    /// Abort unless the accelerator index exists.
    void CheckAccelerator(uint32_t i) const;
    /// Abort unless the plane index exists.
    void CheckPlane(uint32_t p) const;

    uint32_t m_accelerators{8};
    uint32_t m_planes{4};
    DataRate m_rate{"200Gbps"};
    Time m_linkLatency;
    Time m_switchLatency;
    uint32_t m_ackInterval{DEFAULT_ACK_INTERVAL};
    bool m_installed{false};

    RdmaLinkHelper m_link;
    NetDeviceContainer m_devices;
    NodeContainer m_accelNodes;
    NodeContainer m_switchNodes;
};

} // namespace ns3

#endif /* SCALE_UP_HELPER_H */
