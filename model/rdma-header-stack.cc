/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-header-stack.h"

#include "rdma-aeth-header.h"
#include "rdma-bth-header.h"
#include "rdma-reth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHeaderStack");

NS_OBJECT_ENSURE_REGISTERED(RdmaHeaderStack);

namespace
{
/// IPv4 header without options (20) and UDP header (8).
constexpr uint32_t IPV4_UDP_BYTES = 28;

inline void
Put16(uint8_t* b, uint16_t v)
{
    b[0] = static_cast<uint8_t>(v >> 8);
    b[1] = static_cast<uint8_t>(v);
}

inline void
Put32(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 24);
    b[1] = static_cast<uint8_t>(v >> 16);
    b[2] = static_cast<uint8_t>(v >> 8);
    b[3] = static_cast<uint8_t>(v);
}
} // namespace

TypeId
RdmaHeaderStack::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaHeaderStack")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaHeaderStack>();
    return tid;
}

TypeId
RdmaHeaderStack::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaHeaderStack::RdmaHeaderStack()
{
}

void
RdmaHeaderStack::BeginRoce()
{
    m_size = IPV4_UDP_BYTES;
}

void
RdmaHeaderStack::Append(const RdmaBthHeader& bth)
{
    NS_ASSERT(m_size + RdmaBthHeader::SIZE <= MAX_BYTES);
    bth.Write(m_bytes + m_size);
    m_size += RdmaBthHeader::SIZE;
}

void
RdmaHeaderStack::Append(const RdmaRethHeader& reth)
{
    NS_ASSERT(m_size + RdmaRethHeader::SIZE <= MAX_BYTES);
    reth.Write(m_bytes + m_size);
    m_size += RdmaRethHeader::SIZE;
}

void
RdmaHeaderStack::Append(const RdmaAethHeader& aeth)
{
    NS_ASSERT(m_size + RdmaAethHeader::SIZE <= MAX_BYTES);
    aeth.Write(m_bytes + m_size);
    m_size += RdmaAethHeader::SIZE;
}

uint16_t
RdmaHeaderStack::Ipv4Checksum(const uint8_t* header, uint32_t bytes)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < bytes; i += 2)
    {
        if (i != 10)
        {
            sum += (uint32_t(header[i]) << 8) | header[i + 1];
        }
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

void
RdmaHeaderStack::FinishIpv4Udp(Ipv4Address source,
                               Ipv4Address destination,
                               uint8_t dscp,
                               uint8_t ecn,
                               uint16_t sourcePort,
                               uint16_t destinationPort,
                               uint32_t innerBytes)
{
    FinishIpv4Udp(source.Get(),
                  destination.Get(),
                  dscp,
                  ecn,
                  sourcePort,
                  destinationPort,
                  innerBytes);
}

void
RdmaHeaderStack::FinishIpv4Udp(uint32_t source,
                               uint32_t destination,
                               uint8_t dscp,
                               uint8_t ecn,
                               uint16_t sourcePort,
                               uint16_t destinationPort,
                               uint32_t innerBytes)
{
    NS_ASSERT(m_size >= IPV4_UDP_BYTES);
    const uint32_t total = m_size + innerBytes;
    uint8_t* ip = m_bytes;
    ip[0] = 0x45; // version 4, IHL 5
    ip[1] = static_cast<uint8_t>((dscp << 2) | (ecn & 0x03));
    Put16(ip + 2, static_cast<uint16_t>(total));
    Put16(ip + 4, 0);      // identification
    Put16(ip + 6, 0x4000); // DF, offset 0
    ip[8] = 64;            // TTL
    ip[9] = 17;            // UDP
    Put16(ip + 10, 0);
    Put32(ip + 12, source);
    Put32(ip + 16, destination);
    Put16(ip + 10, Ipv4Checksum(ip, 20));
    uint8_t* udp = m_bytes + 20;
    Put16(udp, sourcePort);
    Put16(udp + 2, destinationPort);
    Put16(udp + 4, static_cast<uint16_t>(total - 20));
    Put16(udp + 6, 0); // no checksum (RoCEv2)
}

void
RdmaHeaderStack::SetSize(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes > MAX_BYTES,
                    "RdmaHeaderStack::SetSize(" << bytes << "): at most " << MAX_BYTES);
    m_size = bytes;
}

void
RdmaHeaderStack::Overwrite(uint32_t offset, const uint8_t* bytes, uint32_t n)
{
    NS_ABORT_MSG_IF(offset + n > m_size,
                    "RdmaHeaderStack::Overwrite: bytes " << offset << ".." << offset + n
                                                         << " of a stack of " << m_size);
    std::copy(bytes, bytes + n, m_bytes + offset);
}

void
RdmaHeaderStack::MarkIpv4Ce(bool updateChecksum)
{
    NS_ABORT_MSG_IF(m_size < 20 || (m_bytes[0] >> 4) != 4,
                    "RdmaHeaderStack::MarkIpv4Ce: the stack does not start with an IPv4 header");
    constexpr uint8_t ECN_CE = 3;
    const uint16_t before = static_cast<uint16_t>((m_bytes[0] << 8) | m_bytes[1]);
    m_bytes[1] = static_cast<uint8_t>(m_bytes[1] | ECN_CE);
    const uint16_t after = static_cast<uint16_t>((m_bytes[0] << 8) | m_bytes[1]);
    if (updateChecksum && before != after)
    {
        // RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), one's complement sums of 16-bit words.
        const uint16_t checksum = static_cast<uint16_t>((m_bytes[10] << 8) | m_bytes[11]);
        uint32_t sum =
            uint32_t(static_cast<uint16_t>(~checksum)) + static_cast<uint16_t>(~before) + after;
        sum = (sum & 0xffffU) + (sum >> 16);
        sum = (sum & 0xffffU) + (sum >> 16);
        const uint16_t updated = static_cast<uint16_t>(~sum);
        m_bytes[10] = static_cast<uint8_t>(updated >> 8);
        m_bytes[11] = static_cast<uint8_t>(updated);
    }
}

const uint8_t*
RdmaHeaderStack::GetBytes() const
{
    return m_bytes;
}

void
RdmaHeaderStack::Print(std::ostream& os) const
{
    if (m_size >= IPV4_UDP_BYTES + RdmaBthHeader::SIZE)
    {
        const uint8_t* b = m_bytes;
        os << "IPv4 "
           << Ipv4Address((uint32_t(b[12]) << 24) | (uint32_t(b[13]) << 16) |
                          (uint32_t(b[14]) << 8) | b[15])
           << " > "
           << Ipv4Address((uint32_t(b[16]) << 24) | (uint32_t(b[17]) << 16) |
                          (uint32_t(b[18]) << 8) | b[19])
           << " dscp " << (b[1] >> 2) << " ecn " << (b[1] & 3) << " UDP "
           << ((uint32_t(b[20]) << 8) | b[21]) << " > " << ((uint32_t(b[22]) << 8) | b[23]) << " ";
        RdmaBthHeader bth;
        bth.Read(b + IPV4_UDP_BYTES);
        bth.Print(os);
        return;
    }
    os << std::hex << std::setfill('0');
    for (uint32_t i = 0; i < m_size; ++i)
    {
        os << std::setw(2) << uint32_t(m_bytes[i]);
    }
    os << std::dec << std::setfill(' ');
}

uint32_t
RdmaHeaderStack::GetSerializedSize() const
{
    return m_size;
}

void
RdmaHeaderStack::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes, m_size);
}

uint32_t
RdmaHeaderStack::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes, m_size);
    return m_size;
}

} // namespace ns3
