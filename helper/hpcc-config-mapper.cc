/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-config-mapper.h"

#include "hpcc-config-reader.h"
#include "hpcc-topology-reader.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

using Settings = HpccScenarioSettings;

/// Map one key: record the line of the mapping report and mark the key used.
void
MapKey(HpccConfigReader& cfg, Settings& s, const std::string& key, const std::string& effect)
{
    std::ostringstream line;
    line << "  " << std::left << std::setw(26) << key;
    if (cfg.Has(key))
    {
        std::string values;
        for (const auto& v : cfg.Get(key).values)
        {
            values += (values.empty() ? "" : " ") + v;
        }
        line << std::setw(18) << values;
    }
    else
    {
        line << std::setw(18) << "(not set)";
    }
    line << " -> " << effect;
    s.mapping.push_back(line.str());
    cfg.MarkUsed(key);
}

/// Keys that only matter for CC modes other than 1 (HPCC, TIMELY, DCTCP, HPCC-PINT).
void
MapOtherCcKeys(HpccConfigReader& cfg, Settings& s)
{
    // Check that the values are well-formed even though they have no effect.
    struct Key
    {
        const char* key;
        char type; // b boolean, u unsigned, d double, r rate
        const char* reason;
    };

    const Key keys[] = {
        {"FAST_REACT", 'b', "HPCC only (CC_MODE 3/10): no effect under DCQCN"},
        {"U_TARGET", 'd', "HPCC only: no effect under DCQCN"},
        {"MI_THRESH", 'u', "HPCC only: no effect under DCQCN"},
        {"INT_MULTI", 'u', "INT (HPCC) only: no effect under DCQCN"},
        {"MULTI_RATE", 'b', "HPCC only: no effect under DCQCN"},
        {"SAMPLE_FEEDBACK", 'b', "HPCC only: no effect under DCQCN"},
        {"PINT_LOG_BASE", 'd', "HPCC-PINT only (CC_MODE 10): no effect under DCQCN"},
        {"PINT_PROB", 'd', "HPCC-PINT only (CC_MODE 10): no effect under DCQCN"},
        {"DCTCP_RATE_AI", 'r', "DCTCP only (CC_MODE 8): no effect under DCQCN"},
    };
    for (const auto& k : keys)
    {
        if (cfg.Has(k.key))
        {
            switch (k.type)
            {
            case 'b':
                cfg.GetBoolean(k.key);
                break;
            case 'u':
                cfg.GetUinteger(k.key);
                break;
            case 'd':
                cfg.GetDouble(k.key, -1e300, 1e300);
                break;
            case 'r':
                cfg.GetDataRate(k.key);
                break;
            }
        }
        MapKey(cfg, s, k.key, std::string("accepted, ") + k.reason);
    }
}

/**
 * HAS_WIN, VAR_WIN and GLOBAL_T, for every CC mode (the peer's scratch/third.cc and
 * RdmaQueuePair::GetWin): with HAS_WIN 1 (its default) a queue pair may have at most
 * win = T x rate / 8 bytes in flight, T the largest base RTT of the topology (GLOBAL_T 1,
 * its default) or the pair's own (GLOBAL_T 0), and with VAR_WIN 1 win x current rate / line
 * rate. Mapped onto the congestion control's UseWindow and VariableWindow and
 * RdmaQueuePair::BaseRtt (CheckWindowsArePeers checks the bytes).
 */
