/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-bth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaBthHeader");

NS_OBJECT_ENSURE_REGISTERED(RdmaBthHeader);

TypeId
RdmaBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaBthHeader>();
    return tid;
}

TypeId
RdmaBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaBthHeader::RdmaBthHeader()
    : m_destQp(0),
      m_psn(0),
      m_pkey(DEFAULT_PKEY),
      m_opcode(RC_SEND_ONLY),
      m_padCount(0),
      m_tver(0),
      m_solicited(false),
      m_migReq(false),
      m_fecn(false),
      m_becn(false),
      m_tsRequest(false),
      m_telemetry(false),
      m_ackReq(false)
{
}

void
RdmaBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
RdmaBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
RdmaBthHeader::SetSolicitedEvent(bool se)
{
    m_solicited = se;
}

bool
RdmaBthHeader::GetSolicitedEvent() const
{
    return m_solicited;
}

void
RdmaBthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
RdmaBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
RdmaBthHeader::SetPadCount(uint8_t pad)
{
    NS_ABORT_MSG_IF(pad > 3,
                    "RdmaBthHeader::SetPadCount: pad count " << +pad
                                                             << " out of range (valid 0..3)");
    m_padCount = pad;
}

uint8_t
RdmaBthHeader::GetPadCount() const
{
    return m_padCount;
}

void
RdmaBthHeader::SetTransportVersion(uint8_t tver)
{
    NS_ABORT_MSG_IF(tver > 0x0F,
                    "RdmaBthHeader::SetTransportVersion: transport version "
                        << +tver << " out of range (valid 0..15)");
    m_tver = tver;
}

uint8_t
RdmaBthHeader::GetTransportVersion() const
{
    return m_tver;
}

void
RdmaBthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
RdmaBthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
RdmaBthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
RdmaBthHeader::GetFecn() const
{
    return m_fecn;
}

void
RdmaBthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
RdmaBthHeader::GetBecn() const
{
    return m_becn;
}

void
RdmaBthHeader::SetTimestampRequest(bool request)
{
    m_tsRequest = request;
}

bool
RdmaBthHeader::GetTimestampRequest() const
{
    return m_tsRequest;
}

void
RdmaBthHeader::SetTelemetry(bool telemetry)
{
    m_telemetry = telemetry;
}

bool
RdmaBthHeader::GetTelemetry() const
{
    return m_telemetry;
}

void
RdmaBthHeader::SetDestQp(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn > MAX_24BIT,
                    "RdmaBthHeader::SetDestQp: QPN "
                        << qpn << " does not fit in 24 bits (valid 0..16777215)");
    m_destQp = qpn;
}

uint32_t
RdmaBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RdmaBthHeader::SetAckRequest(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
RdmaBthHeader::GetAckRequest() const
{
    return m_ackReq;
}

void
RdmaBthHeader::SetPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > MAX_24BIT,
                    "RdmaBthHeader::SetPsn: PSN "
                        << psn << " does not fit in 24 bits (valid 0..16777215)");
    m_psn = psn;
}

uint32_t
RdmaBthHeader::GetPsn() const
{
    return m_psn;
}

bool
RdmaBthHeader::HasReth(uint8_t opcode)
{
    return opcode == RC_WRITE_FIRST || opcode == RC_WRITE_ONLY || opcode == RC_WRITE_ONLY_IMM ||
           opcode == RC_READ_REQUEST;
}

bool
RdmaBthHeader::HasAeth(uint8_t opcode)
{
    return opcode == RC_ACKNOWLEDGE || opcode == RC_READ_RESPONSE_FIRST ||
           opcode == RC_READ_RESPONSE_LAST || opcode == RC_READ_RESPONSE_ONLY ||
           opcode == RC_ATOMIC_ACKNOWLEDGE;
}

bool
RdmaBthHeader::HasAtomicEth(uint8_t opcode)
{
    return opcode == RC_COMPARE_SWAP || opcode == RC_FETCH_ADD;
}

bool
RdmaBthHeader::HasAtomicAckEth(uint8_t opcode)
{
    return opcode == RC_ATOMIC_ACKNOWLEDGE;
}

bool
RdmaBthHeader::HasImmediate(uint8_t opcode)
{
    return opcode == RC_SEND_LAST_IMM || opcode == RC_SEND_ONLY_IMM ||
           opcode == RC_WRITE_LAST_IMM || opcode == RC_WRITE_ONLY_IMM;
}

bool
RdmaBthHeader::IsWrite(uint8_t opcode)
{
    return opcode >= RC_WRITE_FIRST && opcode <= RC_WRITE_ONLY_IMM;
}

bool
RdmaBthHeader::IsSend(uint8_t opcode)
{
    return opcode <= RC_SEND_ONLY_IMM;
}

bool
RdmaBthHeader::IsReadResponse(uint8_t opcode)
{
    return opcode >= RC_READ_RESPONSE_FIRST && opcode <= RC_READ_RESPONSE_ONLY;
}

bool
RdmaBthHeader::IsFirstOrOnly(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_FIRST:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_IMM:
    case RC_WRITE_FIRST:
    case RC_WRITE_ONLY:
    case RC_WRITE_ONLY_IMM:
    case RC_READ_REQUEST:
    case RC_READ_RESPONSE_FIRST:
    case RC_READ_RESPONSE_ONLY:
    case RC_ACKNOWLEDGE:
    case RC_ATOMIC_ACKNOWLEDGE:
    case RC_COMPARE_SWAP:
    case RC_FETCH_ADD:
        return true;
    default:
        return false;
    }
}

