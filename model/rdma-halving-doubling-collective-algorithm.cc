/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-halving-doubling-collective-algorithm.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaHalvingDoublingCollectiveAlgorithm);

TypeId
RdmaHalvingDoublingCollectiveAlgorithm::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaHalvingDoublingCollectiveAlgorithm")
                            .SetParent<RdmaCollectiveAlgorithm>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaHalvingDoublingCollectiveAlgorithm>();
    return tid;
}

std::string
RdmaHalvingDoublingCollectiveAlgorithm::GetName() const
{
    return "HalvingDoubling";
}

std::string
RdmaHalvingDoublingCollectiveAlgorithm::CheckSupport(Operation op, uint32_t ranks) const
{
    if (op == ALL_TO_ALL)
    {
        return "halving-doubling runs AllReduce, AllGather and ReduceScatter; AllToAll needs "
               "ns3::RdmaDirectCollectiveAlgorithm";
    }
    if ((ranks & (ranks - 1)) != 0)
    {
        return "halving-doubling needs a power-of-two number of ranks (2, 4, 8, ...), not " +
               std::to_string(ranks) + "; the ring runs on any number";
    }
    return "";
}

RdmaCollectiveAlgorithm::Schedule
RdmaHalvingDoublingCollectiveAlgorithm::Build(Operation op, uint32_t ranks, uint64_t bytes) const
{
    const uint32_t p = ranks;
    Schedule schedule(p);
    auto message = [bytes, p](uint32_t peer, uint32_t lo, uint32_t hi) {
        const uint64_t offset = ChunkOffset(bytes, p, lo);
        return RdmaCollectiveSend{peer, ChunkOffset(bytes, p, hi) - offset, offset};
    };
    for (uint32_t i = 0; i < p; ++i)
    {
        uint32_t lo = 0;
        uint32_t hi = p;
        if (op != ALL_GATHER)
        {
            // Recursive halving: distances p/2, p/4, ..., 1.
            for (uint32_t d = p / 2; d >= 1; d /= 2)
            {
                const uint32_t half = (hi - lo) / 2;
                const bool keepLower = (i & d) == 0;
                schedule[i].push_back(
                    {keepLower ? message(i ^ d, lo + half, hi) : message(i ^ d, lo, lo + half)});
                if (keepLower)
                {
                    hi = lo + half;
                }
                else
                {
                    lo += half;
                }
            }
        }
        else
        {
            lo = i;
            hi = i + 1;
        }
        if (op != REDUCE_SCATTER)
        {
            // Recursive doubling: distances 1, 2, ..., p/2; send all held, hold twice as much.
            for (uint32_t d = 1; d < p; d *= 2)
            {
                schedule[i].push_back({message(i ^ d, lo, hi)});
                const uint32_t width = hi - lo;
                if ((i & d) == 0)
                {
                    hi += width;
                }
                else
                {
                    lo -= width;
                }
            }
        }
    }
    return schedule;
}

} // namespace ns3
