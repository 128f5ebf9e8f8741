/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-switch.h"

#include "rdma-header-stack.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rdma-bth-header.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-ecmp-load-balancer.h"
#include "ns3/rdma-int-inserter.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-pfc-flow-control.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");

NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);

namespace
{
/// Bytes of an IPv4 header without options.
constexpr uint32_t IPV4_HEADER_BYTES = 20;
/// Bytes copied from a packet to read the 5-tuple: IPv4 header and the two ports.
constexpr uint32_t PARSE_BYTES = RdmaPortHandler::HEAD_BYTES;
static_assert(PARSE_BYTES >= IPV4_HEADER_BYTES + 4, "the ports follow a 20-byte IPv4 header");
/// Largest IPv4 header (IHL 15) plus the two ports.
constexpr uint32_t PARSE_BYTES_MAX = 60 + 4;
/// PFC pause time of an XOFF frame, quanta.
/// Ingress FIFO entry: the ingress port in the low bits, and what the dequeue-time ECN marker
/// needs from the IPv4 header (read at arrival, so the packet is not parsed again).
constexpr uint32_t FIFO_PORT_MASK = 0x00ffffffU;
/// The packet's first 12 bytes are those of the hop before; ipv4Head holds those it arrived
/// with (RdmaPortHandler::HandleReceive's headBeside): written into it before it is read.
constexpr uint32_t FIFO_HEAD_BESIDE = 1U << 26;
/// ipv4Head holds all of RdmaPortHandler::ROUTE_HEAD_BYTES (the packet has at least as many).
constexpr uint32_t FIFO_ROUTE_BYTES = 1U << 25;
constexpr uint32_t FIFO_TIMED = 1U << 27;        //!< arrival time in m_enqueueTimes
constexpr uint32_t FIFO_HEAD_CHANGED = 1U << 28; //!< marked at enqueue: ipv4Head is stale
constexpr uint32_t FIFO_TELEMETRY = 1U << 29;    //!< RoCEv2, BTH telemetry bit set
constexpr uint32_t FIFO_ECN_CAPABLE = 1U << 30;  //!< ECT(0) or ECT(1)
constexpr uint32_t FIFO_CHECKSUM = 1U << 31;     //!< the IPv4 header carries a checksum

/// The FIFO flags every stage of a hook list requires (the AND of their filters).
template <class HookList>
uint32_t
CommonFilterFlags(const HookList& hooks)
{
    uint32_t common = ~0U;
    for (const auto& hook : hooks)
    {
        common &= hook.filterFlags;
    }
    return common;
}

/// The FIFO flags a stage's RdmaEgressProcessor::Filter bits require.
inline uint32_t
FilterFlags(uint8_t filter)
{
    return ((filter & RdmaEgressProcessor::FILTER_ECN_CAPABLE) ? FIFO_ECN_CAPABLE : 0) |
           ((filter & RdmaEgressProcessor::FILTER_TELEMETRY) ? FIFO_TELEMETRY : 0);
}

/// RoCEv2's UDP destination port (IBTA annex A17.2).
constexpr uint16_t ROCEV2_UDP_PORT = 4791;
/// Offset of BTH byte 4 (F, B, T bits) after the IPv4 header: UDP (8) + 4.
constexpr uint32_t BTH_BYTE4_AFTER_IP = 8 + 4;
/// IP protocol numbers whose first four payload bytes are source and destination ports.
constexpr uint8_t IPPROTO_TCP_NUMBER = 6;
constexpr uint8_t IPPROTO_UDP_NUMBER = 17;

/// \return big-endian 32-bit value at p
inline uint32_t
ReadU32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/// \return big-endian 16-bit value at p
inline uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}
} // namespace

TypeId
RdmaSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwitch")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwitch>()
            .AddAttribute(
                "EcnMarkingPoint",
                "Where RED/ECN decides: at dequeue on the bytes the packet leaves "
                "behind (the default: egress marking, as the DCQCN papers' switches, "
                "CoNEXT 2016 section 5.1, and the HPCC simulator do; the mark does not "
                "wait out the queue) or at enqueue on the bytes already queued (RED, "
                "RFC 2309).",
                EnumValue(RdmaSwitch::ECN_AT_DEQUEUE),
                MakeEnumAccessor(&RdmaSwitch::SetEcnMarkingPoint, &RdmaSwitch::GetEcnMarkingPoint),
                MakeEnumChecker(RdmaSwitch::ECN_AT_ENQUEUE,
                                "Enqueue",
                                RdmaSwitch::ECN_AT_DEQUEUE,
                                "Dequeue"))
            .AddAttribute(
                "EcnEnabled",
                "Mark ECN-capable packets CE by RED on the egress queue length.",
                BooleanValue(true),
                MakeBooleanAccessor(&RdmaSwitch::SetEcnEnabled, &RdmaSwitch::GetEcnEnabled),
                MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "RED minimum threshold, bytes of the egress (port, class) queue "
                          "(DCQCN, SIGCOMM 2015: 5 KB).",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&RdmaSwitch::SetEcnKmin, &RdmaSwitch::GetEcnKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "RED maximum threshold, bytes (DCQCN: 200 KB). Above it every "
                          "ECN-capable packet is marked.",
                          UintegerValue(200000),
                          MakeUintegerAccessor(&RdmaSwitch::SetEcnKmax, &RdmaSwitch::GetEcnKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "RED marking probability at EcnKmax (DCQCN: 1%).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RdmaSwitch::SetEcnPmax, &RdmaSwitch::GetEcnPmax),
                          MakeDoubleChecker<double>())
            .AddAttribute("Telemetry",
                          "Write an in-band telemetry hop record (RdmaIntInserter: line rate, "
                          "time, tx bytes, queue) into every packet that carries a telemetry "
                          "area (BTH telemetry bit), when it leaves an egress queue, as HPCC's "
                          "switches do.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaSwitch::SetTelemetry, &RdmaSwitch::GetTelemetry),
                          MakeBooleanChecker())
            .AddAttribute("EcmpSeed",
                          "Seed of the ECMP hash; 0: derived from the node id, so that "
                          "switches hash differently, and from ns-3's RngSeed and RngRun, "
                          "so that independent runs sample independent ECMP mappings.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mmu",
                          "The shared-buffer MMU (an RdmaSwitchMmu is created if not set).",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_mmu),
                          MakePointerChecker<RdmaSwitchMmu>())
            .AddAttribute("LoadBalancer",
                          "Chooses the egress port among equal-cost ports (an "
                          "RdmaLoadBalancer; an RdmaEcmpLoadBalancer is created if not set). "
                          "One instance per switch: use RdmaHelper::SetLoadBalancer.",
                          PointerValue(),
                          MakePointerAccessor(&RdmaSwitch::m_loadBalancer),
                          MakePointerChecker<RdmaLoadBalancer>())
            .AddAttribute("PfcWatchdogDetectionTime",
                          "PFC watchdog: a lossless (egress port, class) queue that holds "
                          "packets and stays paused by received PFC this long is in a pause "
                          "storm, and its packets are dropped until it is restored. 0 turns "
                          "the watchdog off. SONiC's default: 200 ms.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaSwitch::m_wdDetection),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PfcWatchdogRestorationTime",
                          "PFC watchdog: a stormed queue is lossless again once no pausing "
                          "PFC frame has arrived for its class on its port for this long. "
                          "0: the detection time. SONiC's default: 200 ms.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaSwitch::m_wdRestoration),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PfcWatchdogPollInterval",
                          "PFC watchdog: how often the queues are checked; a storm is "
                          "detected up to one interval after the detection time. 0: half the "
                          "detection time (SONiC: 100 ms polls for 200 ms detection).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaSwitch::m_wdPollInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Drop",
                            "A packet was dropped: packet, reason name, port, class.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_dropTrace),
                            "ns3::RdmaSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet was marked CE: packet, egress port, class, queue bytes.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_ecnMarkTrace),
                            "ns3::RdmaSwitch::EcnMarkTracedCallback")
            .AddTraceSource("Pfc",
                            "A PFC frame was sent: ingress port, class, true for XOFF.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_pfcTrace),
                            "ns3::RdmaSwitch::PfcTracedCallback")
            .AddTraceSource("EgressQueue",
                            "An egress queue changed: port, class, bytes.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_egressQueueTrace),
                            "ns3::RdmaSwitch::EgressQueueTracedCallback")
            .AddTraceSource("EgressQueueDelay",
                            "A packet left its egress queue to be transmitted: port, class, "
                            "time it waited in the queue (the Wq of queueing theory; 0 if "
                            "the port was idle). Costs nothing while unconnected.",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_egressQueueDelayTrace),
                            "ns3::RdmaSwitch::EgressQueueDelayTracedCallback")
            .AddTraceSource("PfcWatchdog",
                            "The PFC watchdog detected a storm on (egress port, class) (true) "
                            "or restored the queue (false).",
                            MakeTraceSourceAccessor(&RdmaSwitch::m_wdTrace),
                            "ns3::RdmaSwitch::PfcWatchdogTracedCallback");
    return tid;
}

