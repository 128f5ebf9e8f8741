/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-collective.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"
#include "rdma-ring-collective-algorithm.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCollective");
NS_OBJECT_ENSURE_REGISTERED(RdmaCollective);

TypeId
RdmaCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCollective")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCollective>()
            .AddAttribute("Operation",
                          "The collective operation.",
                          EnumValue(RdmaCollectiveAlgorithm::ALL_REDUCE),
                          MakeEnumAccessor(&RdmaCollective::m_operation),
                          MakeEnumChecker(RdmaCollectiveAlgorithm::ALL_REDUCE,
                                          "AllReduce",
                                          RdmaCollectiveAlgorithm::ALL_GATHER,
                                          "AllGather",
                                          RdmaCollectiveAlgorithm::REDUCE_SCATTER,
                                          "ReduceScatter",
                                          RdmaCollectiveAlgorithm::ALL_TO_ALL,
                                          "AllToAll"))
            .AddAttribute("Algorithm",
                          "The algorithm (a subclass of ns3::RdmaCollectiveAlgorithm) used when "
                          "none is set with SetAlgorithm.",
                          TypeIdValue(RdmaRingCollectiveAlgorithm::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaCollective::m_algorithmTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("Bytes",
                          "nccl-tests' size S: the all-reduce buffer, the all-gather's output, "
                          "the reduce-scatter's input, the all-to-all's send buffer per rank.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RdmaCollective::m_bytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ChunkBytes",
                          "Pipelining: cut the buffer into parts so that no message is larger "
                          "than about this many bytes; each part runs the algorithm on its own "
                          "(0: one part, no pipelining).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaCollective::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Iterations",
                          "Times the operation runs, each after the previous one completed.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaCollective::m_iterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BufferAddress",
                          "Virtual address of every rank's buffer (the WRITEs' RETH address, "
                          "which an address-interleaving path selector maps to planes).",
                          UintegerValue(0x10000000ULL),
                          MakeUintegerAccessor(&RdmaCollective::m_bufferAddress),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("IterationComplete",
                            "An iteration completed: its index and duration.",
                            MakeTraceSourceAccessor(&RdmaCollective::m_iterationTrace),
                            "ns3::RdmaCollective::IterationTracedCallback");
    return tid;
}

RdmaCollective::RdmaCollective() = default;

RdmaCollective::~RdmaCollective() = default;

void
RdmaCollective::SetRanks(const std::vector<Ptr<Node>>& ranks)
{
    NS_ABORT_MSG_IF(m_prepared, "RdmaCollective::SetRanks after Prepare");
    m_ranks = ranks;
}

void
RdmaCollective::SetAlgorithm(Ptr<RdmaCollectiveAlgorithm> algorithm)
{
    NS_ABORT_MSG_IF(m_prepared, "RdmaCollective::SetAlgorithm after Prepare");
    m_algorithm = algorithm;
}

Ptr<RdmaCollectiveAlgorithm>
RdmaCollective::GetAlgorithm()
{
    if (!m_algorithm)
    {
        ObjectFactory factory(m_algorithmTypeId.GetName());
        Ptr<Object> object = factory.Create();
        m_algorithm = DynamicCast<RdmaCollectiveAlgorithm>(object);
        NS_ABORT_MSG_IF(!m_algorithm,
                        "RdmaCollective: Algorithm " << m_algorithmTypeId.GetName()
                                                     << " is not an ns3::RdmaCollectiveAlgorithm");
    }
    return m_algorithm;
}

void
RdmaCollective::Prepare()
{
    if (m_prepared)
    {
        return;
    }
    const uint32_t p = m_ranks.size();
    const std::string what = "RdmaCollective " + Describe();
    NS_ABORT_MSG_IF(p < 2,
                    what << ": a collective needs at least 2 ranks; there "
                         << (p == 1 ? "is " : "are ") << p << " (SetRanks)");
    std::set<uint32_t> ids;
    for (uint32_t i = 0; i < p; ++i)
    {
        NS_ABORT_MSG_IF(!m_ranks[i], what << ": rank " << i << " is a null node");
        NS_ABORT_MSG_IF(!m_ranks[i]->GetObject<RdmaNic>(),
                        what << ": rank " << i << " (node " << m_ranks[i]->GetId()
                             << ") has no RdmaNic");
        NS_ABORT_MSG_IF(!ids.insert(m_ranks[i]->GetId()).second,
                        what << ": node " << m_ranks[i]->GetId() << " is given twice (rank " << i
                             << "); every rank is another host");
    }
    NS_ABORT_MSG_IF(m_bytes < p,
                    what << ": Bytes " << m_bytes << " is invalid; valid: at least the number of "
                         << "ranks, " << p);
    NS_ABORT_MSG_IF(m_iterations == 0, what << ": Iterations 0 is invalid; valid: at least 1");
    const std::string unsupported = GetAlgorithm()->CheckSupport(m_operation, p);
    NS_ABORT_MSG_IF(!unsupported.empty(),
                    what << ": Operation " << RdmaCollectiveAlgorithm::OperationName(m_operation)
                         << " is not valid here: " << unsupported);

    // Parts: as few as keep every message at most ChunkBytes (rounded up per part).
    m_parts = 1;
    if (m_chunkBytes > 0)
    {
        uint64_t largest = 0;
        for (const auto& steps : GetAlgorithm()->Build(m_operation, p, m_bytes))
        {
            for (const auto& step : steps)
            {
                for (const auto& send : step)
                {
                    largest = std::max(largest, send.bytes);
                }
            }
        }
        const uint64_t parts = (largest + m_chunkBytes - 1) / m_chunkBytes;
        NS_ABORT_MSG_IF(m_bytes / parts < p,
                        what << ": ChunkBytes " << m_chunkBytes << " cuts the buffer into " << parts
                             << " parts of fewer bytes than ranks; valid: at least "
                             << (largest + m_bytes / p - 1) / (m_bytes / p));
        m_parts = static_cast<uint32_t>(parts);
    }
    m_plans.clear();
    m_planOfPart.assign(m_parts, 0);
    m_steps = 0;
    for (uint32_t c = 0; c < m_parts; ++c)
    {
        const uint64_t bytes = RdmaCollectiveAlgorithm::ChunkBytes(m_bytes, m_parts, c);
        auto it = std::find_if(m_plans.begin(), m_plans.end(), [bytes](const PartPlan& plan) {
            return plan.bytes == bytes;
        });
        if (it == m_plans.end())
        {
            PartPlan plan;
            plan.bytes = bytes;
            plan.schedule = GetAlgorithm()->Build(m_operation, p, bytes);
            NS_ABORT_MSG_IF(plan.schedule.size() != p,
                            what << ": the algorithm built a schedule for " << plan.schedule.size()
                                 << " ranks");
            for (const auto& steps : plan.schedule)
            {
                m_steps = std::max<uint32_t>(m_steps, steps.size());
            }
            m_plans.push_back(std::move(plan));
            it = m_plans.end() - 1;
        }
        m_planOfPart[c] = static_cast<uint8_t>(it - m_plans.begin());
    }
    for (auto& plan : m_plans)
    {
        plan.expected.assign(p, std::vector<uint32_t>(m_steps, 0));
        for (uint32_t r = 0; r < p; ++r)
        {
            for (uint32_t s = 0; s < plan.schedule[r].size(); ++s)
            {
                for (const auto& send : plan.schedule[r][s])
                {
                    NS_ABORT_MSG_IF(send.peer >= p || send.peer == r,
                                    what << ": the algorithm sends from rank " << r << " to "
                                         << send.peer);
                    if (send.bytes > 0)
                    {
                        ++plan.expected[send.peer][s];
                    }
                }
            }
        }
    }
    m_prepared = true;
    NS_LOG_INFO(Describe() << ": " << m_parts << " part(s), " << m_steps << " steps");
}

std::vector<std::pair<uint32_t, uint32_t>>
RdmaCollective::GetConnectionsNeeded() const
{
    NS_ABORT_MSG_IF(!m_prepared, "RdmaCollective::GetConnectionsNeeded before Prepare");
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& plan : m_plans)
    {
        for (uint32_t r = 0; r < plan.schedule.size(); ++r)
        {
            for (const auto& step : plan.schedule[r])
            {
                for (const auto& send : step)
                {
                    if (send.bytes > 0)
                    {
                        pairs.insert({r, send.peer});
                    }
                }
            }
        }
    }
    return {pairs.begin(), pairs.end()};
}

void
RdmaCollective::SetConnection(uint32_t src,
                              uint32_t dst,
                              Ptr<RdmaQueuePair> requester,
                              Ptr<RdmaQueuePair> responder)
{
    const uint32_t p = m_ranks.size();
    NS_ABORT_MSG_IF(src >= p || dst >= p || src == dst,
                    "RdmaCollective::SetConnection: ranks " << src << " -> " << dst << " of " << p);
    auto connection = std::make_unique<Connection>();
    connection->owner = this;
    connection->dst = dst;
    connection->requester = requester;
    connection->responder = responder;
    responder->TraceConnectWithoutContext(
        "ReceiveComplete",
        MakeBoundCallback(&RdmaCollective::MessageArrived, connection.get()));
    m_connections[uint64_t(src) * p + dst] = std::move(connection);
}

void
RdmaCollective::Start(Time delay)
{
    Prepare();
    for (const auto& [src, dst] : GetConnectionsNeeded())
    {
        NS_ABORT_MSG_IF(
            m_connections.find(uint64_t(src) * m_ranks.size() + dst) == m_connections.end(),
            "RdmaCollective " << Describe() << ": no connection from rank " << src << " to rank "
                              << dst << " (SetConnection; RdmaCollectiveHelper makes them)");
    }
    Simulator::Schedule(delay, &RdmaCollective::StartIteration, this);
}

std::size_t
RdmaCollective::Slot(uint32_t rank, uint32_t part) const
{
    return std::size_t(rank) * m_parts + part;
}

const RdmaCollective::PartPlan&
RdmaCollective::PlanOf(uint32_t part) const
{
    return m_plans[m_planOfPart[part]];
}

void
RdmaCollective::StartIteration()
{
    const uint32_t p = m_ranks.size();
    m_running = true;
    m_iterationStart = Simulator::Now();
    m_nextStep.assign(std::size_t(p) * m_parts, 0);
    m_arrived.assign(std::size_t(p) * m_parts * m_steps, 0);
    m_unfinished = uint64_t(p) * m_parts;
    NS_LOG_INFO(Describe() << ": iteration " << m_iterationsDone << " starts");
    for (uint32_t c = 0; c < m_parts && m_running; ++c)
    {
        for (uint32_t r = 0; r < p && m_running; ++r)
        {
            Advance(r, c);
        }
    }
}

void
RdmaCollective::Advance(uint32_t rank, uint32_t part)
{
    const PartPlan& plan = PlanOf(part);
    const auto& steps = plan.schedule[rank];
    const std::size_t slot = Slot(rank, part);
    const uint32_t* arrived = &m_arrived[slot * m_steps];
    uint32_t& next = m_nextStep[slot];
    const uint32_t nSteps = steps.size();
    if (next > nSteps)
    {
        return; // done this iteration
    }
    const uint64_t partOffset = RdmaCollectiveAlgorithm::ChunkOffset(m_bytes, m_parts, part);
    const uint32_t p = m_ranks.size();
    while (next < nSteps)
    {
        if (next > 0 && arrived[next - 1] < plan.expected[rank][next - 1])
        {
            return; // the previous step's data is not all here
        }
        for (const auto& send : steps[next])
        {
            if (send.bytes == 0)
            {
                continue;
            }
            Connection& c = *m_connections.at(uint64_t(rank) * p + send.peer);
            c.inFlight.emplace_back(part, next);
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::WRITE;
            wr.wrId = ++m_nextWrId;
            wr.length = send.bytes;
            wr.remoteAddress = m_bufferAddress + partOffset + send.offset;
            m_bytesPosted += send.bytes;
            c.requester->PostSend(wr);
        }
        ++next;
    }
    if (nSteps > 0 && arrived[nSteps - 1] < plan.expected[rank][nSteps - 1])
    {
        return; // everything posted; the last step's data is still coming
    }
    next = nSteps + 1;
    if (--m_unfinished > 0)
    {
        return;
    }
    // Every rank has all its data: the iteration is complete.
    const Time duration = Simulator::Now() - m_iterationStart;
    m_iterationTimes.push_back(duration);
    m_running = false;
    NS_LOG_INFO(Describe() << ": iteration " << m_iterationsDone << " took "
                           << duration.As(Time::US));
    // Counted before the trace, so that a sink sees IsComplete() after the last iteration.
    const uint32_t iteration = m_iterationsDone++;
    m_iterationTrace(iteration, duration);
    if (m_iterationsDone < m_iterations)
    {
        StartIteration();
    }
}

void
RdmaCollective::MessageArrived(Connection* c, const RdmaCompletion& completion)
{
    RdmaCollective* self = c->owner;
    NS_ABORT_MSG_IF(c->inFlight.empty(),
                    "RdmaCollective " << self->Describe() << ": a message arrived at rank "
                                      << c->dst << " on a connection with nothing posted");
    const auto [part, step] = c->inFlight.front();
    c->inFlight.pop_front();
    self->m_bytesArrived += completion.length;
    ++self->m_arrived[self->Slot(c->dst, part) * self->m_steps + step];
    self->Advance(c->dst, part);
}

void
RdmaCollective::DoDispose()
{
    m_connections.clear();
    m_algorithm = nullptr;
    m_ranks.clear();
    Object::DoDispose();
}

uint32_t
RdmaCollective::GetRanks() const
{
    return m_ranks.size();
}

RdmaCollectiveAlgorithm::Operation
RdmaCollective::GetOperation() const
{
    return m_operation;
}

uint64_t
RdmaCollective::GetBytes() const
{
    return m_bytes;
}

uint32_t
RdmaCollective::GetParts() const
{
    return m_parts;
}

uint32_t
RdmaCollective::GetSteps() const
{
    return m_steps;
}

std::string
RdmaCollective::Describe() const
{
    std::ostringstream os;
    os << (m_algorithm ? m_algorithm->GetName() : m_algorithmTypeId.GetName()) << " "
       << RdmaCollectiveAlgorithm::OperationName(m_operation) << ", " << m_ranks.size()
       << " ranks, " << m_bytes << " B";
    return os.str();
}

uint32_t
RdmaCollective::GetIterationsDone() const
{
    return m_iterationsDone;
}

bool
RdmaCollective::IsComplete() const
{
    return m_iterationsDone >= m_iterations;
}

Time
RdmaCollective::GetIterationTime(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_iterationTimes.size(),
                    "RdmaCollective::GetIterationTime: iteration " << i << " of "
                                                                   << m_iterationTimes.size());
    return m_iterationTimes[i];
}

Time
RdmaCollective::GetMeanIterationTime() const
{
    if (m_iterationTimes.empty())
    {
        return Time(0);
    }
    Time sum(0);
    for (const Time& t : m_iterationTimes)
    {
        sum += t;
    }
    return sum / static_cast<int64_t>(m_iterationTimes.size());
}

double
RdmaCollective::GetAlgorithmBandwidth() const
{
    const double t = GetMeanIterationTime().GetSeconds();
    return t > 0 ? static_cast<double>(m_bytes) / t : 0;
}

double
RdmaCollective::GetBusBandwidth() const
{
    return GetAlgorithmBandwidth() *
           RdmaCollectiveAlgorithm::BusBandwidthFactor(m_operation, m_ranks.size());
}

uint64_t
RdmaCollective::GetBytesPosted() const
{
    return m_bytesPosted;
}

uint64_t
RdmaCollective::GetBytesArrived() const
{
    return m_bytesArrived;
}

} // namespace ns3
