/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HEADER_STACK_H
#define RDMA_HEADER_STACK_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"

#include <cstdint>

namespace ns3
{

class RdmaBthHeader;
class RdmaRethHeader;
class RdmaAethHeader;

/**
 * \ingroup rdma
 * \brief The outer headers of a RoCEv2 packet (IPv4, UDP, BTH and an optional RETH or
 * AETH) written as bytes into one buffer and added to a packet in one AddHeader.
 *
 * The byte layout is that of ns3::Ipv4Header (no options, checksum computed), UdpHeader
 * (checksum 0, as RoCEv2 allows: IBTA annex A17.3.5), RdmaBthHeader, RdmaRethHeader and
 * RdmaAethHeader, so a pcap is identical to one built header by header (the tests compare
 * them byte for byte). It exists for speed: each queue pair builds one per data packet and
 * ACK, and five AddHeader/AddTrailer calls through ns-3's Buffer cost several times more
 * than writing 28-60 bytes once. Receivers parse the same bytes with the ordinary header
 * classes (or raw reads).
 *
 * Use: reserve room for IPv4/UDP with BeginRoce, Append the BTH and one extension header
 * (each header class writes its own bytes: RdmaBthHeader::Write, ...), then FinishIpv4Udp
 * once the size of what follows (payload, pad, ICRC) is known.
 */
class RdmaHeaderStack : public Header
{
  public:
    /// Largest stack: an IPv4 header with the most options (60); a RoCEv2 stack is at most
    /// IPv4 (20), UDP (8), BTH (12), RETH (16).
    static constexpr uint32_t MAX_BYTES = 60;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaHeaderStack();

    /// Start a stack: room for the IPv4 and UDP headers, filled by FinishIpv4Udp.
    void BeginRoce();

    /**
     * Append a BTH (IBTA vol. 1 §9.2) in its wire format (RdmaBthHeader::Write).
     * \param bth the header
     */
    void Append(const RdmaBthHeader& bth);
    /**
     * Append a RETH (§9.3.3).
     * \param reth the header
     */
    void Append(const RdmaRethHeader& reth);
    /**
     * Append an AETH (§9.3.6).
     * \param aeth the header
     */
    void Append(const RdmaAethHeader& aeth);

    /**
     * Fill the IPv4 and UDP headers reserved by BeginRoce.
     * \param source IPv4 source address
     * \param destination IPv4 destination address
     * \param dscp DSCP (0-63)
     * \param ecn ECN codepoint (0-3)
     * \param sourcePort UDP source port
     * \param destinationPort UDP destination port
     * \param innerBytes bytes of the packet this stack is added to (after the stack)
     */
    void FinishIpv4Udp(Ipv4Address source,
                       Ipv4Address destination,
                       uint8_t dscp,
                       uint8_t ecn,
                       uint16_t sourcePort,
                       uint16_t destinationPort,
                       uint32_t innerBytes);

    /**
     * FinishIpv4Udp with the addresses as 32-bit values (Ipv4Address::Get): for callers that
     * keep them, since ns-3's Get is a logged library call per address.
     * \param source IPv4 source address
     * \param destination IPv4 destination address
     * \param dscp DSCP (0-63)
     * \param ecn ECN codepoint (0-3)
     * \param sourcePort UDP source port
     * \param destinationPort UDP destination port
     * \param innerBytes bytes of the packet this stack is added to (after the stack)
     */
    void FinishIpv4Udp(uint32_t source,
                       uint32_t destination,
                       uint8_t dscp,
                       uint8_t ecn,
                       uint16_t sourcePort,
                       uint16_t destinationPort,
                       uint32_t innerBytes);

    /**
     * Set the IPv4 ECN field of the stack's IPv4 header (its first bytes) to CE (RFC 3168
     * section 5), updating the header checksum incrementally (RFC 1624 eqn. 3) if it carries
     * one. A switch marks a packet by removing its IPv4 header as raw bytes, calling this and
     * adding them back: no Ipv4Header parse and serialization per mark.
     * \param updateChecksum the header carries a checksum (otherwise it stays zero)
     */
    void MarkIpv4Ce(bool updateChecksum);
    /**
     * Set the size to read with Packet::RemoveHeader / PeekHeader.
     * \param bytes at most MAX_BYTES
     */
    void SetSize(uint32_t bytes);
    /// \return the bytes written or read
    const uint8_t* GetBytes() const;
    /**
     * Replace bytes read (a switch restores the IPv4 bytes a packet arrived with, kept
     * beside it: RdmaPortHandler::HandleReceive).
     * \param offset the first byte to replace
     * \param bytes the new bytes
     * \param n how many; offset + n at most the size
     */
    void Overwrite(uint32_t offset, const uint8_t* bytes, uint32_t n);

    /**
     * The Internet checksum (RFC 1071) of an IPv4 header.
     * \param header the header bytes, checksum field included (read as zero)
     * \param bytes its length, even
     * \return the checksum to write at bytes 10-11
     */
    static uint16_t Ipv4Checksum(const uint8_t* header, uint32_t bytes);

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint8_t m_bytes[MAX_BYTES];
    uint32_t m_size{0};
};

} // namespace ns3

#endif /* RDMA_HEADER_STACK_H */