RdmaSwitch::RdmaSwitch()
{
    NS_LOG_FUNCTION(this);
    m_egressQueueTrace.Watch(&m_watched, WATCH_EGRESS_QUEUE);
    m_egressQueueDelayTrace.Watch(&m_watched, WATCH_EGRESS_QUEUE_DELAY);
    // The marker creates its random variable here, where the switch used to create its own:
    // the automatic stream numbering, and thus every result, is unchanged.
    m_red = CreateObject<RdmaRedEcnMarker>();
    m_egress.push_back(m_red);
    RebuildEgressHooks();
}

RdmaSwitch::~RdmaSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaSwitch::NotifyConstructionCompleted()
{
    // The attributes have been set; the Mmu attribute's initial value is null.
    if (!m_mmu)
    {
        m_mmu = CreateObject<RdmaSwitchMmu>();
    }
    if (!m_loadBalancer)
    {
        m_loadBalancer = CreateObject<RdmaEcmpLoadBalancer>();
    }
    Object::NotifyConstructionCompleted();
}

void
RdmaSwitch::NotifyNewAggregate()
{
    if (!m_node)
    {
        m_node = GetObject<Node>();
        m_derivedEcmpSeed = DeriveEcmpSeed(m_node);
    }
    Object::NotifyNewAggregate();
}

void
RdmaSwitch::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    m_mmu->Validate();
    RebuildEgressHooks();
    for (const auto& processor : m_egress)
    {
        for (uint32_t port = 0; port < m_ports.size(); ++port)
        {
            processor->CheckPort(port, m_ports[port]->GetDataRate().GetBitRate());
        }
        processor->Initialize();
    }
    if (m_wdDetection.IsStrictlyPositive())
    {
        // The watchdog polls while some lossless class is paused or stormed; a received
        // pause re-arms it, so that an idle fabric schedules nothing.
        for (const auto& dev : m_ports)
        {
            dev->TraceConnectWithoutContext("PfcRx",
                                            MakeCallback(&RdmaSwitch::NotifyPauseReceived, this));
        }
    }
    Object::DoInitialize();
}

void
RdmaSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wdPollEvent.Cancel();
    for (auto& dev : m_ports)
    {
        dev->SetPortHandler(nullptr, 0);
        dev->SetDecrementTtl(false);
        if (auto pfc = DynamicCast<RdmaPfcFlowControl>(dev->GetLinkFlowControl()))
        {
            pfc->SetPfcSentCallback(RdmaPfcFlowControl::PfcSentCallback());
        }
    }
    m_portFc.clear();
    m_ports.clear();
    m_ingressFifo.clear();
    m_enqueueTimes.clear();
    ClearRoutes();
    m_node = nullptr;
    m_mmu = nullptr;
    m_loadBalancer = nullptr;
    m_enqueueHooks.clear();
    m_dequeueHooks.clear();
    for (auto& processor : m_egress)
    {
        processor->Dispose();
    }
    m_egress.clear();
    m_red = nullptr;
    m_intInserter = nullptr;
    Object::DoDispose();
}

const char*
RdmaSwitch::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case NO_ROUTE:
        return "NO_ROUTE";
    case LOSSY_BUFFER_LIMIT:
        return "LOSSY_BUFFER_LIMIT";
    case HEADROOM_OVERFLOW:
        return "HEADROOM_OVERFLOW";
    case EGRESS_QUEUE_LIMIT:
        return "EGRESS_QUEUE_LIMIT";
    case MALFORMED_PACKET:
        return "MALFORMED_PACKET";
    case PFC_WATCHDOG:
        return "PFC_WATCHDOG";
    case TTL_EXPIRED:
        return "TTL_EXPIRED";
    default:
        return "UNKNOWN";
    }
}

void
RdmaSwitch::CheckConfig() const
{
    NS_ABORT_MSG_IF(GetEcnKmin() > GetEcnKmax(),
                    "RdmaSwitch: EcnKmin " << GetEcnKmin() << " B is larger than EcnKmax "
                                           << GetEcnKmax() << " B; RED needs EcnKmin <= EcnKmax");
    NS_ABORT_MSG_IF(!(GetEcnPmax() >= 0.0 && GetEcnPmax() <= 1.0),
                    "RdmaSwitch: EcnPmax " << GetEcnPmax()
                                           << " is not a probability; it must be in [0, 1]");
    for (const auto& processor : m_egress)
    {
        processor->CheckConfig();
    }
    NS_ABORT_MSG_IF(m_wdDetection.IsStrictlyPositive() && m_wdPollInterval > m_wdDetection,
                    "RdmaSwitch: PfcWatchdogPollInterval "
                        << m_wdPollInterval.As(Time::US) << " exceeds PfcWatchdogDetectionTime "
                        << m_wdDetection.As(Time::US)
                        << "; valid: 0 (half the detection time) up to the detection time");
    NS_ABORT_MSG_IF(!m_mmu, "RdmaSwitch: the Mmu attribute is null");
    NS_ABORT_MSG_IF(!m_loadBalancer,
                    "RdmaSwitch: the LoadBalancer attribute is null; set an RdmaLoadBalancer "
                    "such as ns3::RdmaEcmpLoadBalancer");
}

void
RdmaSwitch::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
    m_derivedEcmpSeed = DeriveEcmpSeed(m_node);
}

Ptr<Node>
RdmaSwitch::GetNode() const
{
    return m_node;
}

