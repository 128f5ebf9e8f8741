/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-link-framing.h"

#include "rdma-aeth-header.h"
#include "rdma-atomic-ack-eth-header.h"
#include "rdma-atomic-eth-header.h"
#include "rdma-bth-header.h"
#include "rdma-channel.h"
#include "rdma-net-device.h"
#include "rdma-reth-header.h"
#include "rdma-wire-error-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLinkFraming");

NS_OBJECT_ENSURE_REGISTERED(RdmaLinkFraming);

TypeId
RdmaLinkFraming::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaLinkFraming").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaLinkFraming::RdmaLinkFraming()
{
    NS_LOG_FUNCTION(this);
}

RdmaLinkFraming::~RdmaLinkFraming()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaLinkFraming::DoDispose()
{
    m_device = nullptr;
    Object::DoDispose();
}

RdmaLinkFraming::FrameInfo
RdmaLinkFraming::Parse(const Ptr<const Packet>& packet, bool withEthernet)
{
    constexpr uint32_t ETH = RdmaNetDevice::ETHERNET_HEADER_BYTES;
    constexpr uint32_t UDP = 8;
    constexpr uint32_t ICRC = 4;
    constexpr uint32_t ROCEV2_UDP_PORT = 4791; // IANA; IBTA vol. 1 annex A17.3.5
    uint8_t b[ETH + 60 + UDP + RdmaBthHeader::SIZE];
    const uint32_t n = packet->CopyData(b, sizeof(b));
    FrameInfo info;
    const uint32_t off = withEthernet ? ETH : 0;
    if (withEthernet && (n < ETH || ((b[12] << 8) | b[13]) != RdmaNetDevice::ETHERTYPE_IPV4))
    {
        info.ipv4Bytes = packet->GetSize() > ETH ? packet->GetSize() - ETH : 0;
        return info; // a control frame (PFC, credit update)
    }
    info.isIpv4 = true;
    info.ipv4Bytes = packet->GetSize() - off;
    const uint8_t* ip = b + off;
    const uint32_t avail = n - off;
    if (avail < 20 || ip[9] != 17)
    {
        return info;
    }
    const uint32_t ihl = (ip[0] & 0x0f) * 4;
    info.l4HeadBytes = ihl + UDP;
    if (avail < ihl + UDP + RdmaBthHeader::SIZE ||
        ((ip[ihl + 2] << 8) | ip[ihl + 3]) != ROCEV2_UDP_PORT)
    {
        return info;
    }
    const uint8_t* bth = ip + ihl + UDP;
    const uint8_t opcode = bth[0];
    const uint32_t padBytes = (bth[1] >> 4) & 3;
    const uint32_t extBytes =
        (RdmaBthHeader::HasReth(opcode) ? RdmaRethHeader::SIZE : 0) +
        (RdmaBthHeader::HasAeth(opcode) ? RdmaAethHeader::SIZE : 0) +
        (RdmaBthHeader::HasImmediate(opcode) ? 4 : 0) +
        (RdmaBthHeader::HasAtomicEth(opcode) ? RdmaAtomicEthHeader::SIZE : 0) +
        (RdmaBthHeader::HasAtomicAckEth(opcode) ? RdmaAtomicAckEthHeader::SIZE : 0);
    info.isRoce = true;
    const uint32_t after =
        info.ipv4Bytes > info.l4HeadBytes ? info.ipv4Bytes - info.l4HeadBytes : 0;
    info.transportBytes = std::min(after, RdmaBthHeader::SIZE + extBytes + padBytes + ICRC);
    info.rdmaPayload = after - info.transportBytes;
    return info;
}

void
RdmaLinkFraming::SetDevice(RdmaNetDevice* device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_device && m_device != device,
                    "RdmaLinkFraming: this " << GetInstanceTypeId().GetName()
                                             << " already serves another device; create one "
                                                "per device");
    m_device = device;
    Simulator::ScheduleNow(&RdmaLinkFraming::Check, this);
}

RdmaNetDevice*
RdmaLinkFraming::GetDevice() const
{
    return m_device;
}

std::string
RdmaLinkFraming::Mismatch(const RdmaLinkFraming& /* other */) const
{
    return "";
}

void
RdmaLinkFraming::DoCheck() const
{
}

void
RdmaLinkFraming::Check() const
{
    DoCheck();
    if (!m_device || m_device->GetLinkFraming() != this)
    {
        return; // replaced before the run
    }
    Ptr<RdmaChannel> channel = m_device->GetRdmaChannel();
    if (!channel || channel->GetNDevices() < 2)
    {
        return;
    }
    Ptr<RdmaNetDevice> peer = channel->GetPeer(m_device);
    Ptr<RdmaLinkFraming> peerFraming = peer->GetLinkFraming();
    const std::string name = GetInstanceTypeId().GetName();
    NS_ABORT_MSG_IF(!peerFraming || peerFraming->GetInstanceTypeId() != GetInstanceTypeId(),
                    "RdmaLinkFraming: device "
                        << m_device->GetAddress() << " uses LinkFraming " << name
                        << " but its peer " << peer->GetAddress() << " uses "
                        << (peerFraming ? peerFraming->GetInstanceTypeId().GetName()
                                        : std::string("none (plain Ethernet)"))
                        << "; both ends of a link must use the same framing");
    const std::string diff = Mismatch(*peerFraming);
    NS_ABORT_MSG_IF(!diff.empty(),
                    "RdmaLinkFraming: device " << m_device->GetAddress() << " and its peer "
                                               << peer->GetAddress() << " use " << name
                                               << " with different parameters: " << diff);
    // Bit errors hit the bits this framing puts on the wire, not an Ethernet frame's.
    PointerValue errorModel;
    m_device->GetAttribute("ReceiveErrorModel", errorModel);
    if (auto wire = DynamicCast<RdmaWireErrorModel>(errorModel.GetObject()))
    {
        wire->SetLinkFraming(this);
    }
}

} // namespace ns3
