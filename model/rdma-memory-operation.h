/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMORY_OPERATION_H
#define RDMA_MEMORY_OPERATION_H

#include "rdma-work-request.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One memory-semantic operation of an RdmaMemoryAgent (a load, a store or an atomic
 * to a peer's memory), with its ordering and the times a simulation needs: when the
 * program submitted it, when it left the issue FIFO for the network, when it completed.
 */
struct RdmaMemoryOperation
{
    /// What the operation does (and which RC operation carries it).
    enum Kind : uint8_t
    {
        LOAD,        //!< remote load: an RDMA READ of size bytes
        STORE,       //!< remote store: an RDMA WRITE of size bytes
        FETCH_ADD,   //!< atomic add of operand to the 8-byte word (RDMA Fetch & Add)
        COMPARE_SWAP //!< atomic compare (operand) and swap (swap) of the 8-byte word
    };

    /// Memory ordering (C++11 / PTX memory model names, reduced to what the agent enforces).
    enum Ordering : uint8_t
    {
        RELAXED, //!< no ordering beyond the issue FIFO's program order
        RELEASE, //!< stores and atomics: issued only when every earlier store/atomic completed
        ACQUIRE  //!< loads and atomics: no later operation issued until this one completes
    };

    uint64_t id{0};             //!< the agent's sequence number (program order), from 0
    Kind kind{LOAD};            //!< operation
    Ordering ordering{RELAXED}; //!< ordering
    uint32_t peer{0};           //!< the peer's index (RdmaMemoryAgent::AddPeer)
    uint32_t size{0};           //!< bytes (atomics: 8)
    uint64_t address{0};        //!< remote virtual address
    uint64_t operand{0};        //!< FETCH_ADD: value added; COMPARE_SWAP: value compared
    uint64_t swap{0};           //!< COMPARE_SWAP: value written on a match
    uint64_t original{0};       //!< atomics, on completion: the remote word before the operation
    Time submitTime;            //!< when the program submitted it (entered the issue FIFO)
    Time issueTime;             //!< when it was posted to the queue pair (left the FIFO)
    Time completionTime;        //!< when its response or acknowledgement arrived
    /// SUCCESS, or RESPONSE_TIMEOUT when the queue pair's unreliable responder mode gave up
    /// waiting for the response (a lost load response over the ualink profile)
    RdmaCompletion::Status status{RdmaCompletion::SUCCESS};

    /// \return true for the atomics
    bool IsAtomic() const
    {
        return kind == FETCH_ADD || kind == COMPARE_SWAP;
    }

    /// \return true for operations a release waits for: stores and atomics
    bool IsWrite() const
    {
        return kind != LOAD;
    }
};

} // namespace ns3

#endif /* RDMA_MEMORY_OPERATION_H */