uint32_t
RdmaSwitch::AddPort(Ptr<RdmaNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "RdmaSwitch::AddPort: null device");
    if (!m_node)
    {
        m_node = device->GetNode();
        m_derivedEcmpSeed = DeriveEcmpSeed(m_node);
    }
    NS_ABORT_MSG_IF(!m_node || device->GetNode() != m_node,
                    "RdmaSwitch::AddPort: the device is not a device of the switch's node "
                    "(install it on the node first)");
    NS_ABORT_MSG_IF(std::find(m_ports.begin(), m_ports.end(), device) != m_ports.end(),
                    "RdmaSwitch::AddPort: the device is already port "
                        << (std::find(m_ports.begin(), m_ports.end(), device) - m_ports.begin()));
    Ptr<RdmaChannel> channel = device->GetRdmaChannel();
    NS_ABORT_MSG_IF(!channel,
                    "RdmaSwitch::AddPort: the device has no channel; attach it (RdmaLinkHelper) "
                    "before adding it, the MMU needs the cable delay for the PFC headroom");
    CheckConfig();
    NS_ABORT_MSG_IF(m_mmu->GetNPorts() != m_ports.size(),
                    "RdmaSwitch::AddPort: the MMU has "
                        << m_mmu->GetNPorts() << " ports but the switch " << m_ports.size()
                        << "; an MMU serves one switch");

    const uint32_t maxFrameWire =
        RdmaNetDevice::WireBytes(device->GetMtu() + RdmaNetDevice::ETHERNET_HEADER_BYTES);
    NS_ABORT_MSG_IF(m_ports.size() > FIFO_PORT_MASK,
                    "RdmaSwitch::AddPort: a switch has at most " << FIFO_PORT_MASK + 1 << " ports");
    const uint32_t port = m_mmu->AddPort(device->GetDataRate(), channel->GetDelay(), maxFrameWire);
    m_ports.push_back(device);
    m_ingressFifo.emplace_back();
    m_wdStormedMask.push_back(0);
    // The port's link flow control acts on its ingress (port, class) buffers (PFC: XOFF and
    // XON from the MMU's thresholds; credits: the buffer partition it advertises).
    Ptr<RdmaLinkFlowControl> fc = device->GetLinkFlowControl();
    fc->SetSwitchPort(m_mmu, port);
    if (auto pfc = DynamicCast<RdmaPfcFlowControl>(fc))
    {
        pfc->SetPfcSentCallback(MakeCallback(&RdmaSwitch::RecordPfcSent, this));
    }
    m_portFc.push_back(PeekPointer(fc));

    // The device calls HandleReceive / HandleDequeue directly (no Callback layers).
    device->SetPortHandler(this, port);
    device->SetDecrementTtl(true);
    NS_LOG_INFO("port " << port << ": " << device->GetDataRate() << ", delay "
                        << channel->GetDelay() << ", headroom " << m_mmu->GetHeadroom(port)
                        << " B");
    return port;
}

uint32_t
RdmaSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<RdmaNetDevice>
RdmaSwitch::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "RdmaSwitch::GetPort: port "
                        << i << " does not exist (ports: " << m_ports.size() << ")");
    return m_ports[i];
}

void
RdmaSwitch::AddRoute(Ipv4Address dst, uint32_t port)
{
    NS_LOG_FUNCTION(this << dst << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "RdmaSwitch::AddRoute: port "
                        << port << " for " << dst << " does not exist (ports 0.."
                        << static_cast<int64_t>(m_ports.size()) - 1 << "); add the port first");
    std::vector<uint32_t> ports = m_routeSets[RouteSetId(dst.Get())];
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
        SetRoutes(dst, ports);
    }
}

void
RdmaSwitch::SetRoutes(Ipv4Address dst, const std::vector<uint32_t>& ports)
{
    SetRoutes(std::vector<Ipv4Address>{dst}, ports);
}

void
RdmaSwitch::SetRoutes(const std::vector<Ipv4Address>& dsts, const std::vector<uint32_t>& ports)
{
    if (dsts.empty())
    {
        return;
    }
    std::vector<uint32_t> set;
    set.reserve(ports.size());
    for (uint32_t port : ports)
    {
        NS_ABORT_MSG_IF(port >= m_ports.size(),
                        "RdmaSwitch::SetRoutes: port "
                            << port << " for " << dsts.front() << " does not exist (ports 0.."
                            << static_cast<int64_t>(m_ports.size()) - 1 << "); add the port first");
        if (std::find(set.begin(), set.end(), port) == set.end())
        {
            set.push_back(port); // insertion order is kept: it is the ECMP bucket order
        }
    }
    const uint32_t id = set.empty() ? 0 : InternRouteSet(set);
    for (const Ipv4Address& dst : dsts)
    {
        SetRouteSetId(dst.Get(), id);
    }
}

uint32_t
RdmaSwitch::InternRouteSet(const std::vector<uint32_t>& ports)
{
    auto [it, inserted] = m_routeSetIds.emplace(ports, static_cast<uint32_t>(m_routeSets.size()));
    if (inserted)
    {
        m_routeSets.push_back(ports);
    }
    return it->second;
}

uint32_t
RdmaSwitch::LookUpRouteSetId(uint32_t dst) const
{
    const uint32_t offset = dst - m_denseBase; // wraps for dst < base: not dense
    if (offset < m_denseSize)
    {
        // RouteSetId read the flat table itself unless its runs are valid and in use.
        NS_ASSERT(m_routeRunsValid && !m_routeRunIds.empty());
        if (offset == m_lastRunOffset)
        {
            return m_lastRunId; // the prefetch stages looked this packet's route up already
        }
        // The run is the number of runs that end at or before the offset, counted over every
        // end in whole vectors, with no branch on any of them: the ends' lines (one to four)
        // are loaded together when the switch's runs have left the caches. A binary search
        // here loaded them one after another (each load waited on the one before), and
        // mispredicted about half of its branches.
        const uint32_t* const ends = m_routeRunEnds.data();
        const std::size_t padded = m_routeRunEnds.size();
        uint32_t run = 0;
        for (std::size_t i = 0; i < padded; ++i)
        {
            run += ends[i] <= offset ? 1 : 0;
        }
        m_lastRunOffset = offset;
        m_lastRunId = m_routeRunIds[run]; // the last run ends at m_denseSize > offset
        return m_lastRunId;
    }
    auto it = m_sparseRoutes.find(dst);
    return it == m_sparseRoutes.end() ? 0 : it->second;
}

void
RdmaSwitch::BuildRouteRuns()
{
    ExpandRoutes();
    m_routeRunEnds.clear();
    m_routeRunIds.clear();
    m_lastRunOffset = NO_RUN_OFFSET;
    const uint32_t n = static_cast<uint32_t>(m_denseRoutes.size());
    if (n <= MIN_ENTRIES_FOR_RUNS)
    {
        m_routeRunsValid = true; // no runs: RouteSetId reads the flat table
        return;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (i + 1 == n || m_denseRoutes[i + 1] != m_denseRoutes[i])
        {
            if (m_routeRunIds.size() == MAX_ROUTE_RUNS)
            {
                m_routeRunEnds.clear(); // too many: the flat array is faster
                m_routeRunIds.clear();
                break;
            }
            m_routeRunEnds.push_back(i + 1);
            m_routeRunIds.push_back(m_denseRoutes[i]);
        }
    }
    if (!m_routeRunIds.empty())
    {
        const std::size_t lanes = ROUTE_RUN_LANES;
        m_routeRunEnds.resize((m_routeRunEnds.size() + lanes - 1) / lanes * lanes, NO_RUN_END);
    }
    m_routeRunEnds.shrink_to_fit();
    m_routeRunIds.shrink_to_fit();
    m_routeRunsValid = true;
}

