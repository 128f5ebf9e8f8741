/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-loss-helper.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-periodic-error-model.h"
#include "ns3/uinteger.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLossHelper");

namespace
{

/// A parsed loss model.
struct ModelSpec
{
    std::string kind;    //!< none, uniform, burst, every
    double p{-1};        //!< average loss (uniform, burst, every)
    double rate{-1};     //!< burst start rate (burst)
    uint32_t k{0};       //!< period (every)
    uint32_t first{0};   //!< first packet dropped (every)
    uint32_t minSize{1}; //!< smallest burst
    uint32_t maxSize{4}; //!< largest burst
};

/// A parsed target.
struct TargetSpec
{
    bool link{false}; //!< nodeA-nodeB (true) or node/device (false)
    uint32_t a{0};    //!< node (or first node)
    uint32_t b{0};    //!< device index (or second node)
};

const char* const VALID_MODELS = "none, uniform:<p>, burst:<p>[,size=<a>-<b>], "
                                 "burst:rate=<r>[,size=<a>-<b>], every:<k>[,first=<n>], "
                                 "every:p=<p>";

std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    while (true)
    {
        const auto pos = s.find(sep, start);
        parts.push_back(Trim(s.substr(start, pos - start)));
        if (pos == std::string::npos)
        {
            return parts;
        }
        start = pos + 1;
    }
}

/// Parse a probability in [0, 1]; "" on success, else the complaint.
std::string
ParseProbability(const std::string& text, const std::string& what, double& value)
{
    if (text.empty())
    {
        return what + " is missing; give a probability in [0, 1], e.g. 0.01";
    }
    errno = 0;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno != 0 || !std::isfinite(value))
    {
        return what + " '" + text + "' is not a number; give a probability in [0, 1], e.g. 0.01";
    }
    if (value < 0 || value > 1)
    {
        return what + " " + text + " is not a probability in [0, 1]";
    }
    return "";
}

/// Parse a non-negative integer; "" on success, else the complaint.
std::string
ParseUnsigned(const std::string& text, const std::string& what, uint32_t& value)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 9)
    {
        return what + " '" + text + "' is not a whole number";
    }
    value = static_cast<uint32_t>(std::stoul(text));
    return "";
}

