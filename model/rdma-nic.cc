/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "rdma-aeth-header.h"
#include "rdma-bth-header.h"
#include "rdma-fixed-rate-congestion-control.h"
#include "rdma-go-back-n-loss-recovery.h"
#include "rdma-net-device.h"
#include "rdma-path-selector.h"
#include "rdma-qp-path-selector.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

namespace
{
/// IPv4 header without options (20) and UDP header (8).
constexpr uint32_t IPV4_UDP_BYTES = 28;
/// Bytes parsed from every received packet: IPv4, UDP, BTH (12) and an AETH (4) or the
/// first bytes of whatever follows the BTH (every RoCEv2 packet has at least a 4-byte ICRC).
constexpr uint32_t ROCE_PARSE_BYTES = IPV4_UDP_BYTES + 12 + 4;
} // namespace

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "RoCE path MTU: payload bytes per packet (IBTA: 256, 512, 1024, "
                          "2048 or 4096).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("AckInterval",
                          "The responder acknowledges every this many in-order packets (and "
                          "always the last packet of a message).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RetransmitTimeout",
                          "Requester's local ACK timeout. Default: IBTA 4.096 us x 2^14 "
                          "(QP attribute timeout = 14, the usual verbs setting).",
                          TimeValue(NanoSeconds(4096ULL << 14)),
                          MakeTimeAccessor(&RdmaNic::m_retransmitTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CnpInterval",
                          "Minimum time between two CNPs of one queue pair (DCQCN's NP "
                          "parameter N, 50 us in Zhu et al., SIGCOMM 2015).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpEnabled",
                          "The responder sends CNPs for CE-marked packets (DCQCN's "
                          "notification point; NVIDIA NICs enable it per priority, roce_np). "
                          "false: CE marks reach the sender only as the ECN echo of the ACKs "
                          "(DCTCP; the HPCC simulator outside its DCQCN mode).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_cnpEnabled),
                          MakeBooleanChecker())
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs (48, class 6, is the NVIDIA default).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RdmaNic::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("AckDscp",
                          "DSCP of ACKs and NAKs; -1 sends them with the queue pair's data "
                          "DSCP (same traffic class). 48 or higher puts them in a class "
                          "served before data under strict priority.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_ackDscp),
                          MakeIntegerChecker<int16_t>(-1, 63))
            .AddAttribute("EcnCapable",
                          "Send data packets ECT(0) so that switches mark instead of drop.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion control (a subclass of "
                          "ns3::RdmaCongestionControl) used when no prototype is set.",
                          TypeIdValue(RdmaFixedRateCongestionControl::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("LossRecovery",
                          "TypeId of the loss recovery (a subclass of ns3::RdmaLossRecovery) "
                          "used when no prototype is set.",
                          TypeIdValue(RdmaGoBackNLossRecovery::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::m_lrTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("PathSelector",
                          "TypeId of the host-side path selection (a subclass of "
                          "ns3::RdmaPathSelector): which port and UDP source port each data "
                          "packet takes. Used when no instance is set.",
                          TypeIdValue(RdmaQpPathSelector::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::m_pathSelectorTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("RxDiscard",
                            "A received packet the NIC could not use (unknown QP, not "
                            "RoCEv2, wrong address), with the reason.",
                            MakeTraceSourceAccessor(&RdmaNic::m_rxDiscardTrace),
                            "ns3::RdmaNic::RxDiscardTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
{
    NS_LOG_FUNCTION(this);
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
}

RdmaNic::~RdmaNic()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaNic::DoInitialize()
{
    Object::DoInitialize();
}

void
RdmaNic::DoDispose()
{
    m_pacerEvent.Cancel();
    m_pacerAt = Time::Max();
    m_kickEvent.Cancel();
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    for (const Ptr<RdmaNetDevice>& device : m_ports)
    {
        device->SetPortHandler(nullptr, 0);
    }
    m_ports.clear();
    m_node = nullptr;
    m_ccPrototype = nullptr;
    m_lrPrototype = nullptr;
    m_pathSelector = nullptr;
    Object::DoDispose();
}

void
RdmaNic::SetDevice(Ptr<RdmaNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!m_ports.empty(),
                    "RdmaNic::SetDevice: the NIC already has a port; use AddDevice for more");
    AddDevice(device);
}

uint32_t
RdmaNic::AddDevice(Ptr<RdmaNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(!device, "RdmaNic::AddDevice: null device");
    Ptr<Node> node = device->GetNode();
    NS_ABORT_MSG_IF(!node, "RdmaNic::AddDevice: the device is not on a node");
    NS_ABORT_MSG_IF(m_node && node != m_node,
                    "RdmaNic::AddDevice: the device is on node "
                        << node->GetId() << ", the NIC's other ports on node " << m_node->GetId());
    for (const auto& d : m_ports)
    {
        NS_ABORT_MSG_IF(d == device, "RdmaNic::AddDevice: the device is already a port");
    }
    NS_ABORT_MSG_IF(!m_ports.empty() && device->GetDataRate() != m_ports[0]->GetDataRate(),
                    "RdmaNic::AddDevice: port " << m_ports.size() << " of node " << node->GetId()
                                                << " runs at " << device->GetDataRate()
                                                << ", port 0 at " << m_ports[0]->GetDataRate()
                                                << "; all ports of a NIC need the same rate");
    NS_ABORT_MSG_IF(!m_qps.empty(),
                    "RdmaNic::AddDevice on node "
                        << node->GetId()
                        << " after queue pairs were created; attach every port first");
    m_node = node;
    const uint32_t port = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(device);
    m_rrNext.push_back(0);
    m_portDataPackets.push_back(0);
    device->SetTxPullCallback(MakeCallback(&RdmaNic::PullPacket, this, port));
    device->SetPortHandler(this, port);
    return port;
}

Ptr<RdmaNetDevice>
RdmaNic::GetDevice() const
{
    return m_ports.empty() ? nullptr : m_ports[0];
}

Ptr<RdmaNetDevice>
RdmaNic::GetDevice(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "RdmaNic port index " << i << " out of range 0.." << m_ports.size());
    return m_ports[i];
}

uint32_t
RdmaNic::GetNDevices() const
{
    return static_cast<uint32_t>(m_ports.size());
}

uint64_t
RdmaNic::GetDataPacketsSent(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "RdmaNic port index " << i << " out of range 0.." << m_ports.size());
    return m_portDataPackets[i];
}

void
RdmaNic::SetPathSelector(Ptr<RdmaPathSelector> selector)
{
    NS_ABORT_MSG_IF(!selector, "RdmaNic::SetPathSelector: null selector");
    NS_ABORT_MSG_IF(!m_qps.empty(),
                    "RdmaNic::SetPathSelector after queue pairs were created; set it first");
    m_pathSelector = selector;
    m_spreads = selector->SpreadsQueuePairs();
    m_variesEntropy = selector->VariesSourcePort();
}

Ptr<RdmaPathSelector>
RdmaNic::GetPathSelector()
{
    if (!m_pathSelector)
    {
        ObjectFactory f(m_pathSelectorTypeId.GetName());
        Ptr<RdmaPathSelector> selector = f.Create<RdmaPathSelector>();
        NS_ABORT_MSG_IF(!selector,
                        "ns3::RdmaNic::PathSelector " << m_pathSelectorTypeId.GetName()
                                                      << " is not an RdmaPathSelector");
        SetPathSelector(selector);
    }
    return m_pathSelector;
}

Ptr<Node>
RdmaNic::GetNode() const
{
    return m_node;
}

Ptr<RdmaMemory>
RdmaNic::GetMemory() const
{
    NS_ABORT_MSG_IF(!m_node, "RdmaNic::GetMemory before the NIC is installed on a node");
    Ptr<RdmaMemory> memory = m_node->GetObject<RdmaMemory>();
    if (!memory)
    {
        memory = CreateObject<RdmaMemory>();
        m_node->AggregateObject(memory);
    }
    return memory;
}

void
RdmaNic::SetAddress(Ipv4Address address)
{
    m_address = address;
    m_addressBits = address.Get();
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_address;
}

void
RdmaNic::SetCongestionControl(Ptr<RdmaCongestionControl> prototype)
{
    m_ccPrototype = prototype;
}

void
RdmaNic::SetLossRecovery(Ptr<RdmaLossRecovery> prototype)
{
    m_lrPrototype = prototype;
}

RdmaQpParameters
RdmaNic::GetQpParameters() const
{
    RdmaQpParameters p;
    p.mtu = m_mtu;
    p.ackInterval = m_ackInterval;
    p.retransmitTimeout = m_retransmitTimeout;
    p.cnpInterval = m_cnpInterval;
    p.cnpEnabled = m_cnpEnabled;
    p.cnpDscp = m_cnpDscp;
    p.ackDscp = m_ackDscp;
    p.ecnCapable = m_ecnCapable;
    p.port = m_ports.empty() ? nullptr : m_ports[0];
    return p;
}

void
RdmaNic::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

void
RdmaNic::SetQueuePairFactory(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(!factory.GetTypeId().IsChildOf(RdmaTransportEndpoint::GetTypeId()),
                    "queue pair factory makes " << factory.GetTypeId().GetName()
                                                << ", not an ns3::RdmaTransportEndpoint");
    m_qpFactory = factory;
}

namespace
{
/// \return true if tid is ns3::RdmaQueuePair or derives from it
bool
IsQueuePairType(TypeId tid)
{
    return tid == RdmaQueuePair::GetTypeId() || tid.IsChildOf(RdmaQueuePair::GetTypeId());
}
} // namespace

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair()
{
    return CreateQueuePair(m_qpFactory);
}

const ObjectFactory&
RdmaNic::GetQueuePairFactory() const
{
    return m_qpFactory;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaNic::Connect(Ptr<RdmaNic> peer, const ObjectFactory& factory, const ObjectFactory& peerFactory)
{
    NS_ABORT_MSG_IF(
        !IsQueuePairType(factory.GetTypeId()) || !IsQueuePairType(peerFactory.GetTypeId()),
        "RdmaNic::Connect: the factories make "
            << factory.GetTypeId().GetName() << " and " << peerFactory.GetTypeId().GetName()
            << "; both must make an ns3::RdmaQueuePair (else use ConnectEndpoints)");
    auto [qa, qb] = ConnectEndpoints(peer, factory, peerFactory);
    return {StaticCast<RdmaQueuePair>(qa), StaticCast<RdmaQueuePair>(qb)};
}

std::pair<Ptr<RdmaTransportEndpoint>, Ptr<RdmaTransportEndpoint>>
RdmaNic::ConnectEndpoints(Ptr<RdmaNic> peer,
                          const ObjectFactory& factory,
                          const ObjectFactory& peerFactory)
{
    NS_ABORT_MSG_IF(!peer, "RdmaNic::Connect: no peer NIC");
    Ptr<RdmaTransportEndpoint> qa = CreateEndpoint(factory);
    Ptr<RdmaTransportEndpoint> qb = peer->CreateEndpoint(peerFactory);
    // Both ends start from the same PSN, as exchanged out of band in verbs.
    qb->SetInitialPsn(qa->GetInitialPsn());
    // RC queue pairs also exchange their RDMA READ limits (rdma_cm's initiator_depth and
    // responder_resources): each end's InitiatorDepth must fit the other's ResponderResources.
    Ptr<RdmaQueuePair> rcA = DynamicCast<RdmaQueuePair>(qa);
    Ptr<RdmaQueuePair> rcB = DynamicCast<RdmaQueuePair>(qb);
    if (rcA && rcB)
    {
        rcA->SetPeerReadLimits(rcB->GetResponderResources(), rcB->GetMaxReadSize());
        rcB->SetPeerReadLimits(rcA->GetResponderResources(), rcA->GetMaxReadSize());
    }
    qa->Connect(peer->GetAddress(), qb->GetQpn());
    qb->Connect(GetAddress(), qa->GetQpn());
    return {qa, qb};
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(!IsQueuePairType(factory.GetTypeId()),
                    "queue pair factory makes "
                        << factory.GetTypeId().GetName()
                        << ", not an ns3::RdmaQueuePair (use CreateEndpoint for other transports)");
    return StaticCast<RdmaQueuePair>(CreateEndpoint(factory));
}

Ptr<RdmaTransportEndpoint>
RdmaNic::CreateEndpoint(const ObjectFactory& factory)
{
    NS_ABORT_MSG_IF(!factory.GetTypeId().IsChildOf(RdmaTransportEndpoint::GetTypeId()),
                    "queue pair factory makes " << factory.GetTypeId().GetName()
                                                << ", not an ns3::RdmaTransportEndpoint");
    NS_ABORT_MSG_IF(m_ports.empty(), "RdmaNic::CreateQueuePair before SetDevice");
    const uint32_t headerBytes = 20 + 8 + 12 + 16 + 4; // IPv4, UDP, BTH, RETH, ICRC
    for (const auto& d : m_ports)
    {
        NS_ABORT_MSG_IF(m_mtu + headerBytes + 3 > d->GetMtu(),
                        "RdmaNic::Mtu " << m_mtu << " plus " << headerBytes
                                        << " header bytes exceeds the port's IP MTU " << d->GetMtu()
                                        << "; lower Mtu or raise ns3::RdmaNetDevice::Mtu");
    }
    GetPathSelector();
    if (m_qps.empty())
    {
        // The selector may have been configured since SetPathSelector (through
        // GetPathSelector()->SetAttribute): read its answers when the first queue pair is
        // created; SetPathSelector is refused from then on.
        m_spreads = m_pathSelector->SpreadsQueuePairs();
        m_variesEntropy = m_pathSelector->VariesSourcePort();
        m_needsAddress = m_pathSelector->NeedsAddress();
    }
    if (!m_ccPrototype)
    {
        ObjectFactory f(m_ccTypeId.GetName());
        m_ccPrototype = f.Create<RdmaCongestionControl>();
        NS_ABORT_MSG_IF(!m_ccPrototype,
                        "ns3::RdmaNic::CongestionControl " << m_ccTypeId.GetName()
                                                           << " is not an RdmaCongestionControl");
    }
    if (!m_lrPrototype)
    {
        ObjectFactory f(m_lrTypeId.GetName());
        m_lrPrototype = f.Create<RdmaLossRecovery>();
        NS_ABORT_MSG_IF(!m_lrPrototype,
                        "ns3::RdmaNic::LossRecovery " << m_lrTypeId.GetName()
                                                      << " is not an RdmaLossRecovery");
    }
    const uint32_t qpn = FIRST_QPN + static_cast<uint32_t>(m_qps.size());
    Ptr<RdmaTransportEndpoint> qp = factory.Create<RdmaTransportEndpoint>();
    // A queue pair spread over the ports may send at their sum.
    const DataRate portRate = m_ports[0]->GetDataRate();
    const DataRate lineRate =
        m_spreads ? DataRate(portRate.GetBitRate() * m_ports.size()) : portRate;
    qp->Setup(qpn,
              m_address,
              lineRate,
              GetQpParameters(),
              m_ccPrototype->Fork(),
              m_lrPrototype->Fork(),
              MakeCallback(&RdmaNic::NotifyTxReady, this),
              MakeCallback(&RdmaNic::SendControl, this));
    if (Ptr<RdmaQueuePair> rc = DynamicCast<RdmaQueuePair>(qp); rc && m_node)
    {
        rc->SetMemory(GetMemory()); // atomics execute against the host's memory
    }
    m_qps.push_back(qp);
    NS_LOG_LOGIC("node " << m_node->GetId() << " created QP " << qpn);
    return qp;
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    return DynamicCast<RdmaQueuePair>(GetEndpoint(qpn));
}

Ptr<RdmaTransportEndpoint>
RdmaNic::GetEndpoint(uint32_t qpn) const
{
    if (qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size())
    {
        return nullptr;
    }
    return m_qps[qpn - FIRST_QPN];
}

uint32_t
RdmaNic::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePairByIndex(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_qps.size(),
                    "queue pair index " << i << " out of range 0.." << m_qps.size());
    return DynamicCast<RdmaQueuePair>(m_qps[i]);
}

uint64_t
RdmaNic::GetRxDiscards() const
{
    return m_rxDiscards;
}

void
RdmaNic::PrefetchTransmit(uint32_t port, uint32_t /* cls */, uint32_t stage) const
{
    const std::size_t n = m_qps.size();
    if (n == 0 || port >= m_rrNext.size())
    {
        return;
    }
    const std::size_t first = m_rrNext[port] % n;
    const std::size_t second = (first + 1) % n;
    if (stage == 1)
    {
        RdmaSimulatorImpl::Touch(&m_qps[first]); // loaded: stage 2 reads the pointers
        if (second != first)
        {
            RdmaSimulatorImpl::Touch(&m_qps[second]);
        }
        return;
    }
    m_qps[first]->PrefetchOfferLines();
    if (second != first)
    {
        m_qps[second]->PrefetchOfferLines();
    }
}

Ptr<Packet>
RdmaNic::PullPacket(uint32_t port, uint8_t pausedMask, uint8_t* cls)
{
    const std::size_t n = m_qps.size();
    const uint32_t nPorts = static_cast<uint32_t>(m_ports.size());
    const Time now = RdmaSimulatorImpl::CurrentTime();
    Time earliest = Time::Max();
    bool kick = false;
    std::size_t& rrNext = m_rrNext[port];
    for (std::size_t k = 0; k < n; ++k)
    {
        const std::size_t i = (rrNext + k) % n;
        RdmaTransportEndpoint* qp = PeekPointer(m_qps[i]);
        const uint8_t qpClass = qp->GetTrafficClass();
        if (!qp->HasDataToSend() || (pausedMask & (1u << qpClass)))
        {
            continue;
        }
        const Time t = qp->GetNextSendTime();
        if (t > now)
        {
            earliest = std::min(earliest, t);
            continue;
        }
        RdmaPathRequest& request = m_pathRequest;
        if (nPorts > 1)
        {
            // The path selector says which port this packet may take (one port: no choice).
            qp->GetPathRequest(request, m_needsAddress);
            const uint32_t wanted = m_pathSelector->SelectPort(request, nPorts);
            if (wanted != RdmaPathSelector::ANY_PORT && wanted != port)
            {
                NS_ABORT_MSG_IF(wanted >= nPorts,
                                "path selector chose port " << wanted << " of a NIC with " << nPorts
                                                            << " ports");
                // Ready for another port that is idle and may send its class: wake it.
                kick = kick ||
                       (!m_ports[wanted]->IsBusy() && !m_ports[wanted]->IsClassPaused(qpClass));
                continue;
            }
        }
        rrNext = (i + 1) % n;
        *cls = qpClass;
        ++m_portDataPackets[port];
        if (m_variesEntropy && nPorts == 1)
        {
            qp->GetPathRequest(request, m_needsAddress);
        }
        Ptr<Packet> p =
            qp->GetNextPacket(m_variesEntropy ? m_pathSelector->SelectSourcePort(request, nPorts)
                                              : RdmaTransportEndpoint::OWN_SOURCE_PORT);
        // The queue pair's next packet may be for a port that is idle now.
        for (uint32_t other = 0; other < nPorts; ++other)
        {
            if (other != port && !m_ports[other]->IsBusy())
            {
                ScheduleKick();
                break;
            }
        }
        return p;
    }
    if (kick)
    {
        ScheduleKick();
    }
    ArmPacer(earliest, now);
    return nullptr;
}

void
RdmaNic::ArmPacer(Time earliest, Time now)
{
    // m_pacerAt instead of EventId::IsRunning() and Simulator::GetDelayLeft(): the same
    // test (Time::Max() while none is pending) without two calls through the simulator.
    if (earliest < m_pacerAt)
    {
        m_pacerEvent.Cancel();
        m_pacerEvent = Simulator::Schedule(earliest - now, &RdmaNic::PacerExpired, this);
        m_pacerAt = earliest;
    }
}

void
RdmaNic::ScheduleKick()
{
    if (!m_kickEvent.IsRunning())
    {
        m_kickEvent = Simulator::ScheduleNow(&RdmaNic::KickIdlePorts, this);
    }
}

void
RdmaNic::KickIdlePorts()
{
    for (const auto& d : m_ports)
    {
        if (!d->IsBusy())
        {
            d->TriggerTransmit();
        }
    }
}

void
RdmaNic::PacerExpired()
{
    m_pacerAt = Time::Max();
    KickIdlePorts();
}

void
RdmaNic::NotifyTxReady()
{
    KickIdlePorts();
}

void
RdmaNic::SendControl(Ptr<Packet> packet, uint8_t cls)
{
    m_ports[m_controlPort]->Enqueue(packet, cls);
}

void
RdmaNic::DiscardRx(Ptr<const Packet> packet, const char* reason)
{
    ++m_rxDiscards;
    NS_LOG_WARN("node " << m_node->GetId() << " discards a packet: " << reason);
    m_rxDiscardTrace(packet, reason);
}

void
RdmaNic::HandleDequeue(uint32_t /* port */,
                       const Ptr<Packet>& /* packet */,
                       uint8_t /* cls */,
                       uint32_t /* size */)
{
}

void
RdmaNic::HandleReceive(uint32_t port,
                       Ptr<Packet>& p,
                       const uint8_t* raw,
                       uint32_t copied,
                       bool headBeside,
                       uint32_t /* size */)
{
    m_controlPort = port; // ACKs, NAKs and CNPs it triggers leave through the same port
    // IPv4, UDP, BTH and (for ACKs) the AETH, as the device read them (no copy here, no Header
    // objects on the per-packet path; every RoCEv2 packet is longer). If the first IPv4 bytes
    // came beside the packet, the removal of the headers below removes the stale ones; a
    // discarded packet gets them written first, for the trace.
    static_assert(ROCE_PARSE_BYTES <= HEAD_BYTES, "the device reads what the NIC parses");
    auto discard = [this, &p, raw, headBeside](const char* reason) {
        if (headBeside)
        {
            WriteArrivalHead(p, raw);
        }
        DiscardRx(p, reason);
    };
    if (copied < IPV4_UDP_BYTES || (raw[0] >> 4) != 4)
    {
        discard("not an IPv4 packet");
        return;
    }
    const uint32_t ihl = (raw[0] & 0x0fU) * 4;
    const uint32_t destination =
        (uint32_t(raw[16]) << 24) | (uint32_t(raw[17]) << 16) | (uint32_t(raw[18]) << 8) | raw[19];
    if (destination != m_addressBits)
    {
        discard("destination address is not this NIC's");
        return;
    }
    if (raw[9] != 17 || ihl != 20)
    {
        discard(raw[9] != 17 ? "not UDP" : "IPv4 options are not supported");
        return;
    }
    const bool ecnCe = (raw[1] & 0x03U) == Ipv4Header::ECN_CE;
    const uint16_t udpDestinationPort = static_cast<uint16_t>((raw[22] << 8) | raw[23]);
    if (udpDestinationPort != RdmaQueuePair::ROCEV2_PORT)
    {
        discard("UDP destination port is not 4791 (RoCEv2)");
        return;
    }
    if (copied < ROCE_PARSE_BYTES)
    {
        discard("too short for a BTH and its extension");
        return;
    }
    RdmaBthHeader& bth = m_rxBth;
    bth.Read(raw + IPV4_UDP_BYTES);
    // The endpoint by QPN, without a Ptr copy (m_qps holds it during the call).
    const uint32_t qpn = bth.GetDestQp();
    RdmaTransportEndpoint* qp = qpn >= FIRST_QPN && qpn - FIRST_QPN < m_qps.size()
                                    ? PeekPointer(m_qps[qpn - FIRST_QPN])
                                    : nullptr;
    if (!qp)
    {
        discard("no such destination QP");
        return;
    }
    const uint8_t opcode = bth.GetOpcode();
    if (opcode == RC_ACKNOWLEDGE)
    {
        RdmaAethHeader& aeth = m_rxAeth;
        aeth.Read(raw + IPV4_UDP_BYTES + RdmaBthHeader::SIZE);
        // The headers read above leave in one removal (each costs ns-3 some 130 instructions).
        p->RemoveAtStart(IPV4_UDP_BYTES + RdmaBthHeader::SIZE + RdmaAethHeader::SIZE);
        qp->ReceiveAck(bth, aeth, p); // p: SACK extension (if any) and ICRC
    }
    else if (opcode == CNP)
    {
        qp->ReceiveCnp(); // the BTH says it all: the packet is not read further
    }
    else if (RdmaBthHeader::IsWrite(opcode) || RdmaBthHeader::IsSend(opcode))
    {
        p->RemoveAtStart(IPV4_UDP_BYTES + RdmaBthHeader::SIZE);
        qp->ReceiveData(p, bth, ecnCe, raw[8]); // raw[8]: the IPv4 TTL
    }
    else if (opcode >= RC_READ_REQUEST && opcode <= RC_READ_RESPONSE_ONLY)
    {
        p->RemoveAtStart(IPV4_UDP_BYTES + RdmaBthHeader::SIZE);
        qp->ReceiveData(p, bth, ecnCe, raw[8]); // READ request (responder), response (requester)
    }
    else if (opcode >= RC_ATOMIC_ACKNOWLEDGE && opcode <= RC_FETCH_ADD)
    {
        p->RemoveAtStart(IPV4_UDP_BYTES + RdmaBthHeader::SIZE);
        qp->ReceiveData(p, bth, ecnCe, raw[8]); // atomic request (responder), its ACK (requester)
    }
    else
    {
        discard("unsupported BTH opcode");
    }
}

} // namespace ns3
