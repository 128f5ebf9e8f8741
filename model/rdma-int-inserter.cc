/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-int-inserter.h"

#include "rdma-int-trailer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-bth-header.h"
#include "ns3/rdma-icrc-trailer.h"
#include "ns3/rdma-int-header.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/trailer.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaIntInserter");

NS_OBJECT_ENSURE_REGISTERED(RdmaIntInserter);

namespace
{
/// Smallest packet that can carry an area: IPv4 (20), UDP (8), BTH, area, ICRC.
constexpr uint32_t MIN_BYTES = 20 + 8 + RdmaBthHeader::SIZE + RdmaIntTrailer::SIZE;
} // namespace

TypeId
RdmaIntInserter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaIntInserter")
            .SetParent<RdmaEgressProcessor>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaIntInserter>()
            .AddTraceSource("Record",
                            "A hop record was written: packet, egress port, records in the area.",
                            MakeTraceSourceAccessor(&RdmaIntInserter::m_recordTrace),
                            "ns3::RdmaIntInserter::RecordTracedCallback");
    return tid;
}

RdmaIntInserter::RdmaIntInserter()
{
    NS_LOG_FUNCTION(this);
}

RdmaIntInserter::~RdmaIntInserter()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
RdmaIntInserter::GetRecordsWritten() const
{
    return m_records;
}

uint64_t
RdmaIntInserter::GetFullAreas() const
{
    return m_full;
}

uint64_t
RdmaIntInserter::GetTooShort() const
{
    return m_tooShort;
}

uint8_t
RdmaIntInserter::GetHooks() const
{
    return HOOK_DEQUEUE;
}

uint8_t
RdmaIntInserter::GetPacketFilter() const
{
    return FILTER_TELEMETRY;
}

void
RdmaIntInserter::CheckPort(uint32_t port, uint64_t lineRateBps) const
{
    NS_ABORT_MSG_IF(!RdmaIntHop::IsEncodableRate(lineRateBps),
                    "RdmaIntInserter: port "
                        << port << " runs at " << lineRateBps
                        << " bit/s, which has no INT line-rate code (valid: 10, 25, 40, 50, 100, "
                           "200, 400, 800 Gb/s); switch telemetry off on this switch or use "
                           "one of these rates");
}

RdmaEgressProcessor::Verdict
RdmaIntInserter::DoDequeue(const Ptr<Packet>& packet, const RdmaEgressContext& context)
{
    if (packet->GetSize() < MIN_BYTES)
    {
        ++m_tooShort;
        return PASS;
    }
    RdmaIntTrailer tail; // the area and the ICRC: peeked, written in place, put back
    packet->PeekTrailer(tail);
    if (!RdmaIntHeader::PushCodedHopInPlace(tail.GetAreaBytes(),
                                            RdmaIntHop::RateCode(context.lineRateBps),
                                            context.now.GetNanoSeconds(),
                                            context.txBytes,
                                            context.portQueueBytes))
    {
        ++m_full;
        return PASS;
    }
    packet->RemoveAtEnd(RdmaIntTrailer::SIZE);
    packet->AddTrailer(tail);
    ++m_records;
    NS_LOG_LOGIC("port " << context.port << " record " << +tail.GetAreaBytes()[0]
                         << " t=" << context.now.GetNanoSeconds() << " tx=" << context.txBytes
                         << " q=" << context.portQueueBytes);
    if (!m_recordTrace.IsEmpty())
    {
        m_recordTrace(packet, context.port, tail.GetAreaBytes()[0]);
    }
    return PASS;
}

} // namespace ns3