/// Parse the model part of a spec.
std::string
ParseModel(const std::string& text, ModelSpec& m)
{
    const auto colon = text.find(':');
    m.kind = Trim(text.substr(0, colon));
    std::vector<std::string> params;
    if (colon != std::string::npos)
    {
        params = Split(text.substr(colon + 1), ',');
    }
    if (m.kind.empty())
    {
        return "no loss model; valid: " + std::string(VALID_MODELS);
    }
    if (m.kind == "none")
    {
        if (!params.empty())
        {
            return "model 'none' takes no parameters";
        }
        return "";
    }
    if (m.kind != "uniform" && m.kind != "burst" && m.kind != "every")
    {
        return "unknown loss model '" + m.kind + "'; valid: " + VALID_MODELS;
    }
    for (std::size_t i = 0; i < params.size(); ++i)
    {
        const std::string& param = params[i];
        const auto eq = param.find('=');
        std::string name = eq == std::string::npos ? "" : Trim(param.substr(0, eq));
        const std::string value = eq == std::string::npos ? param : Trim(param.substr(eq + 1));
        if (name.empty())
        {
            if (i != 0)
            {
                return "parameter '" + param + "' has no name (name=value)";
            }
            name = m.kind == "every" ? "k" : "p"; // the first parameter may be positional
        }
        std::string error;
        if (name == "p")
        {
            error = ParseProbability(value, m.kind + " loss probability p", m.p);
        }
        else if (name == "rate" && m.kind == "burst")
        {
            error = ParseProbability(value, "burst start rate", m.rate);
        }
        else if (name == "k" && m.kind == "every")
        {
            error = ParseUnsigned(value, "period k", m.k);
            if (error.empty() && m.k == 0)
            {
                error = "period k must be at least 1 (every k-th packet is lost)";
            }
        }
        else if (name == "first" && m.kind == "every")
        {
            error = ParseUnsigned(value, "first", m.first);
        }
        else if (name == "size" && m.kind == "burst")
        {
            const auto dash = value.find('-');
            const std::string lo = dash == std::string::npos ? value : value.substr(0, dash);
            const std::string hi = dash == std::string::npos ? value : value.substr(dash + 1);
            error = ParseUnsigned(lo, "smallest burst", m.minSize);
            if (error.empty())
            {
                error = ParseUnsigned(hi, "largest burst", m.maxSize);
            }
            if (error.empty() && (m.minSize < 1 || m.maxSize < m.minSize))
            {
                error = "burst size " + value + " must be <a>-<b> with 1 <= a <= b";
            }
        }
        else
        {
            error = "unknown parameter '" + name + "' of model '" + m.kind + "'; valid: " +
                    (m.kind == "uniform" ? std::string("p")
                     : m.kind == "burst" ? std::string("p, rate, size")
                                         : std::string("k, p, first"));
        }
        if (!error.empty())
        {
            return error;
        }
    }
    if (m.kind == "uniform" && m.p < 0)
    {
        return "uniform needs a loss probability, e.g. uniform:0.01";
    }
    if (m.kind == "burst")
    {
        if ((m.p < 0) == (m.rate < 0))
        {
            return "burst needs either an average loss p (burst:0.01) or a start rate "
                   "(burst:rate=0.005), not both";
        }
        if (m.p >= 1)
        {
            return "burst average loss p must be below 1";
        }
    }
    if (m.kind == "every")
    {
        if ((m.k == 0) == (m.p < 0))
        {
            return "every needs either a period (every:100) or a probability (every:p=0.01), "
                   "not both";
        }
        if (m.p >= 0)
        {
            if (m.p == 0)
            {
                return "every:p=0 would never drop; use none";
            }
            m.k = static_cast<uint32_t>(std::lround(1.0 / m.p));
        }
    }
    return "";
}

/// Parse the targets after '@'.
std::string
ParseTargets(const std::string& text, std::vector<TargetSpec>& targets)
{
    for (const std::string& t : Split(text, ','))
    {
        TargetSpec target;
        const auto slash = t.find('/');
        const auto dash = t.find('-');
        std::string error;
        if (slash != std::string::npos && dash == std::string::npos)
        {
            error = ParseUnsigned(t.substr(0, slash), "node", target.a);
            if (error.empty())
            {
                error = ParseUnsigned(t.substr(slash + 1), "device index", target.b);
            }
        }
        else if (dash != std::string::npos && slash == std::string::npos)
        {
            target.link = true;
            error = ParseUnsigned(t.substr(0, dash), "node", target.a);
            if (error.empty())
            {
                error = ParseUnsigned(t.substr(dash + 1), "node", target.b);
            }
        }
        else
        {
            error = "target '" + t + "' is neither <node>/<device> nor <nodeA>-<nodeB>";
        }
        if (!error.empty())
        {
            return error;
        }
        targets.push_back(target);
    }
    return "";
}

/// Find the devices a target names.
std::string
ResolveTarget(const TargetSpec& t, std::vector<Ptr<NetDevice>>& devices)
{
    const uint32_t nNodes = NodeList::GetNNodes();
    if (t.a >= nNodes || (t.link && t.b >= nNodes))
    {
        std::ostringstream os;
        os << "node " << (t.a >= nNodes ? t.a : t.b) << " does not exist (there are " << nNodes
           << " nodes, 0.." << (nNodes == 0 ? 0 : nNodes - 1) << ")";
        return os.str();
    }
    Ptr<Node> a = NodeList::GetNode(t.a);
    if (!t.link)
    {
        if (t.b >= a->GetNDevices())
        {
            std::ostringstream os;
            os << "node " << t.a << " has no device " << t.b << " (it has " << a->GetNDevices()
               << ")";
            return os.str();
        }
        devices.push_back(a->GetDevice(t.b));
        return "";
    }
    bool found = false;
    for (uint32_t i = 0; i < a->GetNDevices(); ++i)
    {
        Ptr<NetDevice> d = a->GetDevice(i);
        Ptr<Channel> ch = d->GetChannel();
        if (!ch)
        {
            continue;
        }
        for (std::size_t j = 0; j < ch->GetNDevices(); ++j)
        {
            Ptr<NetDevice> peer = ch->GetDevice(j);
            if (peer != d && peer->GetNode() && peer->GetNode()->GetId() == t.b)
            {
                devices.push_back(d);
                devices.push_back(peer);
                found = true;
            }
        }
    }
    if (!found)
    {
        std::ostringstream os;
        os << "no link joins node " << t.a << " and node " << t.b;
        return os.str();
    }
    return "";
}

