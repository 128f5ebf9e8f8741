/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-ring-collective-algorithm.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaRingCollectiveAlgorithm);

TypeId
RdmaRingCollectiveAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRingCollectiveAlgorithm")
                            .SetParent<RdmaCollectiveAlgorithm>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaRingCollectiveAlgorithm>();
    return tid;
}

std::string
RdmaRingCollectiveAlgorithm::GetName() const
{
    return "Ring";
}

std::string
RdmaRingCollectiveAlgorithm::CheckSupport(Operation op, uint32_t /* ranks */) const
{
    if (op == ALL_TO_ALL)
    {
        return "the ring runs AllReduce, AllGather and ReduceScatter; AllToAll needs "
               "ns3::RdmaDirectCollectiveAlgorithm";
    }
    return "";
}

RdmaCollectiveAlgorithm::Schedule
RdmaRingCollectiveAlgorithm::Build(Operation op, uint32_t ranks, uint64_t bytes) const
{
    const uint32_t p = ranks;
    // The chunk each rank sends at each step, as a function of (rank, step).
    auto reduceScatter = [p](uint32_t i, uint32_t s) { return (i + p - s % p) % p; };
    auto allGatherReduced = [p](uint32_t i, uint32_t t) { return (i + 1 + p - t % p) % p; };
    auto allGatherOwn = [p](uint32_t i, uint32_t t) { return (i + p - t % p) % p; };
    const uint32_t steps = op == ALL_REDUCE ? 2 * (p - 1) : p - 1;
    Schedule schedule(p);
    for (uint32_t i = 0; i < p; ++i)
    {
        schedule[i].resize(steps);
        for (uint32_t s = 0; s < steps; ++s)
        {
            uint32_t chunk;
            if (op == ALL_GATHER)
            {
                chunk = allGatherOwn(i, s);
            }
            else if (s < p - 1)
            {
                chunk = reduceScatter(i, s);
            }
            else
            {
                chunk = allGatherReduced(i, s - (p - 1));
            }
            schedule[i][s].push_back(
                {(i + 1) % p, ChunkBytes(bytes, p, chunk), ChunkOffset(bytes, p, chunk)});
        }
    }
    return schedule;
}

} // namespace ns3
