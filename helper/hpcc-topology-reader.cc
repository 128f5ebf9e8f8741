/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-topology-reader.h"

#include "hpcc-input-error.h"
#include "hpcc-line-cursor.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rdma-link-helper.h"
#include "ns3/rdma-net-device.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccTopologyReader");

namespace
{

/// Valid forms, for error messages.
constexpr const char* RATE_FORMS = "a number with a unit such as 100Gbps, 25Gb/s, 400Mbps";
/// Largest node count of a topology file: 2^24, far above a k = 64 fat-tree (70,000 nodes);
/// a header claiming billions of nodes is refused before anything is allocated.
constexpr uint64_t MAX_NODES = 1U << 24;
constexpr const char* TIME_FORMS =
    "a non-negative number with a unit s, ms, us, ns, ps or fs, such as 0.001ms or 1us";

/**
 * Parse a non-negative decimal number "123", "1.5", ".5", "2." exactly, as an integer
 * mantissa and a count of fraction digits.
 * \return false if the text is not such a number or has too many digits
 */
bool
ParseDecimal(const std::string& text, unsigned __int128* mantissa, int* fractionDigits)
{
    unsigned __int128 m = 0;
    int frac = 0;
    bool seenPoint = false;
    bool seenDigit = false;
    for (char c : text)
    {
        if (c == '.')
        {
            if (seenPoint)
            {
                return false;
            }
            seenPoint = true;
        }
        else if (c >= '0' && c <= '9')
        {
            seenDigit = true;
            if (m > (std::numeric_limits<unsigned __int128>::max() - 9) / 10)
            {
                return false;
            }
            m = m * 10 + static_cast<unsigned>(c - '0');
            frac += seenPoint;
        }
        else
        {
            return false;
        }
    }
    if (!seenDigit || frac > 30)
    {
        return false;
    }
    *mantissa = m;
    *fractionDigits = frac;
    return true;
}

/// \return the power of ten of the current time resolution relative to 1 s (e.g. -12 for PS)
int
ResolutionExponent()
{
    switch (Time::GetResolution())
    {
    case Time::Y:
    case Time::D:
    case Time::H:
    case Time::MIN:
        return 1; // not decimal units: handled by the caller
    case Time::S:
        return 0;
    case Time::MS:
        return -3;
    case Time::US:
        return -6;
    case Time::NS:
        return -9;
    case Time::PS:
        return -12;
    case Time::FS:
        return -15;
    case Time::LAST:
    case Time::AUTO:
        break;
    }
    return 1;
}

/**
 * Convert mantissa x 10^(exponent - fractionDigits) seconds to a Time, exactly when the
 * resolution allows, rounded to nearest otherwise.
 */
bool
DecimalToTime(unsigned __int128 mantissa, int fractionDigits, int exponent, Time* time)
{
    const int res = ResolutionExponent();
    if (res > 0)
    {
        // Non-decimal resolution (minutes and above): go through double.
        *time = Seconds(static_cast<double>(mantissa) * std::pow(10.0, exponent - fractionDigits));
        return true;
    }
    int shift = exponent - fractionDigits - res; // value in resolution units = m x 10^shift
    unsigned __int128 v = mantissa;
    const unsigned __int128 limit = std::numeric_limits<int64_t>::max();
    while (shift > 0)
    {
        if (v > limit)
        {
            return false;
        }
        v *= 10;
        --shift;
    }
    if (shift < 0)
    {
        if (shift < -38)
        {
            v = 0;
        }
        else
        {
            unsigned __int128 divisor = 1;
            for (; shift < 0; ++shift)
            {
                divisor *= 10;
            }
            v = (v + divisor / 2) / divisor; // round to nearest
        }
    }
    if (v > limit)
    {
        return false;
    }
    *time = Time(static_cast<int64_t>(v));
    return true;
}

} // namespace

HpccTopologyReader::HpccTopologyReader()
{
}

std::vector<std::string>
HpccTopologyReader::SplitFields(const std::string& line)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    std::string f;
    while (in >> f)
    {
        fields.push_back(f);
    }
    return fields;
}

bool
HpccTopologyReader::ParseUnsigned(const std::string& text, uint64_t* value)
{
    if (text.empty() || text.size() > 20)
    {
        return false;
    }
    unsigned __int128 v = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        v = v * 10 + static_cast<unsigned>(c - '0');
    }
    if (v > std::numeric_limits<uint64_t>::max())
    {
        return false;
    }
    *value = static_cast<uint64_t>(v);
    return true;
}

