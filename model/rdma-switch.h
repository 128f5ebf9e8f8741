/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_H
#define RDMA_SWITCH_H

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/rdma-egress-processor.h"
#include "ns3/rdma-link-flow-control.h"
#include "ns3/rdma-load-balancer.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-red-ecn-marker.h"
#include "ns3/rdma-switch-mmu.h"
#include "ns3/rdma-watched-trace.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class RdmaNetDevice;
class RdmaIntInserter;

/**
 * \ingroup rdma
 * \brief A shared-buffer data-center switch for RoCEv2 traffic: IPv4 forwarding with ECMP,
 * an RdmaSwitchMmu with IEEE 802.1Qbb priority flow control, and RED/ECN marking
 * (RFC 3168 CE codepoint) with the DCQCN parameters (Zhu et al., SIGCOMM 2015).
 *
 * Aggregated to a Node; its ports are RdmaNetDevices of that node, added with AddPort().
 *
 * <b>Forwarding.</b> A packet received on port p (an IPv4 packet, Ethernet header removed
 * by the device) is parsed once from its first bytes (IPv4 header, and the UDP/TCP ports
 * of the 5-tuple); its traffic class is DSCP >> 3. The egress port is looked up by the
 * destination address in a hash table of routes (AddRoute); among several equal-cost
 * ports one is chosen by the LoadBalancer (an RdmaLoadBalancer, consulted only when there
 * are two or more ports). The default, RdmaEcmpLoadBalancer, hashes the 5-tuple and the
 * switch's seed:
 *
 *   h = mix(mix(((src << 32) | dst) ^ mix(seed + 0x9e3779b97f4a7c15))
 *           + ((proto << 32) | (srcPort << 16) | dstPort)),
 *   port = routes[(h >> 32) x n >> 32]
 *
 * where mix is the 64-bit finalizer of SplitMix64 (Steele, Lea and Flood, OOPSLA 2014;
 * Stafford's "Mix13" constants), a bijection with full avalanche, and the last step is
 * Lemire's multiply-shift range reduction. With EcmpSeed 0 the seed is derived from the
 * node id, so that switches of a multi-stage fabric hash differently (no polarization), and
 * from the replication (RngSeedManager seed and run, read when the switch is aggregated to
 * its node), so that independent runs also sample independent mappings of flows to paths.
 * Other policies: RdmaRandomSprayLoadBalancer, RdmaRoundRobinSprayLoadBalancer,
 * RdmaFlowletLoadBalancer, RdmaAdaptiveLoadBalancer.
 * The IPv4 header is forwarded unchanged except for the TTL (below) and ECN marking.
 *
 * <b>Admission.</b> The RdmaSwitchMmu accounts the packet on its (ingress port, class)
 * and its (egress port, class), or refuses it (drop reasons LOSSY_BUFFER_LIMIT,
 * HEADROOM_OVERFLOW, EGRESS_QUEUE_LIMIT). After admission, if the MMU says so, an XOFF
 * PFC frame (quanta 0xFFFF for the class) is sent on the ingress port. While XOFF is
 * asserted on a port the switch sends again an XOFF frame for all its paused classes
 * every half pause time (0xFFFF x 512 bit times / 2, 168 us at 100 Gb/s), so that the
 * upstream's pause never expires while the queue is congested. When a packet starts
 * transmission on its egress port (the device's dequeue callback) its bytes are
 * released, and an XON frame (quanta 0) is sent if the ingress queue fell below its
 * resume threshold. The ingress port of every queued packet is kept in a FIFO per
 * egress (port, class) beside the device's FIFO queue.
 *
 * <b>Egress processing.</b> Stages that act on a packet when it enters its egress
 * (port, class) queue and when it leaves it for the wire are RdmaEgressProcessor objects,
 * called in the order they were added (the QueueDisc pattern: RED marking, telemetry and
 * other AQMs are new classes, not new branches here). The first is always the switch's
 * RdmaRedEcnMarker: with q the bytes of the egress (port, class) queue: no mark if q <=
 * EcnKmin, probability EcnPmax (q - EcnKmin) / (EcnKmax - EcnKmin) if EcnKmin < q <=
 * EcnKmax, always if q > EcnKmax. By default (EcnMarkingPoint Dequeue) q is taken when the
 * packet leaves, the bytes it leaves behind: egress marking, as in the DCQCN papers'
 * switches ("when a packet is ready to depart", Zhu et al., CoNEXT 2016 section 5.1) and
 * the HPCC simulator, so the mark does not wait out the queue and the control loop is the
 * propagation delay (with Enqueue, RED's RFC 2309 point, q is the bytes found on arrival
 * and DCQCN with 10 flows cycles: doc/dcqcn.rst). Only ECT(0)/ECT(1) packets are marked
 * (CE); Not-ECT and CE packets are left alone. With Telemetry on, an
 * RdmaIntInserter follows and writes a hop record into packets that carry a telemetry
 * area. More stages: AddEgressProcessor (or RdmaHelper::AddEgressProcessor).
 *
 * <b>TTL.</b> Every forwarded IPv4 packet leaves with its TTL decremented (RFC 1812
 * section 5.3.1; the header checksum, when present, updated incrementally as in RFC 1624);
 * a packet that arrives with TTL 0 or 1 is dropped (reason TTL_EXPIRED, no ICMP). Hosts
 * send TTL 64, so a receiver knows the hop count as 64 minus the TTL it reads.
 *
 * <b>PFC watchdog.</b> Off by default (PfcWatchdogDetectionTime 0). When on, every
 * PfcWatchdogPollInterval the switch looks at each lossless (egress port, class) transmit
 * queue: one that holds packets and has been paused by received PFC at every poll for at
 * least the detection time is in a pause storm (a receiver that never drains, C. Guo et
 * al., "RDMA over Commodity Ethernet at Scale", SIGCOMM 2016, section 4.3; switch vendors
 * and SONiC call the remedy the PFC watchdog, SONiC's defaults: 200 ms detection and
 * restoration, 100 ms polls). The switch then drops the queue's packets and every packet
 * that arrives for it (drop reason PFC_WATCHDOG), so that its buffer, and the pause it
 * would spread upstream, are freed; when no pausing PFC frame has arrived on the port for
 * that class for the restoration time the queue is lossless again. Detection therefore
 * comes between the detection time and one poll interval later; trace PfcWatchdog.
 *
 * <b>Accounting.</b> Every drop goes through one function (counter per DropReason, Drop
 * trace), every mark through one (counter, EcnMark trace), every PFC frame through one
 * (counters, Pfc trace), in the manner of ns-3's QueueDisc::DropBeforeEnqueue and Mark.
 */
