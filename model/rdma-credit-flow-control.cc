/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-credit-flow-control.h"

#include "rdma-channel.h"
#include "rdma-link-retry.h"
#include "rdma-net-device.h"
#include "rdma-switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCreditFlowControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCreditFlowControl);

TypeId
RdmaCreditFlowControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCreditFlowControl")
            .SetParent<RdmaLinkFlowControl>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaCreditFlowControl>()
            .AddAttribute("BlockBytes",
                          "Credit granularity: bytes per credit block (InfiniBand: 64, IBTA "
                          "vol. 1 7.9.4). Configurable for other scale-up links.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaCreditFlowControl::m_blockBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("UpdateBlocks",
                          "Credit return: a receiver sends a flow-control packet for a class "
                          "once its advertised limit has advanced by this many blocks (1: "
                          "every freed packet returns its credit at once). An update costs 84 "
                          "wire bytes on an Ethernet link: the default, 64 blocks (4 KiB), "
                          "keeps them near 2 % of the reverse direction's bytes",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaCreditFlowControl::m_updateBlocks),
                          MakeUintegerChecker<uint32_t>(1, MAX_CREDIT_BLOCKS))
            .AddAttribute("RefreshInterval",
                          "Every class's state is sent again this often, for as long as the "
                          "simulation runs (end it with Simulator::Stop), so that lost updates "
                          "heal (IB sends flow-control packets periodically, IBTA vol. 1 7.9.4)",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaCreditFlowControl::m_refreshInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HostBufferBytes",
                          "Receive buffer per class a host (a device that is not a switch "
                          "port) advertises; at least one maximum frame, at most 2048 blocks",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaCreditFlowControl::m_hostBufferBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Classes",
                          "Bit mask of the credit-controlled classes (virtual channels); the "
                          "others are sent without credit (and may be dropped as lossy). "
                          "Both ends of a link must use the same mask. Default 0x08: class 3, "
                          "the RoCEv2 class, as RdmaSwitchMmu's LosslessClasses default.",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&RdmaCreditFlowControl::m_classes),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("UpdateTx",
                            "A flow-control packet was queued: class, FCTBS, FCCL",
                            MakeTraceSourceAccessor(&RdmaCreditFlowControl::m_updateTxTrace),
                            "ns3::RdmaCreditFlowControl::CreditTracedCallback")
            .AddTraceSource("UpdateRx",
                            "A flow-control packet was received: class, FCTBS, FCCL",
                            MakeTraceSourceAccessor(&RdmaCreditFlowControl::m_updateRxTrace),
                            "ns3::RdmaCreditFlowControl::CreditTracedCallback");
    return tid;
}

RdmaCreditFlowControl::RdmaCreditFlowControl()
{
    NS_LOG_FUNCTION(this);
}

RdmaCreditFlowControl::~RdmaCreditFlowControl()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaCreditFlowControl::DoDispose()
{
    m_refreshEvent.Cancel();
    RdmaLinkFlowControl::DoDispose();
}

void
RdmaCreditFlowControl::DoSetDevice()
{
    // No credit until the peer's first update: every controlled class starts blocked.
    SetNotifications(true, true);
    SetReleaseMask(m_classes); // a switch port returns credit whenever bytes leave
    m_maxFrameBlocks = std::numeric_limits<uint32_t>::max();
    m_blocked = m_classes;
    SetBlockHorizon(m_blocked ? Time::Max() : Time(0));
    Simulator::ScheduleNow(&RdmaCreditFlowControl::Start, this);
}

uint32_t
RdmaCreditFlowControl::BlocksOf(uint32_t bytes) const
{
    return (bytes + m_blockBytes - 1) / m_blockBytes;
}

