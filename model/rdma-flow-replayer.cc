/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-replayer.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowReplayer");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowReplayer);

TypeId
RdmaFlowReplayer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowReplayer")
            .SetParent<Application>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFlowReplayer>()
            .AddAttribute("FirstSourcePort",
                          "UDP source port of the first flow to each destination; each next "
                          "flow to it takes one more, in list order (the HPCC simulator's "
                          "portNumber[src][dst], from 10000); 0: the queue pairs' own "
                          "RdmaQueuePair::SourcePort",
                          UintegerValue(10000),
                          MakeUintegerAccessor(&RdmaFlowReplayer::m_firstSourcePort),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddTraceSource("FlowStarted",
                            "A flow connected its queue pairs and posted its WRITE",
                            MakeTraceSourceAccessor(&RdmaFlowReplayer::m_flowStartedTrace),
                            "ns3::RdmaFlowReplayer::FlowStartedTracedCallback")
            .AddTraceSource("FlowCompleted",
                            "A flow's WRITE was acknowledged",
                            MakeTraceSourceAccessor(&RdmaFlowReplayer::m_flowCompletedTrace),
                            "ns3::RdmaFlowReplayer::FlowCompletedTracedCallback")
            .AddTraceSource("QueuePairCreated",
                            "A flow's connection: requester and responder queue pairs",
                            MakeTraceSourceAccessor(&RdmaFlowReplayer::m_qpCreatedTrace),
                            "ns3::RdmaFlowReplayer::QueuePairTracedCallback");
    return tid;
}

RdmaFlowReplayer::RdmaFlowReplayer()
{
}

void
RdmaFlowReplayer::SetFlows(const std::vector<HpccFlow>& flows, const NodeContainer& nodes)
{
    for (const auto& f : flows)
    {
        NS_ABORT_MSG_IF(f.src >= nodes.GetN() || f.dst >= nodes.GetN() || f.src == f.dst,
                        "RdmaFlowReplayer: flow of line " << f.line << " (" << f.src << " -> "
                                                          << f.dst
                                                          << ") is invalid; valid: two different "
                                                             "nodes below "
                                                          << nodes.GetN());
        NS_ABORT_MSG_IF(f.src != flows.front().src,
                        "RdmaFlowReplayer: flow of line " << f.line << " is sent by " << f.src
                                                          << ", the others by " << flows.front().src
                                                          << "; valid: one source per replayer");
    }
    m_flows = flows;
    m_nodes = nodes;
}

const std::vector<HpccFlow>&
RdmaFlowReplayer::GetFlows() const
{
    return m_flows;
}

void
RdmaFlowReplayer::SetConnectionAttributes(ConnectionAttributesCallback callback)
{
    m_connectionAttributes = std::move(callback);
}

uint32_t
RdmaFlowReplayer::GetFlowsStarted() const
{
    return m_started;
}

uint32_t
RdmaFlowReplayer::GetFlowsCompleted() const
{
    return m_completed;
}

uint64_t
RdmaFlowReplayer::GetBytesCompleted() const
{
    return m_bytesCompleted;
}

void
RdmaFlowReplayer::DoDispose()
{
    for (auto& e : m_starts)
    {
        e.Cancel();
    }
    m_starts.clear();
    m_nodes = NodeContainer();
    m_connectionAttributes = nullptr;
    Application::DoDispose();
}

void
RdmaFlowReplayer::StartApplication()
{
    NS_ABORT_MSG_IF(!m_flows.empty() && m_nodes.Get(m_flows.front().src) != GetNode(),
                    "RdmaFlowReplayer: its flows are sent by node "
                        << m_nodes.Get(m_flows.front().src)->GetId() << ", it runs on node "
                        << GetNode()->GetId());
    // The peer numbers the source ports per (source, destination) pair in file order.
    std::unordered_map<uint32_t, uint32_t> nextPort;
    m_sourcePorts.resize(m_flows.size());
    m_starts.resize(m_flows.size());
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        if (m_firstSourcePort != 0)
        {
            auto it = nextPort.emplace(m_flows[i].dst, m_firstSourcePort).first;
            m_sourcePorts[i] = static_cast<uint16_t>(it->second++);
        }
        const Time delay = m_flows[i].start > now ? m_flows[i].start - now : Time(0);
        m_starts[i] = Simulator::Schedule(delay, &RdmaFlowReplayer::StartFlow, this, i);
    }
}

void
RdmaFlowReplayer::StopApplication()
{
    for (auto& e : m_starts)
    {
        e.Cancel();
    }
}

void
RdmaFlowReplayer::StartFlow(uint32_t index)
{
    const HpccFlow& f = m_flows[index];
    Ptr<RdmaNic> nic = GetNode()->GetObject<RdmaNic>();
    Ptr<RdmaNic> peerNic = m_nodes.Get(f.dst)->GetObject<RdmaNic>();
    NS_ABORT_MSG_IF(!nic || !peerNic,
                    "RdmaFlowReplayer: flow of line " << f.line << " joins node " << f.src
                                                      << " and " << f.dst
                                                      << "; both need an RdmaNic");
    ObjectFactory factory = nic->GetQueuePairFactory();
    if (m_connectionAttributes)
    {
        m_connectionAttributes(f, factory);
    }
    auto [qp, peer] = nic->Connect(peerNic, factory, peerNic->GetQueuePairFactory());
    const uint32_t dscp = (static_cast<uint32_t>(f.priorityGroup) << 3) | 2;
    if (m_firstSourcePort != 0)
    {
        qp->SetAttribute("SourcePort", UintegerValue(m_sourcePorts[index]));
    }
    qp->SetAttribute("Dscp", UintegerValue(dscp));
    peer->SetAttribute("Dscp", UintegerValue(dscp));
    qp->SetSendCompletionCallback(MakeCallback(&RdmaFlowReplayer::FlowCompleted, this));
    ++m_started;
    m_qpCreatedTrace(qp, peer);
    m_flowStartedTrace(index, qp, peer);
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = index;
    wr.length = f.size;
    wr.remoteAddress = 0x1000;
    qp->PostSend(wr);
}

void
RdmaFlowReplayer::FlowCompleted(const RdmaCompletion& completion)
{
    ++m_completed;
    m_bytesCompleted += completion.length;
    m_flowCompletedTrace(static_cast<uint32_t>(completion.wrId), completion);
}

} // namespace ns3
