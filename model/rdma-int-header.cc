/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-int-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaIntHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaIntHeader);

namespace
{
/// Line rate of each 3-bit code, bit/s: 0-4 as in the HPCC simulator, 5-7 this module's.
constexpr uint64_t RATE_OF_CODE[8] = {25000000000ULL,
                                      50000000000ULL,
                                      100000000000ULL,
                                      200000000000ULL,
                                      400000000000ULL,
                                      10000000000ULL,
                                      40000000000ULL,
                                      800000000000ULL};
constexpr uint64_t TIME_MASK = (1ULL << RdmaIntHop::TIME_BITS) - 1;
constexpr uint64_t BYTES_MASK = (1ULL << RdmaIntHop::BYTES_BITS) - 1;
constexpr uint64_t QLEN_MAX = (1ULL << RdmaIntHop::QLEN_BITS) - 1;
constexpr uint32_t RATE_SHIFT = 61;
constexpr uint32_t TIME_SHIFT = 37;
constexpr uint32_t BYTES_SHIFT = 17;

/// Abort unless the multiplier fits the area's byte.
void
CheckMultiplier(uint32_t multiplier, const char* where)
{
    NS_ABORT_MSG_IF(multiplier == 0 || multiplier > RdmaIntHop::MAX_MULTIPLIER,
                    where << ": INT units multiplier " << multiplier << " out of range (valid 1.."
                          << RdmaIntHop::MAX_MULTIPLIER << ")");
}

/// \return the multiplier stored in an area's byte 2 (0 reads as 1)
inline uint32_t
AreaMultiplier(const uint8_t* area)
{
    return area[2] == 0 ? 1 : area[2];
}

inline void
WriteU64(uint8_t* p, uint64_t v)
{
    for (int i = 7; i >= 0; --i)
    {
        p[i] = static_cast<uint8_t>(v);
        v >>= 8;
    }
}

inline uint64_t
ReadU64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}
} // namespace

// ---------------------------------------------------------------------------------------
// RdmaIntHop

RdmaIntHop::RdmaIntHop(uint32_t multiplier)
    : m_word(0),
      m_multiplier(multiplier)
{
    CheckMultiplier(multiplier, "RdmaIntHop");
}

uint32_t
RdmaIntHop::GetMultiplier() const
{
    return m_multiplier;
}

uint64_t
RdmaIntHop::GetLineRateBps() const
{
    return RATE_OF_CODE[m_word >> RATE_SHIFT];
}

uint64_t
RdmaIntHop::GetTimeNs() const
{
    return (m_word >> TIME_SHIFT) & TIME_MASK;
}

uint64_t
RdmaIntHop::GetTxBytes() const
{
    return ((m_word >> BYTES_SHIFT) & BYTES_MASK) * BYTE_UNIT * m_multiplier;
}

uint64_t
RdmaIntHop::GetQueueBytes() const
{
    return (m_word & QLEN_MAX) * QLEN_UNIT * m_multiplier;
}

uint64_t
RdmaIntHop::GetTimeDeltaNs(const RdmaIntHop& older) const
{
    return (GetTimeNs() - older.GetTimeNs()) & TIME_MASK;
}

uint64_t
RdmaIntHop::GetTxBytesDelta(const RdmaIntHop& older) const
{
    const uint64_t units =
        (((m_word >> BYTES_SHIFT) & BYTES_MASK) - ((older.m_word >> BYTES_SHIFT) & BYTES_MASK)) &
        BYTES_MASK;
    return units * BYTE_UNIT * m_multiplier;
}

bool
RdmaIntHop::IsEncodableRate(uint64_t lineRateBps)
{
    return std::find(std::begin(RATE_OF_CODE), std::end(RATE_OF_CODE), lineRateBps) !=
           std::end(RATE_OF_CODE);
}

uint8_t
RdmaIntHop::RateCode(uint64_t lineRateBps)
{
    const auto it = std::find(std::begin(RATE_OF_CODE), std::end(RATE_OF_CODE), lineRateBps);
    NS_ABORT_MSG_IF(it == std::end(RATE_OF_CODE),
                    "RdmaIntHop: line rate "
                        << lineRateBps
                        << " bit/s has no INT line-rate code (valid: 10, 25, 40, 50, 100, 200, "
                           "400, 800 Gb/s)");
    return static_cast<uint8_t>(it - std::begin(RATE_OF_CODE));
}

uint64_t
RdmaIntHop::Encode(uint8_t rateCode,
                   uint64_t timeNs,
                   uint64_t txBytes,
                   uint64_t queueBytes,
                   uint32_t multiplier)
{
    const uint64_t bytesUnits = txBytes / (uint64_t(BYTE_UNIT) * multiplier);
    const uint64_t qlenUnits =
        std::min<uint64_t>(queueBytes / (uint64_t(QLEN_UNIT) * multiplier), QLEN_MAX);
    return (uint64_t(rateCode & 0x7U) << RATE_SHIFT) | ((timeNs & TIME_MASK) << TIME_SHIFT) |
           ((bytesUnits & BYTES_MASK) << BYTES_SHIFT) | qlenUnits;
}

