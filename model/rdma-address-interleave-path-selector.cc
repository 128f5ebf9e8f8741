/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-address-interleave-path-selector.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaAddressInterleavePathSelector");

NS_OBJECT_ENSURE_REGISTERED(RdmaAddressInterleavePathSelector);

TypeId
RdmaAddressInterleavePathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaAddressInterleavePathSelector")
            .SetParent<RdmaPathSelector>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaAddressInterleavePathSelector>()
            .AddAttribute("Granularity",
                          "Interleaving block in bytes: consecutive blocks of remote memory "
                          "go to consecutive ports. A power of two, at least the path MTU.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaAddressInterleavePathSelector::m_granularity),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RdmaAddressInterleavePathSelector::RdmaAddressInterleavePathSelector()
{
    NS_LOG_FUNCTION(this);
}

RdmaAddressInterleavePathSelector::~RdmaAddressInterleavePathSelector()
{
    NS_LOG_FUNCTION(this);
}

bool
RdmaAddressInterleavePathSelector::SpreadsQueuePairs() const
{
    return true;
}

uint32_t
RdmaAddressInterleavePathSelector::PortOf(uint64_t address, uint64_t granularity, uint32_t nPorts)
{
    return static_cast<uint32_t>((address / granularity) % nPorts);
}

void
RdmaAddressInterleavePathSelector::CheckGranularity(uint32_t mtu)
{
    NS_ABORT_MSG_IF((m_granularity & (m_granularity - 1)) != 0,
                    "ns3::RdmaAddressInterleavePathSelector::Granularity "
                        << m_granularity << " is not a power of two (address bits); use e.g. "
                        << "4096");
    NS_ABORT_MSG_IF(m_granularity < mtu,
                    "ns3::RdmaAddressInterleavePathSelector::Granularity "
                        << m_granularity << " is below the path MTU " << mtu
                        << ": one packet would span two planes; use at least " << mtu);
    m_shift = 0;
    while ((uint64_t(1) << m_shift) < m_granularity)
    {
        ++m_shift;
    }
    m_checkedMtu = mtu;
    m_checkedGranularity = m_granularity;
}

bool
RdmaAddressInterleavePathSelector::NeedsAddress() const
{
    return true;
}

uint32_t
RdmaAddressInterleavePathSelector::SelectPort(const RdmaPathRequest& request, uint32_t nPorts)
{
    if (request.mtu != m_checkedMtu || m_granularity != m_checkedGranularity)
    {
        CheckGranularity(request.mtu);
    }
    return static_cast<uint32_t>((request.address >> m_shift) % nPorts);
}

} // namespace ns3
