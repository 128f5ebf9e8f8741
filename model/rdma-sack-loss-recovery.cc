/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-sack-loss-recovery.h"

#include "rdma-bth-header.h"
#include "rdma-sack-header.h"
#include "rdma-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSackLossRecovery");
NS_OBJECT_ENSURE_REGISTERED(RdmaSackLossRecovery);

namespace
{
/// RFC 8985 section 6.2: reset the reordering window after this many recoveries without
/// a D-SACK.
constexpr int32_t REO_WND_PERSIST = 16;
/// Largest retransmission timeout backoff exponent.
constexpr uint32_t MAX_BACKOFF = 10;

/// \return true for a READ Request or an atomic request (BTH opcode)
bool
IsRequest(uint8_t opcode)
{
    return opcode == RC_READ_REQUEST || opcode == RC_COMPARE_SWAP || opcode == RC_FETCH_ADD;
}
} // namespace

TypeId
RdmaSackLossRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSackLossRecovery")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSackLossRecovery>()
            .AddAttribute("ReceiverWindow",
                          "Responder's reorder bitmap, packets: a packet more than this many "
                          "PSNs past the first missing one is dropped (and counted).",
                          UintegerValue(512),
                          MakeUintegerAccessor(&RdmaSackLossRecovery::m_receiverWindow),
                          MakeUintegerChecker<uint32_t>(1, RdmaSackHeader::MAX_BITS))
            .AddAttribute("MaxOutstanding",
                          "IRN's BDP cap: a new packet is sent only while fewer than this many "
                          "packets are outstanding past the cumulative ACK point "
                          "(retransmissions are always allowed). 0: ReceiverWindow.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSackLossRecovery::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReorderingWindowMultiplier",
                          "Initial RACK.reo_wnd_mult: the reordering window is this many "
                          "quarters of min_RTT (capped at SRTT).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaSackLossRecovery::m_initialReoMult),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("AdaptiveReorderingWindow",
                          "Grow the reordering window by min_RTT/4 per round trip with a "
                          "D-SACK and reset it after 16 recoveries without (RFC 8985 6.2).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaSackLossRecovery::m_adaptiveReo),
                          MakeBooleanChecker())
            .AddAttribute("DupThresh",
                          "Until reordering is observed, use a zero reordering window when "
                          "this many packets are SACKed or during recovery (RFC 8985 6.2, "
                          "TCP's 3); 0 disables the rule.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSackLossRecovery::m_dupThresh),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tlp",
                          "Send tail-loss probes (RFC 8985 section 7).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaSackLossRecovery::m_tlp),
                          MakeBooleanChecker())
            .AddAttribute("TlpPtoMultiplier",
                          "Probe timeout in units of SRTT (RFC 8985: 2).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&RdmaSackLossRecovery::m_ptoMultiplier),
                          MakeDoubleChecker<double>(0.1))
            .AddAttribute("MinRto",
                          "Lower bound of the retransmission timeout SRTT + 4 RTTVAR.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaSackLossRecovery::m_minRto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("LossMarked",
                            "A packet was marked lost (RACK or timeout) and queued for "
                            "retransmission.",
                            MakeTraceSourceAccessor(&RdmaSackLossRecovery::m_lossTrace),
                            "ns3::RdmaSackLossRecovery::SequenceTracedCallback")
            .AddTraceSource("TlpProbe",
                            "A tail-loss probe was sent (its sequence).",
                            MakeTraceSourceAccessor(&RdmaSackLossRecovery::m_probeTrace),
                            "ns3::RdmaSackLossRecovery::SequenceTracedCallback");
    return tid;
}

RdmaSackLossRecovery::RdmaSackLossRecovery()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaSackLossRecovery::GetName() const
{
    return "Sack";
}

Ptr<RdmaLossRecovery>
RdmaSackLossRecovery::Fork()
{
    Ptr<RdmaSackLossRecovery> copy = CreateObject<RdmaSackLossRecovery>();
    copy->m_receiverWindow = m_receiverWindow;
    copy->m_maxOutstanding = m_maxOutstanding;
    copy->m_initialReoMult = m_initialReoMult;
    copy->m_adaptiveReo = m_adaptiveReo;
    copy->m_dupThresh = m_dupThresh;
    copy->m_tlp = m_tlp;
    copy->m_ptoMultiplier = m_ptoMultiplier;
    copy->m_minRto = m_minRto;
    return copy;
}

