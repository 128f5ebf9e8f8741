/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-config-reader.h"

#include "hpcc-input-error.h"
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

NS_LOG_COMPONENT_DEFINE("HpccConfigReader");

namespace
{

/// Number of values of a rate-keyed map key (count, then pairs).
constexpr int RATE_MAP = -1;

/// The keys of the HPCC simulator's third.cc and their number of values.
const std::map<std::string, int>&
KnownKeys()
{
    static const std::map<std::string, int> keys = {
        {"ACK_HIGH_PRIO", 1},
        {"ALPHA_RESUME_INTERVAL", 1},
        {"BUFFER_SIZE", 1},
        {"CC_MODE", 1},
        {"CLAMP_TARGET_RATE", 1},
        {"DATA_RATE", 1},
        {"DCTCP_RATE_AI", 1},
        {"ENABLE_QCN", 1},
        {"ENABLE_TRACE", 1},
        {"ERROR_RATE_PER_LINK", 1},
        {"EWMA_GAIN", 1},
        {"FAST_REACT", 1},
        {"FAST_RECOVERY_TIMES", 1},
        {"FCT_OUTPUT_FILE", 1},
        {"FLOW_FILE", 1},
        {"GLOBAL_T", 1},
        {"HAS_WIN", 1},
        {"INT_MULTI", 1},
        {"KMAX_MAP", RATE_MAP},
        {"KMIN_MAP", RATE_MAP},
        {"L2_ACK_INTERVAL", 1},
        {"L2_BACK_TO_ZERO", 1},
        {"L2_CHUNK_SIZE", 1},
        {"LINK_DELAY", 1},
        {"LINK_DOWN", 3},
        {"MIN_RATE", 1},
        {"MI_THRESH", 1},
        {"MULTI_RATE", 1},
        {"PACKET_PAYLOAD_SIZE", 1},
        {"PAUSE_TIME", 1},
        {"PFC_OUTPUT_FILE", 1},
        {"PINT_LOG_BASE", 1},
        {"PINT_PROB", 1},
        {"PMAX_MAP", RATE_MAP},
        {"QLEN_MON_END", 1},
        {"QLEN_MON_FILE", 1},
        {"QLEN_MON_START", 1},
        {"RATE_AI", 1},
        {"RATE_BOUND", 1},
        {"RATE_DECREASE_INTERVAL", 1},
        {"RATE_HAI", 1},
        {"RP_TIMER", 1},
        {"SAMPLE_FEEDBACK", 1},
        {"SIMULATOR_STOP_TIME", 1},
        {"TOPOLOGY_FILE", 1},
        {"TRACE_FILE", 1},
        {"TRACE_OUTPUT_FILE", 1},
        {"U_TARGET", 1},
        {"USE_DYNAMIC_PFC_THRESHOLD", 1},
        {"VAR_WIN", 1},
    };
    return keys;
}

} // namespace

HpccConfigReader::HpccConfigReader()
{
}

bool
HpccConfigReader::IsKnownKey(const std::string& key)
{
    return KnownKeys().count(key) > 0;
}

std::vector<std::string>
HpccConfigReader::GetKnownKeys()
{
    std::vector<std::string> keys;
    for (const auto& [key, arity] : KnownKeys())
    {
        keys.push_back(key);
    }
    return keys;
}

void
HpccConfigReader::Read(const std::string& filename)
{
    std::ifstream in(filename);
    NS_ABORT_MSG_IF(!in,
                    "cannot open HPCC configuration file '" << filename
                                                            << "': " << std::strerror(errno));
    Parse(in, filename);
}