bool
HpccTopologyReader::ParseReal(const std::string& text, double* value)
{
    if (text.empty())
    {
        return false;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v))
    {
        return false;
    }
    *value = v;
    return true;
}

bool
HpccTopologyReader::ParseDataRate(const std::string& text, DataRate* rate)
{
    // ns-3's own parser (what the HPCC simulator uses through its DataRate attributes);
    // it must consume the whole token and start with a digit.
    // ns-3 reads the number with operator>> and would take "1..5Gbps" as 1 Gb/s and
    // "1.2.3Gbps" as 1.2 Gb/s: the number must be digits with at most one point.
    const std::string number = text.substr(0, text.find_first_not_of("0123456789."));
    if (number.find_first_of("0123456789") == std::string::npos ||
        number.find('.') != number.rfind('.'))
    {
        return false;
    }
    std::istringstream in(text);
    DataRate r;
    in >> r;
    if (in.fail())
    {
        return false;
    }
    std::string rest;
    in >> rest;
    if (!rest.empty())
    {
        return false;
    }
    *rate = r;
    return true;
}

bool
HpccTopologyReader::ParseTime(const std::string& text, Time* time)
{
    std::size_t n = 0;
    while (n < text.size() && (std::isdigit(static_cast<unsigned char>(text[n])) || text[n] == '.'))
    {
        ++n;
    }
    const std::string number = text.substr(0, n);
    const std::string unit = text.substr(n);
    int exponent = 0;
    if (unit.empty() || unit == "s")
    {
        exponent = 0;
    }
    else if (unit == "ms")
    {
        exponent = -3;
    }
    else if (unit == "us")
    {
        exponent = -6;
    }
    else if (unit == "ns")
    {
        exponent = -9;
    }
    else if (unit == "ps")
    {
        exponent = -12;
    }
    else if (unit == "fs")
    {
        exponent = -15;
    }
    else
    {
        return false;
    }
    unsigned __int128 mantissa = 0;
    int frac = 0;
    if (!ParseDecimal(number, &mantissa, &frac))
    {
        return false;
    }
    return DecimalToTime(mantissa, frac, exponent, time);
}

bool
HpccTopologyReader::ParseSeconds(const std::string& text, Time* time)
{
    unsigned __int128 mantissa = 0;
    int frac = 0;
    if (!ParseDecimal(text, &mantissa, &frac))
    {
        return false;
    }
    return DecimalToTime(mantissa, frac, 0, time);
}

void
HpccTopologyReader::Read(const std::string& filename)
{
    std::ifstream in(filename);
    NS_ABORT_MSG_IF(!in,
                    "cannot open HPCC topology file '" << filename
                                                       << "': " << std::strerror(errno));
    Parse(in, filename);
}

