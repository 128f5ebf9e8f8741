/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-collective-helper.h"

#include "rdma-helper.h"

#include "ns3/abort.h"

namespace ns3
{

RdmaCollectiveHelper::RdmaCollectiveHelper()
{
    m_factory.SetTypeId(RdmaCollective::GetTypeId());
    m_algorithm.SetTypeId("ns3::RdmaRingCollectiveAlgorithm");
}

void
RdmaCollectiveHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
RdmaCollectiveHelper::SetAlgorithm(const std::string& typeId)
{
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(typeId, &tid) ||
                        !tid.IsChildOf(RdmaCollectiveAlgorithm::GetTypeId()),
                    "RdmaCollectiveHelper: algorithm '"
                        << typeId
                        << "' is not valid; valid: ns3::RdmaRingCollectiveAlgorithm, "
                           "ns3::RdmaHalvingDoublingCollectiveAlgorithm, "
                           "ns3::RdmaDirectCollectiveAlgorithm or another subclass of "
                           "ns3::RdmaCollectiveAlgorithm");
    m_algorithm.SetTypeId(tid);
}

Ptr<RdmaCollective>
RdmaCollectiveHelper::Install(const NodeContainer& ranks, RdmaHelper& rdma) const
{
    Ptr<RdmaCollective> job = m_factory.Create<RdmaCollective>();
    job->SetAlgorithm(m_algorithm.Create<RdmaCollectiveAlgorithm>());
    job->SetRanks(std::vector<Ptr<Node>>(ranks.Begin(), ranks.End()));
    job->Prepare();
    for (const auto& [src, dst] : job->GetConnectionsNeeded())
    {
        auto [requester, responder] = rdma.Connect(ranks.Get(src), ranks.Get(dst));
        job->SetConnection(src, dst, requester, responder);
    }
    return job;
}

} // namespace ns3
