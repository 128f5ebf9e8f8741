/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-generator-helper.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/uinteger.h"

#include <numeric>
#include <ostream>
#include <vector>

namespace ns3
{

RdmaFlowGeneratorHelper::RdmaFlowGeneratorHelper(const RdmaFlowSizeDistribution& distribution)
    : m_distribution(distribution)
{
    m_factory.SetTypeId(RdmaFlowGenerator::GetTypeId());
}

void
RdmaFlowGeneratorHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RdmaFlowGeneratorHelper::Install(NodeContainer hosts)
{
    std::vector<Ptr<Node>> all(hosts.Begin(), hosts.End());
    const uint32_t n = all.size();
    Ptr<RdmaFlowGenerator> probe = m_factory.Create<RdmaFlowGenerator>();
    EnumValue pattern;
    probe->GetAttribute("Pattern", pattern);
    UintegerValue target;
    probe->GetAttribute("Target", target);

    // Permutation: one random cycle (Sattolo), so no host sends to itself.
    std::vector<uint32_t> next(n);
    std::iota(next.begin(), next.end(), 0);
    if (pattern.Get() == RdmaFlowGenerator::PERMUTATION && n >= 2)
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(order[i], order[u->GetInteger(0, i - 1)]);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            next[order[i]] = order[(i + 1) % n];
        }
    }

    ApplicationContainer apps;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (pattern.Get() == RdmaFlowGenerator::INCAST && i == target.Get() && n >= 2)
        {
            continue; // the incast target only receives
        }
        Ptr<RdmaFlowGenerator> app = m_factory.Create<RdmaFlowGenerator>();
        app->SetDistribution(m_distribution);
        app->SetHosts(all, i);
        if (pattern.Get() == RdmaFlowGenerator::PERMUTATION)
        {
            app->SetAttribute("Destination", UintegerValue(next[i]));
        }
        all[i]->AddApplication(app);
        app->Validate();
        apps.Add(app);
    }
    if (apps.GetN() == 0)
    {
        probe->SetHosts(all, 0);
        probe->SetDistribution(m_distribution);
        probe->Validate(); // names why nothing could be installed
    }
    return apps;
}

int64_t
RdmaFlowGeneratorHelper::AssignStreams(ApplicationContainer apps, int64_t stream)
{
    int64_t used = 0;
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        Ptr<RdmaFlowGenerator> g = DynamicCast<RdmaFlowGenerator>(*it);
        if (g)
        {
            used += g->AssignStreams(stream + used);
        }
    }
    return used;
}

void
RdmaFlowGeneratorHelper::PrintSummary(ApplicationContainer apps, std::ostream& os)
{
    double lastLoad = -1;
    double lastLambda = -1;
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        Ptr<RdmaFlowGenerator> g = DynamicCast<RdmaFlowGenerator>(*it);
        if (!g)
        {
            continue;
        }
        DoubleValue load;
        g->GetAttribute("Load", load);
        const double lambda = g->GetArrivalRate();
        if (load.Get() == lastLoad && lambda == lastLambda)
        {
            continue;
        }
        lastLoad = load.Get();
        lastLambda = lambda;
        os << "workload: mean flow " << g->GetMeanFlowSize() << " B (CDF), load " << load.Get()
           << " of " << g->GetLinkRate().GetBitRate() * 1e-9 << " Gb/s (payload bytes): " << lambda
           << " flows/s per host, mean gap " << 1e6 / lambda << " us\n";
    }
}

} // namespace ns3
