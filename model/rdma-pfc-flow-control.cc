/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-pfc-flow-control.h"

#include "pfc-pause-header.h"
#include "rdma-net-device.h"
#include "rdma-switch-mmu.h"

#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPfcFlowControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaPfcFlowControl);

TypeId
RdmaPfcFlowControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaPfcFlowControl")
                            .SetParent<RdmaLinkFlowControl>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaPfcFlowControl>();
    return tid;
}

RdmaPfcFlowControl::RdmaPfcFlowControl()
{
    NS_LOG_FUNCTION(this);
    m_lastPauseReceived.fill(Time::Min());
}

RdmaPfcFlowControl::~RdmaPfcFlowControl()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaPfcFlowControl::DoDispose()
{
    m_refreshEvent.Cancel();
    m_pfcSent = PfcSentCallback();
    RdmaLinkFlowControl::DoDispose();
}

void
RdmaPfcFlowControl::SetPfcSentCallback(PfcSentCallback cb)
{
    m_pfcSent = cb;
}

uint8_t
RdmaPfcFlowControl::DoGetBlockedMask(Time now) const
{
    uint8_t mask = 0;
    for (uint32_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (m_pausedUntil[cls] > now)
        {
            mask |= static_cast<uint8_t>(1U << cls);
        }
    }
    return mask;
}

bool
RdmaPfcFlowControl::IsPaused(uint8_t cls, Time now) const
{
    return m_pausedUntil[cls] > now;
}

Time
RdmaPfcFlowControl::GetLastPauseReceived(uint8_t cls) const
{
    return m_lastPauseReceived[cls];
}

Time
RdmaPfcFlowControl::GetNextUnblockTime(Time now, uint8_t classesWithWork) const
{
    bool found = false;
    Time earliest = Time::Max();
    for (uint32_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (m_pausedUntil[cls] > now && ((classesWithWork >> cls) & 1U) &&
            (!found || m_pausedUntil[cls] < earliest))
        {
            earliest = m_pausedUntil[cls];
            found = true;
        }
    }
    return earliest;
}

bool
RdmaPfcFlowControl::HandleControlFrame(Ptr<Packet> frame, uint16_t etherType)
{
    NS_LOG_FUNCTION(this << frame << etherType);
    if (etherType != RdmaNetDevice::ETHERTYPE_MAC_CONTROL)
    {
        return false;
    }
    EthernetHeader eth(false);
    frame->RemoveHeader(eth);
    PfcPauseHeader pfc;
    if (frame->GetSize() < PfcPauseHeader::SIZE)
    {
        frame->AddHeader(eth);
        NS_LOG_LOGIC("dropping truncated MAC control frame");
        return false;
    }
    frame->PeekHeader(pfc);
    if (!pfc.IsPfc())
    {
        frame->AddHeader(eth);
        NS_LOG_LOGIC("dropping MAC control frame with opcode 0x" << std::hex << pfc.GetOpcode());
        return false;
    }
    RdmaNetDevice* dev = GetDevice();
    ++dev->m_pfcReceived;
    const Time now = Simulator::Now();
    Time horizon = GetBlockHorizon();
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (pfc.IsClassEnabled(cls))
        {
            const uint16_t quanta = pfc.GetQuanta(cls);
            m_pausedUntil[cls] =
                quanta == 0 ? now : now + dev->m_dataRate.CalculateBitsTxTime(512u * quanta);
            if (quanta > 0)
            {
                m_lastPauseReceived[cls] = now;
            }
            horizon = std::max(horizon, m_pausedUntil[cls]);
            NS_LOG_LOGIC("class " << +cls << " paused for " << quanta << " quanta, until "
                                  << m_pausedUntil[cls].As(Time::US));
            dev->m_pfcRxTrace(cls, quanta);
        }
    }
    SetBlockHorizon(horizon);
    dev->ReEvaluateAfterControlFrame();
    return true;
}

Time
RdmaPfcFlowControl::GetRefreshInterval() const
{
    return GetDevice()->GetQuantumTime() * XOFF_QUANTA / 2;
}

void
RdmaPfcFlowControl::NotifyIngressAdmitted(uint8_t cls, uint32_t /* bytes */)
{
    RdmaSwitchMmu* mmu = GetMmu();
    const uint32_t port = GetSwitchPort();
    if (mmu->CheckShouldPause(port, cls))
    {
        mmu->SetPaused(port, cls, true);
        SendPfcFrame(static_cast<uint8_t>(1U << cls), true, false);
    }
}

void
RdmaPfcFlowControl::NotifyIngressReleased(uint8_t cls, uint32_t /* bytes */)
{
    // Called only for the classes this port paused (the release mask): only they can resume.
    RdmaSwitchMmu* mmu = GetMmu();
    const uint32_t port = GetSwitchPort();
    if (mmu->CheckShouldResume(port, cls))
    {
        mmu->SetPaused(port, cls, false);
        SendPfcFrame(static_cast<uint8_t>(1U << cls), false, false);
    }
}

void
RdmaPfcFlowControl::SendPfcFrame(uint8_t classMask, bool xoff, bool refresh)
{
    NS_LOG_FUNCTION(this << unsigned(classMask) << xoff << refresh);
    std::array<uint16_t, NUM_CLASSES> quanta{};
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        if ((classMask >> c) & 1U)
        {
            quanta[c] = xoff ? XOFF_QUANTA : 0;
        }
    }
    GetDevice()->SendPfc(classMask, quanta);
    SetReleaseMask(xoff ? GetReleaseMask() | classMask
                        : GetReleaseMask() & static_cast<uint8_t>(~classMask));
    if (xoff)
    {
        if (!m_refreshEvent.IsRunning())
        {
            m_refreshEvent =
                Simulator::Schedule(GetRefreshInterval(), &RdmaPfcFlowControl::RefreshPause, this);
        }
    }
    else if (GetMmu()->GetPausedMask(GetSwitchPort()) == 0)
    {
        m_refreshEvent.Cancel();
    }
    if (!m_pfcSent.IsNull())
    {
        m_pfcSent(GetSwitchPort(), classMask, xoff, refresh);
    }
}

void
RdmaPfcFlowControl::RefreshPause()
{
    const uint8_t mask = GetMmu()->GetPausedMask(GetSwitchPort());
    if (mask != 0)
    {
        SendPfcFrame(mask, true, true);
    }
}

} // namespace ns3
