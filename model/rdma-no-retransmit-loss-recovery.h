/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H
#define RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H

#include "rdma-loss-recovery.h"

#include "ns3/event-id.h"

#include <vector>

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
 *
 * A queue pair spread over several planes (RdmaAddressInterleavePathSelector, spraying)
 * arrives out of order even when nothing is lost: credit stalls and queues differ per
 * plane. With ReorderWindow = 0 (the default, IBTA's in-order responder) every such
 * overtaking would be counted as a loss. With ReorderWindow = W > 0 the responder places
 * packets as they arrive, as a memory-semantic scale-up fabric does (UALink and SUE carry
 * the target address in every request; here every WRITE packet carries a RETH and every
 * SEND packet a placement header, as with RdmaSackLossRecovery), keeps a bitmap of W
 * packets and delivers in PSN order. A hole is given up (counted lost) only when a packet
 * arrives W or more PSNs beyond it, or when a packet beyond it has waited ReorderTimeout
 * (the skew the fabric can add is bounded; a hole older than that is a loss). A packet that
 * arrives after its hole was given up is counted late (GetLateArrivals, and as a duplicate
 * at the queue pair), not delivered a second time.
 *
 * READ and atomics (UALink's reads and atomics are tagged transactions answered on their
 * own, with no end-to-end retry): the responder executes a request on arrival; in the
 * bitmap it is one slot spanning its responses' PSNs (RdmaRxPacket::span), so later packets
 * are not taken for lost ones. The requester places responses by PSN as they come and
 * completes a READ when all its bytes landed; a request or response the fabric lost is
 * never sent again: the work request completes in error (RdmaCompletion::RESPONSE_TIMEOUT,
 * length = the bytes that landed) RetransmitTimeout after its request, as PCIe's
 * Completion Timeout ends a split transaction (RdmaQueuePair::GetResponseTimeouts).
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
    uint32_t GetReorderWindow() const override;
    void OnPlaceableData(RdmaReceiveState& state,
                         RdmaReceiverOps& rx,
                         const RdmaRxPacket& packet) override;

    /// \return responder: packets that arrived after their hole was given up (ReorderWindow > 0)
    uint64_t GetLateArrivals() const;

  protected:
    void DoDispose() override;

  private:
    /// Responder: one packet placed out of order, waiting to be delivered in order.
    struct RxSlot
    {
        bool present{false}; //!< placed, not yet delivered in order
        uint8_t opcode{0};   //!< BTH opcode
        uint32_t bytes{0};   //!< payload bytes
        Time arrival;        //!< arrival time (a hole before it ages from here)
        uint64_t span{1};    //!< PSNs it takes (a READ Request: its responses')
    };

    /// \param opcode a BTH opcode
    /// \return true for a READ Request or an atomic: its responses acknowledge it
    static bool IsRequest(uint8_t opcode);

    /// \return true if the in-order run delivered from state.expected held a message's last packet
    bool DeliverInOrderRun(RdmaReceiveState& state, RdmaReceiverOps& rx);
    /**
     * Give up every hole below target: count the missing packets lost and deliver the
     * placed ones, so that state.expected >= target.
     * \return true if a message's last packet was delivered
     */
    bool GiveUpHolesBelow(RdmaReceiveState& state, RdmaReceiverOps& rx, uint64_t target);
    /// Arm the reorder timer if a hole waits and it is not running.
    void ArmReorderTimer(const RdmaReceiveState& state);
    /// The reorder timer expired: give up the holes that have waited ReorderTimeout.
    void ReorderTimerExpired();

    uint32_t m_reorderWindow{0};          //!< ReorderWindow attribute: bitmap packets, 0 = in order
    Time m_reorderTimeout;                //!< ReorderTimeout attribute
    std::vector<RxSlot> m_rxSlots;        //!< the bitmap, indexed by sequence mod window
    uint64_t m_rxHighest{0};              //!< one past the highest sequence placed
    uint32_t m_unackedPackets{0};         //!< arrivals since the last ACK
    uint64_t m_lateArrivals{0};           //!< packets that arrived after their hole was given up
    EventId m_reorderTimer;               //!< ReorderTimeout's event
    RdmaReceiveState* m_rxState{nullptr}; //!< the queue pair's responder state (timer use)
    RdmaReceiverOps* m_rxOps{nullptr};    //!< the queue pair's responder (timer use)
};

} // namespace ns3

#endif /* RDMA_NO_RETRANSMIT_LOSS_RECOVERY_H */