void
RdmaSwitch::CompactRoutes()
{
    if (!m_routeRunsValid)
    {
        BuildRouteRuns();
    }
    if (!m_routeRunIds.empty())
    {
        std::vector<uint32_t>().swap(m_denseRoutes); // the runs hold it; m_denseSize stays
    }
    else
    {
        m_denseRoutes.shrink_to_fit();
    }
}

uint64_t
RdmaSwitch::GetRouteTableBytes() const
{
    return (m_denseRoutes.capacity() + m_routeRunEnds.capacity() + m_routeRunIds.capacity()) *
           sizeof(uint32_t);
}

void
RdmaSwitch::ExpandRoutes()
{
    if (m_denseRoutes.size() == m_denseSize)
    {
        return;
    }
    // CompactRoutes kept the table as runs (valid, not empty, ending at m_denseSize).
    m_denseRoutes.reserve(m_denseSize);
    for (std::size_t run = 0; run < m_routeRunIds.size(); ++run)
    {
        m_denseRoutes.resize(m_routeRunEnds[run], m_routeRunIds[run]);
    }
}

void
RdmaSwitch::SetRouteSetId(uint32_t dst, uint32_t id)
{
    ExpandRoutes();
    SetRouteSetIdExpanded(dst, id);
    m_denseSize = static_cast<uint32_t>(m_denseRoutes.size());
}

void
RdmaSwitch::SetRouteSetIdExpanded(uint32_t dst, uint32_t id)
{
    m_routeRunsValid = false;
    // The flat table covers up to 2^20 addresses from the lowest one routed (rounded down
    // to a /24): 4 bytes per address, dense for RdmaHelper's consecutive host addresses in
    // whatever order their routes are set.
    constexpr uint32_t DENSE_SPAN = 1U << 20;
    if (m_denseRoutes.empty() && m_sparseRoutes.empty())
    {
        m_denseBase = dst & 0xffffff00U;
    }
    if (id != 0 && dst < m_denseBase)
    {
        const uint32_t newBase = dst & 0xffffff00U;
        const uint32_t shift = m_denseBase - newBase;
        if (uint64_t(shift) + m_denseRoutes.size() <= DENSE_SPAN)
        {
            // Move the table's start down; hash-table entries now in reach move in.
            m_denseRoutes.insert(m_denseRoutes.begin(), shift, 0);
            m_denseBase = newBase;
            for (auto it = m_sparseRoutes.begin(); it != m_sparseRoutes.end();)
            {
                const uint32_t offset = it->first - m_denseBase;
                if (offset < DENSE_SPAN)
                {
                    if (offset >= m_denseRoutes.size())
                    {
                        m_denseRoutes.resize(offset + 1, 0);
                    }
                    m_denseRoutes[offset] = it->second;
                    it = m_sparseRoutes.erase(it);
                }
                else
                {
                    ++it;
                }
            }
        }
    }
    const uint32_t offset = dst - m_denseBase;
    if (offset < DENSE_SPAN)
    {
        if (offset >= m_denseRoutes.size())
        {
            if (id == 0)
            {
                return;
            }
            m_denseRoutes.resize(offset + 1, 0);
        }
        m_denseRoutes[offset] = id;
        return;
    }
    if (id == 0)
    {
        m_sparseRoutes.erase(dst);
    }
    else
    {
        m_sparseRoutes[dst] = id;
    }
}

void
RdmaSwitch::ClearRoutes()
{
    NS_LOG_FUNCTION(this);
    m_routeSets.assign(1, std::vector<uint32_t>());
    m_routeSetIds.clear();
    m_denseRoutes.clear();
    m_denseSize = 0;
    m_sparseRoutes.clear();
    m_denseBase = 0;
    m_routeRunEnds.clear();
    m_routeRunIds.clear();
    m_routeRunsValid = false;
}

uint32_t
RdmaSwitch::GetNRouteSets() const
{
    return static_cast<uint32_t>(m_routeSets.size() - 1);
}

uint32_t
RdmaSwitch::GetNSparseRoutes() const
{
    return static_cast<uint32_t>(m_sparseRoutes.size());
}

const std::vector<uint32_t>&
RdmaSwitch::GetRoutes(Ipv4Address dst) const
{
    return m_routeSets[RouteSetId(dst.Get())];
}

uint64_t
RdmaSwitch::FlowHash(uint32_t src,
                     uint32_t dst,
                     uint8_t protocol,
                     uint16_t srcPort,
                     uint16_t dstPort,
                     uint64_t seed)
{
    return RdmaLoadBalancer::FlowHash(src, dst, protocol, srcPort, dstPort, seed);
}

uint64_t
RdmaSwitch::GetEffectiveEcmpSeed() const
{
    // The derived seed as computed when the node was set (the hot path uses the same).
    return m_ecmpSeed != 0 ? m_ecmpSeed : m_derivedEcmpSeed;
}

uint64_t
RdmaSwitch::DeriveEcmpSeed(Ptr<Node> node)
{
    // Low 32 bits: the node id, so that the switches of a fabric hash differently (no
    // polarization). Bit 32 set: outside the range of the 32-bit attribute, so that no
    // explicit seed collides. Bits 33-63: the replication (ns-3's RngSeed and RngRun), mixed,
    // so that independent runs also sample independent ECMP mappings; Mix64(0) = 0 keeps
    // seed 1 run 1 at 2^32 + node id.
    const uint64_t replication =
        (uint64_t(RngSeedManager::GetSeed() - 1) << 32) ^ (RngSeedManager::GetRun() - 1);
    const uint64_t base = (1ULL << 32) | (node ? node->GetId() : 0);
    return base ^ (RdmaLoadBalancer::Mix64(replication) & ~((1ULL << 33) - 1));
}

int64_t
RdmaSwitch::SelectEgressPort(Ipv4Address src,
                             Ipv4Address dst,
                             uint8_t protocol,
                             uint16_t srcPort,
                             uint16_t dstPort,
                             uint8_t cls,
                             uint32_t size) const
{
    const std::vector<uint32_t>& routes = GetRoutes(dst);
    if (routes.empty())
    {
        return -1;
    }
    if (routes.size() == 1)
    {
        return routes[0];
    }
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "RdmaSwitch::SelectEgressPort: class " << unsigned(cls)
                                                           << " is not a traffic class (0..7)");
    RdmaFlowKey key;
    key.src = src.Get();
    key.dst = dst.Get();
    key.protocol = protocol;
    key.srcPort = srcPort;
    key.dstPort = dstPort;
    key.seed = GetEffectiveEcmpSeed();
    key.size = size;
    key.inPort = RdmaFlowKey::NO_PORT;
    key.cls = cls;
    return m_loadBalancer->SelectPort(key, routes, *m_mmu);
}

Ptr<RdmaSwitchMmu>
RdmaSwitch::GetMmu() const
{
    return m_mmu;
}

Ptr<RdmaLoadBalancer>
RdmaSwitch::GetLoadBalancer() const
{
    return m_loadBalancer;
}

double
RdmaSwitch::MarkProbability(uint64_t queueBytes, uint64_t kmin, uint64_t kmax, double pmax)
{
    return RdmaRedEcnMarker::MarkProbability(queueBytes, kmin, kmax, pmax);
}

bool
RdmaSwitch::DecideEcnMark(uint64_t queueBytes)
{
    return m_red->DecideMark(queueBytes);
}

int64_t
RdmaSwitch::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    // The RED marker first and the load balancer next, as before the egress stages existed
    // (same streams, same results); the other stages after them.
    int64_t n = m_red->AssignStreams(stream);
    n += m_loadBalancer->AssignStreams(stream + n);
    for (std::size_t i = 1; i < m_egress.size(); ++i)
    {
        n += m_egress[i]->AssignStreams(stream + n);
    }
    return n;
}

