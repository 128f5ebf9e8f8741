/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-no-retransmit-loss-recovery.h"

#include "rdma-bth-header.h"
#include "rdma-sack-header.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNoRetransmitLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaNoRetransmitLossRecovery);

TypeId
RdmaNoRetransmitLossRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNoRetransmitLossRecovery")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNoRetransmitLossRecovery>()
            .AddAttribute(
                "ReorderWindow",
                "Responder's reorder bitmap, packets. 0: in-order responder "
                "(IBTA), a packet beyond a gap gives the gap up at once. W > 0: "
                "packets are placed as they arrive (every packet carries its "
                "placement information) and a hole is given up only when a "
                "packet arrives W PSNs beyond it or ReorderTimeout passes. Valid: 0 up to "
                "4064 (RdmaSackHeader::MAX_BITS).",
                UintegerValue(0),
                MakeUintegerAccessor(&RdmaNoRetransmitLossRecovery::m_reorderWindow),
                MakeUintegerChecker<uint32_t>(0, RdmaSackHeader::MAX_BITS))
            .AddAttribute("ReorderTimeout",
                          "With ReorderWindow > 0: a hole is given up (counted lost) when "
                          "a packet beyond it has waited this long. Default: five times "
                          "the sub-2 us round trip Broadcom's SUE framework targets, far "
                          "above the skew the planes of a pod add. Valid: at least 1 ns.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaNoRetransmitLossRecovery::m_reorderTimeout),
                          MakeTimeChecker(NanoSeconds(1)));
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
    Ptr<RdmaNoRetransmitLossRecovery> copy = CopyObject<RdmaNoRetransmitLossRecovery>(this);
    copy->m_rxSlots.clear(); // fresh responder state
    copy->m_rxHighest = 0;
    copy->m_unackedPackets = 0;
    copy->m_lateArrivals = 0;
    copy->m_reorderTimer = EventId();
    copy->m_rxState = nullptr;
    copy->m_rxOps = nullptr;
    return copy;
}

void
RdmaNoRetransmitLossRecovery::DoDispose()
{
    m_reorderTimer.Cancel();
    m_rxState = nullptr;
    m_rxOps = nullptr;
    RdmaLossRecovery::DoDispose();
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
    return m_reorderWindow > 0;
}

uint32_t
RdmaNoRetransmitLossRecovery::GetReorderWindow() const
{
    return m_reorderWindow;
}

