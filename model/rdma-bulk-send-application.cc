/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-bulk-send-application.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaBulkSendApplication");

NS_OBJECT_ENSURE_REGISTERED(RdmaBulkSendApplication);

TypeId
RdmaBulkSendApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaBulkSendApplication")
            .SetParent<Application>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaBulkSendApplication>()
            .AddAttribute("Remote",
                          "IPv4 address of the responder's RdmaNic",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&RdmaBulkSendApplication::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("MessageSize",
                          "Bytes of each message",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_messageSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Messages",
                          "Messages to post (1: a one-shot transfer; 0: until the application "
                          "stops)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_messages),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Outstanding",
                          "Messages kept posted at once (2 or more: the send queue never runs "
                          "dry between messages)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_outstanding),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Opcode",
                          "The operation: Write (RDMA WRITE), Send, Read (RDMA READ of Remote's "
                          "memory into this node's: the data flows from Remote to this node), "
                          "FetchAdd or CompareSwap (an 8-byte atomic on Remote's word at "
                          "AtomicAddress; MessageSize is ignored)",
                          EnumValue(RdmaWorkRequest::WRITE),
                          MakeEnumAccessor(&RdmaBulkSendApplication::m_opcode),
                          MakeEnumChecker(RdmaWorkRequest::WRITE,
                                          "Write",
                                          RdmaWorkRequest::SEND,
                                          "Send",
                                          RdmaWorkRequest::READ,
                                          "Read",
                                          RdmaWorkRequest::FETCH_ADD,
                                          "FetchAdd",
                                          RdmaWorkRequest::COMPARE_SWAP,
                                          "CompareSwap"))
            .AddAttribute("AtomicAddress",
                          "FetchAdd, CompareSwap: the remote word's virtual address (a "
                          "multiple of 8, as IBTA vol. 1 §9.4.5 requires)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_atomicAddress),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AtomicOperand",
                          "FetchAdd: the value added; CompareSwap: the value compared",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_atomicOperand),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("AtomicSwap",
                          "CompareSwap: the value written on a match",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaBulkSendApplication::m_atomicSwap),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("AtomicCompleted",
                            "FetchAdd, CompareSwap: an atomic completed; the remote word's "
                            "value before it (the Original Remote Data)",
                            MakeTraceSourceAccessor(&RdmaBulkSendApplication::m_atomicTrace),
                            "ns3::RdmaBulkSendApplication::AtomicTracedCallback")
            .AddTraceSource("QueuePairCreated",
                            "The connection: requester and responder queue pairs",
                            MakeTraceSourceAccessor(&RdmaBulkSendApplication::m_qpCreatedTrace),
                            "ns3::RdmaBulkSendApplication::QueuePairTracedCallback");
    return tid;
}

RdmaBulkSendApplication::RdmaBulkSendApplication()
{
}

uint64_t
RdmaBulkSendApplication::GetMessagesCompleted() const
{
    return m_completed;
}

uint64_t
RdmaBulkSendApplication::GetBytesCompleted() const
{
    return m_bytesCompleted;
}

Ptr<RdmaQueuePair>
RdmaBulkSendApplication::GetQueuePair() const
{
    return m_qp;
}

void
RdmaBulkSendApplication::DoDispose()
{
    m_qp = nullptr;
    Application::DoDispose();
}

void
RdmaBulkSendApplication::StartApplication()
{
    Ptr<RdmaNic> nic = GetNode()->GetObject<RdmaNic>();
    NS_ABORT_MSG_IF(!nic,
                    "RdmaBulkSendApplication: node " << GetNode()->GetId() << " has no RdmaNic");
    Ptr<RdmaNic> peer;
    for (uint32_t i = 0; i < NodeList::GetNNodes() && !peer; ++i)
    {
        Ptr<RdmaNic> n = NodeList::GetNode(i)->GetObject<RdmaNic>();
        if (n && n != nic && n->GetAddress() == m_remote)
        {
            peer = n;
        }
    }
    NS_ABORT_MSG_IF(!peer,
                    "RdmaBulkSendApplication: Remote " << m_remote
                                                       << " is not the address of another "
                                                          "node's RdmaNic");
    if (!m_qp)
    {
        Ptr<RdmaQueuePair> responder;
        std::tie(m_qp, responder) =
            nic->Connect(peer, nic->GetQueuePairFactory(), peer->GetQueuePairFactory());
        m_qp->SetSendCompletionCallback(MakeCallback(&RdmaBulkSendApplication::Completed, this));
        m_qpCreatedTrace(m_qp, responder);
    }
    NS_ABORT_MSG_IF(RdmaWorkRequest::IsAtomic(m_opcode) && m_atomicAddress % 8 != 0,
                    "ns3::RdmaBulkSendApplication::AtomicAddress 0x"
                        << std::hex << m_atomicAddress << std::dec
                        << " is not 8-byte aligned; valid: a multiple of 8 (IBTA atomics "
                        << "operate on one aligned 64-bit word)");
    m_running = true;
    Post();
}

void
RdmaBulkSendApplication::StopApplication()
{
    m_running = false; // messages already posted complete; no new one is posted
}

void
RdmaBulkSendApplication::Post()
{
    while (m_running && m_posted - m_completed < m_outstanding &&
           (m_messages == 0 || m_posted < m_messages))
    {
        RdmaWorkRequest wr;
        wr.opcode = m_opcode;
        wr.wrId = m_posted++;
        wr.length = m_messageSize;
        if (RdmaWorkRequest::IsAtomic(m_opcode))
        {
            wr.length = 8;
            wr.remoteAddress = m_atomicAddress;
            wr.compareAdd = m_atomicOperand;
            wr.swap = m_atomicSwap;
        }
        m_qp->PostSend(wr);
    }
}

void
RdmaBulkSendApplication::Completed(const RdmaCompletion& completion)
{
    m_atomicTrace(completion.atomicOriginal);
    ++m_completed;
    m_bytesCompleted += completion.length;
    Post();
}

} // namespace ns3
