/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_SIZE_READER_H
#define RDMA_FLOW_SIZE_READER_H

#include "ns3/rdma-flow-size-distribution.h"

#include <istream>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Reads a flow-size CDF file into an RdmaFlowSizeDistribution.
 *
 * Format (the module's data/flow-size/ files; any user file in it works): lines starting
 * with '#' are comments (the shipped files' first line names the source), blank lines are
 * skipped, every other line is "size cdf": a flow size in bytes and the cumulative
 * probability of sizes up to it, in [0, 1], both non-decreasing, the last CDF value 1.
 * The HPCC simulator's traffic_gen files hold the same points with the CDF in percent: the
 * error for a value above 1 says so.
 *
 * A malformed file stops the program (Read, Parse) with "file:line: what is wrong";
 * ParseOrThrow throws RdmaFlowSizeReader::Error with that text instead.
 */
class RdmaFlowSizeReader
{
  public:
    /// A malformed CDF file; what() is "file:line: ...".
    class Error : public std::runtime_error
    {
      public:
        using std::runtime_error::runtime_error;
    };

    /**
     * \param filename a CDF file
     * \return its distribution (stops with the file, line and value if it is malformed)
     */
    static RdmaFlowSizeDistribution Read(const std::string& filename);

    /**
     * \param in a CDF text
     * \param name its name in error messages
     * \return its distribution (stops on malformed input)
     */
    static RdmaFlowSizeDistribution Parse(std::istream& in, const std::string& name);

    /**
     * \param in a CDF text
     * \param name its name in error messages
     * \return its distribution
     * \throw Error on malformed input
     */
    static RdmaFlowSizeDistribution ParseOrThrow(std::istream& in, const std::string& name);
};

} // namespace ns3

#endif /* RDMA_FLOW_SIZE_READER_H */