void
HpccTopologyReader::Parse(std::istream& in, const std::string& name)
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
HpccTopologyReader::ParseOrThrow(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_fileName = name;
    m_read = false;
    m_nNodes = 0;
    m_isSwitch.clear();
    m_switchIds.clear();
    m_links.clear();
    m_linkDevices.clear();

    HpccLineCursor cursor(in, name);

    // Header: nodes switches links.
    std::vector<std::string> f = cursor.Next();
    HPCC_INPUT_ERROR_IF(f.empty(),
                        name << ": empty topology file; the first line must be "
                                "'<nodes> <switches> <links>'");
    HPCC_INPUT_ERROR_IF(f.size() != 3,
                        cursor.Where()
                            << "the header has " << f.size()
                            << " fields; valid: exactly 3, '<nodes> <switches> <links>'");
    const char* headerNames[3] = {"nodes", "switches", "links"};
    uint64_t header[3];
    for (int i = 0; i < 3; ++i)
    {
        HPCC_INPUT_ERROR_IF(!ParseUnsigned(f[i], &header[i]) || header[i] > 0xFFFFFFFFULL,
                            cursor.Where()
                                << "header field " << i + 1 << " (" << headerNames[i] << ") '"
                                << f[i] << "' is not valid; valid: an unsigned integer");
    }
    HPCC_INPUT_ERROR_IF(header[0] == 0 || header[0] > MAX_NODES,
                        cursor.Where() << "header field 1 (nodes) '" << f[0]
                                       << "' is not valid; valid: 1 .. " << MAX_NODES << " nodes");
    HPCC_INPUT_ERROR_IF(header[1] > header[0],
                        cursor.Where()
                            << "header field 2 (switches) '" << header[1] << "' is more than the "
                            << header[0] << " nodes; valid: 0 .. nodes");
    m_nNodes = static_cast<uint32_t>(header[0]);
    const uint64_t nSwitches = header[1];
    const uint64_t nLinks = header[2];
    m_isSwitch.assign(m_nNodes, false);

    // Switch ids.
    if (nSwitches > 0)
    {
        f = cursor.Next();
        HPCC_INPUT_ERROR_IF(f.empty(),
                            name << ": the file ends before the line of " << nSwitches
                                 << " switch ids (line 2)");
        HPCC_INPUT_ERROR_IF(f.size() != nSwitches,
                            cursor.Where()
                                << "the switch id line has " << f.size() << " ids; valid: exactly "
                                << nSwitches << " (header field 2, switches)");
        for (std::size_t i = 0; i < f.size(); ++i)
        {
            uint64_t id = 0;
            HPCC_INPUT_ERROR_IF(!ParseUnsigned(f[i], &id) || id >= m_nNodes,
                                cursor.Where()
                                    << "switch id " << i + 1 << " '" << f[i]
                                    << "' is not valid; valid: a node id 0 .. " << m_nNodes - 1);
            HPCC_INPUT_ERROR_IF(m_isSwitch[id],
                                cursor.Where() << "switch id " << i + 1 << " '" << f[i]
                                               << "' is listed twice; valid: distinct node ids");
            m_isSwitch[id] = true;
            m_switchIds.push_back(static_cast<uint32_t>(id));
        }
    }

    // Links.
    const char* fieldNames[5] = {"src", "dst", "rate", "delay", "error_rate"};
    for (uint64_t l = 0; l < nLinks; ++l)
    {
        f = cursor.Next();
        HPCC_INPUT_ERROR_IF(f.empty(),
                            name << ": the file ends after " << l << " links; the header (line 1) "
                                 << "announces " << nLinks);
        HPCC_INPUT_ERROR_IF(f.size() != 5,
                            cursor.Where()
                                << "link " << l + 1 << " has " << f.size()
                                << " fields; valid: exactly 5, '<src> <dst> <rate> <delay> "
                                   "<error_rate>'");
        HpccLink link;
        link.line = cursor.Line();
        uint64_t ends[2];
        for (int i = 0; i < 2; ++i)
        {
            HPCC_INPUT_ERROR_IF(
                !ParseUnsigned(f[i], &ends[i]) || ends[i] >= m_nNodes,
                cursor.Where() << "link field " << i + 1 << " (" << fieldNames[i] << ") '" << f[i]
                               << "' is not valid; valid: a node id 0 .. " << m_nNodes - 1);
        }
        HPCC_INPUT_ERROR_IF(ends[0] == ends[1],
                            cursor.Where() << "link field 2 (dst) '" << f[1]
                                           << "' equals src; valid: a different node id");
        link.src = static_cast<uint32_t>(ends[0]);
        link.dst = static_cast<uint32_t>(ends[1]);
        HPCC_INPUT_ERROR_IF(!ParseDataRate(f[2], &link.rate) || link.rate.GetBitRate() == 0,
                            cursor.Where() << "link field 3 (rate) '" << f[2]
                                           << "' is not valid; valid: " << RATE_FORMS);
        HPCC_INPUT_ERROR_IF(!ParseTime(f[3], &link.delay),
                            cursor.Where() << "link field 4 (delay) '" << f[3]
                                           << "' is not valid; valid: " << TIME_FORMS);
        HPCC_INPUT_ERROR_IF(!ParseReal(f[4], &link.errorRate) || link.errorRate < 0 ||
                                link.errorRate > 1,
                            cursor.Where() << "link field 5 (error_rate) '" << f[4]
                                           << "' is not valid; valid: a probability 0 .. 1");
        m_links.push_back(link);
    }
    f = cursor.Next();
    HPCC_INPUT_ERROR_IF(!f.empty(),
                        cursor.Where() << "unexpected content '" << cursor.Text() << "' after the "
                                       << nLinks << " links announced by the header (line 1)");
    m_read = true;
}

const std::string&
HpccTopologyReader::GetFileName() const
{
    return m_fileName;
}

