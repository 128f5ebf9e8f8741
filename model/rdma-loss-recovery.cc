/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-loss-recovery.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaLossRecovery);

TypeId
RdmaLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLossRecovery").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
RdmaLossRecovery::Init(RdmaRecoveryState& /* state */)
{
}

bool
RdmaLossRecovery::GetNextSequence(const RdmaRecoveryState& state, uint64_t& seq) const
{
    if (state.sndNxt >= state.seqEnd)
    {
        return false;
    }
    seq = state.sndNxt;
    return true;
}

void
RdmaLossRecovery::OnRequestSent(RdmaRecoveryState& state,
                                uint64_t first,
                                uint64_t /* end */,
                                bool retransmission,
                                Time /* responseSpacing */)
{
    OnPacketSent(state, first, retransmission);
}

uint64_t
RdmaLossRecovery::GetRequestEnd(const RdmaRecoveryState& /* state */,
                                uint64_t /* seq */,
                                uint64_t messageEnd) const
{
    return messageEnd;
}

uint64_t
RdmaLossRecovery::GetPacketsInFlight(const RdmaRecoveryState& state) const
{
    return state.sndNxt - state.sndUna;
}

void
RdmaLossRecovery::OnDuplicateData(RdmaReceiveState& state,
                                  RdmaReceiverOps& rx,
                                  uint64_t /* seq */,
                                  bool ackRequested)
{
    // Re-acknowledge so the requester moves on, once per burst or whenever the packet asks
    // for an ACK (nothing to acknowledge before the first in-order packet).
    if ((!state.dupAckSent || ackRequested) && state.expected > 0)
    {
        state.dupAckSent = true;
        rx.SendAck(state.expected - 1);
    }
}

RdmaLossRecovery::RxVerdict
RdmaLossRecovery::OnOutOfOrderData(RdmaReceiveState& state, RdmaReceiverOps& rx, uint64_t seq)
{
    rx.CountOutOfOrderDiscard(seq);
    if (!state.nakOutstanding)
    {
        state.nakOutstanding = true;
        rx.SendNak(state.expected);
    }
    return RX_DISCARD;
}

void
RdmaLossRecovery::OnPlaceableData(RdmaReceiveState& /* state */,
                                  RdmaReceiverOps& /* rx */,
                                  const RdmaRxPacket& /* packet */)
{
    NS_ABORT_MSG("loss recovery " << GetName()
                                  << " places out of order but does not implement OnPlaceableData");
}

uint32_t
RdmaLossRecovery::GetReorderWindow() const
{
    return 0;
}

bool
RdmaLossRecovery::RestartsMessageOnGap() const
{
    return false;
}

bool
RdmaLossRecovery::Retransmits() const
{
    return true;
}

} // namespace ns3