void
RdmaSackLossRecovery::Init(RdmaRecoveryState& state)
{
    m_baseRto = state.baseRto;
    m_reoMult = m_initialReoMult;
    m_sbBase = state.sndUna;
}

uint32_t
RdmaSackLossRecovery::GetMaxOutstanding() const
{
    return m_maxOutstanding == 0 ? m_receiverWindow : m_maxOutstanding;
}

RdmaSackLossRecovery::Segment&
RdmaSackLossRecovery::At(uint64_t seq)
{
    NS_ASSERT(seq >= m_sbBase && seq - m_sbBase < m_sb.size());
    return m_sb[seq - m_sbBase];
}

const RdmaSackLossRecovery::Segment&
RdmaSackLossRecovery::At(uint64_t seq) const
{
    NS_ASSERT(seq >= m_sbBase && seq - m_sbBase < m_sb.size());
    return m_sb[seq - m_sbBase];
}

void
RdmaSackLossRecovery::Link(uint64_t seq)
{
    Segment& s = At(seq);
    NS_ASSERT(!s.linked);
    s.prev = m_tail;
    s.next = NONE;
    if (m_tail != NONE)
    {
        At(m_tail).next = seq;
    }
    else
    {
        m_head = seq;
    }
    m_tail = seq;
    s.linked = true;
}

void
RdmaSackLossRecovery::LinkSorted(uint64_t seq)
{
    Segment& s = At(seq);
    NS_ASSERT(!s.linked);
    // Walk back from the tail past the entries timed after this one.
    uint64_t after = NONE; // the entry that will follow seq
    uint64_t before = m_tail;
    while (before != NONE && SentAfter(At(before).xmitTs, before, s.xmitTs, seq))
    {
        after = before;
        before = At(before).prev;
    }
    s.prev = before;
    s.next = after;
    if (before != NONE)
    {
        At(before).next = seq;
    }
    else
    {
        m_head = seq;
    }
    if (after != NONE)
    {
        At(after).prev = seq;
    }
    else
    {
        m_tail = seq;
    }
    s.linked = true;
}

void
RdmaSackLossRecovery::Unlink(uint64_t seq)
{
    Segment& s = At(seq);
    if (!s.linked)
    {
        return;
    }
    if (s.prev != NONE)
    {
        At(s.prev).next = s.next;
    }
    else
    {
        m_head = s.next;
    }
    if (s.next != NONE)
    {
        At(s.next).prev = s.prev;
    }
    else
    {
        m_tail = s.prev;
    }
    s.prev = NONE;
    s.next = NONE;
    s.linked = false;
}

bool
RdmaSackLossRecovery::SentAfter(Time t1, uint64_t seq1, Time t2, uint64_t seq2)
{
    return t1 > t2 || (t1 == t2 && seq1 > seq2);
}

bool
RdmaSackLossRecovery::GetNextSequence(const RdmaRecoveryState& state, uint64_t& seq) const
{
    if (!m_lostQueue.empty())
    {
        seq = *m_lostQueue.begin();
        return true;
    }
    if (state.highestSent < state.seqEnd &&
        state.highestSent - state.sndUna < uint64_t(GetMaxOutstanding()))
    {
        seq = state.highestSent;
        return true;
    }
    if (m_probePending)
    {
        // No new data may go: probe with the highest outstanding packet not yet delivered.
        for (uint64_t s = m_sbBase + m_sb.size(); s > m_sbBase; --s)
        {
            if (!At(s - 1).sacked)
            {
                seq = s - 1;
                return true;
            }
        }
    }
    return false;
}

void
RdmaSackLossRecovery::RecordSent(uint64_t seq, Time xmitTs)
{
    if (seq >= m_sbBase + m_sb.size())
    {
        NS_ASSERT_MSG(seq == m_sbBase + m_sb.size(), "new data must be sent in order");
        m_sb.push_back(Segment());
    }
    else
    {
        Segment& s = At(seq);
        if (s.lost)
        {
            s.lost = false;
            m_lostQueue.erase(seq);
        }
        else
        {
            Unlink(seq);
        }
        s.retransmitted = true;
    }
    At(seq).xmitTs = xmitTs;
}