void
RdmaCreditFlowControl::Start()
{
    RdmaNetDevice* dev = GetDevice();
    if (!dev)
    {
        return;
    }
    m_maxFrameBlocks = BlocksOf(dev->GetMtu());
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (!Controls(cls))
        {
            continue;
        }
        uint64_t bytes = m_hostBufferBytes;
        const char* source = "HostBufferBytes";
        if (IsSwitchPort())
        {
            // The ingress (port, class) partition the MMU admits without a drop: the
            // reserved space, and the headroom of a lossless class.
            UintegerValue reserved;
            GetMmu()->GetAttribute("ReservedPerQueue", reserved);
            bytes = reserved.Get() +
                    (GetMmu()->IsLossless(cls) ? GetMmu()->GetHeadroom(GetSwitchPort()) : 0);
            source = "the switch's ingress partition (ReservedPerQueue + headroom)";
        }
        uint64_t blocks = bytes / m_blockBytes;
        NS_ABORT_MSG_IF(blocks < m_maxFrameBlocks,
                        "RdmaCreditFlowControl: credits of class "
                            << +cls << " from " << source << " are " << blocks << " blocks ("
                            << bytes << " B at BlockBytes " << m_blockBytes
                            << "), below one maximum frame (Mtu " << dev->GetMtu()
                            << " B = " << m_maxFrameBlocks << " blocks); valid: at least "
                            << m_maxFrameBlocks << " blocks");
        if (blocks > MAX_CREDIT_BLOCKS)
        {
            NS_ABORT_MSG_IF(!IsSwitchPort(),
                            "RdmaCreditFlowControl: HostBufferBytes "
                                << m_hostBufferBytes << " is " << blocks
                                << " blocks; valid: at most " << MAX_CREDIT_BLOCKS
                                << " blocks (12-bit credit counters)");
            NS_LOG_LOGIC("class " << +cls << ": partition of " << blocks << " blocks advertised as "
                                  << MAX_CREDIT_BLOCKS);
            blocks = MAX_CREDIT_BLOCKS;
        }
        m_capacity[cls] = static_cast<uint32_t>(blocks);
        UpdateBlocked(cls);
    }
    m_started = true;
    Ptr<RdmaChannel> channel = dev->GetRdmaChannel();
    if (!channel || channel->GetNDevices() < 2)
    {
        return;
    }
    Ptr<RdmaNetDevice> peer = channel->GetPeer(dev);
    Ptr<RdmaLinkFlowControl> peerFc = peer->GetLinkFlowControl();
    auto peerCredit = DynamicCast<RdmaCreditFlowControl>(peerFc);
    NS_ABORT_MSG_IF(!peerCredit,
                    "RdmaCreditFlowControl: device "
                        << dev->GetAddress() << " uses credits but its peer " << peer->GetAddress()
                        << " uses " << peerFc->GetInstanceTypeId().GetName()
                        << "; both ends of a link must use the same link flow control");
    NS_ABORT_MSG_IF(peerCredit->m_classes != m_classes,
                    "RdmaCreditFlowControl: device "
                        << dev->GetAddress() << " controls Classes 0x" << std::hex << +m_classes
                        << " but its peer " << peer->GetAddress() << " 0x" << +peerCredit->m_classes
                        << std::dec << "; both ends of a link must control the same classes");
    Refresh();
}

void
RdmaCreditFlowControl::Refresh()
{
    for (uint8_t cls = 0; cls < NUM_CLASSES; ++cls)
    {
        if (Controls(cls))
        {
            SendUpdate(cls);
        }
    }
    // For as long as the simulation runs, as IB links do: any number of lost updates, the
    // last ones included, heal at the next refresh (a refresh that stopped on an idle link
    // would leave a sender whose updates were all lost waiting for ever).
    m_refreshEvent = Simulator::Schedule(m_refreshInterval, &RdmaCreditFlowControl::Refresh, this);
}

uint32_t
RdmaCreditFlowControl::CreditLimit(uint8_t cls) const
{
    const uint32_t free = m_capacity[cls] > m_held[cls] ? m_capacity[cls] - m_held[cls] : 0;
    return (m_abr[cls] + free) % COUNTER_MODULUS;
}

void
RdmaCreditFlowControl::MaybeSendUpdate(uint8_t cls)
{
    if (!m_started)
    {
        return;
    }
    const uint32_t advance =
        (CreditLimit(cls) + COUNTER_MODULUS - m_advertised[cls]) % COUNTER_MODULUS;
    if (advance >= m_updateBlocks && advance <= MAX_CREDIT_BLOCKS)
    {
        SendUpdate(cls);
    }
}

void
RdmaCreditFlowControl::SendUpdate(uint8_t cls)
{
    RdmaNetDevice* dev = GetDevice();
    Ptr<RdmaChannel> channel = dev->GetRdmaChannel();
    if (!channel || channel->GetNDevices() < 2)
    {
        return;
    }
    const uint32_t fccl = CreditLimit(cls);
    const uint32_t fctbs = m_fctbs[cls];
    m_advertised[cls] = fccl;
    // IBTA vol. 1 7.9.4: Op (4 bits, 0 = normal), FCTBS (12), VL (4), FCCL (12), LPCRC (16).
    uint8_t fcp[FCP_BYTES] = {static_cast<uint8_t>((fctbs >> 8) & 0x0f),
                              static_cast<uint8_t>(fctbs & 0xff),
                              static_cast<uint8_t>((cls << 4) | ((fccl >> 8) & 0x0f)),
                              static_cast<uint8_t>(fccl & 0xff),
                              0,
                              0};
    Ptr<Packet> frame = Create<Packet>(fcp, FCP_BYTES);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(dev->GetAddress()));
    eth.SetDestination(Mac48Address::ConvertFrom(channel->GetPeer(dev)->GetAddress()));
    eth.SetLengthType(ETHERTYPE_CREDIT);
    frame->AddHeader(eth);
    ++m_updatesSent;
    NS_LOG_LOGIC("class " << +cls << ": update FCTBS " << fctbs << " FCCL " << fccl);
    m_updateTxTrace(cls, static_cast<uint16_t>(fctbs), static_cast<uint16_t>(fccl));
    dev->SendControlFrame(frame);
}