void
MapWindowKeys(HpccConfigReader& cfg, Settings& s)
{
    const uint64_t mode = s.ccMode;
    const bool hasWindow = !cfg.Has("HAS_WIN") || cfg.GetBoolean("HAS_WIN");
    const bool varWin = cfg.Has("VAR_WIN") && cfg.GetBoolean("VAR_WIN");
    const bool globalT = !cfg.Has("GLOBAL_T") || cfg.GetBoolean("GLOBAL_T");
    if (hasWindow && mode == 3 && !varWin)
    {
        cfg.Fail("VAR_WIN",
                 "HPCC's window is W = R x T (VAR_WIN 1); a fixed BDP window with HPCC is not "
                 "supported; valid: VAR_WIN 1, or HAS_WIN 0");
    }
    // DCQCN without ECN marks is a fixed line rate; with a window it is DCQCN that is never
    // cut, which RdmaFixedRateCongestionControl cannot express.
    const std::string typeId = !s.ccTypeId.empty() ? s.ccTypeId : "ns3::DcqcnCongestionControl";
    auto& attributes = !s.ccTypeId.empty() ? s.ccAttributes : s.dcqcnAttributes;
    s.window = hasWindow;
    s.ccNeedsBaseRtt = hasWindow || mode == 3;
    s.perPairBaseRtt = s.ccNeedsBaseRtt && !globalT;
    attributes.emplace_back("UseWindow", hasWindow ? "true" : "false");
    if (mode != 3)
    {
        attributes.emplace_back("VariableWindow", varWin ? "true" : "false");
    }
    const char* cc = mode == 1 ? "DCQCN" : mode == 3 ? "HPCC" : mode == 7 ? "TIMELY" : "DCTCP";
    MapKey(cfg,
           s,
           "HAS_WIN",
           typeId + (hasWindow ? "::UseWindow true (bytes in flight < W = line rate x T)"
                               : "::UseWindow false"));
    MapKey(cfg,
           s,
           "VAR_WIN",
           !hasWindow  ? std::string("accepted, only used with HAS_WIN 1: no effect with HAS_WIN 0")
           : mode == 3 ? std::string("1: HPCC's W = R x T")
                       : typeId + "::VariableWindow " +
                             (varWin ? "true (W x rate / line rate)" : "false (the full BDP)"));
    MapKey(cfg,
           s,
           "GLOBAL_T",
           !s.ccNeedsBaseRtt ? std::string("accepted, no window: no effect under ") + cc
           : globalT ? std::string("RdmaQueuePair::BaseRtt = the largest base RTT of the topology "
                                   "(2 x delay + a payload's serialization per hop, as the peer)")
                     : std::string("RdmaQueuePair::BaseRtt per flow = its (source, destination) "
                                   "pair's base RTT (2 x delay + a payload's serialization per "
                                   "hop, as the peer's pairRtt)"));
}

/**
 * CC_MODE 3 (HPCC), 7 (TIMELY) and 8 (DCTCP): the peer's keys for that mode mapped onto the
 * attributes of ns3::HpccCongestionControl, ns3::TimelyCongestionControl and
 * ns3::DctcpCongestionControl; the DCQCN-only keys are checked and accepted as having no
 * effect. Defaults are the peer's (third.cc, rdma-hw.cc) where a key is absent.
 */