void
RdmaSackLossRecovery::AfterSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission)
{
    const Time now = RdmaSimulatorImpl::CurrentTime();
    const bool probe = m_probePending;
    if (probe)
    {
        m_probePending = false;
        m_tlpEpisode = true;
        m_tlpEndSeq = state.highestSent;
        ++m_tlpProbes;
        m_probeTrace(seq);
        NS_LOG_LOGIC("tail-loss probe seq " << seq);
    }
    if (m_rtoExpiry == Time::Max() || probe)
    {
        m_rtoExpiry = now + Rto();
    }
    if (!retransmission && !probe)
    {
        ArmPto(state);
    }
}

void
RdmaSackLossRecovery::OnPacketSent(RdmaRecoveryState& state, uint64_t seq, bool retransmission)
{
    RecordSent(seq, RdmaSimulatorImpl::CurrentTime());
    Link(seq);
    AfterSent(state, seq, retransmission);
}

void
RdmaSackLossRecovery::OnRequestSent(RdmaRecoveryState& state,
                                    uint64_t first,
                                    uint64_t end,
                                    bool retransmission,
                                    Time responseSpacing)
{
    const Time now = RdmaSimulatorImpl::CurrentTime();
    for (uint64_t seq = first; seq < end; ++seq)
    {
        RecordSent(seq, now + responseSpacing * int64_t(seq - first));
        At(seq).response = true; // delivered by its response only, never by an ACK
        LinkSorted(seq);
    }
    AfterSent(state, first, retransmission);
}

uint64_t
RdmaSackLossRecovery::GetRequestEnd(const RdmaRecoveryState& state,
                                    uint64_t seq,
                                    uint64_t messageEnd) const
{
    if (seq >= state.highestSent)
    {
        return messageEnd; // a first request: the whole READ
    }
    if (!At(seq).lost)
    {
        return seq + 1; // a tail-loss probe: the one response
    }
    // IRN: ask again for the run of responses marked lost, and only for it.
    uint64_t end = seq + 1;
    while (end < messageEnd && end < m_sbBase + m_sb.size() && At(end).lost)
    {
        ++end;
    }
    return end;
}

void
RdmaSackLossRecovery::Deliver(uint64_t seq, Segment& s)
{
    if (s.lost)
    {
        s.lost = false; // marked lost too early: it arrived after all
        m_lostQueue.erase(seq);
    }
    else
    {
        Unlink(seq);
    }
    // RACK_detect_reordering (RFC 8985 section 6.2, step 3)
    if (!m_fackValid || seq > m_fack)
    {
        m_fack = seq;
        m_fackValid = true;
    }
    else if (seq < m_fack && !s.retransmitted)
    {
        m_reorderingSeen = true;
    }
}

void
RdmaSackLossRecovery::UpdateRtt(Time rtt)
{
    if (!m_hasRtt)
    {
        m_srtt = rtt;
        m_rttvar = rtt / 2;
        m_hasRtt = true;
    }
    else
    {
        const Time err = m_srtt > rtt ? m_srtt - rtt : rtt - m_srtt;
        m_rttvar = (m_rttvar * 3 + err) / 4;
        m_srtt = (m_srtt * 7 + rtt) / 8;
    }
    m_minRtt = std::min(m_minRtt, rtt);
}

