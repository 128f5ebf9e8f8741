/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-go-back-zero-loss-recovery.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaGoBackZeroLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaGoBackZeroLossRecovery);

TypeId
RdmaGoBackZeroLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaGoBackZeroLossRecovery")
                            .SetParent<RdmaGoBackNLossRecovery>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaGoBackZeroLossRecovery>();
    return tid;
}

std::string
RdmaGoBackZeroLossRecovery::GetName() const
{
    return "GoBackZero";
}

Ptr<RdmaLossRecovery>
RdmaGoBackZeroLossRecovery::Fork()
{
    // A fresh object: the only state (the timer) must not be copied.
    return CreateObject<RdmaGoBackZeroLossRecovery>();
}

void
RdmaGoBackZeroLossRecovery::OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack)
{
    RdmaGoBackNLossRecovery::OnNak(state, ack);
    Rearm(state);
}

bool
RdmaGoBackZeroLossRecovery::RestartsMessageOnGap() const
{
    return true;
}

void
RdmaGoBackZeroLossRecovery::OnDuplicateData(RdmaReceiveState& state,
                                            RdmaReceiverOps& rx,
                                            uint64_t /* seq */,
                                            bool ackRequested)
{
    // As go-back-N, but only whole messages are ever acknowledged.
    if ((!state.dupAckSent || ackRequested) && state.messageStart > 0)
    {
        state.dupAckSent = true;
        rx.SendAck(state.messageStart - 1);
    }
}

RdmaLossRecovery::RxVerdict
RdmaGoBackZeroLossRecovery::OnOutOfOrderData(RdmaReceiveState& state,
                                             RdmaReceiverOps& rx,
                                             uint64_t seq)
{
    rx.CountOutOfOrderDiscard(seq);
    if (!state.nakOutstanding)
    {
        state.nakOutstanding = true;
        // The partial message is discarded and asked for again from its first PSN.
        rx.DiscardPartialMessage();
        rx.SendNak(state.expected);
    }
    return RX_DISCARD;
}

uint64_t
RdmaGoBackZeroLossRecovery::GetNakRestart(const RdmaRecoveryState& state, uint64_t nakSeq) const
{
    // The responder NAKs the first PSN of the message it discarded, which is the message
    // holding sndUna: it acknowledges whole messages only.
    NS_LOG_FUNCTION(this << nakSeq << state.messageStart);
    return std::min(nakSeq, state.messageStart);
}

uint64_t
RdmaGoBackZeroLossRecovery::GetTimeoutRestart(const RdmaRecoveryState& state) const
{
    return state.messageStart;
}

} // namespace ns3
