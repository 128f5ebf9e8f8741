/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_GO_BACK_ZERO_LOSS_RECOVERY_H
#define RDMA_GO_BACK_ZERO_LOSS_RECOVERY_H

#include "rdma-go-back-n-loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Go-back-0: any loss restarts the whole current message.
 *
 * The recovery of early RoCE NICs that Guo et al. describe ("RDMA over Commodity Ethernet
 * at Scale", SIGCOMM 2016, section 4.1, "RDMA transport livelock"): after a loss the
 * sender restarts from the first packet of the message, and the receiver, which has
 * dropped everything after the gap, takes the message again from its start. A message of N
 * packets is delivered only by a pass without a single loss, probability (1 - p)^N: with a
 * deterministic 1/256 drop rate, 4 MB messages (4096 packets of 1 KB) never complete while
 * the link runs at line rate, a livelock. The fix was go-back-N (RdmaGoBackNLossRecovery).
 *
 * Modelled as:
 *  - responder (RestartsMessageOnGap): accepts packets in PSN order; at the first
 *    out-of-order packet it discards the partially received message, rewinds its expected
 *    PSN to the message's first PSN and NAKs that PSN once; it acknowledges only whole
 *    messages (the last PSN of the last completed message), so that no acknowledged data
 *    is ever discarded;
 *  - requester: on that NAK or on a retransmission timeout it resends from the first PSN
 *    of the message holding the oldest unacknowledged PSN (RdmaRecoveryState::messageStart).
 *    The retransmission timer follows the go-back-N rules, except that a NAK restarts it
 *    too (it is a response from the responder, and no PSN advances while a message is
 *    being retried): it has to outlast the transmission of one whole message.
 */
class RdmaGoBackZeroLossRecovery : public RdmaGoBackNLossRecovery
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaLossRecovery> Fork() override;
    void OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    bool RestartsMessageOnGap() const override;
    void OnDuplicateData(RdmaReceiveState& state,
                         RdmaReceiverOps& rx,
                         uint64_t seq,
                         bool ackRequested) override;
    RxVerdict OnOutOfOrderData(RdmaReceiveState& state, RdmaReceiverOps& rx, uint64_t seq) override;

  protected:
    uint64_t GetNakRestart(const RdmaRecoveryState& state, uint64_t nakSeq) const override;
    uint64_t GetTimeoutRestart(const RdmaRecoveryState& state) const override;
};

} // namespace ns3

#endif /* RDMA_GO_BACK_ZERO_LOSS_RECOVERY_H */
