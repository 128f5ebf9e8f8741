/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ICRC_TRAILER_H
#define RDMA_ICRC_TRAILER_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RoCEv2 Invariant CRC (ICRC) trailer: the last 4 bytes of the UDP payload.
 *
 * IBTA vol. 1 section 7.8.1 and RoCEv2 annex A17.4 ("ICRC"). The value is the CRC-32 of
 * IEEE 802.3 (polynomial 0x04C11DB7, reflected, initial value 0xFFFFFFFF, final
 * complement; the same function as the Ethernet FCS and zlib's crc32()) over:
 *   - 8 bytes of 0xFF standing in for the masked InfiniBand LRH,
 *   - the IPv4 header with TOS (DSCP and ECN), TTL and header checksum set to all ones,
 *   - the UDP header with its checksum set to all ones,
 *   - the BTH with byte 4 (resv8a, which holds the F/B bits) set to all ones,
 *   - the rest of the packet up to, not including, the ICRC itself.
 * The IPv4 total length and the UDP length covered by the CRC include the 4 ICRC bytes.
 *
 * Followed: the Linux soft-RoCE driver, drivers/infiniband/sw/rxe/rxe_icrc.c
 * (rxe_icrc_hdr(): seed 0xdebb20e3 = CRC state after 8 bytes of 0xFF, same masking of
 * tos/ttl/check, udp check and "bth->qpn |= ~BTH_QPN_MASK" for byte 4;
 * rxe_icrc_generate(): stores ~crc32_le() as a CPU-order 32-bit word), and Scapy's
 * scapy/contrib/roce.py (BTH.compute_icrc(): zlib.crc32 of the same pseudo packet,
 * packed as struct.pack("!I", crc)[::-1]).
 *
 * Byte order on the wire: the CRC value least-significant byte first (little-endian),
 * as the rxe driver writes it on x86 and Scapy packs it, the Ethernet FCS convention.
 * Serialize()/Deserialize() use that order, so GetIcrc() is the plain CRC-32 value.
 * Wireshark's packet-infiniband.c displays the field with ENC_BIG_ENDIAN and does not
 * verify it, so Wireshark shows the byte-swapped number: the ConnectX-4 Lx CNP capture
 * in Scapy's test/contrib/roce.uts ends in the bytes 82 fd 00 2a, shown as 0x82fd002a,
 * for which GetIcrc() is 0x2a00fd82 (the unit test reproduces this capture).
 */
class RdmaIcrcTrailer : public Trailer
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 4;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaIcrcTrailer();

    /// \param icrc the CRC-32 value (serialized least-significant byte first)
    void SetIcrc(uint32_t icrc);
    /// \return the CRC-32 value
    uint32_t GetIcrc() const;

    /**
     * Compute the RoCEv2 ICRC of an IPv4/UDP/BTH packet.
     * \param ipPacket the packet starting with the IPv4 header, without the ICRC trailer
     *        (its IPv4 total length and UDP length already count the 4 ICRC bytes)
     * \return the ICRC value, to pass to SetIcrc()
     */
    static uint32_t Compute(Ptr<const Packet> ipPacket);
    /**
     * Compute the RoCEv2 ICRC over serialized bytes.
     * \param ipPacket bytes starting with the IPv4 header, without the ICRC
     * \param size number of bytes
     * \return the ICRC value
     */
    static uint32_t Compute(const uint8_t* ipPacket, uint32_t size);
    /**
     * Check the ICRC of a packet that still carries its trailer.
     * \param ipPacketWithIcrc the packet starting with the IPv4 header, ICRC included
     * \return true if the last 4 bytes equal the ICRC computed over the rest
     */
    static bool Verify(Ptr<const Packet> ipPacketWithIcrc);
    /**
     * Replace the (placeholder) ICRC trailer of a packet by the correct one. Typical use:
     * add an RdmaIcrcTrailer with any value before the UDP and IPv4 headers, so that their
     * length fields count it, then call Fill() on the finished IPv4 packet.
     * \param ipPacketWithIcrc the packet starting with the IPv4 header and ending with an
     *        RdmaIcrcTrailer
     */
    static void Fill(Ptr<Packet> ipPacketWithIcrc);

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint32_t m_icrc; //!< CRC-32 value
};

} // namespace ns3

#endif /* RDMA_ICRC_TRAILER_H */
