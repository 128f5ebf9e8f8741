/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-no-retransmit-loss-recovery.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNoRetransmitLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaNoRetransmitLossRecovery);

TypeId
RdmaNoRetransmitLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNoRetransmitLossRecovery")
                            .SetParent<RdmaLossRecovery>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaNoRetransmitLossRecovery>();
    return tid;
}

std::string
RdmaNoRetransmitLossRecovery::GetName() const
{
    return "NoRetransmit";
}

Ptr<RdmaLossRecovery>
RdmaNoRetransmitLossRecovery::Fork()
{
    return CopyObject<RdmaNoRetransmitLossRecovery>(this);
}

void
RdmaNoRetransmitLossRecovery::OnPacketSent(RdmaRecoveryState& /* state */,
                                           uint64_t /* seq */,
                                           bool /* retransmission */)
{
}

void
RdmaNoRetransmitLossRecovery::OnAck(RdmaRecoveryState& /* state */, const RdmaAckInfo& /* ack */)
{
}

void
RdmaNoRetransmitLossRecovery::OnNak(RdmaRecoveryState& /* state */, const RdmaAckInfo& ack)
{
    // A responder in this mode never NAKs; a peer that does is not asked to go back.
    NS_LOG_FUNCTION(this << ack.cumAck);
}

RdmaLossRecovery::TimerKind
RdmaNoRetransmitLossRecovery::OnTimer(RdmaRecoveryState& /* state */)
{
    return TIMER_NONE;
}

Time
RdmaNoRetransmitLossRecovery::GetTimerExpiry() const
{
    return Time::Max();
}

bool
RdmaNoRetransmitLossRecovery::PlacesOutOfOrder() const
{
    return false;
}

bool
RdmaNoRetransmitLossRecovery::Retransmits() const
{
    return false;
}

RdmaLossRecovery::RxVerdict
RdmaNoRetransmitLossRecovery::OnOutOfOrderData(RdmaReceiveState& state,
                                               RdmaReceiverOps& rx,
                                               uint64_t seq)
{
    // The gap is lost for good: count it and take this packet as the next one; no NAK.
    rx.CountLost(seq - state.expected);
    return RX_ACCEPT;
}

} // namespace ns3