bool
RdmaBthHeader::IsLastOrOnly(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_LAST:
    case RC_SEND_LAST_IMM:
    case RC_SEND_ONLY:
    case RC_SEND_ONLY_IMM:
    case RC_WRITE_LAST:
    case RC_WRITE_LAST_IMM:
    case RC_WRITE_ONLY:
    case RC_WRITE_ONLY_IMM:
    case RC_READ_REQUEST:
    case RC_READ_RESPONSE_LAST:
    case RC_READ_RESPONSE_ONLY:
    case RC_ACKNOWLEDGE:
    case RC_ATOMIC_ACKNOWLEDGE:
    case RC_COMPARE_SWAP:
    case RC_FETCH_ADD:
        return true;
    default:
        return false;
    }
}

const char*
RdmaBthHeader::OpcodeName(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_FIRST:
        return "RC_SEND_FIRST";
    case RC_SEND_MIDDLE:
        return "RC_SEND_MIDDLE";
    case RC_SEND_LAST:
        return "RC_SEND_LAST";
    case RC_SEND_LAST_IMM:
        return "RC_SEND_LAST_IMM";
    case RC_SEND_ONLY:
        return "RC_SEND_ONLY";
    case RC_SEND_ONLY_IMM:
        return "RC_SEND_ONLY_IMM";
    case RC_WRITE_FIRST:
        return "RC_WRITE_FIRST";
    case RC_WRITE_MIDDLE:
        return "RC_WRITE_MIDDLE";
    case RC_WRITE_LAST:
        return "RC_WRITE_LAST";
    case RC_WRITE_LAST_IMM:
        return "RC_WRITE_LAST_IMM";
    case RC_WRITE_ONLY:
        return "RC_WRITE_ONLY";
    case RC_WRITE_ONLY_IMM:
        return "RC_WRITE_ONLY_IMM";
    case RC_READ_REQUEST:
        return "RC_READ_REQUEST";
    case RC_READ_RESPONSE_FIRST:
        return "RC_READ_RESPONSE_FIRST";
    case RC_READ_RESPONSE_MIDDLE:
        return "RC_READ_RESPONSE_MIDDLE";
    case RC_READ_RESPONSE_LAST:
        return "RC_READ_RESPONSE_LAST";
    case RC_READ_RESPONSE_ONLY:
        return "RC_READ_RESPONSE_ONLY";
    case RC_ACKNOWLEDGE:
        return "RC_ACKNOWLEDGE";
    case RC_ATOMIC_ACKNOWLEDGE:
        return "RC_ATOMIC_ACKNOWLEDGE";
    case RC_COMPARE_SWAP:
        return "RC_COMPARE_SWAP";
    case RC_FETCH_ADD:
        return "RC_FETCH_ADD";
    case CNP:
        return "CNP";
    default:
        return "UNKNOWN";
    }
}

void
RdmaBthHeader::Print(std::ostream& os) const
{
    os << "BTH " << OpcodeName(m_opcode) << "(0x" << std::hex << +m_opcode << std::dec << ")"
       << " dqp=" << m_destQp << " psn=" << m_psn << " pkey=0x" << std::hex << m_pkey << std::dec;
    if (m_solicited)
    {
        os << " SE";
    }
    if (m_migReq)
    {
        os << " M";
    }
    if (m_ackReq)
    {
        os << " A";
    }
    if (m_fecn)
    {
        os << " FECN";
    }
    if (m_becn)
    {
        os << " BECN";
    }
    if (m_telemetry)
    {
        os << " INT";
    }
    if (m_tsRequest)
    {
        os << " TS";
    }
    if (m_padCount != 0)
    {
        os << " pad=" << +m_padCount;
    }
    if (m_tver != 0)
    {
        os << " tver=" << +m_tver;
    }
}

uint32_t
RdmaBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RdmaBthHeader::Write(uint8_t* b) const
{
    b[0] = m_opcode;
    b[1] = static_cast<uint8_t>((m_solicited ? 0x80 : 0) | (m_migReq ? 0x40 : 0) |
                                (m_padCount << 4) | m_tver);
    b[2] = static_cast<uint8_t>(m_pkey >> 8);
    b[3] = static_cast<uint8_t>(m_pkey);
    b[4] = static_cast<uint8_t>((m_fecn ? 0x80 : 0) | (m_becn ? 0x40 : 0) |
                                (m_telemetry ? TELEMETRY_MASK : 0) | (m_tsRequest ? 0x10 : 0));
    b[5] = static_cast<uint8_t>(m_destQp >> 16);
    b[6] = static_cast<uint8_t>(m_destQp >> 8);
    b[7] = static_cast<uint8_t>(m_destQp);
    b[8] = m_ackReq ? 0x80 : 0;
    b[9] = static_cast<uint8_t>(m_psn >> 16);
    b[10] = static_cast<uint8_t>(m_psn >> 8);
    b[11] = static_cast<uint8_t>(m_psn);
}

void
RdmaBthHeader::Read(const uint8_t* b)
{
    m_opcode = b[0];
    m_solicited = (b[1] & 0x80) != 0;
    m_migReq = (b[1] & 0x40) != 0;
    m_padCount = (b[1] >> 4) & 0x03;
    m_tver = b[1] & 0x0F;
    m_pkey = static_cast<uint16_t>((b[2] << 8) | b[3]);
    m_fecn = (b[4] & 0x80) != 0;
    m_becn = (b[4] & 0x40) != 0;
    m_telemetry = (b[4] & TELEMETRY_MASK) != 0;
    m_tsRequest = (b[4] & 0x10) != 0;
    m_destQp = (uint32_t(b[5]) << 16) | (uint32_t(b[6]) << 8) | b[7];
    m_ackReq = (b[8] & 0x80) != 0;
    m_psn = (uint32_t(b[9]) << 16) | (uint32_t(b[10]) << 8) | b[11];
}

void
RdmaBthHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
RdmaBthHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    Read(b);
    return SIZE;
}

} // namespace ns3
