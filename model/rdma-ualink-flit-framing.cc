/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-ualink-flit-framing.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaUalinkFlitFraming");

NS_OBJECT_ENSURE_REGISTERED(RdmaUalinkFlitFraming);

TypeId
RdmaUalinkFlitFraming::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaUalinkFlitFraming")
            .SetParent<RdmaLinkFraming>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaUalinkFlitFraming>()
            .AddAttribute("DlFlitBytes",
                          "Data-link flit on the wire (UALink 1.0: 640 bytes)",
                          UintegerValue(640),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_dlFlitBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FlitHeaderBytes",
                          "DL flit header (assumption: 3 bytes; not in public material found)",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_flitHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentBytes",
                          "DL flit segment; DlFlitBytes must be a whole number of segments "
                          "(assumption: 128 bytes, five per flit)",
                          UintegerValue(128),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SegmentHeaderBytes",
                          "Header of each segment (assumption: 1 byte)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_segmentHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CrcBytes",
                          "DL flit CRC (assumption: 4 bytes)",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_crcBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TlFlitBytes",
                          "Transaction-layer flit (UALink 1.0: 64 bytes); frames are whole TL "
                          "flits",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_tlFlitBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TransactionHeaderBytes",
                          "Request/response header of a transaction, in place of Ethernet, "
                          "IPv4, UDP, BTH and RETH/AETH (assumption: 16 bytes)",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaUalinkFlitFraming::m_headerBytes),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RdmaUalinkFlitFraming::RdmaUalinkFlitFraming()
{
    NS_LOG_FUNCTION(this);
}

RdmaUalinkFlitFraming::~RdmaUalinkFlitFraming()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaUalinkFlitFraming::DoCheck() const
{
    NS_ABORT_MSG_IF(m_segmentBytes == 0 || m_dlFlitBytes % m_segmentBytes != 0,
                    "RdmaUalinkFlitFraming: DlFlitBytes " << m_dlFlitBytes
                                                          << " is not a whole number of "
                                                             "SegmentBytes "
                                                          << m_segmentBytes
                                                          << "; valid: a divisor of "
                                                             "DlFlitBytes");
    NS_ABORT_MSG_IF(m_tlFlitBytes == 0, "RdmaUalinkFlitFraming: TlFlitBytes 0; valid: > 0");
    const uint32_t overhead =
        m_flitHeaderBytes + m_dlFlitBytes / m_segmentBytes * m_segmentHeaderBytes + m_crcBytes;
    NS_ABORT_MSG_IF(overhead + m_tlFlitBytes > m_dlFlitBytes,
                    "RdmaUalinkFlitFraming: a DL flit of DlFlitBytes "
                        << m_dlFlitBytes << " less " << overhead
                        << " bytes of headers and CRC holds no TL flit of TlFlitBytes "
                        << m_tlFlitBytes << "; valid: TlFlitBytes <= "
                        << (m_dlFlitBytes > overhead ? m_dlFlitBytes - overhead : 0));
}

uint32_t
RdmaUalinkFlitFraming::GetTlFlitsPerDlFlit() const
{
    const uint32_t overhead =
        m_flitHeaderBytes + m_dlFlitBytes / m_segmentBytes * m_segmentHeaderBytes + m_crcBytes;
    return (m_dlFlitBytes - overhead) / m_tlFlitBytes;
}

uint32_t
RdmaUalinkFlitFraming::TlFlitsOf(const FrameInfo& info) const
{
    const uint32_t payload = info.isRoce ? info.rdmaPayload : info.ipv4Bytes;
    return std::max(1U, (m_headerBytes + payload + m_tlFlitBytes - 1) / m_tlFlitBytes);
}

uint32_t
RdmaUalinkFlitFraming::StartFrame(const Ptr<const Packet>& frame, bool backToBack)
{
    const uint32_t tl = TlFlitsOf(Parse(frame, true));
    m_tlFlits += tl;
    if (!backToBack)
    {
        m_padded += m_freeSlots; // the link went idle: that flit left padded
        m_freeSlots = 0;
    }
    if (tl <= m_freeSlots)
    {
        m_freeSlots -= tl;
        return 0; // rides in the DL flit being sent
    }
    const uint32_t perFlit = GetTlFlitsPerDlFlit();
    const uint32_t need = tl - m_freeSlots;
    const uint32_t flits = (need + perFlit - 1) / perFlit;
    m_freeSlots = flits * perFlit - need;
    m_dlFlits += flits;
    NS_LOG_LOGIC(tl << " TL flits: " << flits << " new DL flits, " << m_freeSlots << " slots left");
    return flits * m_dlFlitBytes;
}

uint32_t
RdmaUalinkFlitFraming::GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const
{
    const uint32_t perFlit = GetTlFlitsPerDlFlit();
    return (TlFlitsOf(Parse(ipv4Packet, false)) * m_dlFlitBytes + perFlit - 1) / perFlit;
}

std::string
RdmaUalinkFlitFraming::Mismatch(const RdmaLinkFraming& other) const
{
    const auto& o = static_cast<const RdmaUalinkFlitFraming&>(other);
    o.DoCheck(); // its parameters are valid before they are compared
    std::ostringstream s;
    if (o.m_dlFlitBytes != m_dlFlitBytes || o.m_tlFlitBytes != m_tlFlitBytes ||
        o.GetTlFlitsPerDlFlit() != GetTlFlitsPerDlFlit())
    {
        s << "DlFlitBytes " << m_dlFlitBytes << " / " << o.m_dlFlitBytes << ", TlFlitBytes "
          << m_tlFlitBytes << " / " << o.m_tlFlitBytes << ", TL flits per DL flit "
          << GetTlFlitsPerDlFlit() << " / " << o.GetTlFlitsPerDlFlit();
    }
    return s.str();
}

uint64_t
RdmaUalinkFlitFraming::GetDlFlitsSent() const
{
    return m_dlFlits;
}

uint64_t
RdmaUalinkFlitFraming::GetTlFlitsSent() const
{
    return m_tlFlits;
}

uint64_t
RdmaUalinkFlitFraming::GetPaddedTlSlots() const
{
    return m_padded;
}

} // namespace ns3