void
RdmaSackLossRecovery::OnAck(RdmaRecoveryState& state, const RdmaAckInfo& ack)
{
    const Time now = RdmaSimulatorImpl::CurrentTime();
    const bool progress = state.sndUna > m_sbBase;

    // Newly delivered packets; the most recently sent of them updates RACK (RFC 8985
    // RACK_update processes them in transmission order, so the last one wins).
    bool haveNewest = false;
    Time newestTs;
    uint64_t newestSeq = 0;
    bool newestRetx = false;
    bool haveKarn = false;
    Time karnTs; // newest delivered packet that was never retransmitted
    auto consider = [&](uint64_t seq, const Segment& s) {
        if (!haveNewest || SentAfter(s.xmitTs, seq, newestTs, newestSeq))
        {
            haveNewest = true;
            newestTs = s.xmitTs;
            newestSeq = seq;
            newestRetx = s.retransmitted;
        }
        if (!s.retransmitted && (!haveKarn || s.xmitTs > karnTs))
        {
            haveKarn = true;
            karnTs = s.xmitTs;
        }
    };
    // A data PSN the responder reports received (cumulatively past a READ, or by a SACK
    // bit). A response PSN is not: only its landed response delivers it (IRN, §4.2).
    auto reportedReceived = [&](uint64_t seq) {
        Segment& s = At(seq);
        if (!s.sacked && !s.response)
        {
            s.sacked = true;
            ++m_sackedCount;
            Deliver(seq, s);
            consider(seq, s);
        }
    };

    // Cumulative part.
    while (m_sbBase < state.sndUna && !m_sb.empty())
    {
        Segment& s = m_sb.front();
        if (s.sacked)
        {
            --m_sackedCount;
        }
        else
        {
            Deliver(m_sbBase, s);
            consider(m_sbBase, s);
        }
        m_sb.pop_front();
        ++m_sbBase;
    }
    m_sbBase = std::max(m_sbBase, state.sndUna);

    // The responder's cumulative point beyond the queue pair's (held at a READ or atomic
    // whose responses have not all landed): the WRITE and SEND packets before it arrived.
    // A response PSN counts at the responder once the request executed, not here: only
    // its landed response delivers it (IRN, §4.2).
    const uint64_t sackBase = std::max(ack.cumAck, ack.peerCumAck);
    if (ack.peerCumAck > m_sbBase)
    {
        const uint64_t end = std::min(ack.peerCumAck, m_sbBase + m_sb.size());
        for (uint64_t seq = std::max(m_sbBase, m_peerCumDone); seq < end; ++seq)
        {
            reportedReceived(seq);
        }
        m_peerCumDone = std::max(m_peerCumDone, end);
    }

    // Selective part: bit i reports sackBase + 1 + i.
    if (ack.sack)
    {
        const std::vector<uint32_t>& words = ack.sack->GetWords();
        const uint64_t first = sackBase + 1;
        const uint64_t end = m_sbBase + m_sb.size();
        for (std::size_t w = 0; w < words.size(); ++w)
        {
            if (words[w] == 0)
            {
                continue;
            }
            for (uint32_t b = 0; b < 32; ++b)
            {
                if ((words[w] & (0x80000000u >> b)) == 0)
                {
                    continue;
                }
                const uint64_t seq = first + 32 * w + b;
                if (seq < m_sbBase)
                {
                    continue;
                }
                if (seq >= end)
                {
                    break;
                }
                reportedReceived(seq);
            }
        }
    }

    // A READ Response or Atomic Acknowledge that landed above the cumulative point.
    if (ack.responseSeq != RdmaAckInfo::NO_RESPONSE && ack.responseSeq >= m_sbBase &&
        ack.responseSeq < m_sbBase + m_sb.size())
    {
        Segment& s = At(ack.responseSeq);
        if (!s.sacked)
        {
            s.sacked = true;
            ++m_sackedCount;
            Deliver(ack.responseSeq, s);
            consider(ack.responseSeq, s);
        }
    }

    // RTT samples (Karn: never retransmitted) and RACK_update.
    if (haveKarn)
    {
        UpdateRtt(now - karnTs);
    }
    if (haveNewest)
    {
        const Time rtt = now - newestTs;
        // A retransmitted packet delivered faster than min_RTT was delivered by an earlier
        // transmission: its sample says nothing (RFC 8985 RACK_update).
        if (!newestRetx || rtt >= m_minRtt)
        {
            m_rackRtt = rtt;
            if (!m_rackValid || SentAfter(newestTs, newestSeq, m_rackXmitTs, m_rackEndSeq))
            {
                m_rackXmitTs = newestTs;
                m_rackEndSeq = newestSeq;
                m_rackValid = true;
            }
        }
    }

    // RACK_update_reo_wnd: D-SACK driven adaptation (RFC 8985 section 6.2, step 4).
    if (m_dsackRoundValid && state.sndUna >= m_dsackRound)
    {
        m_dsackRoundValid = false;
    }
    if (ack.duplicate)
    {
        // A duplicate arrival proves a needless retransmission: reordering (or a probe
        // that was not needed), so the reordering window stops being zeroed by DupThresh.
        ++m_dsacks;
        m_reorderingSeen = true;
        if (m_adaptiveReo && !m_dsackRoundValid)
        {
            m_dsackRoundValid = true;
            m_dsackRound = state.highestSent;
            ++m_reoMult;
            m_reoPersist = REO_WND_PERSIST;
        }
    }
    if (m_inRecovery && state.sndUna >= m_recoveryPoint)
    {
        m_inRecovery = false;
        if (m_adaptiveReo && --m_reoPersist <= 0)
        {
            m_reoMult = m_initialReoMult;
        }
    }
    if (m_tlpEpisode && state.sndUna >= m_tlpEndSeq)
    {
        m_tlpEpisode = false;
    }

    if (progress)
    {
        m_backoff = 0;
        m_rtoExpiry = now + Rto(); // RFC 6298 (5.3)
    }
    DetectLoss(state);
    if (progress)
    {
        ArmPto(state);
    }
    StopTimersIfIdle(state);
    state.sackedPackets = m_sackedCount;
    state.lossesDetected = m_rackLosses;
}

