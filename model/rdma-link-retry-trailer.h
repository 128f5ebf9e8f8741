/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_RETRY_TRAILER_H
#define RDMA_LINK_RETRY_TRAILER_H

#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The link-level retry sequence number of a data frame: 2 bytes after the frame's
 * IPv4 packet, before the FCS.
 *
 * PCIe's data link layer puts a 2-byte field (4 reserved bits and the 12-bit sequence
 * number) in front of each TLP (PCI Express Base Specification 4.0, section 3.6.2.1,
 * figure 3-18). Here the same 2 bytes go at the end of the Ethernet frame, where an
 * Ethernet/IPv4 reader sees them as padding beyond the IPv4 total length: captures stay
 * readable and the receiver's switch reads the IPv4 header at its usual offset. The value
 * is the sequence number modulo 2^SequenceBits of RdmaLinkRetry (at most 16 bits), in
 * network byte order. PCIe's LCRC is not added: the Ethernet FCS plays its part.
 */
class RdmaLinkRetryTrailer : public Trailer
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 2;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// \param sequence the sequence number (already reduced to the sequence space)
    void SetSequence(uint16_t sequence);
    /// \return the sequence number
    uint16_t GetSequence() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint16_t m_sequence{0}; //!< the sequence number
};

} // namespace ns3

#endif /* RDMA_LINK_RETRY_TRAILER_H */