void
RdmaSwitch::AddEgressProcessor(Ptr<RdmaEgressProcessor> processor)
{
    NS_LOG_FUNCTION(this << processor);
    NS_ABORT_MSG_IF(!processor, "RdmaSwitch::AddEgressProcessor: null processor");
    NS_ABORT_MSG_IF(std::find(m_egress.begin(), m_egress.end(), processor) != m_egress.end(),
                    "RdmaSwitch::AddEgressProcessor: the "
                        << processor->GetInstanceTypeId().GetName()
                        << " is already a stage of this switch");
    processor->CheckConfig();
    m_egress.push_back(processor);
    RebuildEgressHooks();
}

uint32_t
RdmaSwitch::GetNEgressProcessors() const
{
    return static_cast<uint32_t>(m_egress.size());
}

Ptr<RdmaEgressProcessor>
RdmaSwitch::GetEgressProcessor(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_egress.size(),
                    "RdmaSwitch::GetEgressProcessor: stage "
                        << i << " does not exist (stages: " << m_egress.size() << ")");
    return m_egress[i];
}

Ptr<RdmaRedEcnMarker>
RdmaSwitch::GetEcnMarker() const
{
    return m_red;
}

Ptr<RdmaIntInserter>
RdmaSwitch::GetIntInserter() const
{
    return m_intInserter;
}

void
RdmaSwitch::RebuildEgressHooks()
{
    m_enqueueHooks.clear();
    m_dequeueHooks.clear();
    m_readTelemetryBit = false;
    for (const auto& processor : m_egress)
    {
        if (processor == m_red && !m_ecnEnabled)
        {
            continue;
        }
        const uint8_t hooks = processor->GetHooks();
        const uint8_t filter = processor->GetPacketFilter();
        const EgressHook hook{PeekPointer(processor),
                              FilterFlags(filter),
                              processor->UsesPortState(),
                              processor->ReadsPacket()};
        if (hooks & RdmaEgressProcessor::HOOK_ENQUEUE)
        {
            m_enqueueHooks.push_back(hook);
        }
        if (hooks & RdmaEgressProcessor::HOOK_DEQUEUE)
        {
            m_dequeueHooks.push_back(hook);
        }
        if ((hooks != 0) && (filter & RdmaEgressProcessor::FILTER_TELEMETRY))
        {
            m_readTelemetryBit = true;
        }
    }
    m_enqueueCommonFlags = CommonFilterFlags(m_enqueueHooks);
    m_dequeueCommonFlags = CommonFilterFlags(m_dequeueHooks);
}

void
RdmaSwitch::FillPortState(RdmaEgressContext& ctx, uint64_t extraTxBytes) const
{
    const Ptr<RdmaNetDevice>& dev = m_ports[ctx.port];
    ctx.lineRateBps = dev->GetDataRate().GetBitRate();
    ctx.txBytes = dev->GetTxWireBytes() + extraTxBytes;
    uint64_t total = 0;
    for (uint8_t c = 0; c < NUM_CLASSES; ++c)
    {
        total += m_mmu->GetEgressBytes(ctx.port, c);
    }
    ctx.portQueueBytes = total;
    ctx.now = RdmaSimulatorImpl::CurrentTime();
}

bool
RdmaSwitch::RunEnqueueHooks(const Ptr<Packet>& packet,
                            uint32_t size,
                            uint32_t port,
                            uint8_t cls,
                            uint64_t queueBefore,
                            uint32_t& flags,
                            const uint8_t* ipv4Head)
{
    RdmaEgressContext ctx;
    ctx.port = port;
    ctx.cls = cls;
    ctx.ecnCapable = (flags & FIFO_ECN_CAPABLE) != 0;
    ctx.checksum = (flags & FIFO_CHECKSUM) != 0;
    ctx.telemetry = (flags & FIFO_TELEMETRY) != 0;
    ctx.queueBytes = queueBefore;
    bool portState = false;
    bool marked = false;
    for (const EgressHook& hook : m_enqueueHooks)
    {
        if ((flags & hook.filterFlags) != hook.filterFlags)
        {
            continue;
        }
        if (hook.portState && !portState)
        {
            FillPortState(ctx, 0);
            ctx.portQueueBytes -= size; // admitted already: exclude it
            portState = true;
        }
        if (hook.readsPacket && (flags & FIFO_HEAD_BESIDE))
        {
            WriteArrivalHead(packet, ipv4Head);
            flags &= ~FIFO_HEAD_BESIDE;
        }
        if (hook.processor->Enqueue(packet, ctx) == RdmaEgressProcessor::MARK_CE && !marked)
        {
            MarkPacket(packet,
                       ctx.checksum,
                       port,
                       cls,
                       queueBefore,
                       (flags & FIFO_HEAD_BESIDE) ? ipv4Head : nullptr);
            flags &= ~FIFO_HEAD_BESIDE;
            marked = true;
        }
    }
    return marked;
}

bool
RdmaSwitch::RunDequeueHooks(const Ptr<Packet>& packet,
                            uint32_t size,
                            uint32_t port,
                            uint8_t cls,
                            uint32_t& flags,
                            const uint8_t* ipv4Head)
{
    RdmaEgressContext ctx;
    ctx.port = port;
    ctx.cls = cls;
    ctx.ecnCapable = (flags & FIFO_ECN_CAPABLE) != 0;
    ctx.checksum = (flags & FIFO_CHECKSUM) != 0;
    ctx.telemetry = (flags & FIFO_TELEMETRY) != 0;
    ctx.queueBytes = m_mmu->GetEgressBytes(port, cls);
    bool portState = false;
    bool marked = false;
    for (const EgressHook& hook : m_dequeueHooks)
    {
        if ((flags & hook.filterFlags) != hook.filterFlags)
        {
            continue;
        }
        if (hook.portState && !portState)
        {
            // The frame is about to start: count it (Ethernet header added by the device).
            FillPortState(ctx,
                          RdmaNetDevice::WireBytes(size + RdmaNetDevice::ETHERNET_HEADER_BYTES));
            portState = true;
        }
        if (hook.readsPacket && (flags & FIFO_HEAD_BESIDE))
        {
            WriteArrivalHead(packet, ipv4Head);
            flags &= ~FIFO_HEAD_BESIDE;
        }
        if (hook.processor->Dequeue(packet, ctx) == RdmaEgressProcessor::MARK_CE && !marked)
        {
            MarkPacket(packet,
                       ctx.checksum,
                       port,
                       cls,
                       ctx.queueBytes,
                       (flags & FIFO_HEAD_BESIDE) ? ipv4Head : nullptr);
            flags &= ~FIFO_HEAD_BESIDE;
            marked = true;
        }
    }
    return marked;
}

void
RdmaSwitch::SetEcnEnabled(bool enabled)
{
    m_ecnEnabled = enabled;
    RebuildEgressHooks();
}

bool
RdmaSwitch::GetEcnEnabled() const
{
    return m_ecnEnabled;
}

void
RdmaSwitch::SetEcnMarkingPoint(EcnMarkingPoint point)
{
    m_red->SetMarkingPoint(point == ECN_AT_ENQUEUE ? RdmaRedEcnMarker::AT_ENQUEUE
                                                   : RdmaRedEcnMarker::AT_DEQUEUE);
    RebuildEgressHooks();
}