void
RdmaSackLossRecovery::OnNak(RdmaRecoveryState& state, const RdmaAckInfo& ack)
{
    // The selective responder never NAKs; a NAK from an IBTA responder still says that
    // ack.cumAck is missing.
    RdmaAckInfo plain = ack;
    plain.nak = false;
    OnAck(state, plain);
    if (ack.cumAck < m_sbBase + m_sb.size())
    {
        Segment& s = At(ack.cumAck);
        if (!s.lost && !s.sacked)
        {
            MarkLost(state, ack.cumAck);
        }
    }
    state.lossesDetected = m_rackLosses;
}

void
RdmaSackLossRecovery::MarkLost(const RdmaRecoveryState& state, uint64_t seq)
{
    Segment& s = At(seq);
    Unlink(seq);
    s.lost = true;
    m_lostQueue.insert(seq);
    if (m_markingOnRto)
    {
        ++m_rtoLosses;
    }
    else
    {
        ++m_rackLosses;
    }
    m_lossTrace(seq);
    NS_LOG_LOGIC("seq " << seq << " marked lost" << (m_markingOnRto ? " (RTO)" : " (RACK)"));
    if (!m_inRecovery)
    {
        m_inRecovery = true;
        m_recoveryPoint = state.highestSent;
    }
    m_ptoExpiry = Time::Max();
    m_probePending = false;
}

Time
RdmaSackLossRecovery::ReoWnd() const
{
    if (!m_reorderingSeen && m_dupThresh > 0)
    {
        if (m_inRecovery || m_sackedCount >= m_dupThresh)
        {
            return Time(0);
        }
    }
    if (m_minRtt == Time::Max())
    {
        return Time(0);
    }
    const Time w = m_minRtt * int64_t(m_reoMult) / 4;
    return std::min(w, m_srtt);
}

void
RdmaSackLossRecovery::DetectLoss(const RdmaRecoveryState& state)
{
    m_reoExpiry = Time::Max();
    if (!m_rackValid)
    {
        return;
    }
    const Time now = RdmaSimulatorImpl::CurrentTime();
    const Time reoWnd = ReoWnd();
    Time timeout(0);
    uint64_t seq = m_head;
    while (seq != NONE)
    {
        const Segment& s = At(seq);
        const uint64_t next = s.next;
        if (!SentAfter(m_rackXmitTs, m_rackEndSeq, s.xmitTs, seq))
        {
            break; // the rest was sent later still
        }
        const Time remaining = s.xmitTs + m_rackRtt + reoWnd - now;
        if (remaining <= Time(0))
        {
            MarkLost(state, seq);
        }
        else
        {
            timeout = std::max(timeout, remaining);
        }
        seq = next;
    }
    if (timeout > Time(0))
    {
        m_reoExpiry = now + timeout;
    }
}

Time
RdmaSackLossRecovery::Rto() const
{
    const Time base =
        m_hasRtt ? std::max(m_minRto, m_srtt + m_rttvar * 4) : std::max(m_minRto, m_baseRto);
    // Backoff doubles up to the NIC's RetransmitTimeout (or the base, if that is larger).
    const Time cap = std::max(base, m_baseRto);
    Time rto = base;
    for (uint32_t i = 0; i < m_backoff && rto < cap; ++i)
    {
        rto = std::min(rto * 2, cap);
    }
    return rto;
}

