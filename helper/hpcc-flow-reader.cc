/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-flow-reader.h"

#include "hpcc-input-error.h"
#include "hpcc-line-cursor.h"
#include "hpcc-topology-reader.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFlowReader");

HpccFlowReader::HpccFlowReader()
{
}

void
HpccFlowReader::Read(const std::string& filename)
{
    std::ifstream in(filename);
    NS_ABORT_MSG_IF(!in,
                    "cannot open HPCC flow file '" << filename << "': " << std::strerror(errno));
    Parse(in, filename);
}

void
HpccFlowReader::Parse(std::istream& in, const std::string& name)
{
    try
    {
        ParseOrThrow(in, name);
    }
    catch (const HpccInputError& e)
    {
        NS_ABORT_MSG(e.what());
    }
}

void
HpccFlowReader::ParseOrThrow(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_fileName = name;
    m_flows.clear();

    HpccLineCursor cursor(in, name);

    std::vector<std::string> f = cursor.Next();
    HPCC_INPUT_ERROR_IF(f.empty(),
                        name << ": empty flow file; the first line must be the number of flows");
    uint64_t count = 0;
    HPCC_INPUT_ERROR_IF(
        f.size() != 1 || !HpccTopologyReader::ParseUnsigned(f[0], &count) || count > 0xFFFFFFFFULL,
        cursor.Where() << "the header '" << cursor.Text()
                       << "' is not valid; valid: one unsigned integer, the number of flows");
    // The header is only a promise: reserve no more than the rest of the file can hold (a
    // flow line has 6 fields, at least 11 bytes and a line break), so that a header of
    // 4294967295 reports the end of the file instead of allocating 160 GiB.
    const uint64_t fits = cursor.RemainingBytes() / 12 + 1;
    m_flows.reserve(std::min<uint64_t>({count, fits, 1U << 20}));

    const char* fieldNames[6] =
        {"src", "dst", "priority_group", "dport", "size_bytes", "start_seconds"};
    for (uint64_t i = 0; i < count; ++i)
    {
        f = cursor.Next();
        HPCC_INPUT_ERROR_IF(f.empty(),
                            name << ": the file ends after " << i << " flows; the header (line 1) "
                                 << "announces " << count);
        HPCC_INPUT_ERROR_IF(f.size() != 6,
                            cursor.Where()
                                << "flow " << i + 1 << " has " << f.size()
                                << " fields; valid: exactly 6, '<src> <dst> <priority_group> "
                                   "<dport> <size_bytes> <start_seconds>'");
        HpccFlow flow;
        flow.line = cursor.Line();
        uint64_t v[5];
        const uint64_t maxima[5] = {0xFFFFFFFFULL, 0xFFFFFFFFULL, 7, 65535, UINT64_MAX};
        const char* valid[5] = {"a node id",
                                "a node id",
                                "a traffic class 0 .. 7",
                                "a port 0 .. 65535",
                                "a number of bytes >= 1"};
        for (int k = 0; k < 5; ++k)
        {
            HPCC_INPUT_ERROR_IF(!HpccTopologyReader::ParseUnsigned(f[k], &v[k]) ||
                                    v[k] > maxima[k] || (k == 4 && v[k] == 0),
                                cursor.Where()
                                    << "flow field " << k + 1 << " (" << fieldNames[k] << ") '"
                                    << f[k] << "' is not valid; valid: " << valid[k]);
        }
        HPCC_INPUT_ERROR_IF(v[0] == v[1],
                            cursor.Where() << "flow field 2 (dst) '" << f[1]
                                           << "' equals src; valid: a different host");
        flow.src = static_cast<uint32_t>(v[0]);
        flow.dst = static_cast<uint32_t>(v[1]);
        flow.priorityGroup = static_cast<uint8_t>(v[2]);
        flow.dport = static_cast<uint16_t>(v[3]);
        flow.size = v[4];
        HPCC_INPUT_ERROR_IF(!HpccTopologyReader::ParseSeconds(f[5], &flow.start),
                            cursor.Where()
                                << "flow field 6 (start_seconds) '" << f[5]
                                << "' is not valid; valid: a non-negative decimal number of "
                                   "seconds such as 2.0");
        m_flows.push_back(flow);
    }
    f = cursor.Next();
    HPCC_INPUT_ERROR_IF(!f.empty(),
                        cursor.Where() << "unexpected content '" << cursor.Text() << "' after the "
                                       << count << " flows announced by the header (line 1)");
}

void
HpccFlowReader::Validate(const HpccTopologyReader& topology) const
{
    const uint32_t n = topology.GetNNodes();
    for (const auto& flow : m_flows)
    {
        const uint32_t ends[2] = {flow.src, flow.dst};
        const char* names[2] = {"src", "dst"};
        for (int k = 0; k < 2; ++k)
        {
            HPCC_INPUT_ERROR_IF(
                ends[k] >= n,
                m_fileName << ":" << flow.line << ": flow field " << k + 1 << " (" << names[k]
                           << ") '" << ends[k] << "' is not a node of the topology "
                           << topology.GetFileName() << "; valid: a host id 0 .. " << n - 1);
            HPCC_INPUT_ERROR_IF(topology.IsSwitch(ends[k]),
                                m_fileName << ":" << flow.line << ": flow field " << k + 1 << " ("
                                           << names[k] << ") '" << ends[k]
                                           << "' is a switch in the topology "
                                           << topology.GetFileName()
                                           << "; valid: a host (a node id not on its line 2)");
        }
    }
}

const std::string&
HpccFlowReader::GetFileName() const
{
    return m_fileName;
}

const std::vector<HpccFlow>&
HpccFlowReader::GetFlows() const
{
    return m_flows;
}

} // namespace ns3