class RdmaSwitch : public Object, public RdmaPortHandler
{
  public:
    /// Why a packet was dropped.
    /// Where the RED/ECN marking decision is taken.
    enum EcnMarkingPoint
    {
        ECN_AT_ENQUEUE, //!< on the bytes already queued when the packet arrives (RED)
        ECN_AT_DEQUEUE  //!< on the bytes queued behind the packet when it leaves (default)
    };

    enum DropReason
    {
        NO_ROUTE,           //!< no route to the destination address
        LOSSY_BUFFER_LIMIT, //!< lossy class beyond its shared-buffer threshold
        HEADROOM_OVERFLOW,  //!< lossless class beyond its PFC headroom
        EGRESS_QUEUE_LIMIT, //!< lossy class beyond the MMU's MaxEgressQueueBytes
        MALFORMED_PACKET,   //!< not an IPv4 packet, or truncated
        PFC_WATCHDOG,       //!< for a lossless queue the PFC watchdog found in a pause storm
        TTL_EXPIRED,        //!< arrived with IPv4 TTL 0 or 1 (RFC 1812 section 5.3.1)
        NUM_DROP_REASONS    //!< number of reasons (not a reason)
    };

    /**
     * \param reason a drop reason
     * \return its name, e.g. "HEADROOM_OVERFLOW"
     */
    static const char* DropReasonName(DropReason reason);