RdmaSwitch::EcnMarkingPoint
RdmaSwitch::GetEcnMarkingPoint() const
{
    return m_red->GetMarkingPoint() == RdmaRedEcnMarker::AT_ENQUEUE ? ECN_AT_ENQUEUE
                                                                    : ECN_AT_DEQUEUE;
}

void
RdmaSwitch::SetEcnKmin(uint64_t kmin)
{
    m_red->SetKmin(kmin);
}

uint64_t
RdmaSwitch::GetEcnKmin() const
{
    return m_red->GetKmin();
}

void
RdmaSwitch::SetEcnKmax(uint64_t kmax)
{
    m_red->SetKmax(kmax);
}

uint64_t
RdmaSwitch::GetEcnKmax() const
{
    return m_red->GetKmax();
}

void
RdmaSwitch::SetEcnPmax(double pmax)
{
    m_red->SetPmax(pmax);
}

double
RdmaSwitch::GetEcnPmax() const
{
    return m_red->GetPmax();
}

void
RdmaSwitch::SetTelemetry(bool enabled)
{
    if (enabled && !m_intInserter)
    {
        m_intInserter = CreateObject<RdmaIntInserter>();
        AddEgressProcessor(m_intInserter);
    }
    else if (!enabled && m_intInserter)
    {
        m_egress.erase(std::find(m_egress.begin(), m_egress.end(), m_intInserter));
        m_intInserter = nullptr;
        RebuildEgressHooks();
    }
}

bool
RdmaSwitch::GetTelemetry() const
{
    return m_intInserter != nullptr;
}

void
RdmaSwitch::ReceiveFromPort(uint32_t inPort, Ptr<RdmaNetDevice> device, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << inPort << device << packet);
    uint8_t head[PARSE_BYTES];
    const uint32_t copied = packet->CopyData(head, PARSE_BYTES);
    Forward(inPort, packet, head, copied, false, packet->GetSize());
}

void
RdmaSwitch::HandleReceive(uint32_t port,
                          Ptr<Packet>& packet,
                          const uint8_t* head,
                          uint32_t headBytes,
                          bool headBeside,
                          uint32_t size)
{
    Forward(port, packet, head, headBytes, headBeside, size);
}

void
RdmaSwitch::Forward(uint32_t inPort,
                    Ptr<Packet>& packet,
                    const uint8_t* head,
                    uint32_t copied,
                    bool headBeside,
                    uint32_t size)
{
    // head holds the bytes the packet arrived with; beside it, if headBeside.
    const uint8_t* besideHead = headBeside ? head : nullptr;
    const bool routeBytes = copied >= ROUTE_HEAD_BYTES; // kept for the next switch
    // The IPv4 header and the transport ports are parsed once, from the raw bytes the
    // receiving device already read; its size came beside it.
    if (size < IPV4_HEADER_BYTES || copied < IPV4_HEADER_BYTES)
    {
        DropArriving(packet, besideHead, MALFORMED_PACKET, inPort, 0);
        return;
    }
    const uint8_t* hdr = head;
    const uint32_t ihl = (hdr[0] & 0x0fU) * 4;
    const uint8_t tos = hdr[1];
    const uint8_t cls = tos >> 5; // DSCP >> 3
    if ((hdr[0] >> 4) != 4 || ihl < IPV4_HEADER_BYTES || ihl > size)
    {
        DropArriving(packet, besideHead, MALFORMED_PACKET, inPort, cls);
        return;
    }
    if (hdr[8] <= 1)
    {
        DropArriving(packet,
                     besideHead,
                     TTL_EXPIRED,
                     inPort,
                     cls); // RFC 1812 5.3.1 (no ICMP is sent)
        return;
    }
    const uint8_t ipProtocol = hdr[9];
    const bool hasChecksum = hdr[10] != 0 || hdr[11] != 0;
    const uint32_t src = ReadU32(hdr + 12);
    const uint32_t dst = ReadU32(hdr + 16);
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    if (ipProtocol == IPPROTO_UDP_NUMBER || ipProtocol == IPPROTO_TCP_NUMBER)
    {
        uint8_t withOptions[PARSE_BYTES_MAX];
        if (ihl + 4 > copied && ihl + 4 <= size)
        {
            copied = packet->CopyData(withOptions, ihl + 4); // IPv4 options: rare
            if (besideHead)
            {
                std::memcpy(withOptions, besideHead, IPV4_HEAD_BESIDE_BYTES);
            }
            hdr = withOptions;
        }
        if (ihl + 4 <= copied)
        {
            srcPort = ReadU16(hdr + ihl);
            dstPort = ReadU16(hdr + ihl + 2);
        }
    }

    // Route lookup and load balancing.
    if (!m_routeRunsValid)
    {
        BuildRouteRuns(); // once after the routes changed (not per AddRoute while set up)
    }
    const std::vector<uint32_t>& routes = m_routeSets[RouteSetId(dst)];
    if (routes.empty())
    {
        DropArriving(packet, besideHead, NO_ROUTE, inPort, cls);
        return;
    }
    uint32_t outPort = routes[0];
    if (routes.size() > 1)
    {
        RdmaFlowKey key;
        key.src = src;
        key.dst = dst;
        key.protocol = ipProtocol;
        key.srcPort = srcPort;
        key.dstPort = dstPort;
        key.seed = m_ecmpSeed != 0 ? m_ecmpSeed : m_derivedEcmpSeed;
        key.size = size;
        key.inPort = inPort;
        key.cls = cls;
        outPort = m_loadBalancer->SelectPort(key, routes, *m_mmu);
    }

    if (m_wdActiveStorms > 0 && (m_wdStormedMask[outPort] & (1U << cls)))
    {
        DropArriving(packet, besideHead, PFC_WATCHDOG, outPort, cls); // a queue in a pause storm
        return;
    }

    // MMU admission.
    const uint64_t queueBefore = m_mmu->GetEgressBytes(outPort, cls);
    switch (m_mmu->Admit(inPort, outPort, cls, size))
    {
    case RdmaSwitchMmu::ADMITTED:
        break;
    case RdmaSwitchMmu::DROP_LOSSY_LIMIT:
        DropArriving(packet, besideHead, LOSSY_BUFFER_LIMIT, inPort, cls);
        return;
    case RdmaSwitchMmu::DROP_HEADROOM_OVERFLOW:
        DropArriving(packet, besideHead, HEADROOM_OVERFLOW, inPort, cls);
        return;
    case RdmaSwitchMmu::DROP_EGRESS_LIMIT:
        DropArriving(packet, besideHead, EGRESS_QUEUE_LIMIT, outPort, cls);
        return;
    }
    m_portFc[inPort]->NotifyIngressAdmitted(cls, size); // PFC: XOFF past the threshold

    // The TTL leaves one lower: the port rewrites it with the Ethernet header it adds
    // (RdmaNetDevice::SetDecrementTtl), one header write per hop.

    // Egress stages (RED/ECN marking first) at enqueue. What the stages filter on is read
    // from the header once, here, and kept in the FIFO entry for the dequeue hooks.
    const uint8_t ecn = tos & 0x03U;
    const bool ecnCapable = ecn == Ipv4Header::ECN_ECT1 || ecn == Ipv4Header::ECN_ECT0;
    uint32_t flags = (ecnCapable ? FIFO_ECN_CAPABLE : 0) | (hasChecksum ? FIFO_CHECKSUM : 0) |
                     (headBeside ? FIFO_HEAD_BESIDE : 0) | (routeBytes ? FIFO_ROUTE_BYTES : 0);
    if (m_readTelemetryBit && ipProtocol == IPPROTO_UDP_NUMBER && dstPort == ROCEV2_UDP_PORT &&
        ihl + BTH_BYTE4_AFTER_IP < size)
    {
        uint8_t upToBth[PARSE_BYTES_MAX + BTH_BYTE4_AFTER_IP];
        packet->CopyData(upToBth, ihl + BTH_BYTE4_AFTER_IP + 1);
        if (upToBth[ihl + BTH_BYTE4_AFTER_IP] & RdmaBthHeader::TELEMETRY_MASK)
        {
            flags |= FIFO_TELEMETRY;
        }
    }
    if (!m_enqueueHooks.empty() && (flags & m_enqueueCommonFlags) == m_enqueueCommonFlags &&
        RunEnqueueHooks(packet, size, outPort, cls, queueBefore, flags, head))
    {
        flags |= FIFO_HEAD_CHANGED;
    }

    // Remember the ingress port and the IPv4 head before the device may dequeue synchronously.
    if (m_watched & WATCH_EGRESS_QUEUE_DELAY)
    {
        const std::size_t q = std::size_t(outPort) * NUM_CLASSES + cls;
        if (m_enqueueTimes.size() <= q)
        {
            m_enqueueTimes.resize(m_ports.size() * NUM_CLASSES);
        }
        m_enqueueTimes[q].push_back(RdmaSimulatorImpl::CurrentTime());
        flags |= FIFO_TIMED;
    }
    IngressEntry entry;
    entry.flags = inPort | flags;
    std::memcpy(entry.ipv4Head.data(), head, sizeof(entry.ipv4Head)); // constant size: inline
    m_ingressFifo[outPort][cls].push_back(entry);
    ++m_forwarded;
    if (m_watched & WATCH_EGRESS_QUEUE)
    {
        m_egressQueueTrace(outPort, cls, static_cast<uint32_t>(queueBefore + size));
    }
    if ((flags & FIFO_HEAD_BESIDE) && m_ports[outPort]->IsMacTxTraced())
    {
        WriteArrivalHead(packet, head); // MacTx sees the packet Enqueue takes
        m_ingressFifo[outPort][cls].back().flags &= ~FIFO_HEAD_BESIDE;
    }
    // The queue takes this hop's reference: no line of the packet is read here.
    m_ports[outPort]->EnqueueTaking(packet, cls, size);
}

