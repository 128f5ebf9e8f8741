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
 * Link time: the link sends DL flits only. A frame that fits in the TL slots left in the
 * DL flit of the frame before it, and starts back to back with it (the transmitter fills
 * the flit's tail while it streams), costs no extra time and is delivered with that flit;
 * otherwise it pays for the DL flits it opens (640 bytes each) and is delivered at the end
 * of its last one, where the flit's CRC is checked. When the link goes idle, the partly
 * filled DL flit is sent padded (it was already paid for in full), so its free slots are
 * lost: a lone 64-byte store costs a whole DL flit, a stream of them 2/9 of one each.
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

    uint32_t StartFrame(const Ptr<const Packet>& frame, bool backToBack) override;
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

    uint32_t m_dlFlitBytes;        //!< DL flit, bytes on the wire
    uint32_t m_flitHeaderBytes;    //!< DL flit header
    uint32_t m_segmentBytes;       //!< DL flit segment
    uint32_t m_segmentHeaderBytes; //!< header of each segment
    uint32_t m_crcBytes;           //!< DL flit CRC
    uint32_t m_tlFlitBytes;        //!< TL flit
    uint32_t m_headerBytes;        //!< transaction header
    uint32_t m_freeSlots{0};       //!< TL slots left in the DL flit being sent
    uint64_t m_dlFlits{0};         //!< DL flits sent
    uint64_t m_tlFlits{0};         //!< TL flits sent
    uint64_t m_padded{0};          //!< TL slots padded
};

} // namespace ns3

#endif /* RDMA_UALINK_FLIT_FRAMING_H */