void
RdmaSackLossRecovery::ArmPto(const RdmaRecoveryState& state)
{
    if (!m_tlp || m_inRecovery || m_tlpEpisode || !m_hasRtt || state.sndUna >= state.highestSent)
    {
        m_ptoExpiry = Time::Max();
        return;
    }
    const Time now = RdmaSimulatorImpl::CurrentTime();
    Time pto = m_srtt * m_ptoMultiplier;
    if (m_rtoExpiry != Time::Max() && now + pto > m_rtoExpiry)
    {
        pto = m_rtoExpiry - now; // never later than the retransmission timeout
    }
    m_ptoExpiry = now + pto;
}

void
RdmaSackLossRecovery::StopTimersIfIdle(const RdmaRecoveryState& state)
{
    if (state.sndUna >= state.highestSent)
    {
        m_rtoExpiry = Time::Max();
        m_ptoExpiry = Time::Max();
        m_reoExpiry = Time::Max();
        m_probePending = false;
        m_tlpEpisode = false;
    }
}

RdmaLossRecovery::TimerKind
RdmaSackLossRecovery::OnTimer(RdmaRecoveryState& state)
{
    const Time now = RdmaSimulatorImpl::CurrentTime();
    if (state.sndUna >= state.highestSent)
    {
        StopTimersIfIdle(state);
        return TIMER_NONE;
    }
    if (m_reoExpiry <= now)
    {
        DetectLoss(state);
        state.lossesDetected = m_rackLosses;
        return TIMER_REORDER;
    }
    if (m_ptoExpiry <= now)
    {
        m_ptoExpiry = Time::Max();
        m_probePending = true;
        return TIMER_PROBE;
    }
    if (m_rtoExpiry <= now)
    {
        // RFC 8985 section 6.3: the first outstanding packet and every packet sent longer
        // than RACK.rtt + reo_wnd ago are lost.
        NS_LOG_LOGIC("retransmission timeout at seq " << state.sndUna);
        const Time reoWnd = ReoWnd();
        m_markingOnRto = true;
        for (uint64_t seq = m_sbBase; seq < m_sbBase + m_sb.size(); ++seq)
        {
            const Segment& s = At(seq);
            if (s.sacked || s.lost)
            {
                continue;
            }
            if (seq == state.sndUna || s.xmitTs + m_rackRtt + reoWnd <= now)
            {
                MarkLost(state, seq);
            }
        }
        m_markingOnRto = false;
        m_backoff = std::min(m_backoff + 1, MAX_BACKOFF);
        m_tlpEpisode = false;
        m_probePending = false;
        m_ptoExpiry = Time::Max();
        m_reoExpiry = Time::Max();
        m_rtoExpiry = now + Rto();
        return TIMER_RTO;
    }
    return TIMER_NONE;
}

Time
RdmaSackLossRecovery::GetTimerExpiry() const
{
    return std::min(m_rtoExpiry, std::min(m_ptoExpiry, m_reoExpiry));
}

uint64_t
RdmaSackLossRecovery::GetPacketsInFlight(const RdmaRecoveryState& /* state */) const
{
    return m_sb.size() - m_sackedCount - m_lostQueue.size();
}

bool
RdmaSackLossRecovery::PlacesOutOfOrder() const
{
    return true;
}

uint32_t
RdmaSackLossRecovery::GetReorderWindow() const
{
    return m_receiverWindow;
}

