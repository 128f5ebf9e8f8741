/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-agent.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaMemoryAgent");

NS_OBJECT_ENSURE_REGISTERED(RdmaMemoryAgent);

namespace
{

/// Initial capacity of the issue FIFO ring (a power of two; it doubles when full).
constexpr std::size_t INITIAL_FIFO_CAPACITY = 256;

/// \return the name of an ordering, for messages
const char*
OrderingName(RdmaMemoryOperation::Ordering o)
{
    switch (o)
    {
    case RdmaMemoryOperation::RELAXED:
        return "RELAXED";
    case RdmaMemoryOperation::RELEASE:
        return "RELEASE";
    case RdmaMemoryOperation::ACQUIRE:
        return "ACQUIRE";
    }
    return "?";
}

} // namespace

TypeId
RdmaMemoryAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaMemoryAgent")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaMemoryAgent>()
            .AddAttribute(
                "MaxOutstanding",
                "Operations in flight at most (the load queue), at least 1. Default 128: "
                "Little's law with the issue's Hopper figure, 32 KB in flight to fill a "
                "200 Gb/s link with about 1.3 us round trip, in 256-byte requests (32768 / "
                "256; assumption: NVIDIA publishes no load-queue depth)",
                UintegerValue(128),
                MakeUintegerAccessor(&RdmaMemoryAgent::m_maxOutstanding),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("IssueInterval",
                          "Least time between two issues (0: a load or store is one "
                          "instruction, negligible against the round trip)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaMemoryAgent::m_issueInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PollInterval",
                          "Period at which a WaitFlag consumer reads its flag word (default "
                          "100 ns: assumption, a spin loop reading local HBM through L2)",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&RdmaMemoryAgent::m_pollInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Issue",
                            "An operation left the issue FIFO (posted to its queue pair)",
                            MakeTraceSourceAccessor(&RdmaMemoryAgent::m_issueTrace),
                            "ns3::RdmaMemoryAgent::OperationTracedCallback")
            .AddTraceSource("Complete",
                            "An operation completed",
                            MakeTraceSourceAccessor(&RdmaMemoryAgent::m_completeTrace),
                            "ns3::RdmaMemoryAgent::OperationTracedCallback")
            .AddTraceSource("FlagSeen",
                            "A flag wait was satisfied at a poll tick: address, value",
                            MakeTraceSourceAccessor(&RdmaMemoryAgent::m_flagTrace),
                            "ns3::RdmaMemoryAgent::FlagTracedCallback");
    return tid;
}

RdmaMemoryAgent::RdmaMemoryAgent()
{
    NS_LOG_FUNCTION(this);
}

RdmaMemoryAgent::~RdmaMemoryAgent()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaMemoryAgent::DoDispose()
{
    m_issueEvent.Cancel();
    if (m_memoryTraced)
    {
        m_memory->TraceDisconnectWithoutContext(
            "Atomic",
            MakeCallback(&RdmaMemoryAgent::AtomicExecuted, this));
        m_memoryTraced = false;
    }
    m_peers.clear();
    m_memory = nullptr;
    m_waits.clear();
    m_completionCallback = OperationCallback();
    Object::DoDispose();
}

void
RdmaMemoryAgent::AddPeer(uint32_t peer, Ptr<RdmaQueuePair> qp)
{
    NS_ABORT_MSG_IF(!qp, "RdmaMemoryAgent::AddPeer: peer " << peer << " has no queue pair");
    if (peer >= m_peers.size())
    {
        m_peers.resize(peer + 1);
    }
    NS_ABORT_MSG_IF(m_peers[peer],
                    "RdmaMemoryAgent::AddPeer: peer " << peer << " already has a queue pair");
    m_peers[peer] = qp;
    qp->SetSendCompletionCallback(MakeCallback(&RdmaMemoryAgent::QpCompleted, this));
}

void
RdmaMemoryAgent::SetMemory(Ptr<RdmaMemory> memory)
{
    m_memory = memory;
}

Ptr<RdmaQueuePair>
RdmaMemoryAgent::GetQueuePair(uint32_t peer) const
{
    return peer < m_peers.size() ? m_peers[peer] : nullptr;
}

void
RdmaMemoryAgent::SetCompletionCallback(OperationCallback cb)
{
    m_completionCallback = cb;
}

