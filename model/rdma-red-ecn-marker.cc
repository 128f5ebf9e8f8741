/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-red-ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRedEcnMarker");

NS_OBJECT_ENSURE_REGISTERED(RdmaRedEcnMarker);

TypeId
RdmaRedEcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRedEcnMarker")
            .SetParent<RdmaEgressProcessor>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaRedEcnMarker>()
            .AddAttribute("Kmin",
                          "RED minimum threshold, bytes of the egress (port, class) queue "
                          "(DCQCN, SIGCOMM 2015: 5 KB).",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&RdmaRedEcnMarker::m_kmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Kmax",
                          "RED maximum threshold, bytes (DCQCN: 200 KB). Above it every "
                          "ECN-capable packet is marked.",
                          UintegerValue(200000),
                          MakeUintegerAccessor(&RdmaRedEcnMarker::m_kmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Pmax",
                          "RED marking probability at Kmax (DCQCN: 1%).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RdmaRedEcnMarker::m_pmax),
                          MakeDoubleChecker<double>())
            .AddAttribute("MarkingPoint",
                          "Where RED decides: at dequeue on the bytes the packet leaves "
                          "behind (the default: egress marking, as the DCQCN papers' "
                          "switches and the HPCC simulator do) or at enqueue on the bytes "
                          "already queued (RED, RFC 2309). Read by the switch when the "
                          "marker is added.",
                          EnumValue(RdmaRedEcnMarker::AT_DEQUEUE),
                          MakeEnumAccessor(&RdmaRedEcnMarker::m_point),
                          MakeEnumChecker(RdmaRedEcnMarker::AT_ENQUEUE,
                                          "Enqueue",
                                          RdmaRedEcnMarker::AT_DEQUEUE,
                                          "Dequeue"));
    return tid;
}

RdmaRedEcnMarker::RdmaRedEcnMarker()
    : m_rngStream(RngSeedManager::GetNextStreamIndex()), // as RandomVariableStream's Stream -1
      m_rngSeed(RngSeedManager::GetSeed()),
      m_rngRun(RngSeedManager::GetRun())
{
    NS_LOG_FUNCTION(this);
}

RdmaRedEcnMarker::~RdmaRedEcnMarker()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaRedEcnMarker::DoDispose()
{
    m_rng.reset();
    RdmaEgressProcessor::DoDispose();
}

double
RdmaRedEcnMarker::MarkProbability(uint64_t queueBytes, uint64_t kmin, uint64_t kmax, double pmax)
{
    if (queueBytes <= kmin)
    {
        return 0.0;
    }
    if (queueBytes > kmax)
    {
        return 1.0;
    }
    return pmax * static_cast<double>(queueBytes - kmin) / static_cast<double>(kmax - kmin);
}

bool
RdmaRedEcnMarker::DecideMark(uint64_t queueBytes)
{
    const double p = MarkProbability(queueBytes, m_kmin, m_kmax, m_pmax);
    if (p <= 0.0)
    {
        return false;
    }
    if (p >= 1.0)
    {
        return true;
    }
    if (!m_rng)
    {
        m_rng = std::make_unique<RngStream>(m_rngSeed, m_rngStream, m_rngRun);
    }
    return m_rng->RandU01() < p; // UniformRandomVariable(0, 1): 0 + u * (1 - 0) = u
}

void
RdmaRedEcnMarker::SetKmin(uint64_t kmin)
{
    m_kmin = kmin;
}

uint64_t
RdmaRedEcnMarker::GetKmin() const
{
    return m_kmin;
}

void
RdmaRedEcnMarker::SetKmax(uint64_t kmax)
{
    m_kmax = kmax;
}

uint64_t
RdmaRedEcnMarker::GetKmax() const
{
    return m_kmax;
}

void
RdmaRedEcnMarker::SetPmax(double pmax)
{
    m_pmax = pmax;
}

double
RdmaRedEcnMarker::GetPmax() const
{
    return m_pmax;
}

void
RdmaRedEcnMarker::SetMarkingPoint(MarkingPoint point)
{
    m_point = point;
}

RdmaRedEcnMarker::MarkingPoint
RdmaRedEcnMarker::GetMarkingPoint() const
{
    return m_point;
}

uint8_t
RdmaRedEcnMarker::GetHooks() const
{
    return m_point == AT_ENQUEUE ? HOOK_ENQUEUE : HOOK_DEQUEUE;
}

uint8_t
RdmaRedEcnMarker::GetPacketFilter() const
{
    return FILTER_ECN_CAPABLE;
}

bool
RdmaRedEcnMarker::UsesPortState() const
{
    return false; // RED reads the (port, class) queue only
}

bool
RdmaRedEcnMarker::ReadsPacket() const
{
    return false; // the queue and a random draw decide; the switch writes the mark
}

void
RdmaRedEcnMarker::CheckConfig() const
{
    NS_ABORT_MSG_IF(m_kmin > m_kmax,
                    "RdmaRedEcnMarker: Kmin " << m_kmin << " B is larger than Kmax " << m_kmax
                                              << " B; RED needs Kmin <= Kmax");
    NS_ABORT_MSG_IF(!(m_pmax >= 0.0 && m_pmax <= 1.0),
                    "RdmaRedEcnMarker: Pmax " << m_pmax
                                              << " is not a probability; it must be in [0, 1]");
}

int64_t
RdmaRedEcnMarker::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    NS_ASSERT(stream >= 0);
    // RandomVariableStream::SetStream: fixed streams are the upper 2^63.
    m_rngStream = (uint64_t(1) << 63) + static_cast<uint64_t>(stream);
    m_rngSeed = RngSeedManager::GetSeed();
    m_rngRun = RngSeedManager::GetRun();
    m_rng.reset();
    return 1;
}

RdmaEgressProcessor::Verdict
RdmaRedEcnMarker::DoEnqueue(const Ptr<Packet>& /* packet */, const RdmaEgressContext& context)
{
    return DecideMark(context.queueBytes) ? MARK_CE : PASS;
}

RdmaEgressProcessor::Verdict
RdmaRedEcnMarker::DoDequeue(const Ptr<Packet>& /* packet */, const RdmaEgressContext& context)
{
    return DecideMark(context.queueBytes) ? MARK_CE : PASS;
}

} // namespace ns3
