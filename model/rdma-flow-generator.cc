/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-generator.h"

#include "rdma-net-device.h"
#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowGenerator");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowGenerator);

TypeId
RdmaFlowGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowGenerator")
            .SetParent<Application>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFlowGenerator>()
            .AddAttribute("Load",
                          "Offered load as a fraction of LinkRate, counting message (payload) "
                          "bytes, in (0, 1] (HPCC's traffic_gen.py -l).",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&RdmaFlowGenerator::m_load),
                          MakeDoubleChecker<double>())
            .AddAttribute("LinkRate",
                          "The rate Load refers to (0: the line rate of the host's first port).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaFlowGenerator::m_linkRate),
                          MakeDataRateChecker())
            .AddAttribute("Pattern",
                          "How destinations are chosen.",
                          EnumValue(RdmaFlowGenerator::UNIFORM),
                          MakeEnumAccessor(&RdmaFlowGenerator::m_pattern),
                          MakeEnumChecker(RdmaFlowGenerator::UNIFORM,
                                          "Uniform",
                                          RdmaFlowGenerator::PERMUTATION,
                                          "Permutation",
                                          RdmaFlowGenerator::INCAST,
                                          "Incast",
                                          RdmaFlowGenerator::RACK_LOCAL,
                                          "RackLocal",
                                          RdmaFlowGenerator::HOT_SPOT,
                                          "HotSpot"))
            .AddAttribute("Destination",
                          "Pattern Permutation: index of the destination host.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_destination),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Target",
                          "Patterns Incast and HotSpot: index of the target host.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_target),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Fraction",
                          "Patterns RackLocal and HotSpot: probability that a flow goes to the "
                          "own rack / to the target, in [0, 1].",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RdmaFlowGenerator::m_fraction),
                          MakeDoubleChecker<double>())
            .AddAttribute("RackSize",
                          "Pattern RackLocal: hosts per rack (racks are consecutive indices).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_rackSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxFlows",
                          "Stop after starting this many flows (0: no limit).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_maxFlows),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("QueuePairCreated",
                            "A new connection: the requester's and the responder's queue pair.",
                            MakeTraceSourceAccessor(&RdmaFlowGenerator::m_qpCreatedTrace),
                            "ns3::RdmaFlowGenerator::QueuePairTracedCallback")
            .AddTraceSource("FlowStart",
                            "A flow was posted: its queue pair and bytes.",
                            MakeTraceSourceAccessor(&RdmaFlowGenerator::m_flowStartTrace),
                            "ns3::RdmaFlowGenerator::FlowTracedCallback");
    return tid;
}

RdmaFlowGenerator::RdmaFlowGenerator()
    : m_interArrival(CreateObject<ExponentialRandomVariable>()),
      m_size(CreateObject<UniformRandomVariable>()),
      m_choice(CreateObject<UniformRandomVariable>())
{
}

void
RdmaFlowGenerator::SetDistribution(const RdmaFlowSizeDistribution& distribution)
{
    m_distribution = distribution;
}

void
RdmaFlowGenerator::SetHosts(const std::vector<Ptr<Node>>& hosts, uint32_t self)
{
    m_hosts = hosts;
    m_self = self;
}

std::string
RdmaFlowGenerator::PatternName(Pattern p)
{
    switch (p)
    {
    case UNIFORM:
        return "Uniform";
    case PERMUTATION:
        return "Permutation";
    case INCAST:
        return "Incast";
    case RACK_LOCAL:
        return "RackLocal";
    case HOT_SPOT:
        return "HotSpot";
    }
    return "?";
}

