/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cc-helper.h"

#include "rdma-helper.h"
#include "rdma-option-checker.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-switch.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

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
        const char* what,
        const std::string& option)
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
        RdmaOptionChecker::Require(TypeId::LookupByNameFailSafe(fromTable, &tid),
                                   option,
                                   name,
                                   std::string(what) + " of this build (" + fromTable +
                                       " is not part of it): " + valid.str());
        return fromTable;
    }
    if (TypeId::LookupByNameFailSafe(name, &tid) && tid != parent && tid.IsChildOf(parent) &&
        tid.HasConstructor())
    {
        return name;
    }
    RdmaOptionChecker::Fail(option, name, valid.str() + " (a " + what + ")");
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
                   "congestion control",
                   "cc");
}

std::string
RdmaCcHelper::ResolveLossRecovery(const std::string& name)
{
    return Resolve(name,
                   GetLossRecoveryNames(),
                   "ns3::RdmaLossRecovery",
                   "loss recovery",
                   "lossRecovery");
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
    // The option's name for messages, without its dashes ("--ccAttr" -> "ccAttr").
    const std::string flag = option.substr(option.find_first_not_of('-'));
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (item.empty())
        {
            continue;
        }
        const auto eq = item.find('=');
        RdmaOptionChecker::Require(eq != std::string::npos && eq != 0, flag, item, "Name=Value");
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
            RdmaOptionChecker::Fail(flag,
                                    item,
                                    "an attribute of " + typeId + ": " +
                                        (valid.tellp() > 0 ? valid.str() : "none"));
        }
        RdmaOptionChecker::Require(RdmaOptionChecker::IsWellFormed(info, value),
                                   flag,
                                   item,
                                   RdmaOptionChecker::DescribeFormat(info) + " for " + name);
        RdmaOptionChecker::Require(info.checker->CreateValidValue(StringValue(value)) != nullptr,
                                   flag,
                                   item,
                                   name + " of " + typeId + " (" + info.help + ")");
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

void
RdmaCcHelper::ApplyDcqcnPaperPreset(RdmaHelper& helper)
{
    // Zhu et al., SIGCOMM 2015 (RP, NP, CP parameters) and the authors' ns-3 release
    // (R_HAI, MinRate); doc/dcqcn.rst lists the sources.
    helper.SetCongestionControl("ns3::DcqcnCongestionControl",
                                "G",
                                DoubleValue(1.0 / 256),
                                "InitialAlpha",
                                DoubleValue(1.0),
                                "AlphaUpdateInterval",
                                TimeValue(MicroSeconds(55)),
                                "AlphaUpdateMode",
                                EnumValue(DcqcnCongestionControl::PER_CNP),
                                "RateDecreaseInterval",
                                TimeValue(Seconds(0)),
                                "RateDecreaseDivisor",
                                DoubleValue(2.0),
                                "MinDecreaseFactor",
                                DoubleValue(0.0),
                                "RateIncreaseInterval",
                                TimeValue(MicroSeconds(55)),
                                "ByteCounter",
                                UintegerValue(10000000),
                                "FastRecoverySteps",
                                UintegerValue(5),
                                "AdditiveIncreaseRate",
                                DataRateValue(DataRate("40Mbps")),
                                "HyperIncreaseRate",
                                DataRateValue(DataRate("200Mbps")),
                                "MinRate",
                                DataRateValue(DataRate("100Mbps")),
                                "ClampTargetRate",
                                BooleanValue(true),
                                "ClampTargetRateAfterTimeIncrease",
                                BooleanValue(true));
    helper.SetNicAttribute("CnpInterval", TimeValue(MicroSeconds(50)));
}

void
RdmaCcHelper::ApplyDcqcnConnectXPreset(RdmaHelper& helper)
{
    // NVIDIA ConnectX-4 and later firmware defaults (mlxconfig / sysfs roce_rp, roce_np),
    // converted to this model's units: doc/dcqcn.rst has the table.
    helper.SetCongestionControl("ns3::DcqcnCongestionControl",
                                "G",
                                DoubleValue((1024.0 - 1019.0) / 1024.0), // dce_tcp_g 1019
                                "InitialAlpha",
                                DoubleValue(1023.0 / 1024.0), // initial_alpha_value 1023
                                "AlphaUpdateInterval",
                                TimeValue(MicroSeconds(1)), // dce_tcp_rtt 1
                                "AlphaUpdateMode",
                                EnumValue(DcqcnCongestionControl::PERIODIC),
                                "RateDecreaseInterval",
                                TimeValue(MicroSeconds(4)), // rate_reduce_monitor_period 4
                                "RateDecreaseDivisor",
                                DoubleValue(2.0), // rpg_gd 11: 2^11 / 2^10
                                "MinDecreaseFactor",
                                DoubleValue(0.5), // rpg_min_dec_fac 50 (%)
                                "RateIncreaseInterval",
                                TimeValue(MicroSeconds(300)), // rpg_time_reset 300
                                "ByteCounter",
                                UintegerValue(32767), // rpg_byte_reset 32767 B
                                "FastRecoverySteps",
                                UintegerValue(1), // rpg_threshold 1
                                "AdditiveIncreaseRate",
                                DataRateValue(DataRate("5Mbps")), // rpg_ai_rate 5
                                "HyperIncreaseRate",
                                DataRateValue(DataRate("50Mbps")), // rpg_hai_rate 50
                                "MinRate",
                                DataRateValue(DataRate("1Mbps")), // rpg_min_rate 1
                                "ClampTargetRate",
                                BooleanValue(false), // clamp_tgt_rate 0
                                "ClampTargetRateAfterTimeIncrease",
                                BooleanValue(true)); // clamp_tgt_rate_after_time_inc 1
    helper.SetNicAttribute("CnpInterval", TimeValue(MicroSeconds(4))); // min_time_between_cnps
    helper.SetNicAttribute("CnpDscp", UintegerValue(48));              // cnp_dscp 48
}

} // namespace ns3
