/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cc-helper.h"

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-switch.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <sstream>

namespace ns3
{

namespace
{

/// \return the TypeId name for a short name or a TypeId name of a subclass of `base`
std::string
Resolve(const std::string& name,
        const std::vector<std::pair<std::string, std::string>>& table,
        const std::string& base,
        const char* what)
{
    const TypeId parent = TypeId::LookupByName(base);
    std::ostringstream valid; // the short names of this build, then every TypeId
    std::string fromTable;
    for (const auto& [shortName, typeId] : table)
    {
        TypeId t;
        if (TypeId::LookupByNameFailSafe(typeId, &t))
        {
            valid << (valid.tellp() > 0 ? ", " : "") << shortName;
        }
        if (name == shortName)
        {
            fromTable = typeId;
        }
    }
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId t = TypeId::GetRegistered(i);
        if (t != parent && t.IsChildOf(parent) && t.HasConstructor())
        {
            valid << ", " << t.GetName();
        }
    }
    TypeId tid;
    if (!fromTable.empty())
    {
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(fromTable, &tid),
                            what << " '" << name << "' (" << fromTable
                                 << ") is not part of this build; valid: " << valid.str());
        return fromTable;
    }
    if (TypeId::LookupByNameFailSafe(name, &tid) && tid != parent && tid.IsChildOf(parent) &&
        tid.HasConstructor())
    {
        return name;
    }
    NS_ABORT_MSG(what << " '" << name << "' is unknown; valid: " << valid.str());
    return "";
}

} // namespace

const std::vector<std::pair<std::string, std::string>>&
RdmaCcHelper::GetCongestionControlNames()
{
    static const std::vector<std::pair<std::string, std::string>> names = {
        {"dcqcn", "ns3::DcqcnCongestionControl"},
        {"dctcp", "ns3::DctcpCongestionControl"},
        {"timely", "ns3::TimelyCongestionControl"},
        {"hpcc", "ns3::HpccCongestionControl"},
        {"swift", "ns3::SwiftCongestionControl"},
        {"falcon", "ns3::FalconCongestionControl"},
        {"fixed-rate", "ns3::RdmaFixedRateCongestionControl"},
        {"fixed-window", "ns3::RdmaFixedWindowCongestionControl"},
    };
    return names;
}

const std::vector<std::pair<std::string, std::string>>&
RdmaCcHelper::GetLossRecoveryNames()
{
    static const std::vector<std::pair<std::string, std::string>> names = {
        {"gbn", "ns3::RdmaGoBackNLossRecovery"},
        {"gb0", "ns3::RdmaGoBackZeroLossRecovery"},
        {"sack", "ns3::RdmaSackLossRecovery"},
    };
    return names;
}

std::string
RdmaCcHelper::ResolveCongestionControl(const std::string& name)
{
    return Resolve(name,
                   GetCongestionControlNames(),
                   "ns3::RdmaCongestionControl",
                   "congestion control");
}

std::string
RdmaCcHelper::ResolveLossRecovery(const std::string& name)
{
    return Resolve(name, GetLossRecoveryNames(), "ns3::RdmaLossRecovery", "loss recovery");
}

std::string
RdmaCcHelper::GetShortName(const std::string& typeId)
{
    for (const auto* table : {&GetCongestionControlNames(), &GetLossRecoveryNames()})
    {
        for (const auto& [shortName, name] : *table)
        {
            if (name == typeId)
            {
                return shortName;
            }
        }
    }
    return typeId.rfind("ns3::", 0) == 0 ? typeId.substr(5) : typeId;
}

std::vector<std::pair<std::string, std::string>>
RdmaCcHelper::ParseAttributes(const std::string& typeId,
                              const std::string& text,
                              const std::string& option)
{
    std::vector<std::pair<std::string, std::string>> out;
    const TypeId tid = TypeId::LookupByName(typeId);
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (item.empty())
        {
            continue;
        }
        const auto eq = item.find('=');
        NS_ABORT_MSG_IF(eq == std::string::npos || eq == 0,
                        option << " '" << item << "' is not Name=Value");
        const std::string name = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            std::ostringstream valid;
            for (TypeId t = tid; t != Object::GetTypeId(); t = t.GetParent())
            {
                for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
                {
                    valid << (valid.tellp() > 0 ? ", " : "") << t.GetAttribute(i).name;
                }
            }
            NS_ABORT_MSG(option << ": " << typeId << " has no attribute '" << name
                                << "'; valid: " << (valid.tellp() > 0 ? valid.str() : "none"));
        }
        NS_ABORT_MSG_IF(!info.checker->CreateValidValue(StringValue(value)),
                        option << ": '" << value << "' is not a valid " << name << " of " << typeId
                               << " (" << info.help << ")");
        out.emplace_back(name, value);
    }
    return out;
}

std::string
RdmaCcHelper::SetCongestionControl(RdmaHelper& rdma,
                                   const std::string& name,
                                   const std::string& attributes)
{
    const std::string typeId = ResolveCongestionControl(name);
    rdma.SetCongestionControl(typeId);
    ObjectFactory factory(typeId);
    for (const auto& [attr, value] : ParseAttributes(typeId, attributes, "--ccAttr"))
    {
        rdma.SetCongestionControl(typeId, attr, StringValue(value));
        factory.Set(attr, StringValue(value));
    }
    // A congestion control fed by in-band telemetry needs switches that write it.
    if (factory.Create<RdmaCongestionControl>()->NeedsTelemetry())
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(RdmaSwitch::GetTypeId().LookupAttributeByName("Telemetry", &info),
                            "congestion control " << typeId
                                                  << " needs in-band telemetry, which the "
                                                     "switches of this build cannot write");
        rdma.SetSwitchAttribute("Telemetry", BooleanValue(true));
    }
    return typeId;
}

std::string
RdmaCcHelper::SetLossRecovery(RdmaHelper& rdma,
                              const std::string& name,
                              const std::string& attributes)
{
    const std::string typeId = ResolveLossRecovery(name);
    rdma.SetLossRecovery(typeId);
    for (const auto& [attr, value] : ParseAttributes(typeId, attributes, "--lossRecoveryAttr"))
    {
        rdma.SetLossRecovery(typeId, attr, StringValue(value));
    }
    return typeId;
}

} // namespace ns3