uint32_t
HpccTopologyReader::GetNNodes() const
{
    return m_nNodes;
}

uint32_t
HpccTopologyReader::GetNSwitches() const
{
    return static_cast<uint32_t>(m_switchIds.size());
}

uint32_t
HpccTopologyReader::GetNHosts() const
{
    return m_nNodes - GetNSwitches();
}

const std::vector<uint32_t>&
HpccTopologyReader::GetSwitchIds() const
{
    return m_switchIds;
}

bool
HpccTopologyReader::IsSwitch(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_nNodes,
                    "HpccTopologyReader: node " << id << " does not exist in " << m_fileName << " ("
                                                << m_nNodes << " nodes)");
    return m_isSwitch[id];
}

const std::vector<HpccLink>&
HpccTopologyReader::GetLinks() const
{
    return m_links;
}

void
HpccTopologyReader::SetDefaultErrorRate(double rate)
{
    NS_ABORT_MSG_IF(!(rate >= 0 && rate <= 1),
                    "HpccTopologyReader: default error rate " << rate
                                                              << " is not a probability 0 .. 1");
    m_defaultErrorRate = rate;
}

NodeContainer
HpccTopologyReader::Build(RdmaLinkHelper& link)
{
    NS_ABORT_MSG_IF(!m_read, "HpccTopologyReader::Build: read a topology file first");
    // A host with several links gets a multi-port NIC (RdmaNic needs equal port rates, as
    // the peer's RdmaHw does in practice): check before creating anything.
    std::vector<const HpccLink*> firstLink(m_nNodes, nullptr);
    for (const auto& l : m_links)
    {
        for (uint32_t end : {l.src, l.dst})
        {
            if (m_isSwitch[end])
            {
                continue;
            }
            const HpccLink* first = firstLink[end];
            NS_ABORT_MSG_IF(first && first->rate != l.rate,
                            m_fileName << ":" << l.line << ": host " << end << " has links of "
                                       << l.rate << " (this line) and " << first->rate << " (line "
                                       << first->line
                                       << "); the ports of a NIC need the same rate");
            if (!first)
            {
                firstLink[end] = &l;
            }
        }
    }
    NodeContainer nodes;
    nodes.Create(m_nNodes);
    m_linkDevices.clear();
    m_linkDevices.reserve(m_links.size());
    for (const auto& l : m_links)
    {
        link.SetDeviceAttribute("DataRate", DataRateValue(l.rate));
        link.SetChannelAttribute("Delay", TimeValue(l.delay));
        NetDeviceContainer d = link.Install(nodes.Get(l.src), nodes.Get(l.dst));
        const double errorRate = l.errorRate > 0 ? l.errorRate : m_defaultErrorRate;
        if (errorRate > 0)
        {
            for (uint32_t i = 0; i < 2; ++i)
            {
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetAttribute("ErrorRate", DoubleValue(errorRate));
                em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
                d.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
            }
        }
        m_linkDevices.push_back(d);
    }
    return nodes;
}

NodeContainer
HpccTopologyReader::GetHosts(const NodeContainer& nodes) const
{
    NodeContainer hosts;
    for (uint32_t i = 0; i < m_nNodes && i < nodes.GetN(); ++i)
    {
        if (!m_isSwitch[i])
        {
            hosts.Add(nodes.Get(i));
        }
    }
    return hosts;
}

NodeContainer
HpccTopologyReader::GetSwitches(const NodeContainer& nodes) const
{
    NodeContainer switches;
    for (uint32_t i = 0; i < m_nNodes && i < nodes.GetN(); ++i)
    {
        if (m_isSwitch[i])
        {
            switches.Add(nodes.Get(i));
        }
    }
    return switches;
}

NetDeviceContainer
HpccTopologyReader::GetLinkDevices(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_linkDevices.size(),
                    "HpccTopologyReader: link " << i << " does not exist (" << m_linkDevices.size()
                                                << " links built)");
    return m_linkDevices[i];
}

int64_t
HpccTopologyReader::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (const auto& d : m_linkDevices)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            PointerValue pv;
            d.Get(i)->GetAttribute("ReceiveErrorModel", pv);
            Ptr<RateErrorModel> em = pv.Get<RateErrorModel>();
            if (em)
            {
                used += em->AssignStreams(stream + used);
            }
        }
    }
    return used;
}

} // namespace ns3