    /**
     * TracedCallback signature for drops.
     * \param packet the dropped packet
     * \param reason DropReasonName of the reason
     * \param port the ingress port (the egress port for EGRESS_QUEUE_LIMIT and PFC_WATCHDOG)
     * \param cls the traffic class
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       const char* reason,
                                       uint32_t port,
                                       uint8_t cls);
    /**
     * TracedCallback signature for ECN marks.
     * \param packet the packet, after marking
     * \param port the egress port
     * \param cls the traffic class
     * \param queueBytes the egress queue length the packet found, bytes
     */
    typedef void (*EcnMarkTracedCallback)(Ptr<const Packet> packet,
                                          uint32_t port,
                                          uint8_t cls,
                                          uint32_t queueBytes);
    /**
     * TracedCallback signature for PFC frames sent.
     * \param port the ingress port the frame is sent on
     * \param cls the paused or resumed class
     * \param xoff true for XOFF (initial or refresh), false for XON
     */
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t cls, bool xoff);
    /**
     * TracedCallback signature for the PFC watchdog.
     * \param port the egress port
     * \param cls the traffic class
     * \param storm true when a storm is detected, false when the queue is restored
     */
    typedef void (*PfcWatchdogTracedCallback)(uint32_t port, uint8_t cls, bool storm);
    /**
     * TracedCallback signature for egress queue changes.
     * \param port the egress port
     * \param cls the traffic class
     * \param bytes the new queue length, bytes
     */
    typedef void (*EgressQueueTracedCallback)(uint32_t port, uint8_t cls, uint32_t bytes);
    /**
     * TracedCallback signature for the queueing delay of a packet at an egress queue.
     * \param port the egress port
     * \param cls the traffic class
     * \param delay from the packet's arrival in the queue to the start of its transmission
     */
    typedef void (*EgressQueueDelayTracedCallback)(uint32_t port, uint8_t cls, Time delay);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaSwitch();
    ~RdmaSwitch() override;

    /// \param node the node this switch is aggregated to
    void SetNode(Ptr<Node> node);
    /// \return the node
    Ptr<Node> GetNode() const;

    /**
     * Make a device of the node a port of the switch: the switch becomes the device's port
     * handler (the device calls HandleReceive/HandleDequeue directly, no protocol handler or
     * callback), and the port (rate, cable delay, MTU) is declared to the MMU.
     * The device must be attached to its channel.
     * \param device the device
     * \return the port index
     */
    uint32_t AddPort(Ptr<RdmaNetDevice> device);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i port index
     * \return the device of the port
     */
    Ptr<RdmaNetDevice> GetPort(uint32_t i) const;

    /**
     * Add an equal-cost next hop for a destination address (duplicates are ignored).
     * \param dst destination IPv4 address (host route)
     * \param port egress port index
     */
    void AddRoute(Ipv4Address dst, uint32_t port);
    /**
     * Set the whole set of equal-cost next hops for a destination (replaces any).
     * \param dst destination IPv4 address (host route)
     * \param ports egress port indices (duplicates are ignored; empty removes the route)
     */
    void SetRoutes(Ipv4Address dst, const std::vector<uint32_t>& ports);
    /**
     * Set the same next hops for several destinations, as SetRoutes for each in turn but
     * checking and interning the set once (the routing helper gives every host behind one
     * edge switch the same set: 27,648 hosts x 2,880 switches at k = 48).
     * \param dsts destination IPv4 addresses (host routes)
     * \param ports egress port indices (duplicates are ignored; empty removes the routes)
     */
    void SetRoutes(const std::vector<Ipv4Address>& dsts, const std::vector<uint32_t>& ports);
    /// Remove all routes.
    void ClearRoutes();
    /// \return number of distinct next-hop sets the table holds (memory diagnostics)
    uint32_t GetNRouteSets() const;
    /**
     * Once the routes are set: keep the flat table as its runs of equal next-hop sets when
     * there are few (at most 64, as in a fat-tree: the lookup then searches the runs, as it
     * does anyway) and free the table; otherwise trim the table to its size. A fat-tree
     * switch's table otherwise holds 4 bytes per host (110 KB at k = 48, 318 MB for its
     * 2,880 switches). Routes set later expand the table again. RdmaRoutingHelper calls it.
     */
    void CompactRoutes();
    /// \return bytes the forwarding table's flat array and runs hold (memory diagnostics)
    uint64_t GetRouteTableBytes() const;
    /**
     * Destinations within 2^20 consecutive addresses (as RdmaHelper assigns them) are held
     * in a flat table, whatever order their routes are set in; others in a hash table, whose
     * look-up costs more per packet.
     * \return number of destinations held in the hash table (diagnostics)
     */
    uint32_t GetNSparseRoutes() const;
    /**
     * \param dst destination address
     * \return the equal-cost egress ports (empty if none)
     */
    const std::vector<uint32_t>& GetRoutes(Ipv4Address dst) const;

    /**
     * The egress port choice for a 5-tuple, as the forwarding path makes it: the only route,
     * or the LoadBalancer's choice among several (with no ingress port,
     * RdmaFlowKey::NO_PORT). For a stateful balancer (round robin, flowlets, random draws)
     * this is a decision like a packet's: it advances the balancer's state.
     * \param src source address
     * \param dst destination address
     * \param protocol IP protocol number
     * \param srcPort source port (0 for protocols other than UDP and TCP)
     * \param dstPort destination port
     * \param cls traffic class (what adaptive balancers compare queues of)
     * \param size IPv4 bytes of the packet
     * \return the egress port, or -1 if there is no route
     */
    int64_t SelectEgressPort(Ipv4Address src,
                             Ipv4Address dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort,
                             uint8_t cls = 0,
                             uint32_t size = 0) const;

    /**
     * The ECMP hash function (see the class documentation; RdmaLoadBalancer::FlowHash).
     * \param src source address
     * \param dst destination address
     * \param protocol IP protocol number
     * \param srcPort source port
     * \param dstPort destination port
     * \param seed the switch's seed
     * \return the 64-bit hash
     */
    static uint64_t FlowHash(uint32_t src,
                             uint32_t dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort,
                             uint64_t seed);

    /// \return the ECMP seed in use (EcmpSeed, or derived from the node id if 0)
    uint64_t GetEffectiveEcmpSeed() const;

    /// \return the MMU
    Ptr<RdmaSwitchMmu> GetMmu() const;

    /**
     * Append an egress stage; it is called after those already there (the RED marker is
     * always first). Its hooks and packet filter are read now, and its configuration
     * checked.
     * \param processor the stage (one switch per instance)
     */
    void AddEgressProcessor(Ptr<RdmaEgressProcessor> processor);
    /// \return the number of egress stages, the RED marker included
    uint32_t GetNEgressProcessors() const;
    /**
     * \param i stage index (0: the RED marker)
     * \return the stage
     */
    Ptr<RdmaEgressProcessor> GetEgressProcessor(uint32_t i) const;
    /// \return the switch's RED/ECN marker (configured by the Ecn* attributes)
    Ptr<RdmaRedEcnMarker> GetEcnMarker() const;
    /// \return the telemetry inserter (null unless the Telemetry attribute is true)
    Ptr<RdmaIntInserter> GetIntInserter() const;
    /// \return the load balancer (attribute LoadBalancer)
    Ptr<RdmaLoadBalancer> GetLoadBalancer() const;

    /**
     * The RED marking probability.
     * \param queueBytes egress queue length
     * \param kmin EcnKmin
     * \param kmax EcnKmax
     * \param pmax EcnPmax
     * \return 0 if q <= kmin, pmax (q - kmin) / (kmax - kmin) if kmin < q <= kmax, else 1
     */
    static double MarkProbability(uint64_t queueBytes, uint64_t kmin, uint64_t kmax, double pmax);

    /**
     * Draw the marking decision for a queue length with this switch's parameters and
     * random stream (the forwarding path calls it for every ECN-capable packet).
     * \param queueBytes egress queue length
     * \return true if the packet is to be marked
     */
    bool DecideEcnMark(uint64_t queueBytes);

    /**
     * Assign fixed random variable stream numbers to the ECN marking (stream) and to the
     * load balancer (stream + 1, ...).
     * \param stream first stream index to use
     * \return the number of streams assigned: 1 + those of the load balancer
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param reason a drop reason
     * \return packets dropped for that reason
     */
    uint64_t GetDropCount(DropReason reason) const;
    /// \return packets dropped for any reason
    uint64_t GetTotalDrops() const;
    /// \return packets marked CE
    uint64_t GetEcnMarks() const;
    /// \return XOFF PFC frames sent (initial pauses and refreshes)
    uint64_t GetPfcPausesSent() const;
    /// \return XOFF PFC frames sent to refresh a pause that was still asserted
    uint64_t GetPfcRefreshesSent() const;
    /// \return XON PFC frames sent
    uint64_t GetPfcResumesSent() const;
    /// \return pause storms the PFC watchdog detected (one per port and class and episode)
    uint64_t GetPfcWatchdogStorms() const;
    /// \return storms the PFC watchdog ended (the queue restored to lossless operation)
    uint64_t GetPfcWatchdogRestorations() const;
    /**
     * \param port egress port
     * \param cls traffic class
     * \return true while the PFC watchdog discards the (port, class) queue
     */
    bool IsPfcWatchdogStormed(uint32_t port, uint8_t cls) const;
    /// \return packets forwarded (admitted and queued)
    uint64_t GetForwardedPackets() const;

    /**
     * Receive an IPv4 packet on a port as if it had arrived there: parse once, route, admit,
     * mark, enqueue. The packet is forwarded without a copy. (The ports themselves deliver
     * through RdmaPortHandler::HandleReceive, with the header bytes they already read.)
     * \param inPort the ingress port index
     * \param device the receiving device
     * \param packet the IPv4 packet (Ethernet header removed)
     */
    void ReceiveFromPort(uint32_t inPort, Ptr<RdmaNetDevice> device, Ptr<Packet> packet);

  protected:
    void DoInitialize() override;
    void DoDispose() override;
    void NotifyNewAggregate() override;
    void NotifyConstructionCompleted() override;

  private:
    /**
     * What the switch keeps of a queued packet, read from its headers at arrival: the ingress
     * port and the flags the egress stages filter on (FIFO_*), and the first 12 bytes of its
     * IPv4 header, which the egress port rewrites with the TTL one lower (RdmaNetDevice::
     * SetNextIpv4Head) without reading the packet again.
     */
    struct IngressEntry
    {
        uint32_t flags; //!< ingress port | FIFO_* flags
        /// IPv4 version .. header checksum, at arrival; then the addresses and transport
        /// ports if FIFO_ROUTE_BYTES (sent beside the packet to the next switch)
        std::array<uint8_t, ROUTE_HEAD_BYTES> ipv4Head;
    };

    /// Abort on impossible ECN parameters.
    void CheckConfig() const;
    /// Rebuild the per-hook lists of egress stages (stages, EcnEnabled or the marking
    /// point changed).
    void RebuildEgressHooks();
    /**
     * Call the enqueue-hook stages that want the packet.
     * \param packet the packet
     * \param size its size in bytes
     * \param port egress port
     * \param cls class
     * \param queueBefore bytes of (port, class) queued before the packet
     * \param flags FIFO_* flags of the packet
     * \return true if a stage marked the packet CE (its IPv4 header changed)
     */
    bool RunEnqueueHooks(const Ptr<Packet>& packet,
                         uint32_t size,
                         uint32_t port,
                         uint8_t cls,
                         uint64_t queueBefore,
                         uint32_t& flags,
                         const uint8_t* ipv4Head);
    /**
     * Call the dequeue-hook stages that want the packet.
     * \param packet the packet
     * \param size its size in bytes
     * \param port egress port
     * \param cls class
     * \param flags its ingress FIFO entry's flags
     * \return true if a stage marked the packet CE (its IPv4 header changed)
     */
    bool RunDequeueHooks(const Ptr<Packet>& packet,
                         uint32_t size,
                         uint32_t port,
                         uint8_t cls,
                         uint32_t& flags,
                         const uint8_t* ipv4Head);
    /**
     * DropPacket for a packet at arrival, whose first IPv4 bytes may be beside it.
     * \param packet the packet
     * \param besideHead its first 12 IPv4 bytes if they are beside it, else null
     * \param reason why
     * \param port the port charged
     * \param cls the class
     */
    void DropArriving(const Ptr<Packet>& packet,
                      const uint8_t* besideHead,
                      DropReason reason,
                      uint32_t port,
                      uint8_t cls);
    /**
     * Fill the port state of an egress context (line rate, tx bytes, port queue, now).
     * \param ctx the context (port set)
     * \param extraTxBytes wire bytes to add to the port's counter (the packet at dequeue)
     */
    void FillPortState(RdmaEgressContext& ctx, uint64_t extraTxBytes) const;
    // Attribute accessors forwarding to the RED marker.
    void SetEcnEnabled(bool enabled);
    bool GetEcnEnabled() const;
    void SetEcnMarkingPoint(EcnMarkingPoint point);
    EcnMarkingPoint GetEcnMarkingPoint() const;
    void SetEcnKmin(uint64_t kmin);
    uint64_t GetEcnKmin() const;
    void SetEcnKmax(uint64_t kmax);
    uint64_t GetEcnKmax() const;
    void SetEcnPmax(double pmax);
    double GetEcnPmax() const;
    void SetTelemetry(bool enabled);
    bool GetTelemetry() const;
    /**
     * The single accounting point of drops.
     * \param packet the packet
     * \param reason why
     * \param port ingress port (egress port for EGRESS_QUEUE_LIMIT and PFC_WATCHDOG)
     * \param cls traffic class
     */
    void DropPacket(Ptr<const Packet> packet, DropReason reason, uint32_t port, uint8_t cls);
    /**
     * The single accounting point of ECN marks: sets CE in the IPv4 header.
     * \param packet the packet (modified)
     * \param checksum true if the header carries a checksum to recompute
     * \param port egress port
     * \param cls traffic class
     * \param queueBytes queue length found
     * \param besideHead the first 12 IPv4 bytes the packet arrived with if they are beside
     *        it (written with the mark), else null
     */
    void MarkPacket(const Ptr<Packet>& packet,
                    bool checksum,
                    uint32_t port,
                    uint8_t cls,
                    uint64_t queueBytes,
                    const uint8_t* besideHead);
    /**
     * The single accounting point of PFC frames: count and trace a frame a port's
     * RdmaPfcFlowControl sent (its PfcSentCallback).
     * \param port the port the frame was sent on
     * \param classMask classes carried
     * \param xoff true: quanta 0xFFFF, false: quanta 0
     * \param refresh true if this XOFF refreshes a pause already asserted
     */
    void RecordPfcSent(uint32_t port, uint8_t classMask, bool xoff, bool refresh);
    /**
     * The bookkeeping of a packet leaving an egress queue (sent or discarded): the ingress
     * FIFO, the MMU, the EgressQueue trace, an XON if the ingress queue may resume.
     * \param port egress port
     * \param size the packet's IPv4 bytes
     * \param cls traffic class
     * \return the packet's ingress FIFO entry (ingress port and flags)
     */
    IngressEntry ReleaseEgress(uint32_t port, uint32_t size, uint8_t cls);
    /// One PFC watchdog poll of every lossless (port, class) transmit queue; the next poll
    /// is scheduled only while some lossless class is paused or stormed.
    void PollPfcWatchdog();
    /**
     * A port received PFC (its PfcRx trace, connected when the watchdog is on): a pause of
     * a lossless class starts the polls if they are not running.
     * \param cls the class
     * \param quanta the pause time (0: resume)
     */
    void NotifyPauseReceived(uint8_t cls, uint16_t quanta);
    /// \return the watchdog's poll interval (PollInterval, or DetectionTime / 2 if 0)
    Time GetPfcWatchdogPollInterval() const;
    /// \return the watchdog's restoration time (RestorationTime, or DetectionTime if 0)
    Time GetPfcWatchdogRestorationTime() const;
    /**
     * Forward a received IPv4 packet: parse, route, admit, mark, queue.
     * \param inPort the ingress port
     * \param packet the packet
     * \param head the packet's first bytes
     * \param headBytes how many bytes head holds (up to RdmaPortHandler::HEAD_BYTES)
     * \param headBeside the packet's first 12 bytes are those of the hop before; head
     *        holds those it arrived with (RdmaPortHandler::HandleReceive)
     * \param size the packet's size in bytes
     */
    void Forward(uint32_t inPort,
                 Ptr<Packet>& packet,
                 const uint8_t* head,
                 uint32_t headBytes,
                 bool headBeside,
                 uint32_t size);

    // RdmaPortHandler: the ports' direct receive and dequeue path.
    /// \return ROUTE_HEAD_BYTES: Forward reads the addresses and ports, and reads any
    ///         further bytes it needs (IPv4 options, the telemetry bit) from the packet
    uint32_t GetHeadBytesRead() const override
    {
        return ROUTE_HEAD_BYTES;
    }

    /// Forward; the egress queue takes the caller's reference (RdmaNetDevice::EnqueueTaking).
    void HandleReceive(uint32_t port,
                       Ptr<Packet>& packet,
                       const uint8_t* head,
                       uint32_t headBytes,
                       bool headBeside,
                       uint32_t size) override;
    void HandleDequeue(uint32_t port,
                       const Ptr<Packet>& packet,
                       uint8_t cls,
                       uint32_t size) override;

    /**
     * Prefetch for Forward: stage 1 the route set of the head's destination (looked up),
     * the ingress port's flow control and buffer counters; stage 2, when that route set
     * has one port (no load balancing to guess), the egress port's counters, class FIFO
     * and device.
     * \param port ingress port
     * \param head the IPv4 head Forward will be given
     * \param headBytes how many bytes head holds
     * \param stage 1 or 2
     */
    void PrefetchReceive(uint32_t port,
                         const uint8_t* head,
                         uint32_t headBytes,
                         uint32_t stage) const override;

    /**
     * Prefetch for ReleaseEgress: stage 1 loads the first entry of the class FIFO; stage 2
     * the counters and flow control of that entry's ingress port and the egress counters.
     * \param port egress port
     * \param cls class
     * \param stage 1 or 2
     */
    void PrefetchTransmit(uint32_t port, uint32_t cls, uint32_t stage) const override;

    /**
     * \param node the switch's node (may be null)
     * \return the ECMP seed used when the EcmpSeed attribute is 0: 2^32 + node id for
     *         RngSeed 1 and RngRun 1, its bits 33-63 drawn from the seed and run otherwise
     */
    static uint64_t DeriveEcmpSeed(Ptr<Node> node);

    static constexpr uint32_t NUM_CLASSES = RdmaSwitchMmu::NUM_CLASSES;
    static constexpr uint32_t NO_PORT = 0xffffffff;

    /// A stage as a hook calls it: raw pointer (m_egress owns it) and what it wants.
    struct EgressHook
    {
        RdmaEgressProcessor* processor; //!< the stage
        uint32_t filterFlags;           //!< FIFO_* flags the packet must all carry
        bool portState;                 //!< the stage reads the port state
        bool readsPacket;               //!< the stage may read the packet's bytes (ReadsPacket)
    };

    // The members a packet's forwarding and dequeue read, first and together: in a large
    // fabric every switch is far from the caches when its next packet comes, and these
    // were spread over eight of the object's cache lines (the watchdog's, the counters' and
    // the traces' among them). Configuration and statistics read elsewhere come after.
    Ptr<RdmaSwitchMmu> m_mmu;
    Ptr<RdmaLoadBalancer> m_loadBalancer;
    std::vector<Ptr<RdmaNetDevice>> m_ports;
    /// The link flow control of each port (owned by its device), called per packet.
    std::vector<RdmaLinkFlowControl*> m_portFc;
    /// What the switch keeps of every packet waiting in each egress (port, class) queue.
    std::vector<std::array<RdmaFifo<IngressEntry>, NUM_CLASSES>> m_ingressFifo;
    uint32_t m_denseBase{0}; //!< first address of the flat table
    uint32_t m_denseSize{0}; //!< entries of the flat table (m_denseRoutes may be freed: runs)
    // The last offset LookUpRouteSetId found in the runs, and its set id: a packet's route is
    // looked up three times (the two prefetch stages, then Forward), and at k = 32 few other
    // look-ups at the same switch come between. BuildRouteRuns forgets it; the runs are only
    // read while valid, so a route change (which invalidates them) can never meet it.
    mutable uint32_t m_lastRunOffset{NO_RUN_OFFSET}; //!< NO_RUN_OFFSET: none
    mutable uint32_t m_lastRunId{0};                 //!< the set id of m_lastRunOffset
    std::vector<uint32_t> m_denseRoutes;             //!< set id per address - m_denseBase
    // The runs of m_denseRoutes, if few: run i maps the offsets from the end of run i - 1 (0
    // for the first) up to m_routeRunEnds[i] to m_routeRunIds[i]. The ends are padded with
    // NO_RUN_END to a multiple of ROUTE_RUN_LANES, so LookUpRouteSetId counts them in whole
    // vectors; empty: no runs.
    std::vector<uint32_t> m_routeRunEnds; //!< one past each run's last offset, then padding
    std::vector<uint32_t> m_routeRunIds;  //!< next-hop set id of each run
    std::vector<std::vector<uint32_t>> m_routeSets{std::vector<uint32_t>()}; //!< [0] = none
    std::vector<EgressHook> m_enqueueHooks;
    std::vector<EgressHook> m_dequeueHooks;
    // FIFO_* flags every stage of a hook list needs (the AND of their filters): a packet
    // without them skips the list at once (RED's dequeue hook and a non-ECN-capable ACK).
    uint32_t m_enqueueCommonFlags{0};
    uint32_t m_dequeueCommonFlags{0};
    uint32_t m_ecmpSeed;          //!< attribute EcmpSeed
    uint32_t m_wdActiveStorms{0}; //!< queues stormed now (Forward looks further only if > 0)
    uint64_t m_derivedEcmpSeed{DeriveEcmpSeed(nullptr)}; //!< DeriveEcmpSeed(m_node), kept
    uint64_t m_forwarded{0};
    bool m_routeRunsValid{false};   //!< the runs match m_denseRoutes (Forward rebuilds)
    bool m_readTelemetryBit{false}; //!< some stage wants FILTER_TELEMETRY packets
    /// Sinks of the per-packet traces (RdmaWatchedTrace), read instead of their lists.
    uint16_t m_watched{0};
    static constexpr uint16_t WATCH_EGRESS_QUEUE = 1U << 0;       //!< EgressQueue has a sink
    static constexpr uint16_t WATCH_EGRESS_QUEUE_DELAY = 1U << 1; //!< EgressQueueDelay has one

    Ptr<Node> m_node;

    // Forwarding table. Destinations share interned next-hop sets (a fat-tree switch has a
    // handful of distinct sets for thousands of hosts); hosts addressed densely (as
    // RdmaHelper does) are kept in a flat array, others in a hash table. The flat array is
    // looked up through its runs of equal set ids when there are few (a fat-tree switch:
    // one run per port down plus the way up, about k): those fit in a cache line or two,
    // where the flat array of a large fabric (4 bytes per host per switch) misses the cache
    // on almost every packet.
    /// \return the next-hop set id of a destination (0: no route); the flat table read
    /// inline, the runs and the hash table in LookUpRouteSetId
    uint32_t RouteSetId(uint32_t dst) const
    {
        const uint32_t offset = dst - m_denseBase; // wraps for dst < base: not dense
        if (offset < m_denseSize && (!m_routeRunsValid || m_routeRunIds.empty()))
        {
            return m_denseRoutes[offset]; // Forward rebuilds the runs after a change
        }
        return LookUpRouteSetId(dst);
    }

    /// \return RouteSetId of a destination outside the flat table, or through its runs (only
    /// when they are valid and in use: RouteSetId reads the flat table otherwise)
    uint32_t LookUpRouteSetId(uint32_t dst) const;
    /// Rebuild the runs from m_denseRoutes (or leave them empty if there are too many).
    void BuildRouteRuns();

    /// m_lastRunOffset when no look-up is remembered (no flat table has 2^32 entries).
    static constexpr uint32_t NO_RUN_OFFSET = 0xffffffff;
    /// The end that pads m_routeRunEnds: past every offset (no flat table has 2^32 entries).
    static constexpr uint32_t NO_RUN_END = 0xffffffff;
    /// m_routeRunEnds is padded to a multiple of this many ends (two SSE2 vectors).
    static constexpr std::size_t ROUTE_RUN_LANES = 8;
    /// Most runs looked up by counting their ends; with more the flat array is used.
    static constexpr std::size_t MAX_ROUTE_RUNS = 64;
    /// Flat tables up to this many entries (16 KiB) are read directly: a look-up through
    /// their runs costs more instructions than the load it saves (the peer's addressing,
    /// 11.0.i.1, spreads 16 hosts over 3,841 entries in 32 runs).
    static constexpr std::size_t MIN_ENTRIES_FOR_RUNS = 4096;
    /// Point a destination at a next-hop set.
    void SetRouteSetId(uint32_t dst, uint32_t id);
    /// SetRouteSetId on the expanded flat table.
    void SetRouteSetIdExpanded(uint32_t dst, uint32_t id);
    /// Rebuild the flat table from its runs if CompactRoutes freed it.
    void ExpandRoutes();
    /// \return the id of a (sorted, duplicate-free) next-hop set, adding it if new
    uint32_t InternRouteSet(const std::vector<uint32_t>& ports);
    std::map<std::vector<uint32_t>, uint32_t> m_routeSetIds; //!< interning index
    std::unordered_map<uint32_t, uint32_t> m_sparseRoutes;   //!< set id of other addresses

    // Egress stages: m_egress[0] is m_red; the hook lists hold the stages each hook calls.

    std::vector<Ptr<RdmaEgressProcessor>> m_egress;
    Ptr<RdmaRedEcnMarker> m_red;
    Ptr<RdmaIntInserter> m_intInserter;

    // attributes
    bool m_ecnEnabled{true};

    // PFC watchdog (Detect/Restore per (port, class); see the class documentation)
    Time m_wdDetection;    //!< attribute PfcWatchdogDetectionTime (0: off)
    Time m_wdRestoration;  //!< attribute PfcWatchdogRestorationTime (0: = detection)
    Time m_wdPollInterval; //!< attribute PfcWatchdogPollInterval (0: detection / 2)
    EventId m_wdPollEvent; //!< the next poll
    std::vector<std::array<Time, NUM_CLASSES>> m_wdPausedSince; //!< first poll seeing a stall
    std::vector<uint8_t> m_wdStormedMask; //!< per port: classes the watchdog discards
    uint64_t m_wdStorms{0};
    uint64_t m_wdRestorations{0};
    TracedCallback<uint32_t, uint8_t, bool> m_wdTrace;

    // counters
    std::array<uint64_t, NUM_DROP_REASONS> m_drops{};
    uint64_t m_ecnMarks{0};
    uint64_t m_pfcPauses{0};
    uint64_t m_pfcRefreshes{0};
    uint64_t m_pfcResumes{0};

    TracedCallback<Ptr<const Packet>, const char*, uint32_t, uint8_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t, uint32_t> m_ecnMarkTrace;
    TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace;
    RdmaWatchedTrace<uint32_t, uint8_t, uint32_t> m_egressQueueTrace;
    RdmaWatchedTrace<uint32_t, uint8_t, Time> m_egressQueueDelayTrace;
    /// Arrival times of the queued packets whose entry carries FIFO_TIMED, per port x class
    /// (filled only while EgressQueueDelay has a sink: no cost otherwise).
    std::vector<RdmaFifo<Time>> m_enqueueTimes;
    Time m_lastQueueDelay; //!< the delay of the entry ReleaseEgress took last (if FIFO_TIMED)
};

} // namespace ns3

#endif /* RDMA_SWITCH_H */
