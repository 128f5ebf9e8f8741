/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_FLOW_READER_H
#define HPCC_FLOW_READER_H

#include "ns3/hpcc-flow.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

class HpccTopologyReader;

/**
 * \ingroup rdma
 * \brief Reads the flow files of the HPCC simulator family (HPCC, ConWeave, SimAI's ns-3,
 * ns3-datacenter).
 *
 * Format (whitespace-separated fields, one record per line; blank lines are ignored):
 * \verbatim
   <number of flows>
   <src> <dst> <priority_group> <dport> <size_bytes> <start_seconds>   (one line per flow)
   \endverbatim
 * The priority group is the traffic class (0 .. 7), the size a positive number of bytes,
 * the start time a non-negative decimal number of seconds (read exactly). The HPCC
 * simulator needs the flows sorted by start time; this reader does not. Every malformed
 * line stops the program (NS_ABORT_MSG) with the file name, the line number, the field,
 * the bad value and what would be valid; Validate() checks the node ids against a
 * topology.
 */
class HpccFlowReader
{
  public:
    HpccFlowReader();

    /**
     * Read a flow file.
     * \param filename its path (named in error messages)
     */
    void Read(const std::string& filename);

    /**
     * Read flows from a stream.
     * \param in the stream
     * \param name name of the source, used in error messages
     */
    void Parse(std::istream& in, const std::string& name);
    /**
     * Read from a stream, reporting a malformed input by throwing HpccInputError (whose
     * what() is the message Parse() would abort with) instead of aborting: for programs
     * that handle bad input themselves, such as the fuzz harnesses.
     * \param in the stream
     * \param name name of the source, used in error messages
     */
    void ParseOrThrow(std::istream& in, const std::string& name);

    /**
     * Throw an HpccInputError naming the flow's line unless every flow joins two
     * different hosts of the topology.
     * \param topology the topology the flows run on
     */
    void Validate(const HpccTopologyReader& topology) const;

    /// \return the file (or source) name
    const std::string& GetFileName() const;
    /// \return the flows, in file order
    const std::vector<HpccFlow>& GetFlows() const;

  private:
    std::string m_fileName;
    std::vector<HpccFlow> m_flows;
};

} // namespace ns3

#endif /* HPCC_FLOW_READER_H */
