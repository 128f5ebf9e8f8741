/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-link-retry.h"

#include "rdma-channel.h"
#include "rdma-link-retry-trailer.h"
#include "rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLinkRetry");
NS_OBJECT_ENSURE_REGISTERED(RdmaLinkRetry);

namespace
{
/// The smallest frame the ring can hold: an IPv4 header, the Ethernet header, the trailer.
constexpr uint32_t MIN_HELD_FRAME_BYTES =
    20 + RdmaNetDevice::ETHERNET_HEADER_BYTES + RdmaLinkRetryTrailer::SIZE;
} // namespace

TypeId
RdmaLinkRetry::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaLinkRetry")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaLinkRetry>()
            .AddAttribute("ReplayBufferBytes",
                          "Bytes of frames (Ethernet header, IPv4 packet and sequence number) "
                          "the transmitter keeps until acknowledged; a new frame waits while a "
                          "frame of Mtu bytes would not fit. Size it to the link's ACK round "
                          "trip: rate x (2 x delay + AckLatency + 2 maximum frames + an ACK)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaLinkRetry::m_bufferBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SequenceBits",
                          "Width of the sequence number on the wire (PCIe: 12); at most "
                          "2^(SequenceBits-1) frames are outstanding",
                          UintegerValue(12),
                          MakeUintegerAccessor(&RdmaLinkRetry::m_sequenceBits),
                          MakeUintegerChecker<uint32_t>(3, 16))
            .AddAttribute("AckLatency",
                          "The receiver acknowledges accepted frames together, this long after "
                          "the first one not yet acknowledged (PCIe's AckNak latency timer)",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&RdmaLinkRetry::m_ackLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReplayTimeout",
                          "Replay every unacknowledged frame after this long without forward "
                          "progress (PCIe's REPLAY_TIMER); 0: 3 x (AckLatency + 2 x (delay + "
                          "maximum frame time) + ACK frame time), PCIe's factor of 3 over the "
                          "ACK round trip",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaLinkRetry::m_replayTimeoutAttr),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("AckNakTx",
                            "An Ack (false) or Nak (true) DLLP was sent",
                            MakeTraceSourceAccessor(&RdmaLinkRetry::m_ackNakTxTrace),
                            "ns3::RdmaLinkRetry::AckNakTracedCallback")
            .AddTraceSource("AckNakRx",
                            "An Ack (false) or Nak (true) DLLP was received",
                            MakeTraceSourceAccessor(&RdmaLinkRetry::m_ackNakRxTrace),
                            "ns3::RdmaLinkRetry::AckNakTracedCallback")
            .AddTraceSource("Replay",
                            "A replay of this many frames starts (a Nak or the replay timer)",
                            MakeTraceSourceAccessor(&RdmaLinkRetry::m_replayTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaLinkRetry::RdmaLinkRetry()
{
    NS_LOG_FUNCTION(this);
}

RdmaLinkRetry::~RdmaLinkRetry()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaLinkRetry::DoDispose()
{
    m_replayTimer.Cancel();
    m_ackTimer.Cancel();
    m_store.clear();
    m_frameOffset.clear();
    m_frameBytes.clear();
    m_count = 0;
    m_replayNext = 0;
    m_device = nullptr;
    Object::DoDispose();
}

void
RdmaLinkRetry::SetDevice(RdmaNetDevice* device)
{
    NS_LOG_FUNCTION(this << device);
    m_device = device;
    Simulator::ScheduleNow(&RdmaLinkRetry::Start, this);
}

void
RdmaLinkRetry::Start()
{
    if (!m_device || m_started)
    {
        return;
    }
    m_maxFrameBytes =
        m_device->GetMtu() + RdmaNetDevice::ETHERNET_HEADER_BYTES + RdmaLinkRetryTrailer::SIZE;
    NS_ABORT_MSG_IF(m_bufferBytes < m_maxFrameBytes,
                    "RdmaLinkRetry: ReplayBufferBytes "
                        << m_bufferBytes << " is below one maximum frame (Mtu "
                        << m_device->GetMtu() << " B + 14 B Ethernet header + "
                        << RdmaLinkRetryTrailer::SIZE << " B sequence number = " << m_maxFrameBytes
                        << " B); valid: at least " << m_maxFrameBytes);
    Ptr<RdmaChannel> channel = m_device->GetRdmaChannel();
    NS_ABORT_MSG_IF(!channel || channel->GetNDevices() < 2,
                    "RdmaLinkRetry: device " << m_device->GetAddress() << " has no link peer");
    Ptr<RdmaNetDevice> peer = channel->GetPeer(m_device);
    NS_ABORT_MSG_IF(!peer->GetLinkRetry(),
                    "RdmaLinkRetry: device "
                        << m_device->GetAddress() << " runs link-level retry but its peer "
                        << peer->GetAddress()
                        << " does not; both ends of a link must (RdmaLinkHelper::SetLinkRetry "
                           "sets both)");
    m_mask = (uint64_t(1) << m_sequenceBits) - 1;
    const uint64_t half = uint64_t(1) << (m_sequenceBits - 1);
    m_slots = static_cast<uint32_t>(std::min<uint64_t>(half, m_bufferBytes / MIN_HELD_FRAME_BYTES));
    // The replay buffer holds the frames' bytes, as the hardware's does: a byte ring of
    // ReplayBufferBytes, plus one maximum frame because a frame never wraps (it starts at 0
    // when it does not fit before the end), so at most one frame's worth is left unused.
    m_store.assign(m_bufferBytes + m_maxFrameBytes, 0);
    m_frameOffset.assign(m_slots, 0);
    m_frameBytes.assign(m_slots, 0);
    m_storeTail = 0;
    m_replayTimeout = m_replayTimeoutAttr;
    if (m_replayTimeout.IsZero())
    {
        const Time ackRoundTrip =
            m_ackLatency + 2 * (channel->GetDelay() + m_device->GetWireTime(m_maxFrameBytes)) +
            m_device->GetWireTime(RdmaNetDevice::ETHERNET_HEADER_BYTES + DLLP_BYTES);
        m_replayTimeout = 3 * ackRoundTrip;
    }
    m_started = true;
    NS_LOG_LOGIC("ring of " << m_slots << " frames, " << m_bufferBytes << " B, timeout "
                            << m_replayTimeout.As(Time::NS));
    m_device->TriggerTransmit();
}

Ptr<Packet>
RdmaLinkRetry::NextReplayFrame()
{
    if (m_replayNext >= m_count)
    {
        return nullptr;
    }
    uint32_t index = m_head + m_replayNext;
    if (index >= m_slots)
    {
        index -= m_slots;
    }
    ++m_replayNext;
    ++m_framesReplayed;
    if (!m_replayTimer.IsRunning())
    {
        m_replayTimer =
            Simulator::Schedule(m_replayTimeout, &RdmaLinkRetry::ReplayTimerExpired, this);
    }
    // Only a replay makes a packet: the frame is rebuilt from the bytes the ring holds.
    return Create<Packet>(&m_store[m_frameOffset[index]], m_frameBytes[index]);
}

void
RdmaLinkRetry::SendNew(const Ptr<Packet>& frame)
{
    NS_ASSERT_MSG(CanSendNew() && !HasReplay(), "RdmaLinkRetry: new frame while not allowed");
    RdmaLinkRetryTrailer trailer;
    trailer.SetSequence(Wire(m_nextTransmitSeq));
    frame->AddTrailer(trailer);
    uint32_t index = m_head + m_count;
    if (index >= m_slots)
    {
        index -= m_slots;
    }
    // Keep the frame's bytes, not the packet: the channel takes the packet itself (the
    // receiver strips and adds headers on it), and no packet is copied or allocated per frame.
    const uint32_t size = frame->GetSize();
    uint32_t offset = m_storeTail;
    if (offset + size > m_store.size())
    {
        offset = 0;
    }
    NS_ASSERT_MSG(m_count == 0 || !Overlaps(offset, size), "RdmaLinkRetry: replay store overrun");
    frame->CopyData(&m_store[offset], size);
    m_frameOffset[index] = offset;
    m_frameBytes[index] = size;
    m_storeTail = offset + size;
    m_heldBytes += size;
    ++m_count;
    m_replayNext = m_count;
    ++m_nextTransmitSeq;
    ++m_framesSent;
    m_peakHeld = std::max(m_peakHeld, m_count);
    if (!m_replayTimer.IsRunning())
    {
        m_replayTimer =
            Simulator::Schedule(m_replayTimeout, &RdmaLinkRetry::ReplayTimerExpired, this);
    }
}

bool
RdmaLinkRetry::Overlaps(uint32_t offset, uint32_t size) const
{
    // The held frames occupy [oldest, tail) in ring order: free are [tail, end) and [0, oldest)
    // when they do not wrap, [tail, oldest) when they do.
    const uint32_t oldest = m_frameOffset[m_head];
    if (oldest < m_storeTail)
    {
        return offset < m_storeTail && offset + size > oldest;
    }
    return offset < m_storeTail || offset + size > oldest;
}

bool
RdmaLinkRetry::Accept(const Ptr<Packet>& frame)
{
    RdmaLinkRetryTrailer trailer;
    frame->RemoveTrailer(trailer);
    const uint64_t distance = (trailer.GetSequence() - m_nextRcvSeq) & m_mask;
    if (distance == 0)
    {
        ++m_nextRcvSeq;
        ++m_framesAccepted;
        m_nakScheduled = false;
        if (!m_ackTimer.IsRunning())
        {
            m_ackTimer = Simulator::Schedule(m_ackLatency, &RdmaLinkRetry::AckTimerExpired, this);
        }
        return true;
    }
    ++m_framesOutOfSequence;
    if (distance <= (m_mask >> 1))
    {
        // A gap: an earlier frame was lost. Drop it, NAK once (PCIe 3.6.3.1).
        NS_LOG_LOGIC("sequence " << trailer.GetSequence() << " while expecting "
                                 << Wire(m_nextRcvSeq) << ": gap");
        if (!m_nakScheduled)
        {
            m_nakScheduled = true;
            SendAckNak(DLLP_NAK);
        }
    }
    else if (!m_ackTimer.IsRunning())
    {
        // A duplicate (a replay of a frame already accepted): acknowledge again.
        m_ackTimer = Simulator::Schedule(m_ackLatency, &RdmaLinkRetry::AckTimerExpired, this);
    }
    return false;
}

void
RdmaLinkRetry::NotifyCorrupted(bool dataFrame)
{
    if (!dataFrame)
    {
        return; // a lost Ack/Nak or flow-control frame: the timers recover
    }
    ++m_framesCorrupted;
    if (!m_nakScheduled)
    {
        m_nakScheduled = true;
        SendAckNak(DLLP_NAK);
    }
}

void
RdmaLinkRetry::AckTimerExpired()
{
    SendAckNak(DLLP_ACK);
}

void
RdmaLinkRetry::SendAckNak(uint8_t type)
{
    m_ackTimer.Cancel(); // this one acknowledges everything accepted so far
    const uint16_t sequence = Wire(m_nextRcvSeq - 1);
    const uint8_t dllp[DLLP_BYTES] =
        {type, 0, static_cast<uint8_t>(sequence >> 8), static_cast<uint8_t>(sequence & 0xff), 0, 0};
    Ptr<Packet> frame = Create<Packet>(dllp, DLLP_BYTES);
    Ptr<RdmaChannel> channel = m_device->GetRdmaChannel();
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(m_device->GetAddress()));
    eth.SetDestination(Mac48Address::ConvertFrom(channel->GetPeer(m_device)->GetAddress()));
    eth.SetLengthType(ETHERTYPE_LLR);
    frame->AddHeader(eth);
    if (type == DLLP_NAK)
    {
        ++m_naksSent;
    }
    else
    {
        ++m_acksSent;
    }
    m_ackNakTxTrace(type == DLLP_NAK, sequence);
    m_device->SendControlFrame(frame);
}

bool
RdmaLinkRetry::HandleControlFrame(const Ptr<Packet>& frame, uint16_t etherType)
{
    if (etherType != ETHERTYPE_LLR)
    {
        return false;
    }
    uint8_t bytes[RdmaNetDevice::ETHERNET_HEADER_BYTES + DLLP_BYTES];
    if (frame->CopyData(bytes, sizeof(bytes)) != sizeof(bytes))
    {
        return false;
    }
    const uint8_t* dllp = bytes + RdmaNetDevice::ETHERNET_HEADER_BYTES;
    const bool nak = dllp[0] == DLLP_NAK;
    const uint16_t sequence = static_cast<uint16_t>((dllp[2] << 8) | dllp[3]);
    m_ackNakRxTrace(nak, sequence);
    if (!m_started)
    {
        return true;
    }
    const bool progress = Release(sequence);
    if (nak && m_count > 0)
    {
        ++m_nakReplays;
        StartReplay();
    }
    if (progress || nak)
    {
        RestartReplayTimer(); // PCIe: forward progress (or a Nak) resets REPLAY_TIMER
    }
    if (progress)
    {
        m_device->TriggerTransmit(); // the ring has room again
    }
    return true;
}

bool
RdmaLinkRetry::Release(uint16_t sequence)
{
    const uint64_t oldest = m_nextTransmitSeq - m_count;
    const uint64_t n = (uint64_t(sequence) + 1 - oldest) & m_mask;
    if (n == 0 || n > m_count)
    {
        return false; // nothing new, or stale
    }
    for (uint64_t i = 0; i < n; ++i)
    {
        m_heldBytes -= m_frameBytes[m_head];
        if (++m_head == m_slots)
        {
            m_head = 0;
        }
    }
    m_count -= static_cast<uint32_t>(n);
    m_replayNext = m_replayNext > n ? m_replayNext - static_cast<uint32_t>(n) : 0;
    return true;
}

void
RdmaLinkRetry::StartReplay()
{
    NS_LOG_LOGIC("replay of " << m_count << " frames from sequence "
                              << Wire(m_nextTransmitSeq - m_count));
    m_replayNext = 0;
    m_replayTrace(m_count);
    m_device->TriggerTransmit();
}

void
RdmaLinkRetry::RestartReplayTimer()
{
    m_replayTimer.Cancel();
    if (m_count > 0)
    {
        m_replayTimer =
            Simulator::Schedule(m_replayTimeout, &RdmaLinkRetry::ReplayTimerExpired, this);
    }
}

void
RdmaLinkRetry::ReplayTimerExpired()
{
    if (m_count == 0)
    {
        return;
    }
    ++m_timeouts;
    StartReplay();
    m_replayTimer = Simulator::Schedule(m_replayTimeout, &RdmaLinkRetry::ReplayTimerExpired, this);
}

uint64_t
RdmaLinkRetry::GetFramesSent() const
{
    return m_framesSent;
}

uint64_t
RdmaLinkRetry::GetFramesReplayed() const
{
    return m_framesReplayed;
}

uint64_t
RdmaLinkRetry::GetFramesAccepted() const
{
    return m_framesAccepted;
}

uint64_t
RdmaLinkRetry::GetFramesOutOfSequence() const
{
    return m_framesOutOfSequence;
}

uint64_t
RdmaLinkRetry::GetFramesCorrupted() const
{
    return m_framesCorrupted;
}

uint64_t
RdmaLinkRetry::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
RdmaLinkRetry::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaLinkRetry::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaLinkRetry::GetNakReplays() const
{
    return m_nakReplays;
}

uint32_t
RdmaLinkRetry::GetFramesHeld() const
{
    return m_count;
}

uint32_t
RdmaLinkRetry::GetPeakFramesHeld() const
{
    return m_peakHeld;
}

uint32_t
RdmaLinkRetry::GetRingSlots() const
{
    return m_slots;
}

Time
RdmaLinkRetry::GetReplayTimeout() const
{
    return m_replayTimeout;
}

} // namespace ns3
