/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COMPRESSED_HEADER_FRAMING_H
#define RDMA_COMPRESSED_HEADER_FRAMING_H

#include "rdma-link-framing.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Ethernet with a compressed scale-up header, as Broadcom's Scale-Up Ethernet (SUE)
 * on Tomahawk Ultra: a short header in place of the Ethernet, IPv4 and UDP headers.
 *
 * Broadcom's Tomahawk Ultra announcement (July 2025) gives the optimised "AI Fabric Header"
 * (AFH) as 10 bytes in place of 46 bytes of Ethernet header overhead; 46 is Ethernet with an
 * 802.1Q tag (18), IPv4 (20) and UDP (8). The AFH's fields and SUE's transport header are
 * not in public material found, so: HeaderBytes (10) replaces this module's untagged
 * Ethernet, IPv4 and UDP headers (14 + IHL + 8 bytes); the RoCE transport headers (BTH and
 * RETH/AETH, standing in for SUE's) are carried as they are; the ICRC is dropped unless
 * KeepIcrc (the Ethernet FCS protects each hop, as SUE-Lite frames have no end-to-end CRC:
 * assumption). The frame keeps the Ethernet FCS (4), the minimum frame (MinFrameBytes),
 * preamble and SFD (8) and inter-frame gap (12). Frames that are not IPv4/UDP (flow-control
 * updates) have their 14-byte Ethernet header replaced.
 *
 * A 64-byte RDMA WRITE: 10 + BTH 12 + RETH 16 + 64 + FCS 4 = 106 bytes, 126 on the wire
 * (162 as RoCEv2 over Ethernet).
 */
class RdmaCompressedHeaderFraming : public RdmaLinkFraming
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaCompressedHeaderFraming();
    ~RdmaCompressedHeaderFraming() override;

    FrameCost StartFrame(const Ptr<const Packet>& frame, Time now) override;
    uint32_t GetFrameWireBytes(const Ptr<const Packet>& frame) const override;
    uint32_t GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const override;
    std::string Mismatch(const RdmaLinkFraming& other) const override;

    /**
     * \param info what a frame carries
     * \return its wire bytes
     */
    uint32_t WireBytesOf(const FrameInfo& info) const;

  private:
    void DoCheck() const override;

    uint32_t m_headerBytes;   //!< the compressed header
    uint32_t m_minFrameBytes; //!< minimum frame, FCS included
    bool m_keepIcrc;          //!< RoCE's ICRC stays in the frame
};

} // namespace ns3

#endif /* RDMA_COMPRESSED_HEADER_FRAMING_H */
