/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_RETRY_H
#define RDMA_LINK_RETRY_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief Link-level retry (LLR) of one RdmaNetDevice: sequence numbers, a replay buffer,
 * coalesced ACKs, NAKs and a replay timer, so that a frame corrupted on the link is sent
 * again by the link instead of by the end-to-end transport.
 *
 * Follows the data link layer ACK/NAK protocol of PCI Express (PCI Express Base
 * Specification 4.0, section 3.6: NEXT_TRANSMIT_SEQ, ACKD_SEQ, the replay buffer,
 * REPLAY_TIMER and REPLAY_NUM at the transmitter; NEXT_RCV_SEQ, NAK_SCHEDULED and the
 * AckNak latency timer at the receiver), which is go-back-N on one link, the scheme UALink
 * 1.0's data link layer replay and Ultra Ethernet's LLR also use. Per data frame (every IPv4
 * frame; PFC, credit and LLR control frames are not sequenced, as PCIe's DLLPs are not):
 *  - the transmitter appends the sequence number modulo 2^SequenceBits
 *    (RdmaLinkRetryTrailer, 2 wire bytes, counted in serialization), keeps the frame in a
 *    ring of frames (the replay buffer, ReplayBufferBytes of frames; allocated once at the
 *    start, a slot holds a Ptr to the frame: no per-frame allocation besides the shallow
 *    Packet::Copy the channel is given, because the receiver consumes what it receives) and
 *    starts no new frame while the ring could not take one of Mtu bytes or the sequence space
 *    is half used (2^(SequenceBits-1) outstanding frames, PCIe's limit of 2048 for 12 bits):
 *    the replay-window limit;
 *  - the receiver accepts a frame only if its sequence number is NEXT_RCV_SEQ; an earlier one
 *    (a duplicate) is dropped and acknowledged again; a later one (a gap) or a frame that
 *    fails the CRC (the device's receive error model) is dropped and, unless a NAK is
 *    already outstanding (NAK_SCHEDULED), answered at once with a NAK;
 *  - acceptances are acknowledged together: an ACK of the last accepted sequence number is
 *    sent AckLatency after the first unacknowledged acceptance (PCIe's AckNak latency timer);
 *  - an ACK or NAK releases every frame up to its sequence number from the ring; a NAK, or
 *    the replay timer (ReplayTimeout with no forward progress), makes the transmitter send
 *    every frame still in the ring again, in order, before any new frame.
 * ACK and NAK are PCIe's 6-byte Ack/Nak DLLP (type 0x00 or 0x10, a reserved byte, the
 * sequence number in 16 bits, a CRC-16 written as zero) in an Ethernet frame of EtherType
 * 0x88B6 (IEEE 802 local experimental 2), padded to the 64-byte minimum: 84 wire bytes.
 *
 * Simplified against PCIe: no link retraining after four replays (REPLAY_NUM is only
 * counted); replays are sent whatever the link flow control says (PCIe's replays do not
 * consume flow-control credit again: the frames were admitted when first sent); ACKs are
 * coalesced by time only.
 *
 * Both ends of a link must run LLR (checked at the start of the run). The device holds one
 * instance (RdmaNetDevice attribute LinkRetry; RdmaLinkHelper::SetLinkRetry); none by
 * default, and then nothing on the frame path changes.
 */
class RdmaLinkRetry : public Object
{
  public:
    /// EtherType of Ack/Nak frames (IEEE 802 local experimental EtherType 2).
    static constexpr uint16_t ETHERTYPE_LLR = 0x88B6;
    /// Bytes of an Ack/Nak DLLP after the Ethernet header (PCIe: 4 bytes + CRC-16).
    static constexpr uint32_t DLLP_BYTES = 6;
    /// DLLP type of an Ack (PCIe 4.0 table 3-1).
    static constexpr uint8_t DLLP_ACK = 0x00;
    /// DLLP type of a Nak.
    static constexpr uint8_t DLLP_NAK = 0x10;

    /**
     * TracedCallback signature of ACK/NAK events.
     * \param nak true for a NAK
     * \param sequence the sequence number it carries
     */
    typedef void (*AckNakTracedCallback)(bool nak, uint16_t sequence);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaLinkRetry();
    ~RdmaLinkRetry() override;

    /**
     * Bind to the device (RdmaNetDevice::SetLinkRetry calls it); the checks and the ring's
     * allocation run at the start of the simulation.
     * \param device the device (not owned)
     */
    void SetDevice(RdmaNetDevice* device);

    // ---- transmitter (called by the device) ----

    /// \return true if a replay is under way: NextReplayFrame gives a frame
    bool HasReplay() const
    {
        return m_replayNext < m_count;
    }

    /**
     * The next frame to send again (the device calls it when idle, after its control frames
     * and before any new data frame).
     * \return the frame, rebuilt from the bytes the ring holds, or null if no replay is under
     * way
     */
    Ptr<Packet> NextReplayFrame();

    /// \return true if a new data frame of Mtu bytes may start (the ring has room)
    bool CanSendNew() const
    {
        return m_started && m_count < m_slots && m_heldBytes + m_maxFrameBytes <= m_bufferBytes;
    }

    /**
     * A new data frame (Ethernet header added) is about to be sent: append its sequence
     * number, copy its bytes into the ring (no packet is allocated).
     * \param frame the frame, handed to the channel afterwards
     */
    void SendNew(const Ptr<Packet>& frame);

    // ---- receiver (called by the device) ----

    /**
     * A data frame arrived intact: strip its sequence number and decide.
     * \param frame the frame, Ethernet header included
     * \return true if it is the next in sequence (deliver it); false: it was dropped here
     */
    bool Accept(const Ptr<Packet>& frame);

    /**
     * A frame failed the CRC (the device's receive error model).
     * \param dataFrame true if the frame was a sequenced data frame (IPv4): the physical
     *        layer's framing tells data from control, as PCIe's STP/SDP tokens do
     */
    void NotifyCorrupted(bool dataFrame);

    /**
     * A frame that is not IPv4 arrived intact.
     * \param frame the frame, Ethernet header included
     * \param etherType its EtherType
     * \return true if it was an Ack/Nak (consumed)
     */
    bool HandleControlFrame(const Ptr<Packet>& frame, uint16_t etherType);

    // ---- statistics ----

    /// \return new data frames sent (each once, replays not counted)
    uint64_t GetFramesSent() const;
    /// \return frames sent again (replays)
    uint64_t GetFramesReplayed() const;
    /// \return data frames accepted in sequence and delivered
    uint64_t GetFramesAccepted() const;
    /// \return intact data frames dropped as out of sequence (after a gap, or duplicates)
    uint64_t GetFramesOutOfSequence() const;
    /// \return data frames that failed the CRC
    uint64_t GetFramesCorrupted() const;
    /// \return ACKs sent
    uint64_t GetAcksSent() const;
    /// \return NAKs sent
    uint64_t GetNaksSent() const;
    /// \return replays started by the replay timer
    uint64_t GetTimeouts() const;
    /// \return replays started by a NAK
    uint64_t GetNakReplays() const;
    /// \return frames in the replay buffer now
    uint32_t GetFramesHeld() const;
    /// \return the most frames the replay buffer held at once
    uint32_t GetPeakFramesHeld() const;
    /// \return the ring's size in frames (0 before the start)
    uint32_t GetRingSlots() const;
    /// \return the replay timeout in use (ReplayTimeout or its automatic value)
    Time GetReplayTimeout() const;

  protected:
    void DoDispose() override;

  private:
    /// At time 0: check the configuration and the peer, size the ring.
    void Start();

    /// \param sequence an unwrapped sequence number \return its value on the wire
    uint16_t Wire(uint64_t sequence) const
    {
        return static_cast<uint16_t>(sequence & m_mask);
    }

    /**
     * Send an Ack or a Nak DLLP acknowledging every frame before NEXT_RCV_SEQ.
     * \param type DLLP_ACK or DLLP_NAK
     */
    void SendAckNak(uint8_t type);
    /// The AckNak latency timer expired: send the coalesced ACK.
    void AckTimerExpired();
    /**
     * Release the frames an Ack/Nak of this wire sequence number acknowledges.
     * \param sequence the sequence number of the Ack/Nak
     * \return true if at least one frame was released
     */
    bool Release(uint16_t sequence);
    /**
     * \param offset where a new frame's bytes would start in m_store
     * \param size its bytes
     * \return true if it would overwrite a held frame (a bug: the checks before prevent it)
     */
    bool Overlaps(uint32_t offset, uint32_t size) const;
    /// Send every frame of the ring again, from the oldest.
    void StartReplay();
    /// (Re)start the replay timer if frames are outstanding, stop it otherwise.
    void RestartReplayTimer();
    /// The replay timer expired.
    void ReplayTimerExpired();

    RdmaNetDevice* m_device{nullptr};
    // attributes
    uint32_t m_bufferBytes;   //!< ReplayBufferBytes
    uint32_t m_sequenceBits;  //!< SequenceBits
    Time m_ackLatency;        //!< AckLatency
    Time m_replayTimeoutAttr; //!< ReplayTimeout (0: automatic)
    // derived at the start
    bool m_started{false};
    uint64_t m_mask{0};          //!< 2^SequenceBits - 1
    uint32_t m_slots{0};         //!< ring size in frames
    uint32_t m_maxFrameBytes{0}; //!< Mtu + Ethernet header + trailer
    Time m_replayTimeout;        //!< in use
    // transmitter
    std::vector<uint8_t> m_store;        //!< bytes of the held frames, a ring never wrapped
                                         //!< inside a frame
    std::vector<uint32_t> m_frameOffset; //!< per ring slot: where its frame starts in m_store
    std::vector<uint32_t> m_frameBytes;  //!< per ring slot: its frame's bytes
    uint32_t m_storeTail{0};             //!< where the next frame's bytes go
    uint32_t m_head{0};                  //!< ring index of the oldest frame
    uint32_t m_count{0};                 //!< frames in the ring
    uint32_t m_replayNext{0};            //!< frames of the ring (from the oldest) sent since the
                                         //!< last replay started: m_count when none is under way
    uint64_t m_heldBytes{0};             //!< bytes of the frames in the ring
    uint64_t m_nextTransmitSeq{0};       //!< NEXT_TRANSMIT_SEQ, unwrapped
    EventId m_replayTimer;               //!< REPLAY_TIMER
    // receiver
    uint64_t m_nextRcvSeq{0}; //!< NEXT_RCV_SEQ, unwrapped
    bool m_nakScheduled{false};
    EventId m_ackTimer; //!< the AckNak latency timer
    // statistics
    uint64_t m_framesSent{0};
    uint64_t m_framesReplayed{0};
    uint64_t m_framesAccepted{0};
    uint64_t m_framesOutOfSequence{0};
    uint64_t m_framesCorrupted{0};
    uint64_t m_acksSent{0};
    uint64_t m_naksSent{0};
    uint64_t m_timeouts{0};
    uint64_t m_nakReplays{0};
    uint32_t m_peakHeld{0};

    TracedCallback<bool, uint16_t> m_ackNakTxTrace;
    TracedCallback<bool, uint16_t> m_ackNakRxTrace;
    TracedCallback<uint32_t> m_replayTrace; //!< a replay of this many frames starts
};

} // namespace ns3

#endif /* RDMA_LINK_RETRY_H */
