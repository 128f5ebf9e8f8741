/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-periodic-error-model.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPeriodicErrorModel");
NS_OBJECT_ENSURE_REGISTERED(RdmaPeriodicErrorModel);

TypeId
RdmaPeriodicErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPeriodicErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaPeriodicErrorModel>()
            .AddAttribute("Period",
                          "Drop one packet in this many.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&RdmaPeriodicErrorModel::m_period),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FirstDrop",
                          "Number (from 1) of the first packet dropped; 0 means Period.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaPeriodicErrorModel::m_firstDrop),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RdmaPeriodicErrorModel::RdmaPeriodicErrorModel()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
RdmaPeriodicErrorModel::GetPacketsExamined() const
{
    return m_count;
}

bool
RdmaPeriodicErrorModel::DoCorrupt(Ptr<Packet> /* p */)
{
    const uint64_t n = ++m_count;
    const uint64_t first = m_firstDrop == 0 ? m_period : m_firstDrop;
    return n >= first && (n - first) % m_period == 0;
}

void
RdmaPeriodicErrorModel::DoReset()
{
    m_count = 0;
}

} // namespace ns3