void
RdmaSackLossRecovery::OnPlaceableData(RdmaReceiveState& state,
                                      RdmaReceiverOps& rx,
                                      const RdmaRxPacket& packet)
{
    if (m_rxSlots.empty())
    {
        m_rxSlots.assign(m_receiverWindow, RxSlot());
    }
    const uint64_t window = m_rxSlots.size();
    const uint64_t seq = packet.seq;
    if (seq < state.expected || (seq < state.expected + window && m_rxSlots[seq % window].present))
    {
        // Already placed (a spurious retransmission or a probe): say so (D-SACK).
        rx.CountDuplicate();
        SendSack(state, rx, seq, true);
        return;
    }
    if (seq >= state.expected + window)
    {
        rx.CountWindowDrop(seq);
        SendSack(state, rx, seq, false);
        return;
    }
    const bool outOfOrder = seq > state.expected;
    const bool request = IsRequest(packet.opcode);
    RxSlot& slot = m_rxSlots[seq % window];
    slot.present = true;
    slot.opcode = packet.opcode;
    slot.bytes = request ? static_cast<uint32_t>(packet.span) : packet.bytes;
    slot.arrival = RdmaSimulatorImpl::CurrentTime();
    rx.Place(packet, outOfOrder);
    m_rxHighest = std::max(m_rxHighest, seq + (request ? packet.span : 1));

    // Deliver what is now in order, completing messages in order.
    bool lastDelivered = false;
    const bool dataDelivered = DeliverInOrderRun(state, rx, lastDelivered);
    if (request)
    {
        // A READ or atomic request is acknowledged by its responses; an ACK only tells the
        // requester of WRITE or SEND packets it let through (the cumulative point moved
        // over data that waited behind it).
        if (dataDelivered)
        {
            m_unackedPackets = 0;
            SendSack(state, rx, seq, false);
        }
        return;
    }
    const bool holes = m_rxHighest > state.expected;
    if (++m_unackedPackets >= state.ackInterval || packet.ackRequested || lastDelivered || holes ||
        outOfOrder)
    {
        m_unackedPackets = 0;
        SendSack(state, rx, seq, false);
    }
}

bool
RdmaSackLossRecovery::DeliverInOrderRun(RdmaReceiveState& state,
                                        RdmaReceiverOps& rx,
                                        bool& lastDelivered)
{
    const uint64_t window = m_rxSlots.size();
    bool dataDelivered = false;
    while (state.expected < m_rxHighest && m_rxSlots[state.expected % window].present)
    {
        RxSlot& s = m_rxSlots[state.expected % window];
        s.present = false;
        if (IsRequest(s.opcode))
        {
            // IBTA vol. 1 §9.4.3: an executed request's PSNs, one per response, are received.
            const uint64_t seq = state.expected;
            rx.Deliver(seq, s.opcode, 0, s.arrival);
            state.expected = seq + s.bytes;
            continue;
        }
        dataDelivered = true;
        lastDelivered |= RdmaBthHeader::IsLastOrOnly(s.opcode);
        rx.Deliver(state.expected, s.opcode, s.bytes, s.arrival); // advances state.expected
    }
    return dataDelivered;
}

void
RdmaSackLossRecovery::SendSack(const RdmaReceiveState& state,
                               RdmaReceiverOps& rx,
                               uint64_t triggerSeq,
                               bool duplicate)
{
    RdmaSackHeader sack;
    sack.SetDuplicate(duplicate);
    const uint64_t window = m_rxSlots.size();
    // Slots exist for [expected, expected + window); an executed request's slot reports its
    // whole span (up to the bitmap's end).
    const uint64_t end = std::min(m_rxHighest, state.expected + window);
    uint64_t s = state.expected + 1;
    while (s < end)
    {
        const RxSlot& slot = m_rxSlots[s % window];
        if (!slot.present)
        {
            ++s;
            continue;
        }
        const uint64_t spanEnd = IsRequest(slot.opcode) ? std::min(s + slot.bytes, end) : s + 1;
        for (; s < spanEnd; ++s)
        {
            sack.SetReceived(static_cast<uint32_t>(s - state.expected - 1));
        }
    }
    rx.SendSack(triggerSeq, sack);
}

uint64_t
RdmaSackLossRecovery::GetTlpProbes() const
{
    return m_tlpProbes;
}

uint64_t
RdmaSackLossRecovery::GetRackLosses() const
{
    return m_rackLosses;
}

uint64_t
RdmaSackLossRecovery::GetRtoLosses() const
{
    return m_rtoLosses;
}

uint64_t
RdmaSackLossRecovery::GetDsacks() const
{
    return m_dsacks;
}

Time
RdmaSackLossRecovery::GetSrtt() const
{
    return m_hasRtt ? m_srtt : Time(0);
}

Time
RdmaSackLossRecovery::GetMinRtt() const
{
    return m_minRtt;
}

Time
RdmaSackLossRecovery::GetReorderingWindow() const
{
    return ReoWnd();
}

Time
RdmaSackLossRecovery::GetRto() const
{
    return Rto();
}

} // namespace ns3
