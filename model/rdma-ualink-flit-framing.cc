/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-ualink-flit-framing.h"

#include "rdma-net-device.h"

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

RdmaLinkFraming::FrameCost
RdmaUalinkFlitFraming::StartFrame(const Ptr<const Packet>& frame, Time now)
{
    const uint32_t tl = TlFlitsOf(Parse(frame, true));
    m_tlFlits += tl;
    const uint32_t perFlit = GetTlFlitsPerDlFlit();
    const uint64_t bitRate = GetDevice()->GetDataRate().GetBitRate();
    if (bitRate != m_slotRate)
    {
        // A TL slot lasts DlFlitBytes x 8 / (perFlit x rate) seconds: kept as a fraction of
        // time steps so that slot boundaries are exact at any rate and resolution.
        m_slotRate = bitRate;
        m_slotNum = uint64_t(m_dlFlitBytes) * 8 * uint64_t(Seconds(1).GetTimeStep());
        m_slotDen = uint64_t(perFlit) * bitRate;
        m_inRun = false;
    }
    const int64_t nowSteps = now.GetTimeStep();
    uint64_t start = 0;
    if (m_inRun)
    {
        const uint64_t open = (m_runSlots + perFlit - 1) / perFlit; // DL flits of the run
        if (nowSteps < m_runStart + StepsToSlot(open * perFlit))
        {
            // The last DL flit is still being sent: the frame takes its free slots from now
            // (none missed if it follows the frame before back to back).
            start = std::max(m_runSlots, FirstSlotFrom(nowSteps - m_runStart));
            m_padded += start - m_runSlots;
        }
        else
        {
            m_padded += open * perFlit - m_runSlots; // that flit left padded
            m_inRun = false;
        }
    }
    if (!m_inRun)
    {
        m_inRun = true;
        m_runStart = nowSteps;
        m_runSlots = 0;
    }
    const uint64_t end = start + tl;
    const uint64_t flitsBefore = (m_runSlots + perFlit - 1) / perFlit;
    const uint64_t flitsAfter = (end + perFlit - 1) / perFlit;
    m_runSlots = end;
    m_dlFlits += flitsAfter - flitsBefore;
    FrameCost cost;
    cost.wireBytes = static_cast<uint32_t>((flitsAfter - flitsBefore) * m_dlFlitBytes);
    cost.timed = true;
    cost.busy = TimeStep(m_runStart + StepsToSlot(end) - nowSteps);
    cost.delivery = TimeStep(m_runStart + StepsToSlot(flitsAfter * perFlit) - nowSteps);
    NS_LOG_LOGIC(tl << " TL flits in slots " << start << ".." << end
                    << " of the run: " << flitsAfter - flitsBefore << " new DL flits");
    return cost;
}

int64_t
RdmaUalinkFlitFraming::StepsToSlot(uint64_t s) const
{
    return static_cast<int64_t>(static_cast<unsigned __int128>(s) * m_slotNum / m_slotDen);
}

uint64_t
RdmaUalinkFlitFraming::FirstSlotFrom(int64_t steps) const
{
    // The smallest s with floor(s x num / den) >= steps, i.e. s >= steps x den / num.
    const unsigned __int128 x = static_cast<unsigned __int128>(steps) * m_slotDen;
    return static_cast<uint64_t>((x + m_slotNum - 1) / m_slotNum);
}

uint32_t
RdmaUalinkFlitFraming::GetFrameWireBytes(const Ptr<const Packet>& frame) const
{
    return TlFlitsOf(Parse(frame, true)) * m_dlFlitBytes / GetTlFlitsPerDlFlit();
}

uint32_t
RdmaUalinkFlitFraming::GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const
{
    // The stream share, rounded down: a pacer at line rate then never holds back a stream
    // the link could send (the slot timing above is the exact one).
    return TlFlitsOf(Parse(ipv4Packet, false)) * m_dlFlitBytes / GetTlFlitsPerDlFlit();
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
