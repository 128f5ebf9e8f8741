/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-option-checker.h"

#include "hpcc-topology-reader.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

namespace ns3
{

void
RdmaOptionChecker::Fail(const std::string& option,
                        const std::string& value,
                        const std::string& valid)
{
    std::cerr << "option --" << option << ": value '" << value << "' is not valid; valid: " << valid
              << std::endl;
    std::exit(1);
}

std::string
RdmaOptionChecker::ToText(uint64_t value)
{
    std::ostringstream s;
    s << value;
    if (value > (UINT64_MAX >> 1))
    {
        s << " (a negative number, " << static_cast<int64_t>(value) << ", read as unsigned)";
    }
    return s.str();
}

void
RdmaOptionChecker::Attribute(const std::string& option,
                             const std::string& value,
                             const std::string& typeId,
                             const std::string& attribute)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) || !tid.LookupAttributeByName(attribute, &info))
    {
        Fail(option, value, "(no attribute " + typeId + "::" + attribute + ")");
    }
    Require(IsWellFormed(info, value),
            option,
            value,
            DescribeFormat(info) + " (" + typeId + "::" + attribute + ")");
    if (info.checker->CreateValidValue(StringValue(value)))
    {
        return;
    }
    // The checker describes its range as "<type> <min>:<max>" or an enum as "A|B|C".
    std::string valid = info.checker->GetUnderlyingTypeInformation();
    std::smatch m;
    if (std::regex_match(valid, m, std::regex(R"(\S+ (\S+):(\S+))")))
    {
        valid = m[1].str() + " .. " + m[2].str();
    }
    else if (valid.find('|') != std::string::npos)
    {
        valid = "one of " + valid;
    }
    else
    {
        valid = "a " + info.checker->GetValueTypeName() + " (" + valid + ")";
    }
    Fail(option, value, valid + " (" + typeId + "::" + attribute + ")");
}

bool
RdmaOptionChecker::IsWellFormed(const TypeId::AttributeInformation& info, const std::string& text)
{
    const std::string type = info.checker->GetValueTypeName();
    // As ns-3.37's DoubleValue, UintegerValue and IntegerValue parse: the whole text, one
    // number (they abort when anything is left over).
    auto whole = [&text](auto number) {
        std::istringstream in(text);
        in >> number;
        return !in.fail() && in.eof();
    };
    if (type == "ns3::DoubleValue")
    {
        return whole(double{});
    }
    if (type == "ns3::UintegerValue")
    {
        return text.find('-') == std::string::npos && whole(uint64_t{});
    }
    if (type == "ns3::IntegerValue")
    {
        return whole(int64_t{});
    }
    if (type == "ns3::TimeValue")
    {
        // Time(std::string): a number (std::stod, which throws on anything else) and an
        // optional unit.
        static const std::regex time(
            R"(\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(s|ms|us|ns|ps|fs|min|h|d|y)?\s*)");
        return std::regex_match(text, time);
    }
    return true; // the other checkers refuse bad text themselves
}

std::string
RdmaOptionChecker::DescribeFormat(const TypeId::AttributeInformation& info)
{
    const std::string type = info.checker->GetValueTypeName();
    if (type == "ns3::DoubleValue")
    {
        return "a number";
    }
    if (type == "ns3::UintegerValue" || type == "ns3::IntegerValue")
    {
        return "a whole number";
    }
    if (type == "ns3::TimeValue")
    {
        return "a time with a unit, such as 10us";
    }
    return "a " + type;
}

void
RdmaOptionChecker::Rate(const std::string& option, const std::string& value)
{
    DataRate rate;
    Require(HpccTopologyReader::ParseDataRate(value, &rate) && rate.GetBitRate() > 0,
            option,
            value,
            "a rate above 0 with a unit, such as 100Gbps, 25Gb/s, 400Mbps");
}

void
RdmaOptionChecker::Positive(const std::string& option, Time value)
{
    Require(value.IsStrictlyPositive(), option, value.As(), "a time > 0, such as 1us");
}

void
RdmaOptionChecker::NonNegative(const std::string& option, Time value)
{
    Require(!value.IsStrictlyNegative(), option, value.As(), "a time >= 0, such as 1us");
}

void
RdmaOptionChecker::OutputFile(const std::string& option, const std::string& path)
{
    if (path == "none")
    {
        return;
    }
    Require(!path.empty(), option, path, "a file path (or none)");
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
    {
        std::filesystem::create_directories(parent, ec);
    }
    std::ofstream out(path, std::ios::app);
    Require(!ec && out.good(),
            option,
            path,
            "a file that can be written (" +
                (ec ? "cannot create directory " + parent.string() + ": " + ec.message()
                    : std::string("cannot open it for writing")) +
                ")");
}

void
RdmaOptionChecker::OutputDirectory(const std::string& option, const std::string& path)
{
    Require(!path.empty(), option, path, "a directory path");
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    const std::string probe = path + "/.rdma-write-test";
    bool writable = false;
    if (!ec)
    {
        std::ofstream out(probe);
        writable = out.good();
    }
    std::filesystem::remove(probe, ec);
    Require(writable, option, path, "a directory that can be created and written");
}

void
RdmaOptionChecker::Seed(uint32_t seed, uint32_t run)
{
    if (seed != 0)
    {
        RngSeedManager::SetSeed(seed);
    }
    if (run != 0)
    {
        RngSeedManager::SetRun(run);
    }
}

std::vector<std::string>
RdmaOptionChecker::SplitList(const std::string& list, char separator)
{
    std::vector<std::string> items;
    std::string::size_type start = 0;
    while (start <= list.size())
    {
        auto end = list.find(separator, start);
        if (end == std::string::npos)
        {
            end = list.size();
        }
        if (end > start)
        {
            items.push_back(list.substr(start, end - start));
        }
        start = end + 1;
    }
    return items;
}

} // namespace ns3