void
RdmaFlowGenerator::Validate() const
{
    NS_ABORT_MSG_IF(!(m_load > 0 && m_load <= 1),
                    "RdmaFlowGenerator: Load " << m_load
                                               << " is invalid; valid: a fraction in (0, 1]");
    NS_ABORT_MSG_IF(m_distribution.IsEmpty(),
                    "RdmaFlowGenerator: no flow-size distribution (SetDistribution)");
    const uint32_t n = m_hosts.size();
    const std::string pattern = "RdmaFlowGenerator: pattern " + PatternName(m_pattern);
    NS_ABORT_MSG_IF(n < 2, pattern << " needs at least 2 hosts; there are " << n << " (SetHosts)");
    NS_ABORT_MSG_IF(m_self >= n, "RdmaFlowGenerator: own index " << m_self << " of " << n);
    NS_ABORT_MSG_IF(!(m_fraction >= 0 && m_fraction <= 1),
                    "RdmaFlowGenerator: Fraction "
                        << m_fraction << " is invalid; valid: a probability in [0, 1]");
    switch (m_pattern)
    {
    case PERMUTATION:
        NS_ABORT_MSG_IF(m_destination >= n || m_destination == m_self,
                        pattern << ": Destination " << m_destination
                                << " is invalid; valid: a host index in [0, " << n - 1
                                << "] other than the own " << m_self);
        break;
    case INCAST:
        NS_ABORT_MSG_IF(m_target >= n || m_target == m_self,
                        pattern << ": Target " << m_target
                                << " is invalid; valid: a host index in [0, " << n - 1
                                << "] other than the own " << m_self);
        break;
    case HOT_SPOT:
        NS_ABORT_MSG_IF(m_target >= n,
                        pattern << ": Target " << m_target << " needs " << m_target + 1
                                << " hosts; there are " << n);
        break;
    case RACK_LOCAL:
        NS_ABORT_MSG_IF(m_rackSize < 2 && m_fraction > 0,
                        pattern << ": RackSize " << m_rackSize
                                << " leaves no other host in the rack; valid: at least 2");
        NS_ABORT_MSG_IF(m_rackSize >= n && m_fraction < 1,
                        pattern << ": RackSize " << m_rackSize << " with " << n
                                << " hosts leaves no host outside the rack; valid: RackSize < " << n
                                << " (or Fraction 1)");
        break;
    case UNIFORM:
        break;
    }
}

DataRate
RdmaFlowGenerator::GetLinkRate() const
{
    if (m_linkRate.GetBitRate() > 0)
    {
        return m_linkRate;
    }
    Ptr<RdmaNic> nic = GetNode() ? GetNode()->GetObject<RdmaNic>() : nullptr;
    NS_ABORT_MSG_IF(!nic || nic->GetNDevices() == 0,
                    "RdmaFlowGenerator: LinkRate 0 needs a host with an RdmaNic and a port");
    return nic->GetDevice(0)->GetDataRate();
}

double
RdmaFlowGenerator::GetMeanFlowSize() const
{
    return m_distribution.GetMean();
}

double
RdmaFlowGenerator::GetArrivalRate() const
{
    // HPCC traffic_gen.py: avg_inter_arrival = 1 / (bandwidth x load / 8 / avg).
    return m_load * static_cast<double>(GetLinkRate().GetBitRate()) /
           (8.0 * m_distribution.GetMean());
}

uint64_t
RdmaFlowGenerator::GetFlowsStarted() const
{
    return m_flowsStarted;
}

uint64_t
RdmaFlowGenerator::GetFlowsCompleted() const
{
    return m_flowsCompleted;
}

uint64_t
RdmaFlowGenerator::GetBytesOffered() const
{
    return m_bytesOffered;
}

uint64_t
RdmaFlowGenerator::GetBytesCompleted() const
{
    return m_bytesCompleted;
}

uint32_t
RdmaFlowGenerator::GetQueuePairsCreated() const
{
    return m_qpsCreated;
}

int64_t
RdmaFlowGenerator::AssignStreams(int64_t stream)
{
    m_interArrival->SetStream(stream);
    m_size->SetStream(stream + 1);
    m_choice->SetStream(stream + 2);
    return 3;
}

void
RdmaFlowGenerator::DoDispose()
{
    m_next.Cancel();
    m_idle.clear();
    m_destinationOf.clear();
    m_hosts.clear();
    m_nic = nullptr;
    Application::DoDispose();
}

