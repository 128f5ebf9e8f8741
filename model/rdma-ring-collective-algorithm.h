/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RING_COLLECTIVE_ALGORITHM_H
#define RDMA_RING_COLLECTIVE_ALGORITHM_H

#include "rdma-collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Ring all-reduce, all-gather and reduce-scatter (Patarasuk and Yuan, "Bandwidth
 * optimal all-reduce algorithms for clusters of workstations", JPDC 2009; NCCL's ring).
 *
 * Ranks form the ring 0 -> 1 -> ... -> p - 1 -> 0; at every step each rank writes one chunk
 * (S/p) to its successor and waits for one from its predecessor.
 *  - Reduce-scatter: p - 1 steps; at step s rank i sends chunk (i - s) mod p (its partial
 *    sum of it); afterwards rank i holds the reduced chunk (i + 1) mod p.
 *  - All-gather: p - 1 steps; at step t rank i sends chunk (i - t) mod p, its own first.
 *  - All-reduce: the reduce-scatter, then the all-gather of the reduced chunks: at step
 *    p - 1 + t rank i sends chunk (i + 1 - t) mod p; 2 (p - 1) steps.
 * Time without pipelining, every step alpha + (S/p) / B: 2 (p - 1) (alpha + S/(p B)) for the
 * all-reduce, (p - 1) (alpha + S/(p B)) for the others.
 */
class RdmaRingCollectiveAlgorithm : public RdmaCollectiveAlgorithm
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    std::string CheckSupport(Operation op, uint32_t ranks) const override;
    Schedule Build(Operation op, uint32_t ranks, uint64_t bytes) const override;
};

} // namespace ns3

#endif /* RDMA_RING_COLLECTIVE_ALGORITHM_H */
