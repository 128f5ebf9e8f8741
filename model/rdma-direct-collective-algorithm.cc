/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-direct-collective-algorithm.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaDirectCollectiveAlgorithm);

TypeId
RdmaDirectCollectiveAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaDirectCollectiveAlgorithm")
                            .SetParent<RdmaCollectiveAlgorithm>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaDirectCollectiveAlgorithm>();
    return tid;
}

std::string
RdmaDirectCollectiveAlgorithm::GetName() const
{
    return "Direct";
}

std::string
RdmaDirectCollectiveAlgorithm::CheckSupport(Operation op, uint32_t /* ranks */) const
{
    if (op != ALL_TO_ALL && op != ALL_GATHER)
    {
        return "the direct algorithm runs AllToAll and AllGather; " + OperationName(op) +
               " needs ns3::RdmaRingCollectiveAlgorithm or "
               "ns3::RdmaHalvingDoublingCollectiveAlgorithm";
    }
    return "";
}

RdmaCollectiveAlgorithm::Schedule
RdmaDirectCollectiveAlgorithm::Build(Operation op, uint32_t ranks, uint64_t bytes) const
{
    const uint32_t p = ranks;
    Schedule schedule(p, std::vector<Step>(1));
    for (uint32_t r = 0; r < p; ++r)
    {
        for (uint32_t k = 1; k < p; ++k)
        {
            const uint32_t j = (r + k) % p;
            const uint32_t chunk = op == ALL_TO_ALL ? j : r;
            schedule[r][0].push_back({j, ChunkBytes(bytes, p, chunk), ChunkOffset(bytes, p, r)});
        }
    }
    return schedule;
}

} // namespace ns3
