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
 * oldest unacknowledged PSN. The timeout is the NIC's RetransmitTimeout (the IBTA local ACK
 * timeout), armed when a packet leaves with none running and restarted whenever the
 * acknowledged sequence advances.
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
    void OnPacketSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission) override;
    void OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    void OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack) override;
    TimerKind OnTimer(RdmaRecoveryState& state) override;
    Time GetTimerExpiry() const override;
    bool PlacesOutOfOrder() const override;

  protected:
    /**
     * \param state the sender's sequence state
     * \param nakSeq the sequence a NAK asks for
     * \return where the transmit pointer resumes after the NAK (go-back-N: nakSeq)
     */
    virtual uint64_t GetNakRestart(const RdmaRecoveryState& state, uint64_t nakSeq) const;
    /**
     * \param state the sender's sequence state
     * \return where the transmit pointer resumes after a timeout (go-back-N: sndUna)
     */
    virtual uint64_t GetTimeoutRestart(const RdmaRecoveryState& state) const;

    /**
     * Restart the timer if data is outstanding, else stop it.
     * \param state the sender's sequence state
     */
    void Rearm(const RdmaRecoveryState& state);

  private:
    Time m_expiry{Time::Max()}; //!< when the retransmission timer fires, Max = not running
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_LOSS_RECOVERY_H */
