/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SAMPLE_SUMMARY_H
#define RDMA_SAMPLE_SUMMARY_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Exact mean and percentiles of a sample small enough to hold (the FCTs of an incast,
 * of an HPCC flow file), by a named rule so a figure can be reproduced elsewhere.
 *
 * Workloads of millions of flows use RdmaFlowMonitor's fixed histograms instead. Two rules,
 * because the figures users compare against use both; they differ only when q n is an
 * integer:
 * - GetIndexPercentile: the value at index floor(q n) of the sorted sample (clamped to the
 *   last), the rule of HPCC's analysis script (analysis/fct_analysis.py, `get_pctl`).
 * - GetNearestRankPercentile: the smallest value with at least q n values at or below it,
 *   the ceil(q n)-th smallest (the nearest-rank definition).
 */
class RdmaSampleSummary
{
  public:
    /// \param value one more observation
    void Add(double value);
    /// \param values observations to add
    void Add(const std::vector<double>& values);
    /// \return the number of observations
    std::size_t GetCount() const;
    /// \return the arithmetic mean (0 if empty), summed in sorted order so it does not depend
    /// on the order of the Adds
    double GetMean() const;
    /**
     * \param q quantile in [0, 1]
     * \return the sorted sample's value at index min(n - 1, floor(q n)); 0 if empty
     */
    double GetIndexPercentile(double q) const;
    /**
     * \param q quantile in [0, 1]
     * \return the ceil(q n)-th smallest value (the smallest if q n < 1); -1 if empty, so a
     * table shows that nothing completed
     */
    double GetNearestRankPercentile(double q) const;

  private:
    /// Sort the sample once, before the first percentile after an Add.
    void Sort() const;

    mutable std::vector<double> m_values;
    mutable bool m_sorted{true};
};

} // namespace ns3

#endif /* RDMA_SAMPLE_SUMMARY_H */
