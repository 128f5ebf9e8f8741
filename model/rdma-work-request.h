/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_WORK_REQUEST_H
#define RDMA_WORK_REQUEST_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A work request posted to a queue pair's send queue (verbs ibv_send_wr, reduced to
 * what the transport needs).
 */
struct RdmaWorkRequest
{
    /// The RC operations the model carries.
    enum Opcode : uint8_t
    {
        WRITE, //!< RDMA WRITE: RETH in the first packet, no receive WQE consumed
        SEND,  //!< SEND: consumes a receive WQE at the responder
        READ   //!< RDMA READ (IBTA vol. 1 §9.4.3): remote memory into localAddress
    };

    Opcode opcode{WRITE};      //!< operation
    uint64_t wrId{0};          //!< caller's identifier, returned in the completion
    uint64_t length{0};        //!< message length, bytes
    uint64_t remoteAddress{0}; //!< WRITE: target virtual address; READ: source (RETH VA)
    uint32_t rkey{0};          //!< WRITE, READ: remote key (RETH R_Key)
    uint64_t localAddress{0};  //!< READ: virtual address of the local buffer (length bytes)
};

/**
 * \ingroup rdma
 * \brief A work completion (verbs ibv_wc), with the timestamps a simulation needs.
 */
struct RdmaCompletion
{
    uint32_t qpn{0};  //!< local queue pair number
    uint64_t wrId{0}; //!< the work request's wrId (0 at a responder)
    RdmaWorkRequest::Opcode opcode{RdmaWorkRequest::WRITE}; //!< operation
    uint64_t length{0};                                     //!< message length, bytes
    Time postTime; //!< requester: when posted; responder: first packet's arrival
    /// requester: last byte acknowledged (READ: last response byte landed); responder: last
    /// packet placed
    Time completionTime;
};

} // namespace ns3

#endif /* RDMA_WORK_REQUEST_H */
