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
 *
 * <b>Profiles</b> (SetProfile; call it first, then override any value with the setters).
 * Every value, with its source ("assumption" where none was found):
 *
 * - "roce" (the default): RoCEv2 over PFC, exactly the figures above: 200 Gb/s ports, 150 ns
 *   switches, Ethernet framing, IEEE 802.1Qbb PFC, no link-level retry, the RdmaHelper's
 *   end-to-end loss recovery. Install changes nothing on the link or RdmaHelper for it.
 * - "ualink": ports of UALINK_DEFAULT_LANES (4) lanes of 200 Gb/s, 800 Gb/s (UALink 200G
 *   1.0: 200 Gb/s lanes, x1/x2/x4 ports; the x4 port is the "station" of four lanes; set a
 *   x1 or x2 port with SetLinkRate(UalinkPortRate(lanes))); ns3::RdmaUalinkFlitFraming (640 B
 *   DL flits of 64 B TL flits, UALink 1.0; its own attribute sources in doc/scale-up-link.rst);
 *   ns3::RdmaCreditFlowControl with its defaults (64-byte blocks: one TL flit per credit,
 *   assumption; UALink 1.0 flow-controls with credits per virtual channel); link-level retry
 *   (UALink 1.0's data-link replay) with a replay buffer sized from the link
 * (SetReplayBufferBytes); ns3::RdmaNoRetransmitLossRecovery end to end (assumption: the link
 * recovers its losses, UALink's transaction layer has no end-to-end retransmission) with a
 * reorder window of UALINK_REORDER_WINDOW packets (UALink requests carry their address and
 * are placed as they arrive, so a queue pair spread over the planes is not counted lossy
 * when one plane overtakes another; each WRITE packet then carries a RETH, which stays
 * within the 17 TL flits of a 1024-byte packet); switch latency
 * 150 ns (the UALink Consortium's <= 150 ns port-to-port target, see Defaults; RdmaSwitch has no
 *   forwarding-latency attribute, so it is link delay as for every profile, see Switch latency).
 * - "sue": Broadcom's Scale-Up Ethernet: 800 Gb/s Ethernet ports (assumption: 800G ports, the
 *   fastest of Tomahawk Ultra, a 51.2 Tb/s switch; Broadcom, July 2025);
 * ns3::RdmaCompressedHeaderFraming (the 10-byte AI Fabric Header in place of Ethernet, IPv4 and
 * UDP); ns3::RdmaCreditFlowControl (Tomahawk Ultra's credit-based flow control, CBFC, with its
 * defaults: assumption); link-level retry (Tomahawk Ultra's LLR); switch latency 250 ns (Tomahawk
 * Ultra's published 250 ns); the RdmaHelper's reliable end-to-end loss recovery (SUE keeps a
 * reliable transport; SUE-Lite, which drops it, is
 * SetLossRecovery("ns3::RdmaNoRetransmitLossRecovery")).
 * - "sue-pfc": "sue" with IEEE 802.1Qbb PFC (ns3::RdmaPfcFlowControl) instead of credits (SUE
 *   allows either).
 */
class ScaleUpHelper
{
  public:
    /// Default ACK coalescing: one ACK per 16 packets (HFI1_PSN_CREDIT, see above).
    static constexpr uint32_t DEFAULT_ACK_INTERVAL = 16;

    /// Lane rate of UALink 200G 1.0 (200 Gb/s per lane and direction).
    static constexpr uint64_t UALINK_LANE_BPS = 200000000000ULL;
    /// Lanes of a "ualink" profile port (x4, UALink 1.0's widest port).
    static constexpr uint32_t UALINK_DEFAULT_LANES = 4;
    /// Reorder bitmap of the "ualink" profile's unreliable responder, packets
    /// (RdmaNoRetransmitLossRecovery::ReorderWindow; RdmaSackLossRecovery's default bitmap).
    static constexpr uint32_t UALINK_REORDER_WINDOW = 512;
    /// The profile names SetProfile accepts, for messages and command-line help.
    static constexpr const char* PROFILES = "roce, ualink, sue, sue-pfc";

    /// Eight accelerators, four planes, 200 Gb/s ports, 10 ns links, 150 ns switches.
    ScaleUpHelper();

    /**
     * Set every profile value (see the class documentation): rate, switch latency, link
     * framing, link flow control, link-level retry and its replay buffer (automatic), and
     * end-to-end loss recovery. Later setters override single values. Aborts, listing the
     * valid names, on an unknown profile.
     * \param name "roce", "ualink", "sue" or "sue-pfc"
     */
    void SetProfile(const std::string& name);
    /// \return the last profile set ("roce" by default)
    std::string GetProfile() const;
    /**
     * \param lanes lanes of a UALink port: 1, 2 or 4
     * \return lanes x 200 Gb/s
     */
    static DataRate UalinkPortRate(uint32_t lanes);

    /**
     * \param type the TypeId name of an ns3::RdmaLinkFraming for every link, or "" for none
     * (Ethernet)
     */
    void SetLinkFraming(const std::string& type);
    /**
     * \param type the TypeId name of an ns3::RdmaLinkFlowControl for every link, or "" for the
     * device's default (PFC)
     */
    void SetLinkFlowControl(const std::string& type);
    /**
     * \param on run ns3::RdmaLinkRetry on both ends of every link
     */
    void SetLinkRetry(bool on);
    /**
     * \param bytes ns3::RdmaLinkRetry::ReplayBufferBytes of every link; 0: sized from the link
     * by Install (GetReplayBufferBytes)
     */
    void SetReplayBufferBytes(uint32_t bytes);
    /**
     * \param type the TypeId name of an ns3::RdmaLossRecovery Install sets on the RdmaHelper,
     * or "" to leave the RdmaHelper's
     */
    void SetLossRecovery(const std::string& type);
    /// \return the link framing's TypeId name, "" for none
    std::string GetLinkFraming() const;
    /// \return the link flow control's TypeId name, "" for the device's default (PFC)
    std::string GetLinkFlowControl() const;
    /// \return whether every link runs link-level retry
    bool GetLinkRetry() const;
    /// \return the loss recovery Install sets, "" for the RdmaHelper's
    std::string GetLossRecovery() const;
    /**
     * The replay buffer Install gives every link's retry: SetReplayBufferBytes's, or, if 0,
     * the link's ACK round trip at the port rate plus one maximum frame F (the sizing of
     * ns3::RdmaLinkRetry::ReplayBufferBytes): rate x (2 x channel delay + AckLatency (default
     * 500 ns) + 2 F + an ACK (84 B)) + F, with F = device Mtu + 14 (Ethernet) + 2 (sequence
     * number).
     * \return bytes
     */
    uint32_t GetReplayBufferBytes() const;

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
    std::string m_profile{"roce"};
    std::string m_framing;       //!< link framing TypeId name, "" for none
    std::string m_flowControl;   //!< link flow control TypeId name, "" for the default
    bool m_linkRetry{false};     //!< link-level retry on every link
    uint32_t m_replayBytes{0};   //!< replay buffer, 0: sized from the link
    std::string m_lossRecovery;  //!< end-to-end loss recovery, "" for the RdmaHelper's
    uint32_t m_reorderWindow{0}; //!< RdmaNoRetransmitLossRecovery::ReorderWindow (profile)
    uint32_t m_deviceMtu{9000};  //!< device Mtu (RdmaNetDevice's default or SetDeviceAttribute)
    bool m_installed{false};

    RdmaLinkHelper m_link;
    NetDeviceContainer m_devices;
    NodeContainer m_accelNodes;
    NodeContainer m_switchNodes;
};

} // namespace ns3

#endif /* SCALE_UP_HELPER_H */
