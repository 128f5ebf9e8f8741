/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-pause-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPauseHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcPauseHeader);

namespace
{
/// Bytes before the padding: opcode, enable vector and eight times.
constexpr uint32_t PFC_FIELDS_SIZE = 2 + 2 + 2 * PfcPauseHeader::NUM_CLASSES;
} // namespace

TypeId
PfcPauseHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcPauseHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<PfcPauseHeader>();
    return tid;
}

TypeId
PfcPauseHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcPauseHeader::PfcPauseHeader()
    : m_quanta{},
      m_opcode(OPCODE),
      m_classEnableVector(0)
{
}

Mac48Address
PfcPauseHeader::GetMulticastAddress()
{
    return Mac48Address("01:80:c2:00:00:01");
}

uint16_t
PfcPauseHeader::GetOpcode() const
{
    return m_opcode;
}

bool
PfcPauseHeader::IsPfc() const
{
    return m_opcode == OPCODE;
}

void
PfcPauseHeader::SetClassEnableVector(uint8_t cev)
{
    m_classEnableVector = cev;
}

uint8_t
PfcPauseHeader::GetClassEnableVector() const
{
    return m_classEnableVector;
}

bool
PfcPauseHeader::IsClassEnabled(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "PfcPauseHeader::IsClassEnabled: class " << +cls
                                                             << " out of range (valid 0..7)");
    return (m_classEnableVector >> cls) & 1;
}

void
PfcPauseHeader::SetQuanta(uint8_t cls, uint16_t quanta)
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "PfcPauseHeader::SetQuanta: class " << +cls << " out of range (valid 0..7)");
    m_quanta[cls] = quanta;
}

uint16_t
PfcPauseHeader::GetQuanta(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= NUM_CLASSES,
                    "PfcPauseHeader::GetQuanta: class " << +cls << " out of range (valid 0..7)");
    return m_quanta[cls];
}

void
PfcPauseHeader::Print(std::ostream& os) const
{
    if (!IsPfc())
    {
        os << "MAC control opcode=0x" << std::hex << m_opcode << std::dec << " (not PFC)";
        return;
    }
    os << "PFC cev=0x" << std::hex << +m_classEnableVector << std::dec;
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (IsClassEnabled(cls))
        {
            os << " c" << +cls << "=" << m_quanta[cls];
        }
    }
}

uint32_t
PfcPauseHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcPauseHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_classEnableVector);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, SIZE - PFC_FIELDS_SIZE);
}

uint32_t
PfcPauseHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_classEnableVector = i.ReadNtohU16() & 0xFF;
    for (uint16_t& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    i.Next(SIZE - PFC_FIELDS_SIZE);
    return SIZE;
}

} // namespace ns3
