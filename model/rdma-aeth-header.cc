/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-aeth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAethHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaAethHeader);

namespace
{
constexpr uint8_t KIND_MASK = 0x60;  //!< syndrome bits 6-5
constexpr uint8_t KIND_ACK = 0x00;   //!< 00: ACK
constexpr uint8_t KIND_RNR = 0x20;   //!< 01: RNR NAK
constexpr uint8_t KIND_RESV = 0x40;  //!< 10: reserved
constexpr uint8_t KIND_NAK = 0x60;   //!< 11: NAK
constexpr uint8_t VALUE_MASK = 0x1F; //!< syndrome bits 4-0
} // namespace

TypeId
RdmaAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaAethHeader>();
    return tid;
}

TypeId
RdmaAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaAethHeader::RdmaAethHeader()
    : m_msn(0),
      m_syndrome(AckSyndrome(CREDITS_INVALID))
{
}

void
RdmaAethHeader::SetSyndrome(uint8_t syndrome)
{
    NS_ABORT_MSG_IF((syndrome & 0x80) != 0 || (syndrome & KIND_MASK) == KIND_RESV,
                    "RdmaAethHeader::SetSyndrome: syndrome "
                        << +syndrome
                        << " is reserved (valid: 0..31 ACK, 32..63 RNR NAK, 96..127 NAK)");
    m_syndrome = syndrome;
}

uint8_t
RdmaAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
RdmaAethHeader::SetMsn(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > MAX_MSN,
                    "RdmaAethHeader::SetMsn: MSN "
                        << msn << " does not fit in 24 bits (valid 0..16777215)");
    m_msn = msn;
}

uint32_t
RdmaAethHeader::GetMsn() const
{
    return m_msn;
}

bool
RdmaAethHeader::IsAck() const
{
    return (m_syndrome & 0x80) == 0 && (m_syndrome & KIND_MASK) == KIND_ACK;
}

bool
RdmaAethHeader::IsNak() const
{
    return (m_syndrome & 0x80) == 0 && (m_syndrome & KIND_MASK) == KIND_NAK;
}

bool
RdmaAethHeader::IsRnrNak() const
{
    return (m_syndrome & 0x80) == 0 && (m_syndrome & KIND_MASK) == KIND_RNR;
}

uint8_t
RdmaAethHeader::GetNakCode() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
RdmaAethHeader::GetCredits() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
RdmaAethHeader::GetRnrTimer() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
RdmaAethHeader::AckSyndrome(uint8_t credits)
{
    NS_ABORT_MSG_IF(credits > VALUE_MASK,
                    "RdmaAethHeader::AckSyndrome: credit count " << +credits
                                                                 << " out of range (valid 0..31)");
    return KIND_ACK | credits;
}

uint8_t
RdmaAethHeader::NakSyndrome(uint8_t code)
{
    NS_ABORT_MSG_IF(code > VALUE_MASK,
                    "RdmaAethHeader::NakSyndrome: NAK code " << +code
                                                             << " out of range (valid 0..31)");
    return KIND_NAK | code;
}

uint8_t
RdmaAethHeader::RnrNakSyndrome(uint8_t timer)
{
    NS_ABORT_MSG_IF(timer > VALUE_MASK,
                    "RdmaAethHeader::RnrNakSyndrome: RNR timer " << +timer
                                                                 << " out of range (valid 0..31)");
    return KIND_RNR | timer;
}

void
RdmaAethHeader::Print(std::ostream& os) const
{
    os << "AETH ";
    if (IsAck())
    {
        os << "ACK credits=" << +GetCredits();
    }
    else if (IsNak())
    {
        static const char* const names[] = {"PSN_SEQUENCE_ERROR",
                                            "INVALID_REQUEST",
                                            "REMOTE_ACCESS_ERROR",
                                            "REMOTE_OPERATIONAL_ERROR",
                                            "INVALID_RD_REQUEST"};
        uint8_t code = GetNakCode();
        os << "NAK " << (code <= NAK_INVALID_RD_REQUEST ? names[code] : "RESERVED") << "(" << +code
           << ")";
    }
    else if (IsRnrNak())
    {
        os << "RNR_NAK timer=" << +GetRnrTimer();
    }
    else
    {
        os << "RESERVED syndrome=0x" << std::hex << +m_syndrome << std::dec;
    }
    os << " msn=" << m_msn;
}

uint32_t
RdmaAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaAethHeader::Write(uint8_t* b) const
{
    b[0] = m_syndrome;
    b[1] = static_cast<uint8_t>(m_msn >> 16);
    b[2] = static_cast<uint8_t>(m_msn >> 8);
    b[3] = static_cast<uint8_t>(m_msn);
}

void
RdmaAethHeader::Read(const uint8_t* b)
{
    m_syndrome = b[0];
    m_msn = (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

void
RdmaAethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RdmaAethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
