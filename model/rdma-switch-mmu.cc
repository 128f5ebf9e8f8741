/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitchMmu");

NS_OBJECT_ENSURE_REGISTERED(RdmaSwitchMmu);

namespace
{
/// Wire bytes of an 802.1Qbb PFC frame: 64-byte minimum frame (FCS included), preamble
/// and SFD (8), inter-frame gap (12).
constexpr uint64_t PFC_FRAME_WIRE_BYTES = 64 + 8 + 12;

/// \return the decimal digits of a 128-bit sum, for the messages of Validate()
std::string
Decimal(unsigned __int128 v)
{
    std::string digits;
    do
    {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
        v /= 10;
    } while (v != 0);
    return digits;
}
} // namespace

TypeId
RdmaSwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwitchMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer, bytes. The default, 32 MiB, is the figure of "
                          "the HPCC simulator's evaluation configurations (Tomahawk-class "
                          "switch chips have 16-64 MiB).",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReservedPerQueue",
                          "Guaranteed (minimum) bytes of every (ingress port, class) queue, "
                          "all eight classes of every port (HPCC SwitchMmu: 4 KiB).",
                          UintegerValue(4 * 1024),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_reservedPerQueue),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Headroom",
                          "PFC headroom of every lossless (ingress port, class), bytes. "
                          "0: computed per port from its rate and cable delay "
                          "(2 R d + 2 Fmax + Fpfc + R PfcResponseTime, IEEE 802.1Qbb Annex N).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_headroomAttr),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcResponseTime",
                          "Interface and response delays (2 D-Intf + D-Resp of 802.1Qbb "
                          "Annex N) added to the automatic headroom. The RdmaNetDevice reacts "
                          "at once, so 0 is enough for losslessness.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaSwitchMmu::m_responseTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PfcEnabled",
                          "Send PFC for the LosslessClasses; if false every class is lossy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaSwitchMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("LosslessClasses",
                          "Bitmask of the lossless traffic classes (bit i: class i, 0..7). "
                          "Default 0x08: class 3, the RoCEv2 class (DSCP 26).",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_losslessClasses),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "XoffThresholdMode",
                "Dynamic: T = Alpha x free shared pool; Static: T = "
                "StaticXoffThreshold. T bounds a queue's shared-pool use: XOFF for "
                "lossless classes, drop for lossy ones.",
                EnumValue(RdmaSwitchMmu::DYNAMIC),
                MakeEnumAccessor(&RdmaSwitchMmu::m_mode),
                MakeEnumChecker(RdmaSwitchMmu::DYNAMIC, "Dynamic", RdmaSwitchMmu::STATIC, "Static"))
            .AddAttribute("Alpha",
                          "Dynamic threshold factor (Broadcom alpha; HPCC default 1/8).",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&RdmaSwitchMmu::m_alpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("StaticXoffThreshold",
                          "Shared-pool bytes of a queue at which XOFF is sent (lossy: "
                          "dropped), in Static mode. At most BufferSize.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_staticXoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffset",
                          "Hysteresis: XON when the queue's shared use is at most "
                          "T - XonOffset (or 0) and it uses no headroom (HPCC: 3 KiB).",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxEgressQueueBytes",
                          "Egress limit of the lossy (port, class) queues, bytes; 0: none. "
                          "Lossless queues are never dropped at egress (PFC bounds them).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaSwitchMmu::m_maxEgressBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

RdmaSwitchMmu::RdmaSwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

RdmaSwitchMmu::~RdmaSwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RdmaSwitchMmu::AddPort(DataRate rate, Time delay, uint32_t maxFrameWireBytes)
{
    NS_LOG_FUNCTION(this << rate << delay << maxFrameWireBytes);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0,
                    "RdmaSwitchMmu::AddPort: port rate 0 bit/s; "
                    "a port needs a positive DataRate");
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(),
                    "RdmaSwitchMmu::AddPort: negative cable delay " << delay);
    m_portInfo.push_back(PortInfo{rate, delay, maxFrameWireBytes, 0});
    m_ingress.emplace_back();
    m_egress.emplace_back();
    m_egress.back().fill(0);
    Validate();
    return static_cast<uint32_t>(m_portInfo.size() - 1);
}

