/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flowlet-load-balancer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowletLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowletLoadBalancer);

TypeId
RdmaFlowletLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowletLoadBalancer")
            .SetParent<RdmaLoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFlowletLoadBalancer>()
            .AddAttribute("FlowletTimeout",
                          "Inactivity gap that ends a flowlet: a packet arriving more than this "
                          "after the previous packet of its table entry starts a new flowlet on "
                          "a random port. Must exceed the delay difference between equal-cost "
                          "paths (Kandula et al., CCR 2007; LetFlow, NSDI 2017); 50 us exceeds "
                          "two hops of 200 KB (EcnKmax) queues at 100 Gb/s.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaFlowletLoadBalancer::SetFlowletTimeout,
                                           &RdmaFlowletLoadBalancer::GetFlowletTimeout),
                          MakeTimeChecker())
            .AddAttribute("TableSize",
                          "Entries of the flowlet table (indexed by the flow hash; flows that "
                          "collide share an entry). Memory: 24 bytes per entry.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaFlowletLoadBalancer::SetTableSize,
                                               &RdmaFlowletLoadBalancer::GetTableSize),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RdmaFlowletLoadBalancer::RdmaFlowletLoadBalancer()
{
    NS_LOG_FUNCTION(this);
    m_rng = CreateObject<UniformRandomVariable>();
}

RdmaFlowletLoadBalancer::~RdmaFlowletLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaFlowletLoadBalancer::DoDispose()
{
    m_rng = nullptr;
    m_table.clear();
    RdmaLoadBalancer::DoDispose();
}

int64_t
RdmaFlowletLoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

void
RdmaFlowletLoadBalancer::SetFlowletTimeout(Time timeout)
{
    NS_ABORT_MSG_IF(timeout.IsStrictlyNegative(),
                    "RdmaFlowletLoadBalancer: FlowletTimeout " << timeout.As(Time::US)
                                                               << " is negative; it must be >= 0");
    m_timeout = timeout;
}

Time
RdmaFlowletLoadBalancer::GetFlowletTimeout() const
{
    return m_timeout;
}

void
RdmaFlowletLoadBalancer::SetTableSize(uint32_t size)
{
    NS_ABORT_MSG_IF(size == 0,
                    "RdmaFlowletLoadBalancer: TableSize 0 is not valid; the flowlet table needs "
                    "at least 1 entry");
    m_table.assign(size, Entry{});
}

uint32_t
RdmaFlowletLoadBalancer::GetTableSize() const
{
    return static_cast<uint32_t>(m_table.size());
}

uint64_t
RdmaFlowletLoadBalancer::GetFlowletCount() const
{
    return m_flowlets;
}

uint64_t
RdmaFlowletLoadBalancer::GetCollisions() const
{
    return m_collisions;
}

uint32_t
RdmaFlowletLoadBalancer::GetActiveEntries() const
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const int64_t timeout = m_timeout.GetTimeStep();
    uint32_t active = 0;
    for (const Entry& e : m_table)
    {
        active += e.valid && now - e.lastSeen <= timeout ? 1 : 0;
    }
    return active;
}

uint32_t
RdmaFlowletLoadBalancer::DoSelectPort(const RdmaFlowKey& key,
                                      const std::vector<uint32_t>& ports,
                                      const RdmaSwitchMmu& /* mmu */)
{
    const uint32_t n = static_cast<uint32_t>(ports.size());
    const uint64_t h = FlowHash(key);
    // The low 32 bits pick the slot (ECMP uses the high ones).
    Entry& e = m_table[ReduceToRange(h << 32, static_cast<uint32_t>(m_table.size()))];
    const int64_t now = Simulator::Now().GetTimeStep();
    if (e.valid && now - e.lastSeen <= m_timeout.GetTimeStep() && e.index < n)
    {
        m_collisions += e.tag != h ? 1 : 0;
    }
    else
    {
        e.index = m_rng->GetInteger(0, n - 1);
        e.valid = true;
        ++m_flowlets;
        NS_LOG_LOGIC("new flowlet of flow " << std::hex << h << std::dec << " on port "
                                            << ports[e.index]);
    }
    e.tag = h;
    e.lastSeen = now;
    return ports[e.index];
}

} // namespace ns3
