/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H
#define RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H

#include "rdma-loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The unreliable end-to-end mode: no retransmission at all, for links that recover
 * their own losses (RdmaLinkRetry), as Broadcom's SUE-Lite leaves reliability to the link.
 *
 * The requester sends every sequence once, never on a NAK or a timer (there is none), and a
 * message completes when its last packet has been sent (the queue pair completes it at once,
 * in a separate event) or when an ACK covers it, whichever comes first. The responder takes
 * a packet beyond the expected PSN as the next one: the missing packets are counted lost
 * (RdmaQueuePair::GetPacketsLost, GetBytesLost at one MTU each, exact for messages that are
 * multiples of the MTU), no NAK is sent, and ACKs stay cumulative, so rate and window
 * congestion controls keep their feedback. A message whose last packet is lost does not
 * complete at the responder; one whose first packet is lost is counted with the message
 * before it. Both ends must use it (RdmaHelper configures all NICs alike).
 */
class RdmaNoRetransmitLossRecovery : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaLossRecovery> Fork() override;
    void OnPacketSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission) override;
    void OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    void OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    TimerKind OnTimer(RdmaRecoveryState& state) override;
    Time GetTimerExpiry() const override;
    bool PlacesOutOfOrder() const override;
    bool Retransmits() const override;
    RxVerdict OnOutOfOrderData(RdmaReceiveState& state, RdmaReceiverOps& rx, uint64_t seq) override;
};

} // namespace ns3

#endif /* RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H */
