/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_UALINK_FLIT_FRAMING_H
#define RDMA_UALINK_FLIT_FRAMING_H

#include "rdma-link-framing.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief UALink-like FLIT framing: every frame travels as a whole number of 64-byte
 * transaction-layer (TL) flits, packed back to back into 640-byte data-link (DL) FLITs.
 *
 * UALink 1.0 (UALink Consortium, UALink 200G 1.0 Specification, April 2025) carries 64-byte
 * TL flits in 640-byte DL flits that have a flit header, per-segment headers and a CRC. The
 * exact DL field sizes were not found in public material (see doc/scale-up-link.rst), so
 * each is an attribute with a stated assumption: a 3-byte flit header, five 128-byte
 * segments with a 1-byte header each, a 4-byte CRC: 640 - 3 - 5 - 4 = 628 payload bytes,
 * which hold floor(628 / 64) = 9 TL flits (the other 52 bytes carry no TL flit).
 *
 * A frame is one transaction: TransactionHeaderBytes (the request or response header that
 * replaces Ethernet, IPv4, UDP and the RoCE transport headers) plus its RDMA payload,
 * rounded up to whole TL flits. Frames that are not RoCE (flow-control updates) carry
 * their whole IPv4 packet or control body as payload.
 *
 * Link time: the link sends DL flits only, back to back while it has frames, and a frame's
 * TL flits take the next free TL slots of that stream: one slot lasts a ninth of a DL flit
 * (the flit's headers and CRC shared out), so a frame of k TL flits holds the link for k
 * slots, and a line-rate pacer that charges the same share (GetPacketWireBytes) keeps the
 * stream full. A frame is delivered at the end of the DL flit that holds its last TL flit,
 * where the flit's CRC is checked. A frame that finds the link idle while the last DL flit
 * is still being sent takes that flit's remaining slots (the transmitter fills the flit's
 * tail while it streams; the slots it missed are padding); one that finds the last flit sent
 * opens a new one, and the last flit's free slots were sent as padding: a lone 64-byte store
 * costs a whole DL flit, a stream of them 2/9 of one each.
 */
class RdmaUalinkFlitFraming : public RdmaLinkFraming
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaUalinkFlitFraming();
    ~RdmaUalinkFlitFraming() override;

    FrameCost StartFrame(const Ptr<const Packet>& frame, Time now) override;
    uint32_t GetFrameWireBytes(const Ptr<const Packet>& frame) const override;
    uint32_t GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const override;
    std::string Mismatch(const RdmaLinkFraming& other) const override;

    /**
     * \param info what a frame carries
     * \return the TL flits it occupies
     */
    uint32_t TlFlitsOf(const FrameInfo& info) const;
    /// \return TL flits one DL flit carries
    uint32_t GetTlFlitsPerDlFlit() const;
    /// \return DL flits sent (each DlFlitBytes on the wire)
    uint64_t GetDlFlitsSent() const;
    /// \return TL flits sent
    uint64_t GetTlFlitsSent() const;
    /// \return TL slots sent empty (padding of DL flits closed when the link went idle)
    uint64_t GetPaddedTlSlots() const;

  private:
    void DoCheck() const override;
    /// \return time steps from the run's start to the start of TL slot s
    int64_t StepsToSlot(uint64_t s) const;
    /// \return the first TL slot of the run that starts at or after steps from its start
    uint64_t FirstSlotFrom(int64_t steps) const;

    uint32_t m_dlFlitBytes;        //!< DL flit, bytes on the wire
    uint32_t m_flitHeaderBytes;    //!< DL flit header
    uint32_t m_segmentBytes;       //!< DL flit segment
    uint32_t m_segmentHeaderBytes; //!< header of each segment
    uint32_t m_crcBytes;           //!< DL flit CRC
    uint32_t m_tlFlitBytes;        //!< TL flit
    uint32_t m_headerBytes;        //!< transaction header
    // the DL flit stream under way (a run: DL flits sent back to back)
    bool m_inRun{false};    //!< a run has started (it may have ended since: see StartFrame)
    int64_t m_runStart{0};  //!< time step its first DL flit started
    uint64_t m_runSlots{0}; //!< TL slots of the run taken so far (the last frame's end)
    uint64_t m_slotNum{0};  //!< a TL slot lasts m_slotNum / m_slotDen time steps
    uint64_t m_slotDen{0};  //!< (set at the first frame from the device's rate)
    uint64_t m_slotRate{0}; //!< the bit rate m_slotNum / m_slotDen were derived for
    uint64_t m_dlFlits{0};  //!< DL flits sent
    uint64_t m_tlFlits{0};  //!< TL flits sent
    uint64_t m_padded{0};   //!< TL slots padded
};

} // namespace ns3

#endif /* RDMA_UALINK_FLIT_FRAMING_H */