uint64_t
RdmaNoRetransmitLossRecovery::GetLateArrivals() const
{
    return m_lateArrivals;
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

void
RdmaNoRetransmitLossRecovery::OnPlaceableData(RdmaReceiveState& state,
                                              RdmaReceiverOps& rx,
                                              const RdmaRxPacket& packet)
{
    if (m_rxSlots.empty())
    {
        m_rxSlots.assign(m_reorderWindow, RxSlot());
        m_rxState = &state;
        m_rxOps = &rx;
    }
    const uint64_t window = m_rxSlots.size();
    const uint64_t seq = packet.seq;
    if (seq < state.expected || (seq < m_rxHighest && m_rxSlots[seq % window].present))
    {
        // Nothing is sent twice in this mode: its hole was given up before it came.
        ++m_lateArrivals;
        rx.CountDuplicate();
        NS_LOG_LOGIC("seq " << seq << " arrived after its hole was given up");
        return;
    }
    bool lastDelivered = false;
    if (seq >= state.expected + window)
    {
        lastDelivered = GiveUpHolesBelow(state, rx, seq - window + 1);
    }
    const bool outOfOrder = seq > state.expected;
    RxSlot& slot = m_rxSlots[seq % window];
    slot.present = true;
    slot.opcode = packet.opcode;
    slot.bytes = packet.bytes;
    slot.arrival = Simulator::Now();
    slot.span = packet.span;
    rx.Place(packet, outOfOrder);
    m_rxHighest = std::max(m_rxHighest, seq + packet.span);
    lastDelivered |= DeliverInOrderRun(state, rx);
    // As the in-order responder: an ACK every AckInterval arrivals, on AckReq and at a
    // message's end; it stays cumulative (no SACK: the requester never retransmits).
    if (!IsRequest(packet.opcode))
    {
        ++m_unackedPackets;
    }
    if (m_unackedPackets >= state.ackInterval || packet.ackRequested || lastDelivered)
    {
        m_unackedPackets = 0;
        rx.SendAck(state.expected - 1);
    }
    ArmReorderTimer(state);
}

bool
RdmaNoRetransmitLossRecovery::IsRequest(uint8_t opcode)
{
    return opcode == RC_READ_REQUEST || opcode == RC_FETCH_ADD || opcode == RC_COMPARE_SWAP;
}

bool
RdmaNoRetransmitLossRecovery::DeliverInOrderRun(RdmaReceiveState& state, RdmaReceiverOps& rx)
{
    const uint64_t window = m_rxSlots.size();
    bool lastDelivered = false;
    while (state.expected < m_rxHighest && m_rxSlots[state.expected % window].present)
    {
        RxSlot& s = m_rxSlots[state.expected % window];
        s.present = false;
        // A READ Request or an atomic ends a message too, but its responses acknowledge it
        // (IBTA vol. 1 §9.7.5.1): it asks for no ACK.
        lastDelivered |= RdmaBthHeader::IsLastOrOnly(s.opcode) && !IsRequest(s.opcode);
        rx.Deliver(state.expected, s.opcode, s.bytes, s.arrival); // advances state.expected
        state.expected += s.span - 1;                             // a READ Request's other PSNs
    }
    return lastDelivered;
}

bool
RdmaNoRetransmitLossRecovery::GiveUpHolesBelow(RdmaReceiveState& state,
                                               RdmaReceiverOps& rx,
                                               uint64_t target)
{
    const uint64_t window = m_rxSlots.size();
    bool lastDelivered = false;
    while (state.expected < target)
    {
        if (state.expected < m_rxHighest && m_rxSlots[state.expected % window].present)
        {
            lastDelivered |= DeliverInOrderRun(state, rx);
            continue;
        }
        uint64_t end = state.expected + 1;
        while (end < target && !(end < m_rxHighest && m_rxSlots[end % window].present))
        {
            ++end;
        }
        rx.CountLost(end - state.expected);
        state.expected = end;
    }
    return lastDelivered | DeliverInOrderRun(state, rx);
}

void
RdmaNoRetransmitLossRecovery::ArmReorderTimer(const RdmaReceiveState& state)
{
    if (m_rxHighest > state.expected && !m_reorderTimer.IsRunning())
    {
        m_reorderTimer = Simulator::Schedule(m_reorderTimeout,
                                             &RdmaNoRetransmitLossRecovery::ReorderTimerExpired,
                                             this);
    }
}

void
RdmaNoRetransmitLossRecovery::ReorderTimerExpired()
{
    NS_ASSERT(m_rxState && m_rxOps);
    RdmaReceiveState& state = *m_rxState;
    const uint64_t window = m_rxSlots.size();
    const Time now = Simulator::Now();
    bool gaveUp = false;
    while (m_rxHighest > state.expected)
    {
        // The oldest waiting packet is the first placed one beyond the first hole.
        uint64_t first = state.expected;
        while (!m_rxSlots[first % window].present)
        {
            ++first;
        }
        const Time deadline = m_rxSlots[first % window].arrival + m_reorderTimeout;
        if (deadline > now)
        {
            m_reorderTimer = Simulator::Schedule(deadline - now,
                                                 &RdmaNoRetransmitLossRecovery::ReorderTimerExpired,
                                                 this);
            break;
        }
        GiveUpHolesBelow(state, *m_rxOps, first);
        gaveUp = true;
    }
    if (gaveUp)
    {
        m_unackedPackets = 0;
        m_rxOps->SendAck(state.expected - 1); // what was delivered, message end or not
    }
}

} // namespace ns3
