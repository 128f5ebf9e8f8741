/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DIRECT_COLLECTIVE_ALGORITHM_H
#define RDMA_DIRECT_COLLECTIVE_ALGORITHM_H

#include "rdma-collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Direct (one-step) all-to-all and all-gather: every rank writes straight to every
 * other rank, as NCCL's all-to-all (ncclSend/ncclRecv to every peer in one group) and the
 * MoE dispatch and combine of expert parallelism do.
 *
 * All-to-all: rank r writes its chunk j (S/p bytes) into rank j's buffer at slot r, for
 * every j != r; all-gather: rank r writes its own chunk r to every other rank at slot r.
 * Rank r posts the p - 1 messages in the order r + 1, r + 2, ... (mod p), the shifted order
 * of NCCL's and MPI's pairwise exchange, so that the ranks' first messages go to distinct
 * receivers. One step: time alpha + (p - 1) (S/p) / B when every host link is the bottleneck
 * (the NIC sends its queue pairs round robin, so every receiver gets p - 1 streams of B/(p-1)).
 */
class RdmaDirectCollectiveAlgorithm : public RdmaCollectiveAlgorithm
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

#endif /* RDMA_DIRECT_COLLECTIVE_ALGORITHM_H */