void
RdmaSwitch::PrefetchReceive(uint32_t port,
                            const uint8_t* head,
                            uint32_t headBytes,
                            uint32_t stage) const
{
    if (headBytes < IPV4_HEADER_BYTES || !m_routeRunsValid || port >= m_ports.size())
    {
        return; // Forward drops it or rebuilds its routes first: nothing worth guessing
    }
    const uint8_t cls = head[1] >> 5;
    const std::vector<uint32_t>& routes = m_routeSets[RouteSetId(ReadU32(head + 16))];
    if (stage == 1)
    {
        __builtin_prefetch(routes.data());
        __builtin_prefetch(m_portFc[port]);
        m_mmu->PrefetchIngress(port, cls);
        return;
    }
    if (routes.size() == 1 && routes[0] < m_ports.size())
    {
        const uint32_t outPort = routes[0];
        m_mmu->PrefetchEgress(outPort, cls);
        __builtin_prefetch(&m_ingressFifo[outPort][cls]);
        m_ports[outPort]->PrefetchFrameLines();
    }
}

void
RdmaSwitch::PrefetchTransmit(uint32_t port, uint32_t cls, uint32_t stage) const
{
    if (port >= m_ingressFifo.size() || cls >= NUM_CLASSES || m_ingressFifo[port][cls].empty())
    {
        return;
    }
    const IngressEntry& entry = m_ingressFifo[port][cls].front();
    if (stage == 1)
    {
        RdmaSimulatorImpl::Touch(&entry); // loaded: stage 2 reads its ingress port
        return;
    }
    const uint32_t inPort = entry.flags & FIFO_PORT_MASK;
    m_mmu->PrefetchIngress(inPort, static_cast<uint8_t>(cls));
    m_mmu->PrefetchEgress(port, static_cast<uint8_t>(cls));
    if (inPort < m_portFc.size())
    {
        __builtin_prefetch(m_portFc[inPort]);
    }
}

void
RdmaSwitch::HandleDequeue(uint32_t port, const Ptr<Packet>& packet, uint8_t cls, uint32_t size)
{
    NS_LOG_FUNCTION(this << port << packet << unsigned(cls) << size);
    IngressEntry entry = ReleaseEgress(port, size, cls);
    if (entry.flags & FIFO_TIMED)
    {
        m_egressQueueDelayTrace(port, cls, m_lastQueueDelay);
    }
    // Dequeue-hook stages see the queue the packet leaves behind (RED marking at dequeue:
    // the congestion signal skips the queueing delay; telemetry). What they filter on was
    // read at arrival and kept in the FIFO entry.
    bool headChanged = (entry.flags & FIFO_HEAD_CHANGED) != 0;
    if (!m_dequeueHooks.empty() && (entry.flags & m_dequeueCommonFlags) == m_dequeueCommonFlags &&
        RunDequeueHooks(packet, size, port, cls, entry.flags, entry.ipv4Head.data()))
    {
        headChanged = true;
    }
    if (!headChanged)
    {
        // The port rewrites the TTL from the head read at arrival (no second read per hop).
        m_ports[port]->SetNextIpv4Head(entry.ipv4Head.data(), entry.flags & FIFO_ROUTE_BYTES);
    }
}

RdmaSwitch::IngressEntry
RdmaSwitch::ReleaseEgress(uint32_t port, uint32_t size, uint8_t cls)
{
    RdmaFifo<IngressEntry>& fifo = m_ingressFifo[port][cls];
    NS_ABORT_MSG_IF(fifo.empty(),
                    "RdmaSwitch: port " << port << " class " << unsigned(cls)
                                        << " dequeued a packet the switch did not queue");
    const IngressEntry entry = fifo.front();
    fifo.pop_front();
    if (entry.flags & FIFO_TIMED)
    {
        // Transmission (HandleDequeue) and the watchdog's discard both come here: the arrival
        // times stay aligned with the entries; only a transmitted packet's delay is traced.
        RdmaFifo<Time>& times = m_enqueueTimes[std::size_t(port) * NUM_CLASSES + cls];
        m_lastQueueDelay = RdmaSimulatorImpl::CurrentTime() - times.front();
        times.pop_front();
    }
    const uint32_t inPort = entry.flags & FIFO_PORT_MASK;
    m_mmu->Release(inPort, port, cls, size);
    if (m_watched & WATCH_EGRESS_QUEUE)
    {
        m_egressQueueTrace(port, cls, static_cast<uint32_t>(m_mmu->GetEgressBytes(port, cls)));
    }
    RdmaLinkFlowControl* fc = m_portFc[inPort];
    if (fc->WantsIngressReleased(cls))
    {
        fc->NotifyIngressReleased(cls, size); // PFC: XON below the resume threshold
    }
    return entry;
}

Time
RdmaSwitch::GetPfcWatchdogPollInterval() const
{
    return m_wdPollInterval.IsZero() ? m_wdDetection / 2 : m_wdPollInterval;
}