void
MapRateWindowCc(HpccConfigReader& cfg, Settings& s)
{
    const uint64_t mode = s.ccMode;
    const char* name = mode == 3 ? "HPCC" : mode == 7 ? "TIMELY" : "DCTCP";
    s.ccTypeId = mode == 3   ? "ns3::HpccCongestionControl"
                 : mode == 7 ? "ns3::TimelyCongestionControl"
                             : "ns3::DctcpCongestionControl";
    MapKey(cfg, s, "CC_MODE", s.ccTypeId + " (RdmaHelper::SetCongestionControl)");
    s.mapping.push_back("  (implied)                  ns3::RdmaNic::CnpEnabled false: no CNP "
                        "frames (the peer's CE flag rides the ACK; here the ACK's ECN echo)");
    auto attribute = [&](const char* key, const char* attr, const std::string& value) {
        s.ccAttributes.emplace_back(attr, value);
        MapKey(cfg, s, key, s.ccTypeId + "::" + attr + " " + value);
    };
    auto unused = [&](const char* key, char type, const std::string& why) {
        if (cfg.Has(key))
        {
            switch (type)
            {
            case 'b':
                cfg.GetBoolean(key);
                break;
            case 'u':
                cfg.GetUinteger(key);
                break;
            case 'd':
                cfg.GetDouble(key, -1e300, 1e300);
                break;
            case 'r':
                cfg.GetDataRate(key);
                break;
            }
        }
        MapKey(cfg, s, key, "accepted, " + why + ": no effect under " + name);
    };
    auto rateOr = [&](const char* key, const char* peerDefault) {
        if (cfg.Has(key))
        {
            cfg.GetDataRate(key);
            return cfg.GetString(key);
        }
        return std::string(peerDefault);
    };
    // DCQCN's keys.
    for (const char* key : {"ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "RP_TIMER"})
    {
        if (cfg.Has(key))
        {
            cfg.GetDouble(key, 1e-6, 1e9);
        }
        MapKey(cfg,
               s,
               key,
               std::string("accepted, DCQCN only (CC_MODE 1): no effect under ") + name);
    }
    unused("FAST_RECOVERY_TIMES", 'u', "DCQCN only (CC_MODE 1)");
    unused("CLAMP_TARGET_RATE", 'b', "DCQCN only (CC_MODE 1)");
    unused("PINT_LOG_BASE", 'd', "HPCC-PINT only (CC_MODE 10)");
    unused("PINT_PROB", 'd', "HPCC-PINT only (CC_MODE 10)");
    attribute("MIN_RATE", "MinRate", rateOr("MIN_RATE", "100Mb/s"));

    // The peer's EwmaGain is DCQCN's g and DCTCP's g alike.
    if (mode == 8)
    {
        const std::string g = cfg.Has("EWMA_GAIN")
                                  ? (cfg.GetDouble("EWMA_GAIN", 0, 1), cfg.GetString("EWMA_GAIN"))
                                  : "0.0625";
        attribute("EWMA_GAIN", "G", g);
        attribute("DCTCP_RATE_AI", "AdditiveIncreaseRate", rateOr("DCTCP_RATE_AI", "1000Mb/s"));
        unused("RATE_AI", 'r', "DCTCP adds DCTCP_RATE_AI");
        unused("RATE_HAI", 'r', "DCTCP has no hyper increase");
    }
    else
    {
        unused("EWMA_GAIN", 'd', "DCQCN and DCTCP only");
        unused("DCTCP_RATE_AI", 'r', "DCTCP only (CC_MODE 8)");
        attribute("RATE_AI", "AdditiveIncreaseRate", rateOr("RATE_AI", "5Mb/s"));
        if (mode == 7)
        {
            attribute("RATE_HAI", "HyperIncreaseRate", rateOr("RATE_HAI", "50Mb/s"));
        }
        else
        {
            unused("RATE_HAI", 'r', "HPCC has no hyper increase");
        }
    }

    // HPCC's own keys.
    if (mode == 3)
    {
        const std::string eta =
            cfg.Has("U_TARGET") ? (cfg.GetDouble("U_TARGET", 1e-9, 1), cfg.GetString("U_TARGET"))
                                : "0.95";
        attribute("U_TARGET", "EtaTarget", eta);
        attribute(
            "MI_THRESH",
            "MaxStage",
            std::to_string(cfg.Has("MI_THRESH") ? cfg.GetUinteger("MI_THRESH", 0, 1000000) : 5));
        const bool fast = !cfg.Has("FAST_REACT") || cfg.GetBoolean("FAST_REACT");
        attribute("FAST_REACT", "FastReact", fast ? "true" : "false");
        if (!cfg.Has("MULTI_RATE") || cfg.GetBoolean("MULTI_RATE"))
        {
            cfg.Fail("MULTI_RATE",
                     std::string(cfg.Has("MULTI_RATE") ? "" : "the peer's default is 1: ") +
                         "HPCC with a rate per hop is not supported; valid: MULTI_RATE 0");
        }
        MapKey(cfg, s, "MULTI_RATE", "0: one rate from the most utilised hop (Algorithm 1)");
        if (cfg.Has("SAMPLE_FEEDBACK") && cfg.GetBoolean("SAMPLE_FEEDBACK"))
        {
            cfg.Fail("SAMPLE_FEEDBACK",
                     "sampled feedback (skipping hops with an empty queue) is not supported; "
                     "valid: SAMPLE_FEEDBACK 0");
        }
        MapKey(cfg, s, "SAMPLE_FEEDBACK", "0: every hop record is used");
        const uint64_t multi = cfg.Has("INT_MULTI") ? cfg.GetUinteger("INT_MULTI", 1, 255) : 1;
        s.ccAttributes.emplace_back("IntMultiplier", std::to_string(multi));
        MapKey(cfg,
               s,
               "INT_MULTI",
               "telemetry units x " + std::to_string(multi) +
                   " (128 B tx bytes, 80 B queue), carried in the INT area");
    }
    else
    {
        unused("U_TARGET", 'd', "HPCC only (CC_MODE 3)");
        unused("MI_THRESH", 'u', "HPCC only (CC_MODE 3)");
        unused("FAST_REACT",
               'b',
               mode == 7 ? "the peer's TIMELY fast reaction is empty" : "HPCC only");
        unused("MULTI_RATE", 'b', "HPCC only (CC_MODE 3)");
        unused("SAMPLE_FEEDBACK", 'b', "HPCC only (CC_MODE 3)");
        unused("INT_MULTI", 'u', "INT (HPCC) only");
    }

    MapWindowKeys(cfg, s);
}

/// CC_MODE 1: DCQCN (or line rate without ECN) and the keys of the other modes.
void
MapDcqcn(HpccConfigReader& cfg, Settings& s)
{
    const bool window = !cfg.Has("HAS_WIN") || cfg.GetBoolean("HAS_WIN");
    MapKey(cfg,
           s,
           "CC_MODE",
           s.dcqcn  ? "ns3::DcqcnCongestionControl (RdmaHelper::SetCongestionControl)"
           : window ? "DCQCN without ECN marks never leaves line rate: ns3::DcqcnCongestionControl "
                      "with its default parameters (never cut) and the window (HAS_WIN 1)"
                    : "DCQCN without ECN marks never leaves line rate: "
                      "ns3::RdmaFixedRateCongestionControl at line rate (identical)");
    MapKey(cfg,
           s,
           "ENABLE_QCN",
           std::string("ns3::RdmaSwitch::EcnEnabled ") + (s.ecn ? "true" : "false"));

    // DCQCN parameters: the peer's defaults when a key is absent, an error where its
    // default is unusable (uninitialised or 0 by integer division in third.cc).
    auto timeUs = [&](const char* key, const char* attribute, const char* peerDefault) {
        std::string v;
        if (cfg.Has(key))
        {
            cfg.GetDouble(key, 1e-6, 1e9);
            v = cfg.GetString(key);
        }
        else if (peerDefault)
        {
            v = peerDefault;
        }
        else if (s.dcqcn)
        {
            cfg.Fail(key,
                     std::string("required with CC_MODE 1 (the peer leaves it "
                                 "uninitialised); valid: microseconds > 0"));
        }
        if (!v.empty())
        {
            s.dcqcnAttributes.emplace_back(attribute, v + "us");
        }
        MapKey(cfg,
               s,
               key,
               s.dcqcn ? std::string("ns3::DcqcnCongestionControl::") + attribute + " " + v + " us"
                       : "checked; no effect without ECN marks (ENABLE_QCN 0)");
    };
    auto rate = [&](const char* key, const char* attribute, const char* peerDefault) {
        std::string v;
        if (cfg.Has(key))
        {
            cfg.GetDataRate(key);
            v = cfg.GetString(key);
        }
        else if (peerDefault)
        {
            v = peerDefault;
        }
        else if (s.dcqcn)
        {
            cfg.Fail(key,
                     "required with CC_MODE 1 (the peer's default is an empty string); valid: "
                     "a data rate such as 20Mb/s");
        }
        if (!v.empty())
        {
            s.dcqcnAttributes.emplace_back(attribute, v);
        }
        MapKey(cfg,
               s,
               key,
               s.dcqcn ? std::string("ns3::DcqcnCongestionControl::") + attribute + " " + v
                       : "checked; no effect without ECN marks (ENABLE_QCN 0)");
    };
    timeUs("ALPHA_RESUME_INTERVAL", "AlphaUpdateInterval", "55");
    timeUs("RATE_DECREASE_INTERVAL", "RateDecreaseInterval", "4");
    timeUs("RP_TIMER", "RateIncreaseInterval", nullptr);
    {
        std::string g;
        if (cfg.Has("EWMA_GAIN"))
        {
            cfg.GetDouble("EWMA_GAIN", 0, 1);
            g = cfg.GetString("EWMA_GAIN");
        }
        else if (s.dcqcn)
        {
            cfg.Fail("EWMA_GAIN",
                     "required with CC_MODE 1 (the peer's default 1 / 16 is 0 in integer "
                     "arithmetic); valid: a gain 0 .. 1 such as 0.00390625");
        }
        if (!g.empty())
        {
            s.dcqcnAttributes.emplace_back("G", g);
        }
        MapKey(cfg,
               s,
               "EWMA_GAIN",
               s.dcqcn ? "ns3::DcqcnCongestionControl::G " + g
                       : "checked; no effect without ECN marks (ENABLE_QCN 0)");
    }
    {
        const std::string steps =
            cfg.Has("FAST_RECOVERY_TIMES")
                ? std::to_string(cfg.GetUinteger("FAST_RECOVERY_TIMES", 0, 1000000))
                : "5";
        s.dcqcnAttributes.emplace_back("FastRecoverySteps", steps);
        MapKey(cfg,
               s,
               "FAST_RECOVERY_TIMES",
               s.dcqcn ? "ns3::DcqcnCongestionControl::FastRecoverySteps " + steps
                       : "checked; no effect without ECN marks (ENABLE_QCN 0)");
    }
    rate("RATE_AI", "AdditiveIncreaseRate", nullptr);
    rate("RATE_HAI", "HyperIncreaseRate", nullptr);
    rate("MIN_RATE", "MinRate", "100Mb/s");
    {
        const bool clamp = cfg.Has("CLAMP_TARGET_RATE") && cfg.GetBoolean("CLAMP_TARGET_RATE");
        s.dcqcnAttributes.emplace_back("ClampTargetRate", clamp ? "true" : "false");
        MapKey(cfg,
               s,
               "CLAMP_TARGET_RATE",
               s.dcqcn ? std::string("ns3::DcqcnCongestionControl::ClampTargetRate ") +
                             (clamp ? "true" : "false")
                       : "checked; no effect without ECN marks (ENABLE_QCN 0)");
    }
    s.dcqcnAttributes.emplace_back("ByteCounter", "0");
    if (s.dcqcn)
    {
        s.mapping.push_back(
            "  (implied)                  ns3::DcqcnCongestionControl::ByteCounter 0 "
            "(the peer has no byte counter), AlphaUpdateMode Periodic, "
            "InitialAlpha 1, RateDecreaseDivisor 2, MinDecreaseFactor 0, "
            "ClampTargetRateAfterTimeIncrease true; RdmaNic::CnpInterval "
            "--cnpInterval (default 0: a CNP per CE-marked packet)");
    }

    MapWindowKeys(cfg, s);
    MapOtherCcKeys(cfg, s);
}

} // namespace

/* The mapping (examples/hpcc-compat.cc's header comment lists it key by key). */
HpccScenarioSettings
HpccConfigMapper::Map(HpccConfigReader& cfg)
{
    Settings s;

    // --- files
    s.topologyFile = cfg.GetString("TOPOLOGY_FILE");
    MapKey(cfg, s, "TOPOLOGY_FILE", "read (HpccTopologyReader)");
    s.flowFile = cfg.GetString("FLOW_FILE");
    MapKey(cfg, s, "FLOW_FILE", "read (HpccFlowReader)");
    if (cfg.Has("FCT_OUTPUT_FILE"))
    {
        s.fctFile = cfg.GetString("FCT_OUTPUT_FILE");
    }
    MapKey(cfg, s, "FCT_OUTPUT_FILE", "written to --outDir (base name), the peer's format");
    if (cfg.Has("PFC_OUTPUT_FILE"))
    {
        s.pfcFile = cfg.GetString("PFC_OUTPUT_FILE");
    }
    MapKey(cfg, s, "PFC_OUTPUT_FILE", "written to --outDir (base name), the peer's format");

    // --- congestion control
    const uint64_t ccMode = cfg.Has("CC_MODE") ? cfg.GetUinteger("CC_MODE") : 1;
    if (ccMode != 1 && ccMode != 3 && ccMode != 7 && ccMode != 8)
    {
        cfg.Fail("CC_MODE",
                 "CC_MODE " + std::to_string(ccMode) +
                     (ccMode == 10 ? std::string(" (HPCC-PINT)") : std::string()) +
                     " is not supported; supported: 1 (DCQCN), 3 (HPCC), 7 (TIMELY), 8 "
                     "(DCTCP)");
    }
    s.ccMode = ccMode;
    s.ecn = cfg.Has("ENABLE_QCN") ? cfg.GetBoolean("ENABLE_QCN") : true;
    s.dcqcn = s.ecn && ccMode == 1;
    if (ccMode != 1)
    {
        MapKey(cfg,
               s,
               "ENABLE_QCN",
               std::string("ns3::RdmaSwitch::EcnEnabled ") + (s.ecn ? "true" : "false"));
        MapRateWindowCc(cfg, s);
    }
    else
    {
        MapDcqcn(cfg, s);
    }
    if (cfg.Has("RATE_BOUND") && !cfg.GetBoolean("RATE_BOUND"))
    {
        cfg.Fail("RATE_BOUND",
                 "RATE_BOUND 0 (send at line rate whatever the congestion control says) is "
                 "not supported; valid: 1");
    }
    MapKey(cfg, s, "RATE_BOUND", "queue pairs are paced at the congestion control's rate");

    // --- NIC
    if (cfg.Has("PACKET_PAYLOAD_SIZE"))
    {
        s.mtu = static_cast<uint32_t>(cfg.GetUinteger("PACKET_PAYLOAD_SIZE", 1, 4096));
    }
    MapKey(cfg, s, "PACKET_PAYLOAD_SIZE", "ns3::RdmaNic::Mtu " + std::to_string(s.mtu));
    {
        const uint64_t interval =
            cfg.Has("L2_ACK_INTERVAL") ? cfg.GetUinteger("L2_ACK_INTERVAL") : 0;
        if (interval == 0)
        {
            cfg.Fail("L2_ACK_INTERVAL",
                     std::string(cfg.Has("L2_ACK_INTERVAL") ? "" : "the peer's default is 0: ") +
                         "no acknowledgements at all is not supported by reliable connected "
                         "queue pairs; valid: bytes >= 1, e.g. 1 (an ACK per packet)");
        }
        s.ackInterval = 1;
        MapKey(cfg,
               s,
               "L2_ACK_INTERVAL",
               interval <= s.mtu
                   ? "ns3::RdmaNic::AckInterval 1 (an ACK per packet)"
                   : "ns3::RdmaNic::AckInterval 1: the peer re-arms its ACK milestone on every "
                     "packet (rdma-hw.cc ReceiveUdp), so it acknowledges every packet once the "
                     "first L2_ACK_INTERVAL bytes are in");
    }
    s.backToZero = cfg.Has("L2_BACK_TO_ZERO") && cfg.GetBoolean("L2_BACK_TO_ZERO");
    s.chunkSize = cfg.Has("L2_CHUNK_SIZE") ? cfg.GetUinteger("L2_CHUNK_SIZE", 0, 0xFFFFFFFF) : 0;
    if (s.backToZero)
    {
        if (s.chunkSize == 0)
        {
            cfg.Fail("L2_CHUNK_SIZE",
                     "L2_BACK_TO_ZERO 1 needs a chunk size (the peer divides by it); valid: "
                     "bytes >= 1");
        }
    }
    MapKey(cfg,
           s,
           "L2_BACK_TO_ZERO",
           s.backToZero ? "ns3::RdmaGoBackZeroLossRecovery (restarts the message: the peer's "
                          "restart of the L2 chunk while every flow fits in one chunk)"
                        : "ns3::RdmaGoBackNLossRecovery");
    MapKey(cfg,
           s,
           "L2_CHUNK_SIZE",
           s.backToZero ? "go-back-0 chunk of " + std::to_string(s.chunkSize) + " bytes"
                        : "accepted: with go-back-N and an ACK per packet the chunk has no effect "
                          "in the peer either");
    s.ackHighPriority = cfg.Has("ACK_HIGH_PRIO") && cfg.GetBoolean("ACK_HIGH_PRIO");
    MapKey(cfg,
           s,
           "ACK_HIGH_PRIO",
           std::string(s.ackHighPriority ? "accepted: " : "") +
               "ns3::RdmaNic::AckDscp -1 (ACKs in the data class) either way: the peer's switches "
               "queue ACKs with the data (third.cc never sets SwitchNode::AckHighPrio) and its "
               "NIC, like ours, sends queued ACKs before data; the key only sets the class that "
               "pauses the peer's ACK queue");

    // --- switches
    if (cfg.Has("BUFFER_SIZE"))
    {
        s.bufferBytes = cfg.GetUinteger("BUFFER_SIZE", 1, 1 << 20) * 1024 * 1024;
    }
    MapKey(cfg,
           s,
           "BUFFER_SIZE",
           "ns3::RdmaSwitchMmu::BufferSize " + std::to_string(s.bufferBytes) +
               " bytes (MB x 2^20)");
    {
        const bool dynamic =
            !cfg.Has("USE_DYNAMIC_PFC_THRESHOLD") || cfg.GetBoolean("USE_DYNAMIC_PFC_THRESHOLD");
        MapKey(cfg,
               s,
               "USE_DYNAMIC_PFC_THRESHOLD",
               dynamic ? "ns3::RdmaSwitchMmu::XoffThresholdMode Dynamic, Alpha 1/8 (the peer's)"
                       : "Dynamic, Alpha 1/8: the peer's switch ignores this key and always uses "
                         "the dynamic threshold");
    }
    const char* maps[] = {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"};
    std::map<uint64_t, double>* targets[] = {&s.kmin, &s.kmax, &s.pmax};
    for (int i = 0; i < 3; ++i)
    {
        if (cfg.Has(maps[i]))
        {
            *targets[i] = cfg.GetRateMap(maps[i]);
        }
        else if (s.ecn)
        {
            cfg.Fail(maps[i],
                     "required with ENABLE_QCN 1 (the peer asserts an entry for each link "
                     "rate); valid: '<n> <rate bit/s> <value> ...'");
        }
        MapKey(cfg,
               s,
               maps[i],
               !s.ecn  ? "checked; no effect without ECN (ENABLE_QCN 0)"
               : i < 2 ? std::string("ns3::RdmaSwitch::") + (i == 0 ? "EcnKmin" : "EcnKmax") +
                             " = value x 1000 bytes for the rate of the switch's ports"
                       : "ns3::RdmaSwitch::EcnPmax for the rate of the switch's ports");
    }
    if (s.ecn)
    {
        for (const auto& [r, k] : s.kmin)
        {
            if (s.kmax.count(r) && s.kmax.at(r) < k)
            {
                cfg.Fail("KMAX_MAP",
                         "Kmax " + std::to_string(s.kmax.at(r)) + " is below Kmin " +
                             std::to_string(k) + " for rate " + std::to_string(r) +
                             "; valid: KMAX >= KMIN");
            }
        }
        // Kmin/Kmax are KB (x 1000 bytes): above the buffer they could never be reached, and
        // a value like 1e17 would overflow the integer threshold.
        for (int m = 0; m < 2; ++m)
        {
            for (const auto& [r, k] : m == 0 ? s.kmin : s.kmax)
            {
                if (k * 1000 > static_cast<double>(s.bufferBytes))
                {
                    std::ostringstream v;
                    v << k;
                    cfg.Fail(m == 0 ? "KMIN_MAP" : "KMAX_MAP",
                             "value " + v.str() + " for rate " + std::to_string(r) +
                                 " is above the buffer (" + std::to_string(s.bufferBytes) +
                                 " bytes); valid: 0 .. " + std::to_string(s.bufferBytes / 1000) +
                                 " (KB)");
                }
            }
        }
        for (const auto& [r, p] : s.pmax)
        {
            if (p > 1)
            {
                cfg.Fail("PMAX_MAP",
                         "probability " + std::to_string(p) + " for rate " + std::to_string(r) +
                             " is above 1; valid: 0 .. 1");
            }
        }
    }

    // --- links
    if (cfg.Has("ERROR_RATE_PER_LINK"))
    {
        s.errorRate = cfg.GetDouble("ERROR_RATE_PER_LINK", 0, 1);
    }
    MapKey(cfg,
           s,
           "ERROR_RATE_PER_LINK",
           s.errorRate > 0 ? "RateErrorModel (packets) on links whose own error rate is 0"
                           : "no error model (0)");
    if (cfg.Has("LINK_DOWN"))
    {
        const uint64_t t = cfg.GetUinteger("LINK_DOWN", 0, UINT64_MAX, 0);
        cfg.GetUinteger("LINK_DOWN", 0, UINT64_MAX, 1);
        cfg.GetUinteger("LINK_DOWN", 0, UINT64_MAX, 2);
        if (t != 0)
        {
            cfg.Fail("LINK_DOWN",
                     "taking a link down is not supported yet; valid: LINK_DOWN 0 0 0 (no "
                     "link goes down)");
        }
    }
    MapKey(cfg, s, "LINK_DOWN", "no link goes down (time 0), as in the peer");

    // --- simulation and outputs this program does not produce
    if (cfg.Has("SIMULATOR_STOP_TIME"))
    {
        cfg.GetDouble("SIMULATOR_STOP_TIME", 0, 1e9);
        if (!HpccTopologyReader::ParseSeconds(cfg.GetString("SIMULATOR_STOP_TIME"), &s.stopTime))
        {
            cfg.Fail("SIMULATOR_STOP_TIME", "valid: a non-negative decimal number of seconds");
        }
    }
    MapKey(cfg,
           s,
           "SIMULATOR_STOP_TIME",
           "Simulator::Stop at " + std::to_string(s.stopTime.GetSeconds()) + " s");
    const bool trace = !cfg.Has("ENABLE_TRACE") || cfg.GetUinteger("ENABLE_TRACE", 0, 1) == 1;
    MapKey(cfg,
           s,
           "ENABLE_TRACE",
           trace ? "accepted; the peer's packet trace (mix.tr) is not produced"
                 : "no packet trace, as configured");
    MapKey(cfg, s, "TRACE_FILE", "not read (it lists the nodes of the peer's packet trace)");
    if (trace)
    {
        s.notProduced.push_back(
            (cfg.Has("TRACE_OUTPUT_FILE") ? cfg.GetString("TRACE_OUTPUT_FILE") : "the trace") +
            " (ENABLE_TRACE 1: the peer's binary packet trace)");
    }
    MapKey(cfg,
           s,
           "TRACE_OUTPUT_FILE",
           trace ? "not produced (see the summary)" : "not produced (ENABLE_TRACE 0)");
    if (cfg.Has("QLEN_MON_START"))
    {
        cfg.GetUinteger("QLEN_MON_START");
    }
    if (cfg.Has("QLEN_MON_END"))
    {
        cfg.GetUinteger("QLEN_MON_END");
    }
    if (cfg.Has("QLEN_MON_FILE"))
    {
        s.notProduced.push_back(cfg.GetString("QLEN_MON_FILE") +
                                " (QLEN_MON_*: the peer's queue-length histograms)");
    }
    MapKey(cfg, s, "QLEN_MON_FILE", "not produced (see the summary)");
    MapKey(cfg, s, "QLEN_MON_START", "accepted, queue monitor not produced");
    MapKey(cfg, s, "QLEN_MON_END", "accepted, queue monitor not produced");
    if (cfg.Has("PAUSE_TIME"))
    {
        cfg.GetDouble("PAUSE_TIME", 0, 1e12);
    }
    MapKey(cfg,
           s,
           "PAUSE_TIME",
           "accepted, no effect: the peer's pause lasts until resumed; ours is refreshed "
           "(quanta 0xFFFF) until XON");
    if (cfg.Has("DATA_RATE"))
    {
        cfg.GetDataRate("DATA_RATE");
    }
    MapKey(cfg, s, "DATA_RATE", "accepted, unused (the topology file sets every link's rate)");
    if (cfg.Has("LINK_DELAY"))
    {
        Time t;
        if (!HpccTopologyReader::ParseTime(cfg.GetString("LINK_DELAY"), &t))
        {
            cfg.Fail("LINK_DELAY", "valid: a time such as 0.001ms");
        }
    }
    MapKey(cfg, s, "LINK_DELAY", "accepted, unused (the topology file sets every link's delay)");
    return s;
}

} // namespace ns3