void
RdmaMemoryAgent::CheckAccess(const char* what, uint64_t address, uint32_t size)
{
    NS_ABORT_MSG_IF(size < MIN_ACCESS_BYTES || size > MAX_ACCESS_BYTES || (size & (size - 1)) != 0,
                    "RdmaMemoryAgent::" << what << ": size " << size
                                        << " bytes is not valid; valid: 64, 128 or 256 (a power "
                                           "of two from "
                                        << MIN_ACCESS_BYTES << " to " << MAX_ACCESS_BYTES << ")");
    NS_ABORT_MSG_IF(address % size != 0,
                    "RdmaMemoryAgent::" << what << ": address 0x" << std::hex << address << std::dec
                                        << " is not aligned to its size " << size << " (a " << size
                                        << "-byte access needs an address that "
                                        << "is a multiple of " << size << ")");
}

void
RdmaMemoryAgent::CheckPeer(const char* what, uint32_t peer) const
{
    NS_ABORT_MSG_IF(peer >= m_peers.size() || !m_peers[peer],
                    "RdmaMemoryAgent::" << what << ": peer " << peer
                                        << " has no queue pair (connect the agents with "
                                           "RdmaMemoryAgentHelper, or call AddPeer)");
}

void
RdmaMemoryAgent::PrepareSlots()
{
    NS_ABORT_MSG_IF(m_maxOutstanding == 0,
                    "RdmaMemoryAgent: MaxOutstanding 0 is not valid; at least 1 operation must "
                    "be allowed in flight");
    m_slots.resize(m_maxOutstanding);
    m_freeSlots.resize(m_maxOutstanding);
    for (uint32_t i = 0; i < m_maxOutstanding; ++i)
    {
        m_freeSlots[i] = m_maxOutstanding - 1 - i; // slot 0 on top
    }
    m_fifo.resize(INITIAL_FIFO_CAPACITY);
}

uint64_t
RdmaMemoryAgent::Load(uint32_t peer,
                      uint64_t address,
                      uint32_t size,
                      RdmaMemoryOperation::Ordering ordering)
{
    CheckPeer("Load", peer);
    CheckAccess("Load", address, size);
    NS_ABORT_MSG_IF(ordering == RdmaMemoryOperation::RELEASE,
                    "RdmaMemoryAgent::Load: ordering " << OrderingName(ordering)
                                                       << " is not valid for a load; valid: "
                                                          "RELAXED, ACQUIRE");
    return Submit(RdmaMemoryOperation::LOAD, ordering, peer, address, size);
}

uint64_t
RdmaMemoryAgent::Store(uint32_t peer,
                       uint64_t address,
                       uint32_t size,
                       RdmaMemoryOperation::Ordering ordering)
{
    CheckPeer("Store", peer);
    CheckAccess("Store", address, size);
    NS_ABORT_MSG_IF(ordering == RdmaMemoryOperation::ACQUIRE,
                    "RdmaMemoryAgent::Store: ordering " << OrderingName(ordering)
                                                        << " is not valid for a store; valid: "
                                                           "RELAXED, RELEASE");
    return Submit(RdmaMemoryOperation::STORE, ordering, peer, address, size);
}

uint64_t
RdmaMemoryAgent::FetchAdd(uint32_t peer,
                          uint64_t address,
                          uint64_t add,
                          RdmaMemoryOperation::Ordering ordering)
{
    CheckPeer("FetchAdd", peer);
    CheckAtomicAddress("FetchAdd", address);
    return Submit(RdmaMemoryOperation::FETCH_ADD, ordering, peer, address, ATOMIC_BYTES, add);
}

uint64_t
RdmaMemoryAgent::CompareSwap(uint32_t peer,
                             uint64_t address,
                             uint64_t compare,
                             uint64_t swap,
                             RdmaMemoryOperation::Ordering ordering)
{
    CheckPeer("CompareSwap", peer);
    CheckAtomicAddress("CompareSwap", address);
    return Submit(RdmaMemoryOperation::COMPARE_SWAP,
                  ordering,
                  peer,
                  address,
                  ATOMIC_BYTES,
                  compare,
                  swap);
}

uint64_t
RdmaMemoryAgent::PutWithSignal(uint32_t peer,
                               uint64_t address,
                               uint64_t bytes,
                               uint64_t flagAddress,
                               uint64_t signal)
{
    CheckPeer("PutWithSignal", peer);
    NS_ABORT_MSG_IF(bytes == 0 || bytes % MIN_ACCESS_BYTES != 0,
                    "RdmaMemoryAgent::PutWithSignal: bytes " << bytes
                                                             << " is not valid; valid: a positive "
                                                                "multiple of "
                                                             << MIN_ACCESS_BYTES);
    NS_ABORT_MSG_IF(address % MIN_ACCESS_BYTES != 0,
                    "RdmaMemoryAgent::PutWithSignal: address 0x" << std::hex << address << std::dec
                                                                 << " is not a multiple of "
                                                                 << MIN_ACCESS_BYTES);
    uint64_t a = address;
    const uint64_t end = address + bytes;
    while (a < end)
    {
        uint32_t size = MAX_ACCESS_BYTES;
        while (a % size != 0 || a + size > end)
        {
            size /= 2; // stops at 64 at the latest: a and end are multiples of 64
        }
        Store(peer, a, size, RdmaMemoryOperation::RELAXED);
        a += size;
    }
    return FetchAdd(peer, flagAddress, signal, RdmaMemoryOperation::RELEASE);
}

