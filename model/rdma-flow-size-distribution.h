/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_SIZE_DISTRIBUTION_H
#define RDMA_FLOW_SIZE_DISTRIBUTION_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An empirical flow-size distribution: (size, cumulative probability) points, sampled
 * by linear interpolation between them as the HPCC simulator's traffic generator does
 * (traffic_gen/custom_rand.py: a uniform u is mapped to the size on the segment whose CDF
 * values enclose it), so a CDF file gives the same flow sizes here as there.
 *
 * Between two points (s0, c0) and (s1, c1) sizes are uniform on [s0, s1] with probability
 * c1 - c0; a first point with c0 > 0 is a point mass at s0. The mean is therefore
 * c0 s0 + sum (s0 + s1) / 2 (c1 - c0), the formula of that generator's getAvg, and the
 * second moment c0 s0^2 + sum (s0^2 + s0 s1 + s1^2) / 3 (c1 - c0).
 *
 * The points are checked by Check (sizes non-negative and non-decreasing, CDF values in
 * [0, 1], non-decreasing, the last 1). Reading files is the helper's job
 * (RdmaFlowSizeReader); the model holds only the points.
 */
class RdmaFlowSizeDistribution
{
  public:
    /// A (size in bytes, cumulative probability) point.
    using Point = std::pair<double, double>;

    /// An empty distribution (IsEmpty; Sample must not be called).
    RdmaFlowSizeDistribution() = default;

    /**
     * \param points the CDF points, in order; stops with Check's message if they are invalid
     */
    explicit RdmaFlowSizeDistribution(std::vector<Point> points);

    /**
     * Check CDF points.
     * \param points the points
     * \param[out] index the index of the first bad point (or points.size() if there are too
     * few)
     * \return empty if valid, else what is wrong (naming the value and what is valid)
     */
    static std::string Check(const std::vector<Point>& points, std::size_t& index);

    /**
     * The size of cumulative probability u (the inverse CDF, linear between points).
     * \param u a probability in [0, 1]
     * \return a size in bytes (not rounded)
     */
    double Quantile(double u) const;

    /**
     * A flow size for a uniform draw: Quantile(u) rounded to the nearest byte, at least 1
     * (a message of 0 bytes is no flow).
     * \param u a uniform draw in [0, 1)
     * \return bytes
     */
    uint64_t Sample(double u) const;

    /// \return the mean size, bytes (of Quantile; see the class description)
    double GetMean() const;
    /// \return the variance of the size, bytes^2
    double GetVariance() const;
    /// \return the points
    const std::vector<Point>& GetPoints() const;
    /// \return true if there are no points
    bool IsEmpty() const;

  private:
    std::vector<Point> m_points;
    double m_mean{0};
    double m_variance{0};
};

} // namespace ns3

#endif /* RDMA_FLOW_SIZE_DISTRIBUTION_H */
