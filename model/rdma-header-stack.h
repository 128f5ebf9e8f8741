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
 * Use: Reserve room for IPv4/UDP with BeginRoce, append the BTH and one extension, then
 * FinishIpv4Udp once the size of what follows (payload, pad, ICRC) is known.
 */
class RdmaHeaderStack : public Header
{
  public:
    /// Largest stack: IPv4 (20), UDP (8), BTH (12), RETH (16).
    static constexpr uint32_t MAX_BYTES = 56;

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
     * Append a BTH (IBTA vol. 1 §9.2).
     * \param opcode BTH opcode
     * \param padCount pad bytes after the payload (0-3)
     * \param pkey partition key
     * \param becn the BECN bit (set in CNPs)
     * \param destQp destination QP (24 bits)
     * \param ackReq the AckReq bit
     * \param psn packet sequence number (24 bits)
     */
    void AppendBth(uint8_t opcode,
                   uint8_t padCount,
                   uint16_t pkey,
                   bool becn,
                   uint32_t destQp,
                   bool ackReq,
                   uint32_t psn);
    /**
     * Append a RETH (§9.3.3): virtual address, R_Key, DMA length.
     * \param virtualAddress remote virtual address
     * \param rkey remote key
     * \param dmaLength length of the whole message
     */
    void AppendReth(uint64_t virtualAddress, uint32_t rkey, uint32_t dmaLength);
    /**
     * Append an AETH (§9.3.6): syndrome and 24-bit MSN.
     * \param syndrome ACK/NAK syndrome
     * \param msn message sequence number
     */
    void AppendAeth(uint8_t syndrome, uint32_t msn);

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
     * Set the size to read with Packet::RemoveHeader / PeekHeader.
     * \param bytes at most MAX_BYTES
     */
    void SetSize(uint32_t bytes);
    /// \return the bytes written or read
    const uint8_t* GetBytes() const;

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
