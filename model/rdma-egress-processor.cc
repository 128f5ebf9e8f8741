/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-egress-processor.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEgressProcessor");

NS_OBJECT_ENSURE_REGISTERED(RdmaEgressProcessor);

TypeId
RdmaEgressProcessor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEgressProcessor").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaEgressProcessor::~RdmaEgressProcessor()
{
}

uint8_t
RdmaEgressProcessor::GetPacketFilter() const
{
    return FILTER_ALL;
}

bool
RdmaEgressProcessor::UsesPortState() const
{
    return true;
}

bool
RdmaEgressProcessor::ReadsPacket() const
{
    return true;
}

void
RdmaEgressProcessor::CheckConfig() const
{
}

void
RdmaEgressProcessor::CheckPort(uint32_t /* port */, uint64_t /* lineRateBps */) const
{
}

int64_t
RdmaEgressProcessor::AssignStreams(int64_t /* stream */)
{
    return 0;
}

RdmaEgressProcessor::Verdict
RdmaEgressProcessor::DoEnqueue(const Ptr<Packet>& /* packet */,
                               const RdmaEgressContext& /* context */)
{
    return PASS;
}

RdmaEgressProcessor::Verdict
RdmaEgressProcessor::DoDequeue(const Ptr<Packet>& /* packet */,
                               const RdmaEgressContext& /* context */)
{
    return PASS;
}

} // namespace ns3