void
RdmaFlowGenerator::StartApplication()
{
    Validate();
    m_nic = GetNode()->GetObject<RdmaNic>();
    NS_ABORT_MSG_IF(!m_nic, "RdmaFlowGenerator: node " << GetNode()->GetId() << " has no RdmaNic");
    m_idle.assign(m_hosts.size(), {});
    m_lambda = GetArrivalRate();
    m_interArrival->SetAttribute("Mean", DoubleValue(1.0 / m_lambda));
    NS_LOG_INFO("host " << m_self << ": mean flow " << GetMeanFlowSize() << " B, load " << m_load
                        << " of " << GetLinkRate() << ": " << m_lambda << " flows/s");
    ScheduleNext();
}

void
RdmaFlowGenerator::StopApplication()
{
    m_next.Cancel();
}

void
RdmaFlowGenerator::ScheduleNext()
{
    if (m_maxFlows != 0 && m_flowsStarted >= m_maxFlows)
    {
        return;
    }
    m_next = Simulator::Schedule(Seconds(m_interArrival->GetValue()),
                                 &RdmaFlowGenerator::StartFlow,
                                 this);
}

uint32_t
RdmaFlowGenerator::UniformOther(uint32_t n, uint32_t skip)
{
    const uint32_t others = skip < n ? n - 1 : n;
    uint32_t j =
        std::min<uint32_t>(others - 1, static_cast<uint32_t>(m_choice->GetValue() * others));
    return (skip < n && j >= skip) ? j + 1 : j;
}

uint32_t
RdmaFlowGenerator::PickDestination()
{
    const uint32_t n = m_hosts.size();
    switch (m_pattern)
    {
    case PERMUTATION:
        return m_destination;
    case INCAST:
        return m_target;
    case HOT_SPOT:
        if (m_target != m_self && m_choice->GetValue() < m_fraction)
        {
            return m_target;
        }
        return UniformOther(n, m_self);
    case RACK_LOCAL: {
        const uint32_t first = m_self / m_rackSize * m_rackSize;
        const uint32_t members = std::min(n, first + m_rackSize) - first;
        const bool local = members > 1 && (members == n || m_choice->GetValue() < m_fraction);
        if (local)
        {
            return first + UniformOther(members, m_self - first);
        }
        const uint32_t j = UniformOther(n - members, n); // no skip
        return j >= first ? j + members : j;
    }
    case UNIFORM:
        break;
    }
    return UniformOther(n, m_self);
}

void
RdmaFlowGenerator::StartFlow()
{
    const uint64_t bytes = m_distribution.Sample(m_size->GetValue());
    const uint32_t dst = PickDestination();
    Ptr<RdmaQueuePair> qp;
    if (!m_idle[dst].empty())
    {
        qp = m_idle[dst].back();
        m_idle[dst].pop_back();
    }
    else
    {
        // Connect as RdmaHelper::Connect does (verbs: create both ends, exchange QPN and PSN).
        Ptr<RdmaNic> peerNic = m_hosts[dst]->GetObject<RdmaNic>();
        NS_ABORT_MSG_IF(!peerNic,
                        "RdmaFlowGenerator: host " << dst << " (node " << m_hosts[dst]->GetId()
                                                   << ") has no RdmaNic");
        Ptr<RdmaQueuePair> peer;
        std::tie(qp, peer) =
            m_nic->Connect(peerNic, m_nic->GetQueuePairFactory(), peerNic->GetQueuePairFactory());
        qp->SetSendCompletionCallback(MakeCallback(&RdmaFlowGenerator::FlowCompleted, this));
        m_destinationOf[qp->GetQpn()] = dst;
        ++m_qpsCreated;
        m_qpCreatedTrace(qp, peer);
    }
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = ++m_flowsStarted;
    wr.length = bytes;
    m_bytesOffered += bytes;
    m_flowStartTrace(qp, bytes);
    qp->PostSend(wr);
    ScheduleNext();
}

void
RdmaFlowGenerator::FlowCompleted(const RdmaCompletion& completion)
{
    ++m_flowsCompleted;
    m_bytesCompleted += completion.length;
    auto it = m_destinationOf.find(completion.qpn);
    NS_ASSERT(it != m_destinationOf.end());
    m_idle[it->second].push_back(m_nic->GetQueuePair(completion.qpn));
}

} // namespace ns3
