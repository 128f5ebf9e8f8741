/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-compressed-header-framing.h"

#include "rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCompressedHeaderFraming");

NS_OBJECT_ENSURE_REGISTERED(RdmaCompressedHeaderFraming);

TypeId
RdmaCompressedHeaderFraming::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCompressedHeaderFraming")
            .SetParent<RdmaLinkFraming>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCompressedHeaderFraming>()
            .AddAttribute("HeaderBytes",
                          "The compressed header in place of Ethernet, IPv4 and UDP (Broadcom "
                          "Tomahawk Ultra's AI Fabric Header: 10 bytes)",
                          UintegerValue(10),
                          MakeUintegerAccessor(&RdmaCompressedHeaderFraming::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinFrameBytes",
                          "Minimum frame, FCS included (IEEE 802.3: 64; assumption: kept)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaCompressedHeaderFraming::m_minFrameBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("KeepIcrc",
                          "Keep RoCEv2's 4-byte ICRC in the frame (assumption: dropped, the "
                          "FCS protects each hop)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaCompressedHeaderFraming::m_keepIcrc),
                          MakeBooleanChecker());
    return tid;
}

RdmaCompressedHeaderFraming::RdmaCompressedHeaderFraming()
{
    NS_LOG_FUNCTION(this);
}

RdmaCompressedHeaderFraming::~RdmaCompressedHeaderFraming()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaCompressedHeaderFraming::DoCheck() const
{
    NS_ABORT_MSG_IF(m_headerBytes == 0,
                    "RdmaCompressedHeaderFraming: HeaderBytes 0; valid: > 0 (the frame needs a "
                    "destination)");
}

uint32_t
RdmaCompressedHeaderFraming::WireBytesOf(const FrameInfo& info) const
{
    constexpr uint32_t ICRC = 4;
    uint32_t body; // what follows the compressed header
    if (!info.isIpv4 || info.l4HeadBytes == 0)
    {
        body = info.ipv4Bytes; // control body, or IPv4 that is not UDP: only Ethernet replaced
    }
    else
    {
        body = info.ipv4Bytes - info.l4HeadBytes;
        if (info.isRoce && !m_keepIcrc && body >= ICRC)
        {
            body -= ICRC;
        }
    }
    const uint32_t frame =
        std::max(m_headerBytes + body + RdmaNetDevice::FCS_BYTES, m_minFrameBytes);
    return frame + RdmaNetDevice::PREAMBLE_SFD_BYTES + RdmaNetDevice::IFG_BYTES;
}

RdmaLinkFraming::FrameCost
RdmaCompressedHeaderFraming::StartFrame(const Ptr<const Packet>& frame, Time /* now */)
{
    FrameCost cost;
    cost.wireBytes = WireBytesOf(Parse(frame, true)); // timed by the device at its rate
    return cost;
}

uint32_t
RdmaCompressedHeaderFraming::GetFrameWireBytes(const Ptr<const Packet>& frame) const
{
    return WireBytesOf(Parse(frame, true));
}

uint32_t
RdmaCompressedHeaderFraming::GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const
{
    return WireBytesOf(Parse(ipv4Packet, false));
}

std::string
RdmaCompressedHeaderFraming::Mismatch(const RdmaLinkFraming& other) const
{
    const auto& o = static_cast<const RdmaCompressedHeaderFraming&>(other);
    std::ostringstream s;
    if (o.m_headerBytes != m_headerBytes || o.m_keepIcrc != m_keepIcrc)
    {
        s << "HeaderBytes " << m_headerBytes << " / " << o.m_headerBytes << ", KeepIcrc "
          << m_keepIcrc << " / " << o.m_keepIcrc;
    }
    return s.str();
}

} // namespace ns3
