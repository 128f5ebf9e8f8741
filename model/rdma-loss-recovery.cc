/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-loss-recovery.h"

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

uint64_t
RdmaLossRecovery::GetPacketsInFlight(const RdmaRecoveryState& state) const
{
    return state.sndNxt - state.sndUna;
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