void
RdmaSwitch::NotifyPauseReceived(uint8_t cls, uint16_t quanta)
{
    if (quanta > 0 && m_mmu->IsLossless(cls) && !m_wdPollEvent.IsRunning())
    {
        m_wdPollEvent =
            Simulator::Schedule(GetPfcWatchdogPollInterval(), &RdmaSwitch::PollPfcWatchdog, this);
    }
}

Time
RdmaSwitch::GetPfcWatchdogRestorationTime() const
{
    return m_wdRestoration.IsZero() ? m_wdDetection : m_wdRestoration;
}

void
RdmaSwitch::PollPfcWatchdog()
{
    const Time now = RdmaSimulatorImpl::CurrentTime();
    if (m_wdPausedSince.size() < m_ports.size())
    {
        // Sized on the first poll: a switch without the watchdog keeps no state for it.
        std::array<Time, NUM_CLASSES> none;
        none.fill(Time::Max());
        m_wdPausedSince.resize(m_ports.size(), none);
    }
    bool watching = false; // poll again only while something is paused or stormed
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        const Ptr<RdmaNetDevice>& dev = m_ports[port];
        for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
        {
            if (!m_mmu->IsLossless(cls))
            {
                continue;
            }
            const uint8_t bit = static_cast<uint8_t>(1U << cls);
            Time& since = m_wdPausedSince[port][cls];
            const bool paused = dev->IsClassPaused(cls);
            watching = watching || paused;
            if (m_wdStormedMask[port] & bit)
            {
                // Restore once the peer has stopped pausing the class.
                if (!paused &&
                    dev->GetLastPauseReceived(cls) + GetPfcWatchdogRestorationTime() <= now)
                {
                    m_wdStormedMask[port] &= static_cast<uint8_t>(~bit);
                    ++m_wdRestorations;
                    --m_wdActiveStorms;
                    NS_LOG_INFO("PFC watchdog: port " << port << " class " << +cls << " restored");
                    m_wdTrace(port, cls, false);
                }
                continue;
            }
            if (!paused || dev->GetQueuePackets(cls) == 0)
            {
                since = Time::Max(); // not stalled
                continue;
            }
            if (since == Time::Max())
            {
                since = now; // first poll that sees the stall
                continue;
            }
            if (now - since < m_wdDetection)
            {
                continue;
            }
            // A storm: drop what the queue holds, and (Forward) whatever arrives for it.
            m_wdStormedMask[port] |= bit;
            since = Time::Max();
            ++m_wdStorms;
            ++m_wdActiveStorms;
            NS_LOG_INFO("PFC watchdog: port " << port << " class " << +cls << " in a storm");
            m_wdTrace(port, cls, true);
            while (Ptr<Packet> p = dev->RemoveQueuedPacket(cls))
            {
                const IngressEntry entry = ReleaseEgress(port, p->GetSize(), cls);
                if ((entry.flags & FIFO_HEAD_BESIDE) && !m_dropTrace.IsEmpty())
                {
                    WriteArrivalHead(p, entry.ipv4Head.data());
                }
                DropPacket(p, PFC_WATCHDOG, port, cls);
            }
        }
    }
    if (watching || m_wdActiveStorms > 0)
    {
        m_wdPollEvent =
            Simulator::Schedule(GetPfcWatchdogPollInterval(), &RdmaSwitch::PollPfcWatchdog, this);
    }
}

uint64_t
RdmaSwitch::GetPfcWatchdogStorms() const
{
    return m_wdStorms;
}

uint64_t
RdmaSwitch::GetPfcWatchdogRestorations() const
{
    return m_wdRestorations;
}

bool
RdmaSwitch::IsPfcWatchdogStormed(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || cls >= NUM_CLASSES,
                    "RdmaSwitch::IsPfcWatchdogStormed: port "
                        << port << " class " << +cls << " does not exist (ports 0.."
                        << static_cast<int64_t>(m_ports.size()) - 1 << ", classes 0.."
                        << NUM_CLASSES - 1 << ")");
    return (m_wdStormedMask[port] >> cls) & 1U;
}

void
RdmaSwitch::DropPacket(Ptr<const Packet> packet, DropReason reason, uint32_t port, uint8_t cls)
{
    NS_LOG_LOGIC("drop " << DropReasonName(reason) << " port " << port << " class " << unsigned(cls)
                         << " packet " << packet->GetUid());
    ++m_drops[reason];
    m_dropTrace(packet, DropReasonName(reason), port, cls);
}

void
RdmaSwitch::DropArriving(const Ptr<Packet>& packet,
                         const uint8_t* besideHead,
                         DropReason reason,
                         uint32_t port,
                         uint8_t cls)
{
    if (besideHead && !m_dropTrace.IsEmpty())
    {
        WriteArrivalHead(packet, besideHead); // the trace sees the packet as it arrived
    }
    DropPacket(packet, reason, port, cls);
}

void
RdmaSwitch::MarkPacket(const Ptr<Packet>& packet,
                       bool checksum,
                       uint32_t port,
                       uint8_t cls,
                       uint64_t queueBytes,
                       const uint8_t* besideHead)
{
    // The IPv4 header as raw bytes (options included): CE set, checksum updated in place.
    RdmaHeaderStack ip;
    uint8_t versionIhl = 0;
    if (besideHead)
    {
        versionIhl = besideHead[0];
    }
    else
    {
        packet->CopyData(&versionIhl, 1);
    }
    ip.SetSize((versionIhl & 0x0f) * 4U);
    packet->RemoveHeader(ip);
    if (besideHead)
    {
        ip.Overwrite(0, besideHead, IPV4_HEAD_BESIDE_BYTES); // the bytes it arrived with
    }
    ip.MarkIpv4Ce(checksum);
    packet->AddHeader(ip);
    ++m_ecnMarks;
    NS_LOG_LOGIC("CE mark port " << port << " class " << unsigned(cls) << " queue " << queueBytes);
    m_ecnMarkTrace(packet, port, cls, static_cast<uint32_t>(queueBytes));
}

void
RdmaSwitch::RecordPfcSent(uint32_t port, uint8_t classMask, bool xoff, bool refresh)
{
    if (xoff)
    {
        ++m_pfcPauses;
        m_pfcRefreshes += refresh ? 1 : 0;
    }
    else
    {
        ++m_pfcResumes;
    }
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        if ((classMask >> c) & 1U)
        {
            m_pfcTrace(port, static_cast<uint8_t>(c), xoff);
        }
    }
}

uint64_t
RdmaSwitch::GetDropCount(DropReason reason) const
{
    NS_ABORT_MSG_IF(reason >= NUM_DROP_REASONS,
                    "RdmaSwitch::GetDropCount: reason " << reason << " is not a DropReason");
    return m_drops[reason];
}

uint64_t
RdmaSwitch::GetTotalDrops() const
{
    uint64_t total = 0;
    for (uint64_t n : m_drops)
    {
        total += n;
    }
    return total;
}

uint64_t
RdmaSwitch::GetEcnMarks() const
{
    return m_ecnMarks;
}

uint64_t
RdmaSwitch::GetPfcPausesSent() const
{
    return m_pfcPauses;
}

uint64_t
RdmaSwitch::GetPfcRefreshesSent() const
{
    return m_pfcRefreshes;
}

uint64_t
RdmaSwitch::GetPfcResumesSent() const
{
    return m_pfcResumes;
}

uint64_t
RdmaSwitch::GetForwardedPackets() const
{
    return m_forwarded;
}

} // namespace ns3
