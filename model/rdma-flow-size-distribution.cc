/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-size-distribution.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

RdmaFlowSizeDistribution::RdmaFlowSizeDistribution(std::vector<Point> points)
    : m_points(std::move(points))
{
    std::size_t index = 0;
    const std::string error = Check(m_points, index);
    NS_ABORT_MSG_IF(!error.empty(), "flow-size CDF point " << index << ": " << error);
    const auto& [s0, c0] = m_points.front();
    double mean = c0 * s0;
    double square = c0 * s0 * s0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const auto& [a, ca] = m_points[i - 1];
        const auto& [b, cb] = m_points[i];
        mean += (a + b) / 2 * (cb - ca);
        square += (a * a + a * b + b * b) / 3 * (cb - ca);
    }
    m_mean = mean;
    m_variance = std::max(0.0, square - mean * mean);
}

std::string
RdmaFlowSizeDistribution::Check(const std::vector<Point>& points, std::size_t& index)
{
    std::ostringstream error;
    if (points.size() < 2)
    {
        index = points.size();
        error << points.size() << " points; valid: at least 2 (size, CDF) points";
        return error.str();
    }
    for (index = 0; index < points.size(); ++index)
    {
        const auto& [size, cdf] = points[index];
        if (!std::isfinite(size) || size < 0)
        {
            error << "size " << size << " is invalid; valid: a finite size >= 0 bytes";
        }
        else if (!std::isfinite(cdf) || cdf < 0 || cdf > 1)
        {
            error << "CDF " << cdf << " is not in [0, 1]";
        }
        else if (index > 0 && size < points[index - 1].first)
        {
            error << "size " << size << " is below the previous point's " << points[index - 1].first
                  << "; valid: sizes in non-decreasing order";
        }
        else if (index > 0 && cdf < points[index - 1].second)
        {
            error << "CDF " << cdf << " is below the previous point's " << points[index - 1].second
                  << "; valid: a non-decreasing CDF";
        }
        else if (index + 1 == points.size() && cdf != 1)
        {
            error << "the last CDF value is " << cdf << "; valid: exactly 1";
        }
        if (!error.str().empty())
        {
            return error.str();
        }
    }
    return "";
}

double
RdmaFlowSizeDistribution::Quantile(double u) const
{
    NS_ABORT_MSG_IF(m_points.empty(), "RdmaFlowSizeDistribution: no CDF points");
    // The first point whose CDF reaches u (custom_rand.py's getValueFromPercentile scans
    // for it from the second point); a first point with CDF >= u is the point mass.
    if (u <= m_points.front().second)
    {
        return m_points.front().first;
    }
    auto it =
        std::lower_bound(m_points.begin() + 1, m_points.end(), u, [](const Point& p, double v) {
            return p.second < v;
        });
    if (it == m_points.end())
    {
        return m_points.back().first;
    }
    const auto& [s1, c1] = *it;
    const auto& [s0, c0] = *(it - 1);
    return s0 + (s1 - s0) / (c1 - c0) * (u - c0); // c1 > c0: c0 < u <= c1
}

uint64_t
RdmaFlowSizeDistribution::Sample(double u) const
{
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(Quantile(u))));
}

double
RdmaFlowSizeDistribution::GetMean() const
{
    return m_mean;
}

double
RdmaFlowSizeDistribution::GetVariance() const
{
    return m_variance;
}

const std::vector<RdmaFlowSizeDistribution::Point>&
RdmaFlowSizeDistribution::GetPoints() const
{
    return m_points;
}

bool
RdmaFlowSizeDistribution::IsEmpty() const
{
    return m_points.empty();
}

} // namespace ns3
