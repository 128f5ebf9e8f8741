/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-go-back-n-loss-recovery.h"

#include "rdma-simulator-impl.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaGoBackNLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaGoBackNLossRecovery);

TypeId
RdmaGoBackNLossRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaGoBackNLossRecovery")
                            .SetParent<RdmaLossRecovery>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaGoBackNLossRecovery>();
    return tid;
}

std::string
RdmaGoBackNLossRecovery::GetName() const
{
    return "GoBackN";
}

Ptr<RdmaLossRecovery>
RdmaGoBackNLossRecovery::Fork()
{
    Ptr<RdmaGoBackNLossRecovery> copy = CopyObject<RdmaGoBackNLossRecovery>(this);
    copy->m_expiry = Time::Max();
    return copy;
}

void
RdmaGoBackNLossRecovery::OnPacketSent(RdmaRecoveryState& state,
                                      uint64_t /* seq */,
                                      bool /* retransmission */)
{
    if (m_expiry == Time::Max())
    {
        m_expiry = RdmaSimulatorImpl::CurrentTime() + state.baseRto;
    }
}

void
RdmaGoBackNLossRecovery::Rearm(const RdmaRecoveryState& state)
{
    m_expiry = state.sndUna < state.highestSent ? RdmaSimulatorImpl::CurrentTime() + state.baseRto
                                                : Time::Max();
}

void
RdmaGoBackNLossRecovery::OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack)
{
    if (state.sndUna > ack.previousUna)
    {
        Rearm(state);
    }
}

void
RdmaGoBackNLossRecovery::OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack)
{
    NS_LOG_FUNCTION(this << ack.cumAck);
    if (state.sndUna > ack.previousUna)
    {
        Rearm(state);
    }
    state.sndNxt = GetNakRestart(state, ack.cumAck);
}

RdmaLossRecovery::TimerKind
RdmaGoBackNLossRecovery::OnTimer(RdmaRecoveryState& state)
{
    NS_LOG_FUNCTION(this << state.sndUna);
    if (RdmaSimulatorImpl::CurrentTime() < m_expiry)
    {
        return TIMER_NONE;
    }
    if (state.sndUna >= state.highestSent)
    {
        m_expiry = Time::Max();
        return TIMER_NONE;
    }
    state.sndNxt = GetTimeoutRestart(state);
    m_expiry = RdmaSimulatorImpl::CurrentTime() + state.baseRto;
    return TIMER_RTO;
}

Time
RdmaGoBackNLossRecovery::GetTimerExpiry() const
{
    return m_expiry;
}

bool
RdmaGoBackNLossRecovery::PlacesOutOfOrder() const
{
    return false;
}

uint64_t
RdmaGoBackNLossRecovery::GetNakRestart(const RdmaRecoveryState& /* state */, uint64_t nakSeq) const
{
    return nakSeq;
}

uint64_t
RdmaGoBackNLossRecovery::GetTimeoutRestart(const RdmaRecoveryState& state) const
{
    return state.sndUna;
}

} // namespace ns3
