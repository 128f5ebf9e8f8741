/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Runs a scenario of the HPCC simulator family (HPCC, ConWeave, SimAI's ns-3,
 * ns3-datacenter) unchanged: its key/value configuration file, topology file and flow file
 * (HpccConfigReader, HpccTopologyReader, HpccFlowReader), and writes `fct.txt` and
 * `pfc.txt` in that simulator's formats, so that results can be compared line by line.
 *
 *   hpcc-compat --config=path/to/config.txt [--dir=D] [--outDir=results/hpcc-compat]
 *
 * TOPOLOGY_FILE and FLOW_FILE are relative to --dir (default: the configuration file's
 * directory). The output files (the base names of FCT_OUTPUT_FILE and PFC_OUTPUT_FILE) go
 * to --outDir.
 *
 * Every key of the configuration is mapped onto the rdma module's attributes, or accepted
 * because it has no effect in the peer simulator for this configuration either (the
 * summary says so), or refused with an error naming the file, line, key and value:
 * nothing is silently ignored. The mapping (doc/topology.rst has the full table):
 *  - CC_MODE 3 (HPCC), 7 (TIMELY), 8 (DCTCP): ns3::HpccCongestionControl,
 *    ns3::TimelyCongestionControl, ns3::DctcpCongestionControl (MapRateWindowCc names
 *    each key's attribute: RATE_AI, RATE_HAI, MIN_RATE, U_TARGET, MI_THRESH, FAST_REACT,
 *    INT_MULTI, DCTCP_RATE_AI, EWMA_GAIN).
 *  - HAS_WIN, VAR_WIN, GLOBAL_T (every mode; MapWindowKeys): the congestion control's
 *    UseWindow and VariableWindow (DCQCN's window variants included: a cap of one BDP on
 *    the bytes in flight, scaled by rate / line rate with VAR_WIN 1); with a window (or
 *    HPCC) the queue pairs' BaseRtt is the peer's T, the topology's largest base RTT
 *    (GLOBAL_T 1) or each flow's (source, destination) pair's (GLOBAL_T 0).
 *  - CC_MODE 1 (DCQCN) with ENABLE_QCN 1:
 *    ns3::DcqcnCongestionControl with G = EWMA_GAIN, AlphaUpdateInterval =
 *    ALPHA_RESUME_INTERVAL us, RateDecreaseInterval = RATE_DECREASE_INTERVAL us,
 *    RateIncreaseInterval = RP_TIMER us, FastRecoverySteps = FAST_RECOVERY_TIMES,
 *    AdditiveIncreaseRate = RATE_AI, HyperIncreaseRate = RATE_HAI, MinRate = MIN_RATE,
 *    ClampTargetRate = CLAMP_TARGET_RATE, ByteCounter = 0 (the peer has none); switches
 *    mark ECN with EcnKmin/EcnKmax = KMIN_MAP/KMAX_MAP x 1000 bytes and EcnPmax =
 *    PMAX_MAP for the rate of the switch's ports; RdmaNic::CnpInterval 0 (the peer flags
 *    the ACK of every CE-marked packet). With ENABLE_QCN 0 nothing is ever marked, DCQCN
 *    stays at line rate, and the run uses ns3::RdmaFixedRateCongestionControl (identical).
 *  - PACKET_PAYLOAD_SIZE -> RdmaNic::Mtu; L2_ACK_INTERVAL -> RdmaNic::AckInterval;
 *    ACK_HIGH_PRIO -> RdmaNic::AckDscp -1 (ACKs in the data class: the peer's switches queue
 *    them with the data whatever the key says); CNPs in the flows' data class too
 *    (RdmaNic::CnpDscp; the peer's CNP is a flag in the ACK); L2_BACK_TO_ZERO -> go-back-N (0) or
 *    ns3::RdmaGoBackZeroLossRecovery (1).
 *  - BUFFER_SIZE MB -> RdmaSwitchMmu::BufferSize; USE_DYNAMIC_PFC_THRESHOLD -> dynamic
 *    threshold, Alpha 1/8; the peer's 4 KB reserve, 3 KB resume offset and headroom
 *    3 x rate x delay per port -> ReservedPerQueue, XonOffset, Headroom.
 *  - ERROR_RATE_PER_LINK -> a receive error model on links whose own error rate is 0.
 *  - SIMULATOR_STOP_TIME -> Simulator::Stop.
 *
 * Node ids are those of the topology file; host i has the peer's address
 * 11.(i/256).(i%256).1, and the flows from one host to one destination use UDP source ports
 * 10000, 10001, ... in file order, as the peer numbers them (scratch/third.cc keeps a
 * counter per (source, destination) pair), so that the fct.txt lines and the ECMP paths
 * (the source port is part of the hashed 5-tuple) match.
 *
 * --framing chooses what a packet costs on the wire: `roce` (default) is real RoCEv2 on
 * Ethernet, 82 bytes per data packet besides the payload (plus the 16-byte RETH once);
 * `hpcc-sim` charges the bytes of the peer's packets (ns3::RdmaNetDevice::Framing
 * HpccSimulator: 36 per data packet with DCQCN and DCTCP, 44 with TIMELY's timestamp, 48
 * per ACK, no CNP, 31 per PFC frame; HPCC's packets carry this module's 44-byte INT area),
 * so that differences that remain are model differences, not framing differences.
 * --ecmp chooses the flow hash of the switches: `module` (default; seeded per replication,
 * --run) or `hpcc-sim` (ns3::RdmaHpccEcmpLoadBalancer: the peer's MurmurHash3 over source,
 * destination and ports, seeded with the switch's node id), so that data packets take the
 * peer's paths.
 *
 * Output formats (as the peer writes them):
 *  - fct.txt, one line per completed flow, in completion order:
 *    `sip dip sport dport size start_ns fct_ns standalone_fct_ns` (addresses in hex,
 *    %08x). dport is the flow file's (on the wire RoCEv2 uses 4791); standalone_fct is the
 *    peer's formula base_rtt + total_bytes x 8 / bottleneck_rate with this model's
 *    per-packet wire overhead (82 bytes, plus the 16-byte RETH once) or, with
 *    --framing=hpcc-sim, the peer's own (48 bytes: CustomHeader::GetStaticWholeHeaderSize
 *    without INT, which counts a 14-byte Ethernet header where its wire has PPP's 2).
 *  - pfc.txt, one line per PFC frame received: `time_ns node_id node_type if_index type`
 *    with node_type 0 host / 1 switch, if_index the device index + 1 (the peer's device 0
 *    is the loopback), type 1 pause / 0 resume. This model also sends pause refreshes
 *    while congestion lasts; they appear as further type-1 lines.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <unordered_map>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("HpccCompat");

namespace
{

/// Per-packet wire bytes of a RoCEv2 WRITE packet besides the payload: Ethernet 14, IPv4
/// 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble and SFD 8, inter-frame gap 12.
constexpr uint64_t WIRE_OVERHEAD = RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES;
/// The RETH of the first packet of a WRITE.
constexpr uint64_t RETH_BYTES = 16;
/// The peer's per-packet bytes in its standalone FCT (scratch/third.cc qp_finish:
/// CustomHeader::GetStaticWholeHeaderSize() - IntHeader::GetStaticSize(): Ethernet 14,
/// IPv4 20, UDP 8, SeqTs 6).
constexpr uint64_t PEER_STANDALONE_OVERHEAD = 48;

/// Everything the configuration file says, mapped onto this module.
struct Settings
{
    std::string topologyFile;
    std::string flowFile;
    std::string fctFile{"fct.txt"};
    std::string pfcFile{"pfc.txt"};
    bool ecn{true};
    bool dcqcn{true};
    uint32_t mtu{1000};
    uint32_t ackInterval{1};
    bool ackHighPriority{false};
    bool backToZero{false};
    uint64_t chunkSize{0};
    uint64_t bufferBytes{16ULL * 1024 * 1024};
    double errorRate{0};
    Time stopTime{Seconds(3.01)};
    std::map<uint64_t, double> kmin;
    std::map<uint64_t, double> kmax;
    std::map<uint64_t, double> pmax;
    /// DCQCN attribute name -> value (as text, with units)
    std::vector<std::pair<std::string, std::string>> dcqcnAttributes;
    /// CC_MODE: 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP
    uint64_t ccMode{1};
    /// CC_MODE 3/7/8: the congestion control's TypeId and attributes (as text, with units)
    std::string ccTypeId;
    std::vector<std::pair<std::string, std::string>> ccAttributes;
    /// The congestion control needs the peer's base RTT T (GLOBAL_T 1: the largest RTT)
    bool ccNeedsBaseRtt{false};
    /// GLOBAL_T 0: T (and the window) of each flow from its (source, destination) pair
    bool perPairBaseRtt{false};
    /// HAS_WIN 1: the congestion control caps the bytes in flight at T x rate
    bool window{false};
    /// One line per key: what it became.
    std::vector<std::string> mapping;
    /// Outputs of the peer this run does not produce.
    std::vector<std::string> notProduced;
};

/// Map one key: record the line of the mapping report and mark the key used.
void
Map(HpccConfigReader& cfg, Settings& s, const std::string& key, const std::string& effect)
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
        Map(cfg, s, k.key, std::string("accepted, ") + k.reason);
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
    Map(cfg,
        s,
        "HAS_WIN",
        typeId + (hasWindow ? "::UseWindow true (bytes in flight < W = line rate x T)"
                            : "::UseWindow false"));
    Map(cfg,
        s,
        "VAR_WIN",
        !hasWindow  ? std::string("accepted, only used with HAS_WIN 1: no effect with HAS_WIN 0")
        : mode == 3 ? std::string("1: HPCC's W = R x T")
                    : typeId + "::VariableWindow " +
                          (varWin ? "true (W x rate / line rate)" : "false (the full BDP)"));
    Map(cfg,
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
    Map(cfg, s, "CC_MODE", s.ccTypeId + " (RdmaHelper::SetCongestionControl)");
    s.mapping.push_back("  (implied)                  ns3::RdmaNic::CnpEnabled false: no CNP "
                        "frames (the peer's CE flag rides the ACK; here the ACK's ECN echo)");
    auto attribute = [&](const char* key, const char* attr, const std::string& value) {
        s.ccAttributes.emplace_back(attr, value);
        Map(cfg, s, key, s.ccTypeId + "::" + attr + " " + value);
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
        Map(cfg, s, key, "accepted, " + why + ": no effect under " + name);
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
        Map(cfg, s, key, std::string("accepted, DCQCN only (CC_MODE 1): no effect under ") + name);
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
        Map(cfg, s, "MULTI_RATE", "0: one rate from the most utilised hop (Algorithm 1)");
        if (cfg.Has("SAMPLE_FEEDBACK") && cfg.GetBoolean("SAMPLE_FEEDBACK"))
        {
            cfg.Fail("SAMPLE_FEEDBACK",
                     "sampled feedback (skipping hops with an empty queue) is not supported; "
                     "valid: SAMPLE_FEEDBACK 0");
        }
        Map(cfg, s, "SAMPLE_FEEDBACK", "0: every hop record is used");
        const uint64_t multi = cfg.Has("INT_MULTI") ? cfg.GetUinteger("INT_MULTI", 1, 255) : 1;
        s.ccAttributes.emplace_back("IntMultiplier", std::to_string(multi));
        Map(cfg,
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
    Map(cfg,
        s,
        "CC_MODE",
        s.dcqcn  ? "ns3::DcqcnCongestionControl (RdmaHelper::SetCongestionControl)"
        : window ? "DCQCN without ECN marks never leaves line rate: ns3::DcqcnCongestionControl "
                   "with its default parameters (never cut) and the window (HAS_WIN 1)"
                 : "DCQCN without ECN marks never leaves line rate: "
                   "ns3::RdmaFixedRateCongestionControl at line rate (identical)");
    Map(cfg,
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
        Map(cfg,
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
        Map(cfg,
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
        Map(cfg,
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
        Map(cfg,
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
        Map(cfg,
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

/// Turn the configuration into Settings, or stop with an error naming the key.
Settings
MapConfig(HpccConfigReader& cfg)
{
    Settings s;

    // --- files
    s.topologyFile = cfg.GetString("TOPOLOGY_FILE");
    Map(cfg, s, "TOPOLOGY_FILE", "read (HpccTopologyReader)");
    s.flowFile = cfg.GetString("FLOW_FILE");
    Map(cfg, s, "FLOW_FILE", "read (HpccFlowReader)");
    if (cfg.Has("FCT_OUTPUT_FILE"))
    {
        s.fctFile = cfg.GetString("FCT_OUTPUT_FILE");
    }
    Map(cfg, s, "FCT_OUTPUT_FILE", "written to --outDir (base name), the peer's format");
    if (cfg.Has("PFC_OUTPUT_FILE"))
    {
        s.pfcFile = cfg.GetString("PFC_OUTPUT_FILE");
    }
    Map(cfg, s, "PFC_OUTPUT_FILE", "written to --outDir (base name), the peer's format");

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
        Map(cfg,
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
    Map(cfg, s, "RATE_BOUND", "queue pairs are paced at the congestion control's rate");

    // --- NIC
    if (cfg.Has("PACKET_PAYLOAD_SIZE"))
    {
        s.mtu = static_cast<uint32_t>(cfg.GetUinteger("PACKET_PAYLOAD_SIZE", 1, 4096));
    }
    Map(cfg, s, "PACKET_PAYLOAD_SIZE", "ns3::RdmaNic::Mtu " + std::to_string(s.mtu));
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
        Map(cfg,
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
    Map(cfg,
        s,
        "L2_BACK_TO_ZERO",
        s.backToZero ? "ns3::RdmaGoBackZeroLossRecovery (restarts the message: the peer's "
                       "restart of the L2 chunk while every flow fits in one chunk)"
                     : "ns3::RdmaGoBackNLossRecovery");
    Map(cfg,
        s,
        "L2_CHUNK_SIZE",
        s.backToZero ? "go-back-0 chunk of " + std::to_string(s.chunkSize) + " bytes"
                     : "accepted: with go-back-N and an ACK per packet the chunk has no effect "
                       "in the peer either");
    s.ackHighPriority = cfg.Has("ACK_HIGH_PRIO") && cfg.GetBoolean("ACK_HIGH_PRIO");
    Map(cfg,
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
    Map(cfg,
        s,
        "BUFFER_SIZE",
        "ns3::RdmaSwitchMmu::BufferSize " + std::to_string(s.bufferBytes) + " bytes (MB x 2^20)");
    {
        const bool dynamic =
            !cfg.Has("USE_DYNAMIC_PFC_THRESHOLD") || cfg.GetBoolean("USE_DYNAMIC_PFC_THRESHOLD");
        Map(cfg,
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
        Map(cfg,
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
    Map(cfg,
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
    Map(cfg, s, "LINK_DOWN", "no link goes down (time 0), as in the peer");

    // --- simulation and outputs this program does not produce
    if (cfg.Has("SIMULATOR_STOP_TIME"))
    {
        cfg.GetDouble("SIMULATOR_STOP_TIME", 0, 1e9);
        if (!HpccTopologyReader::ParseSeconds(cfg.GetString("SIMULATOR_STOP_TIME"), &s.stopTime))
        {
            cfg.Fail("SIMULATOR_STOP_TIME", "valid: a non-negative decimal number of seconds");
        }
    }
    Map(cfg,
        s,
        "SIMULATOR_STOP_TIME",
        "Simulator::Stop at " + std::to_string(s.stopTime.GetSeconds()) + " s");
    const bool trace = !cfg.Has("ENABLE_TRACE") || cfg.GetUinteger("ENABLE_TRACE", 0, 1) == 1;
    Map(cfg,
        s,
        "ENABLE_TRACE",
        trace ? "accepted; the peer's packet trace (mix.tr) is not produced"
              : "no packet trace, as configured");
    Map(cfg, s, "TRACE_FILE", "not read (it lists the nodes of the peer's packet trace)");
    if (trace)
    {
        s.notProduced.push_back(
            (cfg.Has("TRACE_OUTPUT_FILE") ? cfg.GetString("TRACE_OUTPUT_FILE") : "the trace") +
            " (ENABLE_TRACE 1: the peer's binary packet trace)");
    }
    Map(cfg,
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
    Map(cfg, s, "QLEN_MON_FILE", "not produced (see the summary)");
    Map(cfg, s, "QLEN_MON_START", "accepted, queue monitor not produced");
    Map(cfg, s, "QLEN_MON_END", "accepted, queue monitor not produced");
    if (cfg.Has("PAUSE_TIME"))
    {
        cfg.GetDouble("PAUSE_TIME", 0, 1e12);
    }
    Map(cfg,
        s,
        "PAUSE_TIME",
        "accepted, no effect: the peer's pause lasts until resumed; ours is refreshed "
        "(quanta 0xFFFF) until XON");
    if (cfg.Has("DATA_RATE"))
    {
        cfg.GetDataRate("DATA_RATE");
    }
    Map(cfg, s, "DATA_RATE", "accepted, unused (the topology file sets every link's rate)");
    if (cfg.Has("LINK_DELAY"))
    {
        Time t;
        if (!HpccTopologyReader::ParseTime(cfg.GetString("LINK_DELAY"), &t))
        {
            cfg.Fail("LINK_DELAY", "valid: a time such as 0.001ms");
        }
    }
    Map(cfg, s, "LINK_DELAY", "accepted, unused (the topology file sets every link's delay)");
    return s;
}

/// The peer's address of host i: 11.(i/256).(i%256).1.
Ipv4Address
HpccAddress(uint32_t id)
{
    return Ipv4Address(0x0b000001u + (id / 256) * 0x00010000u + (id % 256) * 0x00000100u);
}

/// Path figures of the peer's standalone FCT, from a breadth-first search rooted at a host.
struct PathInfo
{
    uint64_t delayNs{0};   //!< one-way propagation delay
    uint64_t txDelayNs{0}; //!< sum over hops of one payload's serialization
    uint64_t bw{std::numeric_limits<uint64_t>::max()}; //!< bottleneck rate, bit/s
    bool reached{false};
};

/// Compute PathInfo of every node toward a host, as the peer's CalculateRoute does.
std::vector<PathInfo>
PathsToward(const HpccTopologyReader& topo,
            const std::vector<std::vector<uint32_t>>& adjacency,
            uint32_t host,
            uint32_t payload)
{
    std::vector<PathInfo> info(topo.GetNNodes());
    std::vector<uint32_t> queue{host};
    info[host].reached = true;
    for (std::size_t i = 0; i < queue.size(); ++i)
    {
        const uint32_t now = queue[i];
        for (uint32_t linkIndex : adjacency[now])
        {
            const HpccLink& l = topo.GetLinks()[linkIndex];
            const uint32_t next = l.src == now ? l.dst : l.src;
            if (info[next].reached)
            {
                continue;
            }
            const uint64_t bw = l.rate.GetBitRate();
            info[next].reached = true;
            info[next].delayNs = info[now].delayNs + l.delay.GetNanoSeconds();
            info[next].txDelayNs = info[now].txDelayNs + payload * 8000000000ULL / bw;
            info[next].bw = std::min(info[now].bw, bw);
            if (topo.IsSwitch(next))
            {
                queue.push_back(next);
            }
        }
    }
    return info;
}

/// A flow of the flow file and what happened to it.
struct FlowState
{
    const HpccFlow* flow{nullptr};
    uint16_t sport{0};
    Ptr<RdmaQueuePair> qp;
    Time finish;
    bool done{false};
    uint64_t standaloneNs{0};
};

/// What one device records of received PFC frames.
struct PfcProbe
{
    std::ofstream* out{nullptr};
    uint32_t nodeId{0};
    uint32_t nodeType{0};
    uint32_t ifIndex{0};
    Ptr<RdmaNetDevice> device;
    std::array<Time, 8> pausedUntil{};
    uint64_t* pauses{nullptr};
    uint64_t* refreshes{nullptr};
    uint64_t* resumes{nullptr};
};

void
OnPfcRx(PfcProbe* p, uint8_t cls, uint16_t quanta)
{
    const Time now = Simulator::Now();
    *p->out << now.GetNanoSeconds() << ' ' << p->nodeId << ' ' << p->nodeType << ' ' << p->ifIndex
            << ' ' << (quanta > 0 ? 1 : 0) << '\n';
    if (quanta == 0)
    {
        ++*p->resumes;
        p->pausedUntil[cls] = now;
        return;
    }
    if (now < p->pausedUntil[cls])
    {
        ++*p->refreshes;
    }
    else
    {
        ++*p->pauses;
    }
    p->pausedUntil[cls] = now + p->device->GetQuantumTime() * quanta;
}

/// State shared by the flow events.
struct Run
{
    RdmaHelper* rdma{nullptr};
    const HpccTopologyReader* topo{nullptr};
    NodeContainer nodes;
    std::vector<std::vector<uint32_t>> adjacency;
    std::unordered_map<uint32_t, std::vector<PathInfo>> pathCache;
    std::vector<FlowState> flows;
    uint32_t mtu{1000};
    bool peerFraming{false};    //!< --framing=hpcc-sim
    bool perPairBaseRtt{false}; //!< GLOBAL_T 0: each queue pair's BaseRtt is its pair's
    std::ofstream fct;
    uint32_t remaining{0};
};

/// The path of a flow, as the peer's CalculateRoute finds it (cached per destination).
const PathInfo&
FlowPath(Run* run, const HpccFlow& f)
{
    auto it = run->pathCache.find(f.dst);
    if (it == run->pathCache.end())
    {
        if (run->pathCache.size() > 64)
        {
            run->pathCache.clear(); // bounded memory on large topologies
        }
        it = run->pathCache.emplace(f.dst, PathsToward(*run->topo, run->adjacency, f.dst, run->mtu))
                 .first;
    }
    return it->second[f.src];
}

/// The peer's pairRtt: 2 x the path's propagation delay + one payload's serialization per hop.
uint64_t
PairBaseRttNs(const PathInfo& p)
{
    return 2 * p.delayNs + p.txDelayNs;
}

uint64_t
StandaloneFctNs(Run* run, const HpccFlow& f)
{
    const PathInfo& p = FlowPath(run, f);
    const uint64_t baseRtt = PairBaseRttNs(p);
    const uint64_t packets = (f.size + run->mtu - 1) / run->mtu;
    const uint64_t totalBytes = run->peerFraming ? f.size + packets * PEER_STANDALONE_OVERHEAD
                                                 : f.size + packets * WIRE_OVERHEAD + RETH_BYTES;
    return baseRtt + static_cast<uint64_t>(static_cast<long double>(totalBytes) * 8e9L / p.bw);
}

void
OnFlowComplete(Run* run, uint32_t index, const RdmaCompletion& c)
{
    FlowState& s = run->flows[index];
    s.finish = c.completionTime;
    s.done = true;
    const HpccFlow& f = *s.flow;
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "%08x %08x %u %u %llu %lld %lld %llu\n",
                  HpccAddress(f.src).Get(),
                  HpccAddress(f.dst).Get(),
                  static_cast<unsigned>(s.sport),
                  static_cast<unsigned>(f.dport),
                  static_cast<unsigned long long>(f.size),
                  static_cast<long long>(f.start.GetNanoSeconds()),
                  static_cast<long long>((s.finish - f.start).GetNanoSeconds()),
                  static_cast<unsigned long long>(s.standaloneNs));
    run->fct << line;
    if (--run->remaining == 0)
    {
        Simulator::Stop();
    }
}

/// Start flow `index`: connect a queue pair pair and post the WRITE (node context: src).
void
StartFlow(Run* run, uint32_t index)
{
    FlowState& s = run->flows[index];
    const HpccFlow& f = *s.flow;
    // GLOBAL_T 0: the peer gives each queue pair its own pair's base RTT and BDP.
    auto [qp, peer] =
        run->perPairBaseRtt
            ? run->rdma->Connect(run->nodes.Get(f.src),
                                 run->nodes.Get(f.dst),
                                 "BaseRtt",
                                 TimeValue(NanoSeconds(PairBaseRttNs(FlowPath(run, f)))))
            : run->rdma->Connect(run->nodes.Get(f.src), run->nodes.Get(f.dst));
    const uint32_t dscp = (static_cast<uint32_t>(f.priorityGroup) << 3) | 2;
    qp->SetAttribute("SourcePort", UintegerValue(s.sport));
    qp->SetAttribute("Dscp", UintegerValue(dscp));
    peer->SetAttribute("Dscp", UintegerValue(dscp));
    qp->SetSendCompletionCallback(MakeBoundCallback(&OnFlowComplete, run, index));
    s.qp = qp;
    s.standaloneNs = StandaloneFctNs(run, f);
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = index;
    wr.length = f.size;
    wr.remoteAddress = 0x1000;
    qp->PostSend(wr);
}

/// \return path relative to dir unless absolute
std::string
Resolve(const std::string& dir, const std::string& path)
{
    if (path.empty() || path[0] == '/' || dir.empty())
    {
        return path;
    }
    return dir + "/" + path;
}

/// \return the last component of a path
std::string
BaseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool
FileExists(const std::string& path)
{
    std::error_code ec;
    return std::filesystem::exists(path, ec);
}

} // namespace

/**
 * The peer's T with GLOBAL_T 1 (third.cc): the largest base RTT over host pairs, each 2 x
 * the path's propagation delay plus one payload's serialization per hop; and its maxBdp,
 * the largest RTT x bottleneck rate / 8 over host pairs (in its integer arithmetic).
 */
Time
LargestBaseRtt(const HpccTopologyReader& topo, uint32_t payload, uint64_t* maxBdp = nullptr)
{
    std::vector<std::vector<uint32_t>> adjacency(topo.GetNNodes());
    for (uint32_t l = 0; l < topo.GetLinks().size(); ++l)
    {
        adjacency[topo.GetLinks()[l].src].push_back(l);
        adjacency[topo.GetLinks()[l].dst].push_back(l);
    }
    uint64_t largest = 0;
    uint64_t largestBdp = 0;
    for (uint32_t h = 0; h < topo.GetNNodes(); ++h)
    {
        if (topo.IsSwitch(h))
        {
            continue;
        }
        const std::vector<PathInfo> paths = PathsToward(topo, adjacency, h, payload);
        for (uint32_t src = 0; src < topo.GetNNodes(); ++src)
        {
            if (!topo.IsSwitch(src) && paths[src].reached && src != h)
            {
                const uint64_t rtt = PairBaseRttNs(paths[src]);
                largest = std::max(largest, rtt);
                largestBdp = std::max(largestBdp, rtt * paths[src].bw / 1000000000 / 8);
            }
        }
    }
    if (maxBdp)
    {
        *maxBdp = largestBdp;
    }
    return NanoSeconds(largest);
}

/**
 * HAS_WIN 1: the peer's window of a flow is maxBdp (GLOBAL_T 1) or its pair's RTT x
 * bottleneck rate / 8 (GLOBAL_T 0); the congestion controls here take line rate x BaseRtt
 * (RdmaCongestionControl::BdpWindow), the line rate being the NIC's. The two agree unless a
 * path's bottleneck is slower than the sender's NIC: then refuse, naming the flow and both
 * windows.
 */
void
CheckWindowsArePeers(const HpccConfigReader& cfg,
                     const Settings& s,
                     const HpccTopologyReader& topo,
                     const HpccFlowReader& flows)
{
    std::vector<std::vector<uint32_t>> adjacency(topo.GetNNodes());
    std::vector<uint64_t> nicRate(topo.GetNNodes(), 0);
    for (uint32_t l = 0; l < topo.GetLinks().size(); ++l)
    {
        const HpccLink& link = topo.GetLinks()[l];
        adjacency[link.src].push_back(l);
        adjacency[link.dst].push_back(l);
        for (uint32_t end : {link.src, link.dst})
        {
            if (!topo.IsSwitch(end) && nicRate[end] == 0)
            {
                nicRate[end] = link.rate.GetBitRate(); // the NIC's first port
            }
        }
    }
    uint64_t maxBdp = 0;
    const uint64_t maxRtt = LargestBaseRtt(topo, s.mtu, &maxBdp).GetNanoSeconds();
    std::map<uint32_t, std::vector<PathInfo>> paths;
    for (uint32_t i = 0; i < flows.GetFlows().size(); ++i)
    {
        const HpccFlow& f = flows.GetFlows()[i];
        uint64_t rtt = maxRtt;
        uint64_t peer = maxBdp;
        if (s.perPairBaseRtt)
        {
            auto it = paths.find(f.dst);
            if (it == paths.end())
            {
                it = paths.emplace(f.dst, PathsToward(topo, adjacency, f.dst, s.mtu)).first;
            }
            const PathInfo& p = it->second[f.src];
            rtt = PairBaseRttNs(p);
            peer = rtt * p.bw / 1000000000 / 8;
        }
        const uint64_t ours = static_cast<uint64_t>(static_cast<unsigned __int128>(nicRate[f.src]) *
                                                    rtt / 8000000000ULL);
        if (ours != peer)
        {
            cfg.Fail("HAS_WIN",
                     "flow " + std::to_string(i) + " (host " + std::to_string(f.src) + " -> " +
                         std::to_string(f.dst) + "): the peer's window is " + std::to_string(peer) +
                         " bytes (T x the bottleneck rate), this " + "module's would be " +
                         std::to_string(ours) + " (T x the NIC's line rate " +
                         std::to_string(nicRate[f.src]) +
                         " bit/s); valid: HAS_WIN 0, or paths whose bottleneck is the sender's "
                         "NIC rate");
        }
    }
}

/// CC_MODE 3/7/8: the congestion control MapRateWindowCc chose.
void
InstallRateWindowCc(RdmaHelper& rdma, const Settings& s)
{
    for (const auto& [attribute, value] : s.ccAttributes)
    {
        // As text with units: ns-3 converts each to its attribute's type and stops naming
        // the attribute if it does not exist.
        Config::SetDefault(s.ccTypeId + "::" + attribute, StringValue(value));
    }
    rdma.SetCongestionControl(s.ccTypeId);
    if (s.ccMode == 3)
    {
        // HPCC's switches write a hop record into every data packet that carries the area.
        rdma.SetSwitchAttribute("Telemetry", BooleanValue(true));
    }
}

/// GLOBAL_T 1: every queue pair's BaseRtt is the peer's T, the largest base RTT.
void
InstallBaseRtt(RdmaHelper& rdma, const Settings& s, const HpccTopologyReader& topo)
{
    const Time t = LargestBaseRtt(topo, s.mtu);
    std::cout << "  base RTT T (GLOBAL_T 1, the largest of the topology): " << t.GetNanoSeconds()
              << " ns, BDP "
              << uint64_t(
                     static_cast<unsigned __int128>(topo.GetLinks().front().rate.GetBitRate()) *
                     t.GetNanoSeconds() / 8000000000ULL)
              << " bytes\n";
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(t));
}

/// Install the NICs: the peer's addresses, MTU, ACKs, congestion control, loss recovery.
void
InstallNics(RdmaHelper& rdma,
            const Settings& s,
            const HpccTopologyReader& topo,
            const NodeContainer& nodes,
            Time cnpInterval)
{
    rdma.SetNicAttribute("Mtu", UintegerValue(s.mtu));
    rdma.SetNicAttribute("AckInterval", UintegerValue(s.ackInterval));
    rdma.SetNicAttribute("AckDscp", IntegerValue(-1));
    rdma.SetNicAttribute("CnpInterval", TimeValue(cnpInterval));
    // The peer's CNP is a flag in the ACK that only its DCQCN reads; TIMELY, DCTCP and HPCC
    // get the CE mark (DCTCP) through the ACK's ECN echo and no CNP frame exists.
    rdma.SetNicAttribute("CnpEnabled", BooleanValue(s.ccMode == 1));
    if (!s.ccTypeId.empty())
    {
        InstallRateWindowCc(rdma, s);
    }
    else if (s.dcqcn)
    {
        std::map<std::string, std::string> a(s.dcqcnAttributes.begin(), s.dcqcnAttributes.end());
        // Values as text (with units): ns-3 converts them to each attribute's type and
        // stops naming the attribute if it does not exist.
        rdma.SetCongestionControl("ns3::DcqcnCongestionControl",
                                  "G",
                                  StringValue(a.at("G")),
                                  "AlphaUpdateInterval",
                                  StringValue(a.at("AlphaUpdateInterval")),
                                  "RateDecreaseInterval",
                                  StringValue(a.at("RateDecreaseInterval")),
                                  "RateIncreaseInterval",
                                  StringValue(a.at("RateIncreaseInterval")),
                                  "FastRecoverySteps",
                                  StringValue(a.at("FastRecoverySteps")),
                                  "AdditiveIncreaseRate",
                                  StringValue(a.at("AdditiveIncreaseRate")),
                                  "HyperIncreaseRate",
                                  StringValue(a.at("HyperIncreaseRate")),
                                  "MinRate",
                                  StringValue(a.at("MinRate")),
                                  "ClampTargetRate",
                                  StringValue(a.at("ClampTargetRate")),
                                  "ByteCounter",
                                  StringValue(a.at("ByteCounter")),
                                  // The peer's DCQCN (rdma-hw.cc, "Mellanox's version"):
                                  // alpha sampled once per period from the first CNP, alpha
                                  // 1 at the first CNP, RC (1 - alpha / 2) down to MinRate.
                                  "AlphaUpdateMode",
                                  StringValue("Periodic"),
                                  "InitialAlpha",
                                  StringValue("1"),
                                  "RateDecreaseDivisor",
                                  StringValue("2"),
                                  "MinDecreaseFactor",
                                  StringValue("0"),
                                  "ClampTargetRateAfterTimeIncrease",
                                  StringValue("true"));
    }
    if (s.dcqcn || (s.ccTypeId.empty() && s.window))
    {
        // HAS_WIN and VAR_WIN (without ECN: DCQCN at line rate, with the window). The peer's T
        // comes with the queue pairs' BaseRtt (InstallBaseRtt, StartFlow).
        std::map<std::string, std::string> a(s.dcqcnAttributes.begin(), s.dcqcnAttributes.end());
        rdma.SetCongestionControl("ns3::DcqcnCongestionControl",
                                  "UseWindow",
                                  StringValue(a.at("UseWindow")),
                                  "VariableWindow",
                                  StringValue(a.at("VariableWindow")));
    }
    else if (s.ccTypeId.empty())
    {
        rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    }
    if (s.ccNeedsBaseRtt && !s.perPairBaseRtt)
    {
        InstallBaseRtt(rdma, s, topo);
    }
    if (s.backToZero)
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackZeroLossRecovery");
    }
    else
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    }
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        if (!topo.IsSwitch(i))
        {
            rdma.SetBaseAddress(Ipv4Address(HpccAddress(i).Get() & 0xFFFFFF00u),
                                Ipv4Mask("255.255.255.0"));
            rdma.InstallHost(nodes.Get(i));
        }
    }
}

/**
 * Install the switches, each with the ECN thresholds of its port rate and the peer's
 * headroom of its ports (the MMU and switch factories are set per switch).
 * \return notes on approximations, for the summary
 */
std::vector<std::string>
InstallSwitches(RdmaHelper& rdma,
                const HpccConfigReader& cfg,
                const Settings& s,
                const HpccTopologyReader& topo,
                const HpccFlowReader& flowReader,
                const NodeContainer& nodes)
{
    const NodeContainer hosts = topo.GetHosts(nodes);
    uint64_t lossless = 0;
    for (const auto& f : flowReader.GetFlows())
    {
        lossless |= 1ULL << f.priorityGroup;
    }
    if (lossless == 0)
    {
        lossless = 1ULL << 3;
    }
    uint64_t nicRate = 0;
    for (uint32_t i = 0; i < hosts.GetN() && nicRate == 0; ++i)
    {
        for (uint32_t d = 0; d < hosts.Get(i)->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(hosts.Get(i)->GetDevice(d));
            if (dev)
            {
                nicRate = dev->GetDataRate().GetBitRate();
            }
        }
    }
    std::vector<std::string> switchNotes;
    rdma.SetMmuAttribute("BufferSize", UintegerValue(s.bufferBytes));
    rdma.SetMmuAttribute("ReservedPerQueue", UintegerValue(4 * 1024));
    rdma.SetMmuAttribute("XonOffset", UintegerValue(3 * 1024));
    rdma.SetMmuAttribute("XoffThresholdMode", StringValue("Dynamic"));
    rdma.SetMmuAttribute("Alpha", DoubleValue(1.0 / 8));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(true));
    rdma.SetMmuAttribute("LosslessClasses", UintegerValue(lossless));
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(s.ecn));
    // The peer marks CE when a packet leaves the egress queue (its SwitchNotifyDequeue).
    rdma.SetSwitchAttribute("EcnMarkingPoint", StringValue("Dequeue"));
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        if (!topo.IsSwitch(i))
        {
            continue;
        }
        Ptr<Node> node = nodes.Get(i);
        uint64_t headroom = 0;
        bool mixedHeadroom = false;
        bool fasterThanNic = false;
        uint64_t firstRate = 0;
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            const uint64_t r = dev->GetDataRate().GetBitRate();
            const uint64_t delayNs = dev->GetRdmaChannel()->GetDelay().GetNanoSeconds();
            // The peer: headroom = rate * delay / 8 / 1e9 * 3 (integer arithmetic), here in
            // 128 bits: 100 Gb/s x 0.184467441 s wraps 64 bits to 9 bytes. More than the
            // buffer is refused (it could never be reserved).
            const unsigned __int128 wide =
                static_cast<unsigned __int128>(r) * delayNs / 8 / 1000000000ULL * 3;
            if (wide > s.bufferBytes)
            {
                cfg.Fail("BUFFER_SIZE",
                         "switch " + std::to_string(i) + "'s port " + std::to_string(d) + " (" +
                             std::to_string(r) + " bit/s, delay " + std::to_string(delayNs) +
                             " ns in " + topo.GetFileName() +
                             ") needs a PFC headroom of 3 x rate x delay = " +
                             (wide >> 64 ? std::string("more than 2^64")
                                         : std::to_string(static_cast<uint64_t>(wide))) +
                             " bytes, more than the buffer; valid: a shorter link or a larger "
                             "BUFFER_SIZE");
            }
            const uint64_t h = static_cast<uint64_t>(wide);
            mixedHeadroom |= headroom != 0 && h != headroom;
            headroom = std::max(headroom, h);
            fasterThanNic |= r > nicRate;
            if (s.ecn)
            {
                for (int m = 0; m < 3; ++m)
                {
                    const char* key = m == 0 ? "KMIN_MAP" : (m == 1 ? "KMAX_MAP" : "PMAX_MAP");
                    const auto& table = m == 0 ? s.kmin : (m == 1 ? s.kmax : s.pmax);
                    if (!table.count(r))
                    {
                        cfg.Fail(key,
                                 "no entry for rate " + std::to_string(r) + " bit/s of switch " +
                                     std::to_string(i) + "'s port " + std::to_string(d) +
                                     "; valid: an entry for every link rate of the topology");
                    }
                }
                if (firstRate == 0)
                {
                    firstRate = r;
                }
                else if (s.kmin.at(r) != s.kmin.at(firstRate) ||
                         s.kmax.at(r) != s.kmax.at(firstRate) ||
                         s.pmax.at(r) != s.pmax.at(firstRate))
                {
                    cfg.Fail("KMIN_MAP",
                             "switch " + std::to_string(i) + " has ports of " +
                                 std::to_string(firstRate) + " and " + std::to_string(r) +
                                 " bit/s whose ECN thresholds differ; an RdmaSwitch has one "
                                 "Kmin/Kmax/Pmax: give both rates the same values");
                }
            }
        }
        if (s.ecn && firstRate != 0)
        {
            rdma.SetSwitchAttribute(
                "EcnKmin",
                UintegerValue(static_cast<uint64_t>(s.kmin.at(firstRate) * 1000)));
            rdma.SetSwitchAttribute(
                "EcnKmax",
                UintegerValue(static_cast<uint64_t>(s.kmax.at(firstRate) * 1000)));
            rdma.SetSwitchAttribute("EcnPmax", DoubleValue(s.pmax.at(firstRate)));
        }
        rdma.SetMmuAttribute("Headroom", UintegerValue(headroom));
        if (mixedHeadroom)
        {
            switchNotes.push_back("switch " + std::to_string(i) +
                                  ": ports of different rate x delay; headroom " +
                                  std::to_string(headroom) + " bytes (the largest) on every port");
        }
        if (fasterThanNic)
        {
            switchNotes.push_back("switch " + std::to_string(i) +
                                  ": ports faster than the NICs; the peer doubles their PFC "
                                  "alpha per rate doubling, here every port uses 1/8");
        }
        rdma.InstallSwitch(node);
    }
    return switchNotes;
}

/// pfc.txt and the PFC counters.
struct PfcLog
{
    std::ofstream out;
    uint64_t pauses{0};
    uint64_t refreshes{0};
    uint64_t resumes{0};
    std::deque<PfcProbe> probes; //!< one per device (stable addresses for the callbacks)
};

/// Record the PFC frames every device of the topology receives.
void
HookPfc(PfcLog& log,
        const std::string& path,
        const HpccTopologyReader& topo,
        const NodeContainer& nodes)
{
    log.out.open(path);
    NS_ABORT_MSG_IF(!log.out, "cannot write " << path);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            PfcProbe p;
            p.out = &log.out;
            p.nodeId = i;
            p.nodeType = topo.IsSwitch(i) ? 1 : 0;
            p.ifIndex = dev->GetIfIndex() + 1;
            p.device = dev;
            p.pauses = &log.pauses;
            p.refreshes = &log.refreshes;
            p.resumes = &log.resumes;
            log.probes.push_back(p);
            dev->TraceConnectWithoutContext("PfcRx",
                                            MakeBoundCallback(&OnPfcRx, &log.probes.back()));
        }
    }
}

/// Print the summary of the run.
void
PrintSummary(const Run& run,
             const PfcLog& pfc,
             const NodeContainer& switches,
             const Settings& s,
             const std::vector<std::string>& switchNotes,
             Time firstStart,
             std::chrono::steady_clock::time_point wallStart,
             const std::string& fctPath,
             const std::string& pfcPath)
{
    const Time simulated = Simulator::Now();
    const uint64_t events = Simulator::GetEventCount();
    std::vector<double> fcts;
    Time last(0);
    uint64_t retransmissions = 0;
    uint64_t timeouts = 0;
    uint64_t cnps = 0;
    for (const auto& f : run.flows)
    {
        if (f.qp)
        {
            retransmissions += f.qp->GetRetransmissions();
            timeouts += f.qp->GetTimeouts();
            cnps += f.qp->GetCnpsReceived();
        }
        if (f.done)
        {
            fcts.push_back((f.finish - f.flow->start).GetSeconds() * 1e6);
            last = std::max(last, f.finish);
        }
    }
    uint64_t switchDrops = 0;
    uint64_t ecnMarks = 0;
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<RdmaSwitch> sw = switches.Get(i)->GetObject<RdmaSwitch>();
        switchDrops += sw->GetTotalDrops();
        ecnMarks += sw->GetEcnMarks();
    }
    uint64_t linkDrops = 0;
    uint64_t frames = 0; // packet-hops: frames put on a link (data, ACK, CNP, PFC)
    for (const auto& p : pfc.probes)
    {
        linkDrops += p.device->GetRxDropCount();
        frames += p.device->GetTxFrames();
    }
    std::sort(fcts.begin(), fcts.end());
    auto pct = [&fcts](double p) {
        return fcts.empty() ? 0.0 : fcts[std::min(fcts.size() - 1, std::size_t(p * fcts.size()))];
    };
    double mean = 0;
    for (double v : fcts)
    {
        mean += v / fcts.size();
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    std::cout << std::fixed << std::setprecision(1);
    for (const auto& note : switchNotes)
    {
        std::cout << "note: " << note << "\n";
    }
    std::cout << "flows completed " << fcts.size() << "/" << run.flows.size();
    if (!fcts.empty())
    {
        std::cout << "; FCT mean " << mean << " us, p50 " << pct(0.5) << " us, p99 " << pct(0.99)
                  << " us; last flow done " << (last - firstStart).GetSeconds() * 1e6
                  << " us after the first start";
    }
    std::cout << "\nPFC: pause frames " << pfc.pauses + pfc.refreshes << " (" << pfc.pauses
              << " pauses, " << pfc.refreshes << " refreshes), resume frames " << pfc.resumes
              << "\ndrops: switch " << switchDrops << ", links " << linkDrops << "; ECN marks "
              << ecnMarks << ", CNPs " << cnps << "; retransmissions " << retransmissions
              << ", timeouts " << timeouts << "\nframes on links " << frames << "\nevents "
              << events << ", simulated " << std::setprecision(6) << simulated.GetSeconds()
              << " s, wall " << std::setprecision(3) << wall << " s (user CPU "
              << ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 << " s), peak RSS "
              << std::setprecision(1) << ru.ru_maxrss / 1024.0 << " MB\n";
    std::cout << "output: " << fctPath << ", " << pfcPath << "\n";
    for (const auto& n : s.notProduced)
    {
        std::cout << "not produced: " << n << "\n";
    }
}

/**
 * Open an HPCC input file and parse it with its reader's ParseOrThrow (errors as
 * HpccInputError, which main() reports with exit status 1).
 */
template <typename Reader>
void
ReadInput(Reader& reader, const std::string& path, const char* what)
{
    std::ifstream in(path);
    HPCC_INPUT_ERROR_IF(!in, "cannot open HPCC " << what << " file '" << path << "'");
    reader.ParseOrThrow(in, path);
}

int
RunHpccCompat(int argc, char* argv[])
{
    // 100 Gb/s: frames are not whole nanoseconds; simulate in picoseconds.
    Time::SetResolution(Time::PS);
    RdmaHelper::SetScheduler(); // the fastest (benchmarks/); --SchedulerType overrides it
    const auto wallStart = std::chrono::steady_clock::now();

    std::string configFile;
    std::string dir;
    std::string outDir = "results/hpcc-compat";
    uint32_t seed = 0;      // 0: keep ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t runNumber = 0; // 0: keep ns-3's RngRun (default 1, or --RngRun)
    Time cnpInterval(0);
    std::string framing = "roce";
    std::string ecmp = "module";
    CommandLine cmd(__FILE__);
    cmd.Usage("Run an HPCC-simulator configuration (config, topology and flow files) unchanged; "
              "write fct.txt and pfc.txt in that simulator's formats.");
    cmd.AddValue("config", "the HPCC-format configuration file (required)", configFile);
    cmd.AddValue("dir",
                 "directory of TOPOLOGY_FILE and FLOW_FILE (default: the config's directory)",
                 dir);
    cmd.AddValue("outDir", "directory of the output files", outDir);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", runNumber);
    cmd.AddValue("cnpInterval",
                 "ns3::RdmaNic::CnpInterval (0: a CNP for every CE-marked packet, as the peer "
                 "flags the ACK of every CE packet)",
                 cnpInterval);
    cmd.AddValue("framing",
                 "what a packet costs on the wire: roce (real RoCEv2 on Ethernet) or hpcc-sim "
                 "(the peer's packet bytes, ns3::RdmaNetDevice::Framing HpccSimulator)",
                 framing);
    cmd.AddValue("ecmp",
                 "how switches hash flows onto equal-cost paths: module (this module's hash, "
                 "seeded per replication) or hpcc-sim (the peer's MurmurHash3 seeded with the "
                 "switch's node id, ns3::RdmaHpccEcmpLoadBalancer)",
                 ecmp);
    cmd.Parse(argc, argv);
    RdmaOptionChecker::Require(!configFile.empty() && FileExists(configFile),
                               "config",
                               configFile,
                               "an HPCC configuration file that exists (required)");
    RdmaOptionChecker::OutputDirectory("outDir", outDir);
    RdmaOptionChecker::Require(framing == "roce" || framing == "hpcc-sim",
                               "framing",
                               framing,
                               "roce, hpcc-sim");
    const bool peerFraming = framing == "hpcc-sim";
    RdmaOptionChecker::Require(ecmp == "module" || ecmp == "hpcc-sim",
                               "ecmp",
                               ecmp,
                               "module, hpcc-sim");
    // Only an explicit --seed/--run overrides ns-3's global RngSeed/RngRun.
    RdmaOptionChecker::Seed(seed, runNumber);

    HpccConfigReader cfg;
    ReadInput(cfg, configFile, "configuration");
    Settings s = MapConfig(cfg);
    std::string framingNote = "roce (RoCEv2 on Ethernet: data payload + 82, RETH 16 once)";
    if (peerFraming)
    {
        Config::SetDefault("ns3::RdmaNetDevice::Framing", EnumValue(RdmaNetDevice::HPCC_SIMULATOR));
        // The peer's INT header of the CC mode (scratch/third.cc sets IntHeader::mode from
        // CC_MODE; IntHeader::GetStaticSize): none for DCQCN and DCTCP, TIMELY's 8-byte
        // timestamp in every data packet (its ACKs stay 48 bytes: 12 + 8 < the 26 they are
        // padded to). HPCC's 42-byte header: our packets carry the 44-byte INT area instead,
        // which the device counts as payload, so 0 here (data + 80 where the peer's are + 78;
        // ACKs 48 where the peer's echo the header in 76).
        const uint32_t intBytes = s.ccMode == 7 ? 8 : 0;
        Config::SetDefault("ns3::RdmaNetDevice::HpccIntBytes", UintegerValue(intBytes));
        framingNote = s.ccMode == 7 ? "hpcc-sim (the peer's packet bytes: data payload + 44 (36 "
                                      "+ TIMELY's 8-byte INT timestamp), ACK 48, CNP 0, PFC 31)"
                      : s.ccMode == 3
                          ? "hpcc-sim (the peer's packet bytes: data payload + 36 + this "
                            "module's 44-byte INT area (the peer's: 42), ACK 48 (the peer's "
                            "HPCC ACKs: 76), CNP 0, PFC 31)"
                          : "hpcc-sim (the peer's packet bytes: data payload + 36, ACK 48, CNP "
                            "0, PFC 31)";
    }
    const std::vector<std::string> unused = cfg.GetUnusedKeys();
    NS_ABORT_MSG_IF(!unused.empty(), "internal error: key " << unused[0] << " was not handled");
    if (dir.empty())
    {
        dir = cfg.GetDirectory();
    }

    const std::string topologyPath = Resolve(dir, s.topologyFile);
    const std::string flowPath = Resolve(dir, s.flowFile);
    for (const auto& [key, path] :
         {std::make_pair("TOPOLOGY_FILE", topologyPath), std::make_pair("FLOW_FILE", flowPath)})
    {
        if (!FileExists(path))
        {
            cfg.Fail(key,
                     "file '" + path +
                         "' not found (relative paths are resolved against --dir, "
                         "default the configuration file's directory)");
        }
    }
    HpccTopologyReader topo;
    ReadInput(topo, topologyPath, "topology");
    HpccFlowReader flowReader;
    ReadInput(flowReader, flowPath, "flow");
    flowReader.Validate(topo);
    if (s.window)
    {
        CheckWindowsArePeers(cfg, s, topo, flowReader);
    }
    // The peer's CNP is a flag in the ACK, which travels in the flow's data class: CNPs take
    // the data DSCP (StartFlow's (pg << 3) | 2) when every flow has the same priority group.
    std::set<uint32_t> priorityGroups;
    for (const auto& f : flowReader.GetFlows())
    {
        priorityGroups.insert(f.priorityGroup);
    }
    const bool oneDataClass = priorityGroups.size() == 1;
    const uint32_t cnpDscp = oneDataClass ? (*priorityGroups.begin() << 3) | 2 : 48;
    if (s.backToZero)
    {
        uint64_t largest = 0;
        for (const auto& f : flowReader.GetFlows())
        {
            largest = std::max(largest, f.size);
        }
        if (s.chunkSize < largest)
        {
            cfg.Fail("L2_CHUNK_SIZE",
                     "go-back-0 to the start of an L2 chunk smaller than a flow is not "
                     "supported yet (ns3::RdmaGoBackZeroLossRecovery restarts the whole "
                     "message); valid: L2_CHUNK_SIZE >= the largest flow, " +
                         std::to_string(largest) + " bytes, or L2_BACK_TO_ZERO 0");
        }
    }

    std::cout << "hpcc-compat: " << configFile << "\n  topology " << topologyPath << ": "
              << topo.GetNNodes() << " nodes (" << topo.GetNSwitches() << " switches), "
              << topo.GetLinks().size() << " links\n  flows " << flowPath << ": "
              << flowReader.GetFlows().size() << "\n  framing " << framingNote;
    if (s.ccMode == 1)
    {
        std::cout << "\n  CNPs: DSCP " << cnpDscp
                  << (oneDataClass ? " (the flows' data class, as the peer's CNP-flagged ACKs)"
                                   : " (the flows use several priority groups: not the peer's "
                                     "class, which is each flow's own)");
    }
    else
    {
        std::cout << "\n  CNPs: none (RdmaNic::CnpEnabled false; only the peer's DCQCN reads "
                     "its ACKs' CNP flag)";
    }
    std::cout << "\nconfiguration mapping:\n";
    for (const auto& line : s.mapping)
    {
        std::cout << line << "\n";
    }

    // --- topology
    RdmaLinkHelper link;
    topo.SetDefaultErrorRate(s.errorRate);
    NodeContainer nodes = topo.Build(link);
    NodeContainer switches = topo.GetSwitches(nodes);

    // --- NICs and switches
    RdmaHelper rdma;
    rdma.SetNicAttribute("CnpDscp", UintegerValue(cnpDscp));
    InstallNics(rdma, s, topo, nodes, cnpInterval);
    const std::vector<std::string> switchNotes =
        InstallSwitches(rdma, cfg, s, topo, flowReader, nodes);
    if (ecmp == "hpcc-sim")
    {
        // The peer's data packets carry the flow file's dport, which its hash includes.
        const auto& all = flowReader.GetFlows();
        const uint16_t dport = all.empty() ? 0 : static_cast<uint16_t>(all.front().dport);
        for (const auto& f : all)
        {
            RdmaOptionChecker::Require(f.dport == dport,
                                       "ecmp",
                                       ecmp,
                                       "hpcc-sim only with one dport for every flow (the hash "
                                       "takes one; the flow file has " +
                                           std::to_string(dport) + " and " +
                                           std::to_string(f.dport) + ")");
        }
        for (uint32_t id : topo.GetSwitchIds())
        {
            Ptr<RdmaHpccEcmpLoadBalancer> lb = CreateObject<RdmaHpccEcmpLoadBalancer>();
            lb->SetAttribute("Seed", UintegerValue(id));
            lb->SetAttribute("DestinationPort", UintegerValue(dport));
            nodes.Get(id)->GetObject<RdmaSwitch>()->SetAttribute("LoadBalancer", PointerValue(lb));
        }
    }
    rdma.AssignStreams(switches, 0);
    topo.AssignStreams(1000);
    RdmaRoutingHelper::PopulateRoutingTables(nodes);

    // --- outputs
    RdmaOutputHelper::CreateDirectories(outDir);
    const std::string fctPath = outDir + "/" + BaseName(s.fctFile);
    const std::string pfcPath = outDir + "/" + BaseName(s.pfcFile);
    Run run;
    run.rdma = &rdma;
    run.topo = &topo;
    run.nodes = nodes;
    run.mtu = s.mtu;
    run.peerFraming = peerFraming;
    run.perPairBaseRtt = s.perPairBaseRtt;
    run.fct.open(fctPath);
    NS_ABORT_MSG_IF(!run.fct, "cannot write " << fctPath);
    PfcLog pfc;
    HookPfc(pfc, pfcPath, topo, nodes);

    // --- flows
    run.adjacency.resize(topo.GetNNodes());
    for (uint32_t l = 0; l < topo.GetLinks().size(); ++l)
    {
        run.adjacency[topo.GetLinks()[l].src].push_back(l);
        run.adjacency[topo.GetLinks()[l].dst].push_back(l);
    }
    const auto& flows = flowReader.GetFlows();
    run.flows.resize(flows.size());
    // The peer's portNumder[src][dst]: 10000 for every host pair, + 1 per flow of the pair.
    std::unordered_map<uint64_t, uint32_t> nextPort;
    Time firstStart = Time::Max();
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const uint64_t pair = (static_cast<uint64_t>(flows[i].src) << 32) | flows[i].dst;
        auto it = nextPort.emplace(pair, 10000).first;
        run.flows[i].flow = &flows[i];
        run.flows[i].sport = static_cast<uint16_t>(it->second++);
        firstStart = std::min(firstStart, flows[i].start);
        Simulator::ScheduleWithContext(nodes.Get(flows[i].src)->GetId(),
                                       flows[i].start,
                                       &StartFlow,
                                       &run,
                                       i);
    }
    run.remaining = static_cast<uint32_t>(flows.size());

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Stop(s.stopTime);
    Simulator::Run();
    run.fct.close();
    pfc.out.close();

    PrintSummary(run, pfc, switches, s, switchNotes, firstStart, wallStart, fctPath, pfcPath);
    conservation.Print(std::cout);
    Simulator::Destroy();
    return 0;
}

int
main(int argc, char* argv[])
{
    // A malformed input file or configuration is a usage error: its message and status 1,
    // not an abort trace.
    try
    {
        return RunHpccCompat(argc, argv);
    }
    catch (const HpccInputError& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
}
