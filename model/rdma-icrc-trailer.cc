/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-icrc-trailer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <array>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaIcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(RdmaIcrcTrailer);

namespace
{

/// Reflected IEEE 802.3 CRC-32 polynomial.
constexpr uint32_t CRC32_POLY_REFLECTED = 0xEDB88320;

/// \return the byte-at-a-time table of the reflected IEEE 802.3 CRC-32
constexpr std::array<uint32_t, 256>
MakeCrc32Table()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t n = 0; n < 256; ++n)
    {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1) ? (CRC32_POLY_REFLECTED ^ (c >> 1)) : (c >> 1);
        }
        table[n] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> g_crc32Table = MakeCrc32Table(); //!< CRC-32 table

/**
 * Continue a CRC-32 computation (no initial or final complement).
 * \param crc the running CRC register
 * \param data bytes
 * \param len number of bytes
 * \return the updated register
 */
uint32_t
Crc32Update(uint32_t crc, const uint8_t* data, uint32_t len)
{
    for (uint32_t i = 0; i < len; ++i)
    {
        crc = g_crc32Table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    }
    return crc;
}

constexpr uint32_t IPV4_MIN_HEADER = 20; //!< IPv4 header without options
constexpr uint32_t UDP_HEADER = 8;       //!< UDP header
constexpr uint32_t BTH_SIZE = 12;        //!< BTH
constexpr uint8_t IP_PROTO_UDP = 17;     //!< IPv4 protocol number of UDP

} // namespace

TypeId
RdmaIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaIcrcTrailer>();
    return tid;
}

TypeId
RdmaIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaIcrcTrailer::RdmaIcrcTrailer()
    : m_icrc(0)
{
}

void
RdmaIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
RdmaIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
RdmaIcrcTrailer::Compute(const uint8_t* ipPacket, uint32_t size)
{
    NS_LOG_FUNCTION(size);
    NS_ABORT_MSG_IF(size < IPV4_MIN_HEADER,
                    "RdmaIcrcTrailer::Compute: packet of " << size
                                                           << " bytes is shorter than an IPv4 "
                                                              "header (20 bytes)");
    uint8_t version = ipPacket[0] >> 4;
    NS_ABORT_MSG_IF(version != 4,
                    "RdmaIcrcTrailer::Compute: IP version " << +version
                                                            << " is not supported (valid: 4)");
    uint32_t ihl = (ipPacket[0] & 0x0F) * 4u;
    NS_ABORT_MSG_IF(ihl < IPV4_MIN_HEADER,
                    "RdmaIcrcTrailer::Compute: IPv4 header length " << ihl << " bytes is below 20");
    NS_ABORT_MSG_IF(ipPacket[9] != IP_PROTO_UDP,
                    "RdmaIcrcTrailer::Compute: IPv4 protocol " << +ipPacket[9]
                                                               << " is not UDP (17)");
    uint32_t hdrLen = ihl + UDP_HEADER + BTH_SIZE;
    NS_ABORT_MSG_IF(size < hdrLen,
                    "RdmaIcrcTrailer::Compute: packet of "
                        << size << " bytes is shorter than its IPv4+UDP+BTH headers (" << hdrLen
                        << " bytes)");

    // Masked LRH: 8 bytes of 0xFF.
    static const uint8_t lrh[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint32_t crc = Crc32Update(0xFFFFFFFF, lrh, sizeof(lrh));

    // IPv4 header: TOS (byte 1), TTL (byte 8), header checksum (bytes 10-11) masked.
    uint8_t b;
    crc = Crc32Update(crc, ipPacket, 1);
    b = 0xFF;
    crc = Crc32Update(crc, &b, 1); // TOS
    crc = Crc32Update(crc, ipPacket + 2, 6);
    crc = Crc32Update(crc, &b, 1); // TTL
    crc = Crc32Update(crc, ipPacket + 9, 1);
    crc = Crc32Update(crc, lrh, 2); // header checksum
    crc = Crc32Update(crc, ipPacket + 12, ihl - 12);

    // UDP header: checksum (bytes 6-7) masked.
    const uint8_t* udp = ipPacket + ihl;
    crc = Crc32Update(crc, udp, 6);
    crc = Crc32Update(crc, lrh, 2);

    // BTH: byte 4 (F, B, resv6) masked.
    const uint8_t* bth = udp + UDP_HEADER;
    crc = Crc32Update(crc, bth, 4);
    crc = Crc32Update(crc, &b, 1);
    crc = Crc32Update(crc, bth + 5, BTH_SIZE - 5);

    // Everything after the BTH.
    crc = Crc32Update(crc, bth + BTH_SIZE, size - hdrLen);
    return ~crc;
}

uint32_t
RdmaIcrcTrailer::Compute(Ptr<const Packet> ipPacket)
{
    uint32_t size = ipPacket->GetSize();
    std::vector<uint8_t> bytes(size);
    ipPacket->CopyData(bytes.data(), size);
    return Compute(bytes.data(), size);
}

bool
RdmaIcrcTrailer::Verify(Ptr<const Packet> ipPacketWithIcrc)
{
    uint32_t size = ipPacketWithIcrc->GetSize();
    NS_ABORT_MSG_IF(size < SIZE,
                    "RdmaIcrcTrailer::Verify: packet of " << size
                                                          << " bytes cannot hold a 4-byte ICRC");
    std::vector<uint8_t> bytes(size);
    ipPacketWithIcrc->CopyData(bytes.data(), size);
    const uint8_t* t = bytes.data() + size - SIZE;
    uint32_t carried = static_cast<uint32_t>(t[0]) | (static_cast<uint32_t>(t[1]) << 8) |
                       (static_cast<uint32_t>(t[2]) << 16) | (static_cast<uint32_t>(t[3]) << 24);
    return carried == Compute(bytes.data(), size - SIZE);
}

void
RdmaIcrcTrailer::Fill(Ptr<Packet> ipPacketWithIcrc)
{
    uint32_t size = ipPacketWithIcrc->GetSize();
    NS_ABORT_MSG_IF(size < SIZE,
                    "RdmaIcrcTrailer::Fill: packet of " << size
                                                        << " bytes cannot hold a 4-byte ICRC");
    std::vector<uint8_t> bytes(size);
    ipPacketWithIcrc->CopyData(bytes.data(), size);
    RdmaIcrcTrailer trailer;
    ipPacketWithIcrc->RemoveTrailer(trailer);
    trailer.SetIcrc(Compute(bytes.data(), size - SIZE));
    ipPacketWithIcrc->AddTrailer(trailer);
}

void
RdmaIcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC=0x" << std::hex << m_icrc << std::dec;
}

uint32_t
RdmaIcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaIcrcTrailer::Serialize(Buffer::Iterator start) const
{
    start.Prev(SIZE);
    start.WriteHtolsbU32(m_icrc);
}

uint32_t
RdmaIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    m_icrc = end.ReadLsbtohU32();
    return SIZE;
}

} // namespace ns3
