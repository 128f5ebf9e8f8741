/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-wire-error-model.h"

#include "rdma-link-framing.h"
#include "rdma-net-device.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaWireErrorModel");
NS_OBJECT_ENSURE_REGISTERED(RdmaWireErrorModel);

TypeId
RdmaWireErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaWireErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaWireErrorModel>()
            .AddAttribute("FrameErrorRate",
                          "Probability that a frame is corrupt, in [0, 1); if not 0 it is used "
                          "instead of BitErrorRate",
                          DoubleValue(0),
                          MakeDoubleAccessor(&RdmaWireErrorModel::SetFrameErrorRate,
                                             &RdmaWireErrorModel::GetFrameErrorRate),
                          MakeDoubleChecker<double>())
            .AddAttribute("BitErrorRate",
                          "Probability that a bit on the wire is corrupt, in [0, 1): a frame of "
                          "w wire bytes is corrupt with probability 1 - (1 - BER)^(8 w)",
                          DoubleValue(0),
                          MakeDoubleAccessor(&RdmaWireErrorModel::SetBitErrorRate,
                                             &RdmaWireErrorModel::GetBitErrorRate),
                          MakeDoubleChecker<double>())
            .AddAttribute("RandomVariable",
                          "The uniform draw deciding each frame",
                          StringValue("ns3::UniformRandomVariable"),
                          MakePointerAccessor(&RdmaWireErrorModel::m_uniform),
                          MakePointerChecker<UniformRandomVariable>());
    return tid;
}

RdmaWireErrorModel::RdmaWireErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaWireErrorModel::SetFrameErrorRate(double rate)
{
    NS_ABORT_MSG_IF(!(rate >= 0 && rate < 1),
                    "RdmaWireErrorModel: FrameErrorRate " << rate
                                                          << " is not valid; valid: [0, 1)");
    m_frameErrorRate = rate;
}

double
RdmaWireErrorModel::GetFrameErrorRate() const
{
    return m_frameErrorRate;
}

void
RdmaWireErrorModel::SetBitErrorRate(double rate)
{
    NS_ABORT_MSG_IF(!(rate >= 0 && rate < 1),
                    "RdmaWireErrorModel: BitErrorRate " << rate << " is not valid; valid: [0, 1)");
    m_bitErrorRate = rate;
}

double
RdmaWireErrorModel::GetBitErrorRate() const
{
    return m_bitErrorRate;
}

double
RdmaWireErrorModel::GetFrameCorruptProbability(uint32_t frameBytes) const
{
    if (m_frameErrorRate > 0)
    {
        return m_frameErrorRate;
    }
    const double bits = 8.0 * RdmaNetDevice::WireBytes(frameBytes);
    return -std::expm1(bits * std::log1p(-m_bitErrorRate));
}

double
RdmaWireErrorModel::GetFrameCorruptProbability(const Ptr<const Packet>& frame) const
{
    if (m_frameErrorRate > 0 || !m_framing)
    {
        return GetFrameCorruptProbability(frame->GetSize());
    }
    const double bits = 8.0 * m_framing->GetFrameWireBytes(frame);
    return -std::expm1(bits * std::log1p(-m_bitErrorRate));
}

void
RdmaWireErrorModel::SetLinkFraming(Ptr<const RdmaLinkFraming> framing)
{
    m_framing = framing;
}

int64_t
RdmaWireErrorModel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
RdmaWireErrorModel::GetFramesExamined() const
{
    return m_examined;
}

uint64_t
RdmaWireErrorModel::GetFramesCorrupted() const
{
    return m_corrupted;
}

bool
RdmaWireErrorModel::DoCorrupt(Ptr<Packet> p)
{
    ++m_examined;
    const double prob = GetFrameCorruptProbability(p);
    if (prob <= 0 || m_uniform->GetValue() >= prob)
    {
        return false;
    }
    ++m_corrupted;
    NS_LOG_LOGIC("frame " << p->GetUid() << " of " << p->GetSize() << " bytes corrupted");
    return true;
}

void
RdmaWireErrorModel::DoReset()
{
    m_examined = 0;
    m_corrupted = 0;
}

} // namespace ns3
