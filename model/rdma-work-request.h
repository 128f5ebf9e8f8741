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
        WRITE,        //!< RDMA WRITE: RETH in the first packet, no receive WQE consumed
        SEND,         //!< SEND: consumes a receive WQE at the responder
        READ,         //!< RDMA READ (IBTA vol. 1 §9.4.3): remote memory into localAddress
        FETCH_ADD,    //!< atomic Fetch & Add of compareAdd to the 8 bytes at remoteAddress
        COMPARE_SWAP, //!< atomic Compare & Swap: swap if the 8 bytes equal compareAdd
    };

    /**
     * \param opcode an operation
     * \return true for the atomics (IBTA vol. 1 §9.4.5): 8 bytes at an 8-byte aligned
     *         remoteAddress, answered with the original value
     */
    static bool IsAtomic(Opcode opcode)
    {
        return opcode == FETCH_ADD || opcode == COMPARE_SWAP;
    }

    /**
     * \param opcode an operation
     * \return true for READ and the atomics: answered by the responder with data, counted
     *         against the initiator depth (IBTA ORD, verbs max_rd_atomic)
     */
    static bool HasResponse(Opcode opcode)
    {
        return opcode == READ || IsAtomic(opcode);
    }

    Opcode opcode{WRITE};      //!< operation
    uint64_t wrId{0};          //!< caller's identifier, returned in the completion
    uint64_t length{0};        //!< message length, bytes
    uint64_t remoteAddress{0}; //!< WRITE: target VA; READ: source (RETH VA); atomics: operand
    uint32_t rkey{0};          //!< WRITE, READ, atomics: remote key (R_Key)
    uint64_t localAddress{0};  //!< READ: virtual address of the local buffer (length bytes)
    uint64_t compareAdd{0};    //!< FETCH_ADD: value added; COMPARE_SWAP: value compared
    uint64_t swap{0};          //!< COMPARE_SWAP: value written on a match
};

/**
 * \ingroup rdma
 * \brief A work completion (verbs ibv_wc), with the timestamps a simulation needs.
 */
struct RdmaCompletion
{
    /// How the work request ended (verbs ibv_wc_status).
    enum Status : uint8_t
    {
        SUCCESS,          //!< done (IBV_WC_SUCCESS)
        RESPONSE_TIMEOUT, //!< unreliable mode: a READ response or Atomic Acknowledge never
                          //!< came within the NIC's RetransmitTimeout (length: bytes landed)
    };

    uint32_t qpn{0};  //!< local queue pair number
    uint64_t wrId{0}; //!< the work request's wrId (0 at a responder)
    RdmaWorkRequest::Opcode opcode{RdmaWorkRequest::WRITE}; //!< operation
    uint64_t length{0};                                     //!< message length, bytes
    Time postTime; //!< requester: when posted; responder: first packet's arrival
    /// requester: last byte acknowledged (READ: last response byte landed); responder: last
    /// packet placed
    Time completionTime;
    /// FETCH_ADD, COMPARE_SWAP (requester): the remote word before the operation (the
    /// Atomic Acknowledge's Original Remote Data)
    uint64_t atomicOriginal{0};
    Status status{SUCCESS}; //!< SUCCESS, or why the work request failed
};

} // namespace ns3

#endif /* RDMA_WORK_REQUEST_H */
