/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_ALGORITHM_H
#define RDMA_COLLECTIVE_ALGORITHM_H

#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One message of a collective step: bytes written into a peer's buffer.
 */
struct RdmaCollectiveSend
{
    uint32_t peer{0};   //!< destination rank
    uint64_t bytes{0};  //!< message length
    uint64_t offset{0}; //!< where in the destination's buffer it lands
};

/**
 * \ingroup rdma
 * \brief Interface of a collective algorithm: turns an operation on p ranks and S bytes
 * into a schedule of steps, which RdmaCollective runs as a collective library does.
 *
 * The schedule is, per rank, a list of steps, each a list of messages (RDMA WRITEs) to
 * peers. The dependency rule is the one every step-synchronous algorithm of NCCL and MPI
 * follows: a message a rank sends at its step s is received as part of the receiver's step
 * s, and a rank posts the messages of step s + 1 as soon as every message of its step s has
 * arrived (the data it forwards or reduces is then complete). Reduction takes no time.
 *
 * Sizes follow nccl-tests (doc/PERFORMANCE.md): S is the all-reduce buffer, the
 * all-gather's output (each rank contributes S/p), the reduce-scatter's input (each rank
 * ends with S/p) and the all-to-all's send buffer (S/p to every rank). The buffer is cut into
 * p chunks, of S/p bytes when p divides S (else the first S mod p chunks are a byte larger).
 *
 * Chosen by TypeId (RdmaCollective's Algorithm attribute), like ns-3's TcpCongestionOps.
 */
class RdmaCollectiveAlgorithm : public Object
{
  public:
    /// The collective operations (nccl-tests' names).
    enum Operation
    {
        ALL_REDUCE,     //!< every rank ends with the element-wise reduction of all buffers
        ALL_GATHER,     //!< every rank ends with every rank's chunk
        REDUCE_SCATTER, //!< rank r ends with the reduction of everyone's chunk r
        ALL_TO_ALL      //!< rank r sends its chunk j to rank j (MoE dispatch and combine)
    };

    /// A step: the messages a rank posts together.
    using Step = std::vector<RdmaCollectiveSend>;
    /// Per rank, its steps.
    using Schedule = std::vector<std::vector<Step>>;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// \return the algorithm's name, for logs and summaries
    virtual std::string GetName() const = 0;

    /**
     * \param op the operation
     * \param ranks number of ranks
     * \return "" if the algorithm can run op on that many ranks, else why not (what is valid)
     */
    virtual std::string CheckSupport(Operation op, uint32_t ranks) const = 0;

    /**
     * \param op the operation (CheckSupport said yes)
     * \param ranks number of ranks, at least 2
     * \param bytes S, nccl-tests' size
     * \return the schedule
     */
    virtual Schedule Build(Operation op, uint32_t ranks, uint64_t bytes) const = 0;

    /// \return the operation's name: AllReduce, AllGather, ReduceScatter, AllToAll
    static std::string OperationName(Operation op);

    /**
     * nccl-tests' bus-bandwidth factor: busbw = algbw x factor, algbw = S / time; 2 (p - 1) / p
     * for all-reduce, (p - 1) / p for the others (doc/PERFORMANCE.md of nccl-tests).
     * \param op the operation
     * \param ranks p
     * \return the factor
     */
    static double BusBandwidthFactor(Operation op, uint32_t ranks);

    /**
     * \param bytes S
     * \param ranks p
     * \param chunk index in [0, p)
     * \return the bytes of chunk `chunk` when S is cut into p chunks
     */
    static uint64_t ChunkBytes(uint64_t bytes, uint32_t ranks, uint32_t chunk);
    /**
     * \param bytes S
     * \param ranks p
     * \param chunk index in [0, p]
     * \return where chunk `chunk` starts in the buffer (S for chunk p)
     */
    static uint64_t ChunkOffset(uint64_t bytes, uint32_t ranks, uint32_t chunk);
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_ALGORITHM_H */
