/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_GO_BACK_N_LOSS_RECOVERY_H
#define RDMA_GO_BACK_N_LOSS_RECOVERY_H

#include "rdma-loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RoCE's standard reliable-connection recovery (IBTA vol. 1 §9.7.4-9.7.5).
 *
 * The responder accepts packets only in PSN order: the first out-of-order packet makes it
 * send one NAK (PSN sequence error) carrying its expected PSN and silently drop what follows
 * until that PSN arrives. The requester, on the NAK, resends everything from the NAK'd PSN
 * ("go back N"); on a retransmission timeout (lost tail or lost NAK) it resends from the
 * oldest unacknowledged PSN.
 */
class RdmaGoBackNLossRecovery : public RdmaLossRecovery
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaLossRecovery> Fork() override;
    void OnNak(RdmaRecoveryState& state, uint64_t nakSeq) override;
    void OnTimeout(RdmaRecoveryState& state) override;
    bool PlacesOutOfOrder() const override;
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_LOSS_RECOVERY_H */