void
HpccConfigReader::Parse(std::istream& in, const std::string& name)
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
HpccConfigReader::ParseOrThrow(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_fileName = name;
    m_entries.clear();
    m_index.clear();
    m_used.clear();
    HpccLineCursor cursor(in, name);
    for (std::vector<std::string> f = cursor.Next(); !f.empty(); f = cursor.Next())
    {
        if (f[0][0] == '#')
        {
            continue;
        }
        Entry e;
        e.key = f[0];
        e.values.assign(f.begin() + 1, f.end());
        e.line = cursor.Line();
        auto known = KnownKeys().find(e.key);
        if (known == KnownKeys().end())
        {
            std::ostringstream valid;
            for (const auto& k : GetKnownKeys())
            {
                valid << (valid.tellp() > 0 ? " " : "") << k;
            }
            HPCC_INPUT_ERROR_IF(true,
                                cursor.Where()
                                    << "unknown key '" << e.key
                                    << "'; valid keys (those of the HPCC simulator's third.cc): "
                                    << valid.str());
        }
        auto previous = m_index.find(e.key);
        HPCC_INPUT_ERROR_IF(previous != m_index.end(),
                            cursor.Where()
                                << "key " << e.key << " is set a second time (first on line "
                                << m_entries[previous->second].line
                                << "); valid: each key at most once");
        const int arity = known->second;
        if (arity == RATE_MAP)
        {
            uint64_t n = 0;
            HPCC_INPUT_ERROR_IF(
                e.values.empty() || !HpccTopologyReader::ParseUnsigned(e.values[0], &n) || n == 0 ||
                    n > 64,
                cursor.Where() << e.key << " count '"
                               << (e.values.empty() ? std::string() : e.values[0])
                               << "' is not valid; valid: '" << e.key
                               << " <n> <rate bit/s> <value> ...' with n = 1 .. 64 pairs");
            HPCC_INPUT_ERROR_IF(
                e.values.size() != 1 + 2 * n,
                cursor.Where() << e.key << " announces " << n << " pairs but has "
                               << e.values.size() - 1 << " values after the count; valid: exactly "
                               << 2 * n << " values, '<rate bit/s> <value>' per pair");
        }
        else
        {
            HPCC_INPUT_ERROR_IF(e.values.size() != static_cast<std::size_t>(arity),
                                cursor.Where() << "key " << e.key << " has " << e.values.size()
                                               << " values; valid: exactly " << arity);
        }
        m_index[e.key] = m_entries.size();
        m_entries.push_back(e);
    }
}

const std::string&
HpccConfigReader::GetFileName() const
{
    return m_fileName;
}

std::string
HpccConfigReader::GetDirectory() const
{
    const auto slash = m_fileName.find_last_of('/');
    if (slash == std::string::npos)
    {
        return ".";
    }
    if (slash == 0)
    {
        return "/";
    }
    return m_fileName.substr(0, slash);
}

const std::vector<HpccConfigReader::Entry>&
HpccConfigReader::GetEntries() const
{
    return m_entries;
}

bool
HpccConfigReader::Has(const std::string& key) const
{
    return m_index.count(key) > 0;
}

const HpccConfigReader::Entry&
HpccConfigReader::Find(const std::string& key) const
{
    auto it = m_index.find(key);
    HPCC_INPUT_ERROR_IF(it == m_index.end(),
                        m_fileName << ": key " << key << " is required but not set");
    return m_entries[it->second];
}

const HpccConfigReader::Entry&
HpccConfigReader::Get(const std::string& key) const
{
    return Find(key);
}

std::string
HpccConfigReader::Where(const Entry& e) const
{
    std::ostringstream s;
    s << m_fileName << ":" << e.line << ": " << e.key;
    for (const auto& v : e.values)
    {
        s << " " << v;
    }
    s << ": ";
    return s.str();
}

void
HpccConfigReader::Fail(const std::string& key, const std::string& message) const
{
    auto it = m_index.find(key);
    HPCC_INPUT_ERROR_IF(it == m_index.end(),
                        m_fileName << ": " << key << " (not set): " << message);
    throw HpccInputError(Where(m_entries[it->second]) + message);
}