/// Parse a whole spec; "" on success.
std::string
Parse(const std::string& spec, ModelSpec& model, std::vector<TargetSpec>& targets, bool& hasTargets)
{
    const auto at = spec.find('@');
    hasTargets = at != std::string::npos;
    std::string error = ParseModel(spec.substr(0, at), model);
    if (error.empty() && hasTargets)
    {
        error = ParseTargets(spec.substr(at + 1), targets);
    }
    return error;
}

std::string
Complaint(const std::string& spec, const std::string& error)
{
    return "RdmaLossHelper: bad loss spec '" + spec + "': " + error;
}

} // namespace

RdmaLossHelper::RdmaLossHelper()
{
}

std::string
RdmaLossHelper::Check(const std::string& spec)
{
    ModelSpec model;
    std::vector<TargetSpec> targets;
    bool hasTargets = false;
    std::string error = Parse(spec, model, targets, hasTargets);
    if (error.empty())
    {
        std::vector<Ptr<NetDevice>> devices;
        for (const auto& t : targets)
        {
            error = ResolveTarget(t, devices);
            if (!error.empty())
            {
                break;
            }
        }
    }
    return error.empty() ? "" : Complaint(spec, error);
}

Ptr<ErrorModel>
RdmaLossHelper::CreateErrorModel(const std::string& spec)
{
    ModelSpec m;
    std::vector<TargetSpec> targets;
    bool hasTargets = false;
    const std::string error = Parse(spec, m, targets, hasTargets);
    NS_ABORT_MSG_IF(!error.empty(), Complaint(spec, error));
    NS_ABORT_MSG_IF(hasTargets,
                    Complaint(spec, "a target ('@...') is not allowed here; give the model only"));
    if (m.kind == "none")
    {
        return nullptr;
    }
    if (m.kind == "uniform")
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
        em->SetAttribute("ErrorRate", DoubleValue(m.p));
        return em;
    }
    if (m.kind == "burst")
    {
        Ptr<BurstErrorModel> em = CreateObject<BurstErrorModel>();
        const double rate = m.rate >= 0 ? m.rate : BurstRateForLoss(m.p, m.minSize, m.maxSize);
        em->SetAttribute("ErrorRate", DoubleValue(rate));
        Ptr<UniformRandomVariable> size = CreateObject<UniformRandomVariable>();
        size->SetAttribute("Min", DoubleValue(m.minSize));
        size->SetAttribute("Max", DoubleValue(m.maxSize));
        em->SetAttribute("BurstSize", PointerValue(size));
        return em;
    }
    Ptr<RdmaPeriodicErrorModel> em = CreateObject<RdmaPeriodicErrorModel>();
    em->SetAttribute("Period", UintegerValue(m.k));
    em->SetAttribute("FirstDrop", UintegerValue(m.first));
    return em;
}

Ptr<ErrorModel>
RdmaLossHelper::InstallOne(const std::string& model, Ptr<NetDevice> device)
{
    Ptr<ErrorModel> em = CreateErrorModel(model);
    if (!em)
    {
        return nullptr;
    }
    NS_ABORT_MSG_IF(!device->SetAttributeFailSafe("ReceiveErrorModel", PointerValue(em)),
                    "RdmaLossHelper: device " << device->GetIfIndex() << " of node "
                                              << device->GetNode()->GetId() << " ("
                                              << device->GetInstanceTypeId().GetName()
                                              << ") has no ReceiveErrorModel attribute");
    m_models.push_back(em);
    return em;
}