bool
RdmaCreditFlowControl::HandleControlFrame(Ptr<Packet> frame, uint16_t etherType)
{
    NS_LOG_FUNCTION(this << frame << etherType);
    constexpr uint32_t ETH = RdmaNetDevice::ETHERNET_HEADER_BYTES;
    uint8_t b[ETH + FCP_BYTES];
    if (etherType != ETHERTYPE_CREDIT || frame->CopyData(b, sizeof(b)) < sizeof(b))
    {
        return false;
    }
    const uint8_t* fcp = b + ETH;
    const uint32_t fctbs = ((fcp[0] & 0x0fU) << 8) | fcp[1];
    const uint8_t cls = fcp[2] >> 4;
    const uint32_t fccl = ((fcp[2] & 0x0fU) << 8) | fcp[3];
    if (cls >= NUM_CLASSES)
    {
        return false;
    }
    ++m_updatesReceived;
    NS_LOG_LOGIC("class " << +cls << ": received FCTBS " << fctbs << " FCCL " << fccl);
    m_updateRxTrace(cls, static_cast<uint16_t>(fctbs), static_cast<uint16_t>(fccl));
    if (!Controls(cls))
    {
        return true;
    }
    m_fccl[cls] = fccl; // the transmitter's new limit
    if (!GetDevice()->GetLinkRetry())
    {
        m_abr[cls] = fctbs; // the receiver resynchronises: blocks lost on the way are not owed
    }
    // With link-level retry no frame is lost for good: a corrupted one is replayed and
    // counted (ABR) when accepted, so a resync would count its blocks twice. Replays take
    // no credit (FCTBS counts first transmissions), as PCIe's do not.
    UpdateBlocked(cls);
    TriggerDeviceTransmit();
    return true;
}

uint32_t
RdmaCreditFlowControl::GetAvailableCredits(uint8_t cls) const
{
    const uint32_t d = (m_fccl[cls] + COUNTER_MODULUS - m_fctbs[cls]) % COUNTER_MODULUS;
    return d <= MAX_CREDIT_BLOCKS ? d : 0;
}

uint32_t
RdmaCreditFlowControl::GetBufferBlocks(uint8_t cls) const
{
    return m_capacity[cls];
}

uint32_t
RdmaCreditFlowControl::GetMaxFrameBlocks() const
{
    return m_maxFrameBlocks;
}

uint64_t
RdmaCreditFlowControl::GetUpdatesSent() const
{
    return m_updatesSent;
}

uint64_t
RdmaCreditFlowControl::GetUpdatesReceived() const
{
    return m_updatesReceived;
}

void
RdmaCreditFlowControl::UpdateBlocked(uint8_t cls)
{
    const uint8_t bit = static_cast<uint8_t>(1U << cls);
    if (Controls(cls) && GetAvailableCredits(cls) < m_maxFrameBlocks)
    {
        m_blocked |= bit;
    }
    else
    {
        m_blocked &= static_cast<uint8_t>(~bit);
    }
    // Nothing blocked: the device's inline test answers without a call.
    SetBlockHorizon(m_blocked ? Time::Max() : Time(0));
}

uint8_t
RdmaCreditFlowControl::DoGetBlockedMask(Time /* now */) const
{
    return m_blocked;
}

void
RdmaCreditFlowControl::NotifyTransmit(uint8_t cls, uint32_t ipv4Bytes)
{
    if (!Controls(cls))
    {
        return;
    }
    m_fctbs[cls] = (m_fctbs[cls] + BlocksOf(ipv4Bytes)) % COUNTER_MODULUS;
    UpdateBlocked(cls);
}

void
RdmaCreditFlowControl::NotifyReceive(uint8_t cls, uint32_t ipv4Bytes)
{
    if (!Controls(cls))
    {
        return;
    }
    m_abr[cls] = (m_abr[cls] + BlocksOf(ipv4Bytes)) % COUNTER_MODULUS;
    if (!IsSwitchPort())
    {
        MaybeSendUpdate(cls); // a host consumes at once: the credit returns now
    }
}

void
RdmaCreditFlowControl::NotifyIngressAdmitted(uint8_t cls, uint32_t bytes)
{
    if (Controls(cls))
    {
        m_held[cls] += BlocksOf(bytes);
    }
}

void
RdmaCreditFlowControl::NotifyIngressReleased(uint8_t cls, uint32_t bytes)
{
    if (!Controls(cls))
    {
        return;
    }
    const uint32_t blocks = BlocksOf(bytes);
    m_held[cls] = m_held[cls] > blocks ? m_held[cls] - blocks : 0;
    MaybeSendUpdate(cls);
}

} // namespace ns3