uint32_t
RdmaSwitchMmu::GetNPorts() const
{
    return static_cast<uint32_t>(m_portInfo.size());
}

uint32_t
RdmaSwitchMmu::CountLossless() const
{
    if (!m_pfcEnabled)
    {
        return 0;
    }
    uint32_t n = 0;
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        n += (m_losslessClasses >> c) & 1U;
    }
    return n;
}

uint64_t
RdmaSwitchMmu::ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameWireBytes) const
{
    const double bytesPerSecond = rate.GetBitRate() / 8.0;
    const double inFlight = 2.0 * bytesPerSecond * delay.GetSeconds();
    const double response = bytesPerSecond * m_responseTime.GetSeconds();
    const double bytes = std::ceil(inFlight + response);
    // Saturate: a cable of seconds at Tb/s needs more than 2^64 B, which no buffer holds and
    // Validate() refuses; casting such a double to an integer would be undefined.
    if (!(bytes < 0x1p63))
    {
        return UINT64_MAX;
    }
    return static_cast<uint64_t>(bytes) + 2ULL * maxFrameWireBytes + PFC_FRAME_WIRE_BYTES;
}

void
RdmaSwitchMmu::Validate()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_bufferSize == 0, "RdmaSwitchMmu: BufferSize 0; it must be positive");
    NS_ABORT_MSG_IF(m_pfcEnabled && (m_losslessClasses >> NUM_CLASSES) != 0,
                    "RdmaSwitchMmu: LosslessClasses 0x"
                        << std::hex << m_losslessClasses << std::dec
                        << " names a class above 7; traffic classes are 0..7 (mask <= 0xff)");
    NS_ABORT_MSG_IF(m_mode == DYNAMIC && !(m_alpha > 0),
                    "RdmaSwitchMmu: Alpha " << m_alpha
                                            << " is not valid; the dynamic threshold needs "
                                               "Alpha > 0 (e.g. 1/128 .. 8)");
    NS_ABORT_MSG_IF(m_mode == STATIC && m_staticXoff > m_bufferSize,
                    "RdmaSwitchMmu: StaticXoffThreshold "
                        << m_staticXoff << " B is larger than BufferSize " << m_bufferSize
                        << " B; it must be at most BufferSize");

    const uint32_t nPorts = GetNPorts();
    const uint32_t nLossless = CountLossless();
    // Sums in 128 bits: 1 port x 8 classes x 2^61 B must not wrap to 0 and pass.
    using Wide = unsigned __int128;
    const Wide totalReserved = static_cast<Wide>(nPorts) * NUM_CLASSES * m_reservedPerQueue;
    Wide totalHeadroom = 0;
    for (auto& port : m_portInfo)
    {
        uint64_t automatic = ComputeHeadroom(port.rate, port.delay, port.maxFrameWireBytes);
        port.headroom = nLossless == 0 ? 0 : (m_headroomAttr != 0 ? m_headroomAttr : automatic);
        if (nLossless != 0 && m_headroomAttr != 0 && m_headroomAttr < automatic)
        {
            NS_LOG_WARN("Headroom " << m_headroomAttr << " B is below the " << automatic
                                    << " B a port of " << port.rate << " and " << port.delay
                                    << " needs: lossless packets may be dropped");
        }
        totalHeadroom += static_cast<Wide>(port.headroom) * nLossless;
    }
    NS_ABORT_MSG_IF(totalReserved + totalHeadroom > m_bufferSize,
                    "RdmaSwitchMmu: reserved "
                        << Decimal(totalReserved) << " B (" << nPorts << " ports x " << NUM_CLASSES
                        << " classes x ReservedPerQueue " << m_reservedPerQueue << " B) + headroom "
                        << Decimal(totalHeadroom) << " B (" << nPorts << " ports x " << nLossless
                        << " lossless classes; Headroom of the last port "
                        << (m_portInfo.empty() ? 0 : m_portInfo.back().headroom)
                        << " B) = " << Decimal(totalReserved + totalHeadroom)
                        << " B exceeds BufferSize " << m_bufferSize
                        << " B; raise BufferSize or lower ReservedPerQueue/Headroom");
    m_totalReserved = static_cast<uint64_t>(totalReserved);
    m_totalHeadroom = static_cast<uint64_t>(totalHeadroom);
    m_sharedPoolSize = m_bufferSize - m_totalReserved - m_totalHeadroom;
    NS_ABORT_MSG_IF(m_sharedPoolUsed > m_sharedPoolSize,
                    "RdmaSwitchMmu: reconfigured while " << m_sharedPoolUsed
                                                         << " B of shared pool are in use");
}