void
RdmaMemoryAgent::CheckAtomicAddress(const char* what, uint64_t address)
{
    NS_ABORT_MSG_IF(address % ATOMIC_BYTES != 0,
                    "RdmaMemoryAgent::" << what << ": address 0x" << std::hex << address << std::dec
                                        << " is not 8-byte aligned");
}

uint64_t
RdmaMemoryAgent::Submit(RdmaMemoryOperation::Kind kind,
                        RdmaMemoryOperation::Ordering ordering,
                        uint32_t peer,
                        uint64_t address,
                        uint32_t size,
                        uint64_t operand,
                        uint64_t swap)
{
    RdmaMemoryOperation op;
    op.kind = kind;
    op.ordering = ordering;
    op.peer = peer;
    op.address = address;
    op.size = size;
    op.operand = operand;
    op.swap = swap;
    if (m_slots.empty())
    {
        PrepareSlots();
    }
    op.id = m_nextId++;
    op.submitTime = Simulator::Now();
    if (m_fifoCount == m_fifo.size())
    {
        // Grow the ring (amortized; never in steady state): unroll it into a vector twice
        // as large.
        std::vector<RdmaMemoryOperation> larger(2 * m_fifo.size());
        for (uint64_t i = 0; i < m_fifoCount; ++i)
        {
            larger[i] = m_fifo[(m_fifoHead + i) & (m_fifo.size() - 1)];
        }
        m_fifo.swap(larger);
        m_fifoHead = 0;
    }
    m_fifo[(m_fifoHead + m_fifoCount) & (m_fifo.size() - 1)] = op;
    ++m_fifoCount;
    NS_LOG_LOGIC("submitted " << op.id << " kind " << +op.kind << " to peer " << op.peer);
    TryIssue();
    return op.id;
}

void
RdmaMemoryAgent::TryIssue()
{
    while (m_fifoCount > 0 && m_inFlight < m_maxOutstanding && m_acquiresInFlight == 0)
    {
        const RdmaMemoryOperation& head = m_fifo[m_fifoHead];
        if (head.ordering == RdmaMemoryOperation::RELEASE && m_writesInFlight > 0)
        {
            return; // a release waits for every earlier store and atomic to complete
        }
        const Time now = Simulator::Now();
        if (now < m_nextIssue)
        {
            if (!m_issueEvent.IsRunning())
            {
                m_issueEvent =
                    Simulator::Schedule(m_nextIssue - now, &RdmaMemoryAgent::TryIssue, this);
            }
            return;
        }
        IssueHead();
        m_nextIssue = now + m_issueInterval;
    }
}

void
RdmaMemoryAgent::IssueHead()
{
    const uint32_t slot = m_freeSlots.back();
    m_freeSlots.pop_back();
    RdmaMemoryOperation& op = m_slots[slot];
    op = m_fifo[m_fifoHead];
    m_fifoHead = (m_fifoHead + 1) & (m_fifo.size() - 1);
    --m_fifoCount;
    op.issueTime = Simulator::Now();
    ++m_inFlight;
    m_maxInFlightSeen = std::max(m_maxInFlightSeen, m_inFlight);
    if (op.IsWrite())
    {
        ++m_writesInFlight;
    }
    if (op.ordering == RdmaMemoryOperation::ACQUIRE)
    {
        ++m_acquiresInFlight;
    }
    RdmaWorkRequest wr;
    wr.wrId = slot;
    wr.length = op.size;
    wr.remoteAddress = op.address;
    switch (op.kind)
    {
    case RdmaMemoryOperation::LOAD:
        wr.opcode = RdmaWorkRequest::READ;
        wr.localAddress = 0;
        break;
    case RdmaMemoryOperation::STORE:
        wr.opcode = RdmaWorkRequest::WRITE;
        break;
    case RdmaMemoryOperation::FETCH_ADD:
        wr.opcode = RdmaWorkRequest::FETCH_ADD;
        wr.compareAdd = op.operand;
        break;
    case RdmaMemoryOperation::COMPARE_SWAP:
        wr.opcode = RdmaWorkRequest::COMPARE_SWAP;
        wr.compareAdd = op.operand;
        wr.swap = op.swap;
        break;
    }
    NS_LOG_LOGIC("issue " << op.id << " in slot " << slot);
    m_issueTrace(op);
    m_peers[op.peer]->PostSend(wr);
}