std::vector<Ptr<ErrorModel>>
RdmaLossHelper::Install(const std::string& spec)
{
    ModelSpec m;
    std::vector<TargetSpec> targets;
    bool hasTargets = false;
    std::string error = Parse(spec, m, targets, hasTargets);
    NS_ABORT_MSG_IF(!error.empty(), Complaint(spec, error));
    NS_ABORT_MSG_IF(!hasTargets,
                    Complaint(spec,
                              "no target; append @<node>/<device> or @<nodeA>-<nodeB>, e.g. "
                              "uniform:0.01@2/0"));
    std::vector<Ptr<NetDevice>> devices;
    for (const auto& t : targets)
    {
        error = ResolveTarget(t, devices);
        NS_ABORT_MSG_IF(!error.empty(), Complaint(spec, error));
    }
    const std::string model = spec.substr(0, spec.find('@'));
    std::vector<Ptr<ErrorModel>> installed;
    for (const auto& d : devices)
    {
        if (Ptr<ErrorModel> em = InstallOne(model, d))
        {
            installed.push_back(em);
        }
    }
    return installed;
}

std::vector<Ptr<ErrorModel>>
RdmaLossHelper::Install(const std::string& spec, NetDeviceContainer devices)
{
    std::vector<Ptr<ErrorModel>> installed;
    CreateErrorModel(spec); // validates, stops on a bad spec
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (Ptr<ErrorModel> em = InstallOne(spec, devices.Get(i)))
        {
            installed.push_back(em);
        }
    }
    return installed;
}

std::vector<Ptr<ErrorModel>>
RdmaLossHelper::InstallOnLink(const std::string& spec, Ptr<NetDevice> device)
{
    NS_ABORT_MSG_IF(!device || !device->GetChannel(),
                    "RdmaLossHelper::InstallOnLink: the device is not attached to a channel");
    Ptr<Channel> ch = device->GetChannel();
    NetDeviceContainer ends;
    for (std::size_t i = 0; i < ch->GetNDevices(); ++i)
    {
        ends.Add(ch->GetDevice(i));
    }
    return Install(spec, ends);
}

int64_t
RdmaLossHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (const auto& em : m_models)
    {
        if (Ptr<RateErrorModel> r = DynamicCast<RateErrorModel>(em))
        {
            used += r->AssignStreams(stream + used);
        }
        else if (Ptr<BurstErrorModel> b = DynamicCast<BurstErrorModel>(em))
        {
            used += b->AssignStreams(stream + used);
        }
    }
    return used;
}

double
RdmaLossHelper::BurstLoss(double r, uint32_t minSize, uint32_t maxSize)
{
    // P(size > d) for size uniform in [minSize, maxSize]
    const double n = maxSize - minSize + 1.0;
    double sum = 0;
    double noStart = 1.0; // (1 - r)^(d-1)
    for (uint32_t d = 1; d < maxSize; ++d)
    {
        const double pGreater = d < minSize ? 1.0 : (maxSize - d) / n;
        sum += r * noStart * pGreater;
        noStart *= 1 - r;
    }
    return r + (1 - r) * sum;
}

double
RdmaLossHelper::BurstRateForLoss(double p, uint32_t minSize, uint32_t maxSize)
{
    NS_ABORT_MSG_IF(p < 0 || p >= 1,
                    "RdmaLossHelper: burst average loss " << p << " not in [0, 1)");
    NS_ABORT_MSG_IF(minSize < 1 || maxSize < minSize,
                    "RdmaLossHelper: burst sizes " << minSize << "-" << maxSize
                                                   << " need 1 <= min <= max");
    // BurstLoss grows with r from 0 (r = 0) to 1 (r = 1): bisect.
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 100; ++i)
    {
        const double mid = (lo + hi) / 2;
        (BurstLoss(mid, minSize, maxSize) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

} // namespace ns3