void
RdmaIntHop::Set(uint64_t lineRateBps, uint64_t timeNs, uint64_t txBytes, uint64_t queueBytes)
{
    m_word = Encode(RateCode(lineRateBps), timeNs, txBytes, queueBytes, m_multiplier);
}

uint64_t
RdmaIntHop::GetWord() const
{
    return m_word;
}

void
RdmaIntHop::SetWord(uint64_t word)
{
    m_word = word;
}

// ---------------------------------------------------------------------------------------
// RdmaIntHeader

TypeId
RdmaIntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaIntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaIntHeader>();
    return tid;
}

TypeId
RdmaIntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaIntHeader::RdmaIntHeader(uint32_t multiplier)
    : m_hops{RdmaIntHop(multiplier),
             RdmaIntHop(multiplier),
             RdmaIntHop(multiplier),
             RdmaIntHop(multiplier),
             RdmaIntHop(multiplier)},
      m_multiplier(multiplier),
      m_nHops(0)
{
    static_assert(MAX_HOPS == 5, "the initializer lists five hops");
    static_assert(SIZE == HOPS_OFFSET + MAX_HOPS * RdmaIntHop::SIZE, "area layout");
}

uint8_t
RdmaIntHeader::GetNHops() const
{
    return m_nHops;
}

const RdmaIntHop&
RdmaIntHeader::GetHop(uint8_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nHops,
                    "RdmaIntHeader::GetHop: record " << +i << " does not exist (the area holds "
                                                     << +m_nHops << ")");
    return m_hops[i];
}

bool
RdmaIntHeader::PushHop(const RdmaIntHop& hop)
{
    NS_ABORT_MSG_IF(hop.GetMultiplier() != m_multiplier,
                    "RdmaIntHeader::PushHop: the record's multiplier "
                        << hop.GetMultiplier() << " is not the area's " << m_multiplier);
    if (m_nHops >= MAX_HOPS)
    {
        return false;
    }
    m_hops[m_nHops++] = hop;
    return true;
}

void
RdmaIntHeader::Clear()
{
    for (auto& hop : m_hops)
    {
        hop = RdmaIntHop(m_multiplier);
    }
    m_nHops = 0;
}

uint32_t
RdmaIntHeader::GetMultiplier() const
{
    return m_multiplier;
}

void
RdmaIntHeader::SetMultiplier(uint32_t multiplier)
{
    CheckMultiplier(multiplier, "RdmaIntHeader::SetMultiplier");
    m_multiplier = multiplier;
    Clear();
}

bool
RdmaIntHeader::PushCodedHopInPlace(uint8_t* area,
                                   uint8_t rateCode,
                                   uint64_t timeNs,
                                   uint64_t txBytes,
                                   uint64_t queueBytes)
{
    const uint8_t n = area[0];
    if (n >= MAX_HOPS)
    {
        return false;
    }
    WriteU64(area + HOPS_OFFSET + n * RdmaIntHop::SIZE,
             RdmaIntHop::Encode(rateCode, timeNs, txBytes, queueBytes, AreaMultiplier(area)));
    area[0] = static_cast<uint8_t>(n + 1);
    return true;
}

bool
RdmaIntHeader::PushHopInPlace(uint8_t* area,
                              uint64_t lineRateBps,
                              uint64_t timeNs,
                              uint64_t txBytes,
                              uint64_t queueBytes)
{
    return PushCodedHopInPlace(area,
                               RdmaIntHop::RateCode(lineRateBps),
                               timeNs,
                               txBytes,
                               queueBytes);
}

void
RdmaIntHeader::Write(uint8_t* b) const
{
    b[0] = m_nHops;
    b[1] = MAX_HOPS;
    b[2] = static_cast<uint8_t>(m_multiplier);
    b[3] = 0;
    for (uint32_t i = 0; i < MAX_HOPS; ++i)
    {
        WriteU64(b + HOPS_OFFSET + i * RdmaIntHop::SIZE, i < m_nHops ? m_hops[i].GetWord() : 0);
    }
}

void
RdmaIntHeader::Read(const uint8_t* b)
{
    m_multiplier = AreaMultiplier(b);
    m_nHops = std::min<uint8_t>(b[0], MAX_HOPS);
    for (uint32_t i = 0; i < MAX_HOPS; ++i)
    {
        m_hops[i] = RdmaIntHop(m_multiplier);
        if (i < m_nHops)
        {
            m_hops[i].SetWord(ReadU64(b + HOPS_OFFSET + i * RdmaIntHop::SIZE));
        }
    }
}

void
RdmaIntHeader::Print(std::ostream& os) const
{
    os << "INT hops=" << +m_nHops << " multiplier=" << m_multiplier;
    for (uint32_t i = 0; i < m_nHops; ++i)
    {
        const RdmaIntHop& h = m_hops[i];
        os << " [" << i << ": rate=" << h.GetLineRateBps() / 1000000000ULL
           << "Gbps t=" << h.GetTimeNs() << "ns tx=" << h.GetTxBytes()
           << "B q=" << h.GetQueueBytes() << "B]";
    }
}

uint32_t
RdmaIntHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaIntHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RdmaIntHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
