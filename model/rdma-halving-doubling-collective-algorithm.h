/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HALVING_DOUBLING_COLLECTIVE_ALGORITHM_H
#define RDMA_HALVING_DOUBLING_COLLECTIVE_ALGORITHM_H

#include "rdma-collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Recursive halving and doubling on a power-of-two number of ranks (Thakur,
 * Rabenseifner and Gropp, "Optimization of collective communication operations in MPICH",
 * IJHPCA 2005): reduce-scatter by recursive halving, all-gather by recursive doubling, and
 * all-reduce as the one then the other (Rabenseifner's algorithm).
 *
 * Reduce-scatter: log2 p steps; at step j rank i exchanges with i XOR p/2^(j+1) the half of
 * its current range of chunks that the partner keeps (S/2^(j+1) bytes), keeping the lower
 * half if that bit of i is 0; rank i ends with the reduced chunk i. All-gather: log2 p steps
 * in the opposite order of distances (1, 2, 4, ...), each rank sending everything it holds,
 * S/p, 2 S/p, ... bytes. Time: log2 p alpha + (p - 1)/p S/B for either, twice that for the
 * all-reduce: the bandwidth term of the ring with a latency term of 2 log2 p alpha instead
 * of 2 (p - 1) alpha.
 */
class RdmaHalvingDoublingCollectiveAlgorithm : public RdmaCollectiveAlgorithm
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

#endif /* RDMA_HALVING_DOUBLING_COLLECTIVE_ALGORITHM_H */