std::string
HpccConfigReader::GetString(const std::string& key) const
{
    const Entry& e = Find(key);
    HPCC_INPUT_ERROR_IF(e.values.size() != 1, Where(e) << "expected exactly one value");
    return e.values[0];
}

bool
HpccConfigReader::GetBoolean(const std::string& key) const
{
    const Entry& e = Find(key);
    HPCC_INPUT_ERROR_IF(e.values.size() != 1 || (e.values[0] != "0" && e.values[0] != "1"),
                        Where(e) << "value '" << (e.values.empty() ? "" : e.values[0])
                                 << "' is not valid; valid: 0 or 1");
    return e.values[0] == "1";
}

uint64_t
HpccConfigReader::GetUinteger(const std::string& key,
                              uint64_t min,
                              uint64_t max,
                              uint32_t index) const
{
    const Entry& e = Find(key);
    HPCC_INPUT_ERROR_IF(index >= e.values.size(),
                        Where(e) << "value " << index + 1 << " is missing");
    uint64_t v = 0;
    HPCC_INPUT_ERROR_IF(!HpccTopologyReader::ParseUnsigned(e.values[index], &v) || v < min ||
                            v > max,
                        Where(e) << "value '" << e.values[index]
                                 << "' is not valid; valid: an integer " << min << " .. " << max);
    return v;
}

double
HpccConfigReader::GetDouble(const std::string& key, double min, double max) const
{
    const Entry& e = Find(key);
    double v = 0;
    HPCC_INPUT_ERROR_IF(e.values.size() != 1 || !HpccTopologyReader::ParseReal(e.values[0], &v) ||
                            v < min || v > max,
                        Where(e) << "value '" << (e.values.empty() ? "" : e.values[0])
                                 << "' is not valid; valid: a number " << min << " .. " << max);
    return v;
}

DataRate
HpccConfigReader::GetDataRate(const std::string& key) const
{
    const Entry& e = Find(key);
    DataRate r;
    HPCC_INPUT_ERROR_IF(e.values.size() != 1 || !HpccTopologyReader::ParseDataRate(e.values[0], &r),
                        Where(e) << "value '" << (e.values.empty() ? "" : e.values[0])
                                 << "' is not valid; valid: a data rate such as 20Mb/s, 1Gbps");
    return r;
}

std::map<uint64_t, double>
HpccConfigReader::GetRateMap(const std::string& key) const
{
    const Entry& e = Find(key);
    HPCC_INPUT_ERROR_IF(KnownKeys().at(key) != RATE_MAP, Where(e) << "is not a rate-keyed map");
    std::map<uint64_t, double> m;
    for (std::size_t i = 1; i + 1 < e.values.size(); i += 2)
    {
        uint64_t rate = 0;
        double value = 0;
        HPCC_INPUT_ERROR_IF(!HpccTopologyReader::ParseUnsigned(e.values[i], &rate) || rate == 0,
                            Where(e) << "rate '" << e.values[i] << "' (pair " << (i + 1) / 2
                                     << ") is not valid; valid: a link rate in bit/s such as "
                                        "100000000000");
        HPCC_INPUT_ERROR_IF(!HpccTopologyReader::ParseReal(e.values[i + 1], &value) || value < 0,
                            Where(e) << "value '" << e.values[i + 1] << "' (pair " << (i + 1) / 2
                                     << ") is not valid; valid: a number >= 0");
        HPCC_INPUT_ERROR_IF(m.count(rate),
                            Where(e) << "rate " << rate << " appears twice; valid: distinct rates");
        m[rate] = value;
    }
    return m;
}

void
HpccConfigReader::MarkUsed(const std::string& key)
{
    m_used[key] = true;
}

std::vector<std::string>
HpccConfigReader::GetUnusedKeys() const
{
    std::vector<std::string> unused;
    for (const auto& e : m_entries)
    {
        if (!m_used.count(e.key))
        {
            unused.push_back(e.key);
        }
    }
    return unused;
}

} // namespace ns3
