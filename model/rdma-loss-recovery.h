/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The sender-side sequence state a loss recovery acts on.
 *
 * Sequence numbers are the queue pair's 64-bit unwrapped packet sequence numbers; the
 * 24-bit BTH PSN on the wire is (initial PSN + sequence) mod 2^24.
 */
struct RdmaRecoveryState
{
    uint64_t sndUna{0};     //!< oldest unacknowledged sequence
    uint64_t sndNxt{0};     //!< next sequence to transmit
    uint64_t highestSent{0}; //!< one past the highest sequence ever transmitted
    uint64_t messageStart{0}; //!< first sequence of the message holding sndUna
};

/**
 * \ingroup rdma
 * \brief Interface of a queue pair's loss recovery.
 *
 * Like ns-3's TcpRecoveryOps, a small pluggable object, one copy per queue pair (Fork).
 * It decides where the sender resumes after a NAK or a retransmission timeout and
 * whether the responder places packets that arrive out of order.
 */
class RdmaLossRecovery : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// \return the scheme's name
    virtual std::string GetName() const = 0;

    /// \return a copy with the same configuration and fresh state
    virtual Ptr<RdmaLossRecovery> Fork() = 0;

    /**
     * A NAK (PSN sequence error) for nakSeq arrived; every sequence before it is
     * acknowledged and state.sndUna already advanced to it.
     * \param state the sender's sequence state, updated in place
     * \param nakSeq the responder's expected sequence
     */
    virtual void OnNak(RdmaRecoveryState& state, uint64_t nakSeq) = 0;

    /**
     * The retransmission timer expired with unacknowledged data.
     * \param state the sender's sequence state, updated in place
     */
    virtual void OnTimeout(RdmaRecoveryState& state) = 0;

    /// \return true if the responder places out-of-order packets, false if it drops them
    virtual bool PlacesOutOfOrder() const = 0;
};

} // namespace ns3

#endif /* RDMA_LOSS_RECOVERY_H */
