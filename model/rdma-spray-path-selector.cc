/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-spray-path-selector.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSprayPathSelector");

NS_OBJECT_ENSURE_REGISTERED(RdmaSprayPathSelector);

TypeId
RdmaSprayPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSprayPathSelector")
            .SetParent<RdmaPathSelector>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSprayPathSelector>()
            .AddAttribute("Mode",
                          "How each packet's port is chosen: RoundRobin (packet i on port "
                          "i mod P) or FirstIdle (the first port ready to send).",
                          EnumValue(RdmaSprayPathSelector::ROUND_ROBIN),
                          MakeEnumAccessor(&RdmaSprayPathSelector::m_mode),
                          MakeEnumChecker(RdmaSprayPathSelector::ROUND_ROBIN,
                                          "RoundRobin",
                                          RdmaSprayPathSelector::FIRST_IDLE,
                                          "FirstIdle"))
            .AddAttribute("Entropies",
                          "Number of UDP source ports each queue pair cycles through, packet "
                          "by packet (1: the queue pair's own source port only).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaSprayPathSelector::m_entropies),
                          MakeUintegerChecker<uint32_t>(1, 0x4000));
    return tid;
}

RdmaSprayPathSelector::RdmaSprayPathSelector()
{
    NS_LOG_FUNCTION(this);
}

RdmaSprayPathSelector::~RdmaSprayPathSelector()
{
    NS_LOG_FUNCTION(this);
}

bool
RdmaSprayPathSelector::SpreadsQueuePairs() const
{
    return true;
}

bool
RdmaSprayPathSelector::VariesSourcePort() const
{
    return m_entropies > 1;
}

uint32_t
RdmaSprayPathSelector::SelectPort(const RdmaPathRequest& request, uint32_t nPorts)
{
    if (m_mode == FIRST_IDLE)
    {
        return ANY_PORT;
    }
    return static_cast<uint32_t>(request.packetsSent % nPorts);
}

uint16_t
RdmaSprayPathSelector::SelectSourcePort(const RdmaPathRequest& request, uint32_t nPorts)
{
    // Cycle the entropy once per round over the ports, so that with round-robin every
    // port still sees all E entropies.
    const uint64_t j = (request.packetsSent / nPorts) % m_entropies;
    return static_cast<uint16_t>(0xC000 | ((request.sourcePort + j) & 0x3FFF));
}

} // namespace ns3