void
RdmaSwitchMmu::AbortBadRelease(uint32_t inPort, uint32_t outPort, uint8_t cls, uint32_t size) const
{
    const IngressQueue& q = m_ingress[inPort][cls];
    NS_ABORT_MSG("RdmaSwitchMmu::Release: "
                 << size << " B released but ingress queue (" << inPort << ", " << unsigned(cls)
                 << ") holds " << q.Total() << " B and egress queue (" << outPort << ", "
                 << unsigned(cls) << ") " << m_egress[outPort][cls] << " B");
}

void
RdmaSwitchMmu::AbortBadQueue(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_IF(port >= GetNPorts(),
                    "RdmaSwitchMmu: port " << port << " does not exist (ports: " << GetNPorts()
                                           << ")");
    NS_ABORT_MSG("RdmaSwitchMmu: class " << unsigned(cls) << " is not in 0..7");
}

bool
RdmaSwitchMmu::CheckShouldResume(uint32_t inPort, uint8_t cls) const
{
    const IngressQueue& q = m_ingress[inPort][cls];
    if (!q.paused || q.headroom > 0)
    {
        return false;
    }
    return q.shared == 0 || q.shared + m_xonOffset <= GetThreshold();
}

void
RdmaSwitchMmu::SetPaused(uint32_t inPort, uint8_t cls, bool paused)
{
    CheckQueue(inPort, cls);
    m_ingress[inPort][cls].paused = paused;
}

bool
RdmaSwitchMmu::IsPaused(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].paused;
}

uint8_t
RdmaSwitchMmu::GetPausedMask(uint32_t inPort) const
{
    CheckQueue(inPort, 0);
    uint8_t mask = 0;
    for (uint32_t c = 0; c < NUM_CLASSES; ++c)
    {
        mask |= m_ingress[inPort][c].paused ? (1U << c) : 0U;
    }
    return mask;
}

uint64_t
RdmaSwitchMmu::GetIngressBytes(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].Total();
}

uint64_t
RdmaSwitchMmu::GetReservedUsed(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].reserved;
}

uint64_t
RdmaSwitchMmu::GetSharedUsed(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].shared;
}

uint64_t
RdmaSwitchMmu::GetHeadroomUsed(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].headroom;
}

uint64_t
RdmaSwitchMmu::GetPeakIngressBytes(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].peakTotal;
}

uint64_t
RdmaSwitchMmu::GetPeakSharedUsed(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].peakShared;
}

uint64_t
RdmaSwitchMmu::GetPeakHeadroomUsed(uint32_t inPort, uint8_t cls) const
{
    CheckQueue(inPort, cls);
    return m_ingress[inPort][cls].peakHeadroom;
}

uint64_t
RdmaSwitchMmu::GetHeadroom(uint32_t inPort) const
{
    CheckQueue(inPort, 0);
    return m_portInfo[inPort].headroom;
}

uint64_t
RdmaSwitchMmu::GetBufferSize() const
{
    return m_bufferSize;
}

uint64_t
RdmaSwitchMmu::GetSharedPoolSize() const
{
    return m_sharedPoolSize;
}

uint64_t
RdmaSwitchMmu::GetSharedPoolUsed() const
{
    return m_sharedPoolUsed;
}

uint64_t
RdmaSwitchMmu::GetTotalReserved() const
{
    return m_totalReserved;
}

uint64_t
RdmaSwitchMmu::GetTotalHeadroom() const
{
    return m_totalHeadroom;
}

uint64_t
RdmaSwitchMmu::GetTotalUsed() const
{
    return m_totalUsed;
}

} // namespace ns3