void
RdmaMemoryAgent::QpCompleted(const RdmaCompletion& completion)
{
    NS_ASSERT_MSG(completion.wrId < m_slots.size(),
                  "completion of work request " << completion.wrId << " the agent did not post");
    const uint32_t slot = static_cast<uint32_t>(completion.wrId);
    RdmaMemoryOperation& op = m_slots[slot];
    op.completionTime = completion.completionTime;
    op.original = completion.atomicOriginal;
    op.status = completion.status;
    if (completion.status != RdmaCompletion::SUCCESS)
    {
        ++m_timedOut;
    }
    --m_inFlight;
    if (op.IsWrite())
    {
        --m_writesInFlight;
    }
    if (op.ordering == RdmaMemoryOperation::ACQUIRE)
    {
        --m_acquiresInFlight;
    }
    ++m_completed;
    m_freeSlots.push_back(slot);
    m_completeTrace(op);
    if (!m_completionCallback.IsNull())
    {
        m_completionCallback(op);
    }
    TryIssue();
}

void
RdmaMemoryAgent::WaitFlag(uint64_t address, uint64_t value, FlagCallback cb)
{
    NS_ABORT_MSG_IF(!m_memory,
                    "RdmaMemoryAgent::WaitFlag: the agent has no memory (SetMemory; "
                    "RdmaMemoryAgentHelper sets the node's)");
    CheckAtomicAddress("WaitFlag", address);
    NS_ABORT_MSG_IF(!m_pollInterval.IsStrictlyPositive(),
                    "RdmaMemoryAgent::WaitFlag: PollInterval " << m_pollInterval
                                                               << " is not valid; it must be "
                                                                  "positive");
    const uint64_t now = m_memory->Read64(address);
    if (now >= value)
    {
        // The first poll, now, sees it.
        Simulator::ScheduleNow(&RdmaMemoryAgent::FlagSeen, this, address, now, cb);
        return;
    }
    if (!m_memoryTraced)
    {
        m_memory->TraceConnectWithoutContext("Atomic",
                                             MakeCallback(&RdmaMemoryAgent::AtomicExecuted, this));
        m_memoryTraced = true;
    }
    m_waits.push_back({address, value, Simulator::Now(), cb});
}

void
RdmaMemoryAgent::AtomicExecuted(uint64_t address, uint64_t /* original */, uint64_t result)
{
    for (std::size_t i = 0; i < m_waits.size();)
    {
        FlagWait& w = m_waits[i];
        if (w.address != address || result < w.value)
        {
            ++i;
            continue;
        }
        // The first poll tick start + k PollInterval at or after now.
        const int64_t elapsed = (Simulator::Now() - w.start).GetTimeStep();
        const int64_t period = m_pollInterval.GetTimeStep();
        const int64_t k = (elapsed + period - 1) / period;
        const Time tick = w.start + TimeStep(k * period);
        Simulator::Schedule(tick - Simulator::Now(),
                            &RdmaMemoryAgent::FlagSeen,
                            this,
                            address,
                            result,
                            w.cb);
        w = m_waits.back();
        m_waits.pop_back();
    }
}

void
RdmaMemoryAgent::FlagSeen(uint64_t address, uint64_t value, FlagCallback cb)
{
    NS_LOG_LOGIC("flag 0x" << std::hex << address << std::dec << " = " << value << " seen");
    m_flagTrace(address, value);
    cb(address, value, Simulator::Now());
}

uint64_t
RdmaMemoryAgent::GetSubmitted() const
{
    return m_nextId;
}

uint64_t
RdmaMemoryAgent::GetCompleted() const
{
    return m_completed;
}

uint64_t
RdmaMemoryAgent::GetTimedOut() const
{
    return m_timedOut;
}

uint32_t
RdmaMemoryAgent::GetInFlight() const
{
    return m_inFlight;
}

uint64_t
RdmaMemoryAgent::GetQueued() const
{
    return m_fifoCount;
}

uint32_t
RdmaMemoryAgent::GetMaxInFlightSeen() const
{
    return m_maxInFlightSeen;
}

uint32_t
RdmaMemoryAgent::GetMaxOutstanding() const
{
    return m_maxOutstanding;
}

uint64_t
RdmaMemoryAgent::GetSlotBytes()
{
    // A slot and its entry in the free-slot stack.
    return sizeof(RdmaMemoryOperation) + sizeof(uint32_t);
}

} // namespace ns3
