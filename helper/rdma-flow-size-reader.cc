/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-size-reader.h"

#include "ns3/abort.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/// Parse a whole token as a double; false if it is not one.
bool
ToDouble(const std::string& token, double& value)
{
    errno = 0;
    char* end = nullptr;
    value = std::strtod(token.c_str(), &end);
    return !token.empty() && end == token.c_str() + token.size() && errno == 0;
}

} // namespace

RdmaFlowSizeDistribution
RdmaFlowSizeReader::Read(const std::string& filename)
{
    std::ifstream in(filename);
    NS_ABORT_MSG_IF(!in, "flow-size CDF file '" << filename << "' cannot be opened");
    return Parse(in, filename);
}

RdmaFlowSizeDistribution
RdmaFlowSizeReader::Parse(std::istream& in, const std::string& name)
{
    try
    {
        return ParseOrThrow(in, name);
    }
    catch (const Error& e)
    {
        NS_ABORT_MSG(e.what());
    }
}

RdmaFlowSizeDistribution
RdmaFlowSizeReader::ParseOrThrow(std::istream& in, const std::string& name)
{
    std::vector<RdmaFlowSizeDistribution::Point> points;
    std::vector<uint32_t> lines;
    std::string line;
    uint32_t lineNumber = 0;
    auto fail = [&name](uint32_t at, const std::string& what) {
        std::ostringstream os;
        os << name << ":" << at << ": " << what;
        throw Error(os.str());
    };
    while (std::getline(in, line))
    {
        ++lineNumber;
        std::istringstream fields(line);
        std::vector<std::string> tokens;
        std::string token;
        while (fields >> token)
        {
            tokens.push_back(token);
        }
        if (tokens.empty() || tokens[0][0] == '#')
        {
            continue;
        }
        if (tokens.size() != 2)
        {
            fail(lineNumber,
                 "'" + line + "' has " + std::to_string(tokens.size()) +
                     " fields; valid: exactly 2 (size in bytes, CDF in [0, 1])");
        }
        double size = 0;
        double cdf = 0;
        if (!ToDouble(tokens[0], size))
        {
            fail(lineNumber, "size '" + tokens[0] + "' is not a number");
        }
        if (!ToDouble(tokens[1], cdf))
        {
            fail(lineNumber, "CDF '" + tokens[1] + "' is not a number");
        }
        if (cdf > 1 && cdf <= 100)
        {
            fail(lineNumber,
                 "CDF " + tokens[1] +
                     " is not in [0, 1] (a CDF in percent, as in the HPCC simulator's "
                     "traffic_gen files? divide it by 100)");
        }
        points.emplace_back(size, cdf);
        lines.push_back(lineNumber);
    }
    std::size_t index = 0;
    const std::string error = RdmaFlowSizeDistribution::Check(points, index);
    if (!error.empty())
    {
        fail(index < lines.size() ? lines[index] : lineNumber, error);
    }
    return RdmaFlowSizeDistribution(std::move(points));
}

} // namespace ns3
