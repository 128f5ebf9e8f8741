/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-collective-algorithm.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaCollectiveAlgorithm);

TypeId
RdmaCollectiveAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCollectiveAlgorithm").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

std::string
RdmaCollectiveAlgorithm::OperationName(Operation op)
{
    switch (op)
    {
    case ALL_REDUCE:
        return "AllReduce";
    case ALL_GATHER:
        return "AllGather";
    case REDUCE_SCATTER:
        return "ReduceScatter";
    case ALL_TO_ALL:
        return "AllToAll";
    }
    return "?";
}

double
RdmaCollectiveAlgorithm::BusBandwidthFactor(Operation op, uint32_t ranks)
{
    const double p = ranks;
    return op == ALL_REDUCE ? 2 * (p - 1) / p : (p - 1) / p;
}

uint64_t
RdmaCollectiveAlgorithm::ChunkBytes(uint64_t bytes, uint32_t ranks, uint32_t chunk)
{
    return bytes / ranks + (chunk < bytes % ranks ? 1 : 0);
}

uint64_t
RdmaCollectiveAlgorithm::ChunkOffset(uint64_t bytes, uint32_t ranks, uint32_t chunk)
{
    return chunk * (bytes / ranks) + std::min<uint64_t>(chunk, bytes % ranks);
}

} // namespace ns3
