/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-sample-summary.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

void
RdmaSampleSummary::Add(double value)
{
    m_values.push_back(value);
    m_sorted = false;
}

void
RdmaSampleSummary::Add(const std::vector<double>& values)
{
    for (double v : values)
    {
        Add(v);
    }
}

std::size_t
RdmaSampleSummary::GetCount() const
{
    return m_values.size();
}

double
RdmaSampleSummary::GetMean() const
{
    // Summed in sorted order, as v / n: the same bits whatever order the values came in,
    // and the benchmarks' recorded means.
    Sort();
    double mean = 0;
    for (double v : m_values)
    {
        mean += v / m_values.size();
    }
    return m_values.empty() ? 0 : mean;
}

void
RdmaSampleSummary::Sort() const
{
    if (!m_sorted)
    {
        std::sort(m_values.begin(), m_values.end());
        m_sorted = true;
    }
}

double
RdmaSampleSummary::GetIndexPercentile(double q) const
{
    NS_ABORT_MSG_IF(!(q >= 0 && q <= 1), "RdmaSampleSummary: quantile " << q << " outside [0, 1]");
    if (m_values.empty())
    {
        return 0;
    }
    Sort();
    return m_values[std::min(m_values.size() - 1, static_cast<std::size_t>(q * m_values.size()))];
}

double
RdmaSampleSummary::GetNearestRankPercentile(double q) const
{
    NS_ABORT_MSG_IF(!(q >= 0 && q <= 1), "RdmaSampleSummary: quantile " << q << " outside [0, 1]");
    if (m_values.empty())
    {
        return -1;
    }
    Sort();
    const auto rank = static_cast<std::size_t>(std::ceil(q * m_values.size()));
    return m_values[std::max<std::size_t>(rank, 1) - 1];
}

} // namespace ns3
