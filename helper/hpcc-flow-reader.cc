/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-flow-reader.h"

#include "hpcc-line-cursor.h"
#include "hpcc-topology-reader.h"

#include "ns3/abort.h"
#include "ns3/log.h"

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
    NS_LOG_FUNCTION(this << name);
    m_fileName = name;
    m_flows.clear();

    HpccLineCursor cursor(in, name);

    std::vector<std::string> f = cursor.Next();
    NS_ABORT_MSG_IF(f.empty(),
                    name << ": empty flow file; the first line must be the number of flows");
    uint64_t count = 0;
    NS_ABORT_MSG_IF(
        f.size() != 1 || !HpccTopologyReader::ParseUnsigned(f[0], &count) || count > 0xFFFFFFFFULL,
        cursor.Where() << "the header '" << cursor.Text()
                       << "' is not valid; valid: one unsigned integer, the number of flows");
    m_flows.reserve(count);

    const char* fieldNames[6] =
        {"src", "dst", "priority_group", "dport", "size_bytes", "start_seconds"};
    for (uint64_t i = 0; i < count; ++i)
    {
        f = cursor.Next();
        NS_ABORT_MSG_IF(f.empty(),
                        name << ": the file ends after " << i << " flows; the header (line 1) "
                             << "announces " << count);
        NS_ABORT_MSG_IF(f.size() != 6,
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
            NS_ABORT_MSG_IF(!HpccTopologyReader::ParseUnsigned(f[k], &v[k]) || v[k] > maxima[k] ||
                                (k == 4 && v[k] == 0),
                            cursor.Where()
                                << "flow field " << k + 1 << " (" << fieldNames[k] << ") '" << f[k]
                                << "' is not valid; valid: " << valid[k]);
        }
        NS_ABORT_MSG_IF(v[0] == v[1],
                        cursor.Where() << "flow field 2 (dst) '" << f[1]
                                       << "' equals src; valid: a different host");
        flow.src = static_cast<uint32_t>(v[0]);
        flow.dst = static_cast<uint32_t>(v[1]);
        flow.priorityGroup = static_cast<uint8_t>(v[2]);
        flow.dport = static_cast<uint16_t>(v[3]);
        flow.size = v[4];
        NS_ABORT_MSG_IF(!HpccTopologyReader::ParseSeconds(f[5], &flow.start),
                        cursor.Where() << "flow field 6 (start_seconds) '" << f[5]
                                       << "' is not valid; valid: a non-negative decimal number of "
                                          "seconds such as 2.0");
        m_flows.push_back(flow);
    }
    f = cursor.Next();
    NS_ABORT_MSG_IF(!f.empty(),
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
            NS_ABORT_MSG_IF(ends[k] >= n,
                            m_fileName
                                << ":" << flow.line << ": flow field " << k + 1 << " (" << names[k]
                                << ") '" << ends[k] << "' is not a node of the topology "
                                << topology.GetFileName() << "; valid: a host id 0 .. " << n - 1);
            NS_ABORT_MSG_IF(topology.IsSwitch(ends[k]),
                            m_fileName << ":" << flow.line << ": flow field " << k + 1 << " ("
                                       << names[k] << ") '" << ends[k]
                                       << "' is a switch in the topology " << topology.GetFileName()
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
