/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-go-back-n-loss-recovery.h"

#include "ns3/log.h"

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
    return CopyObject<RdmaGoBackNLossRecovery>(this);
}

void
RdmaGoBackNLossRecovery::OnNak(RdmaRecoveryState& state, uint64_t nakSeq)
{
    NS_LOG_FUNCTION(this << nakSeq);
    state.sndNxt = nakSeq;
}

void
RdmaGoBackNLossRecovery::OnTimeout(RdmaRecoveryState& state)
{
    NS_LOG_FUNCTION(this << state.sndUna);
    state.sndNxt = state.sndUna;
}

bool
RdmaGoBackNLossRecovery::PlacesOutOfOrder() const
{
    return false;
}

} // namespace ns3
