/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-scenario-helper.h"

#include "hpcc-input-error.h"
#include "rdma-flow-replayer-helper.h"
#include "rdma-link-helper.h"
#include "rdma-option-checker.h"
#include "rdma-output-helper.h"
#include "rdma-routing-helper.h"
#include "rdma-sample-summary.h"

#include "ns3/application-container.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-hpcc-ecmp-load-balancer.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-switch.h"
#include "ns3/rdma-wire-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccScenarioHelper");

namespace
{

using Settings = HpccScenarioSettings;

/// The peer's per-packet bytes in its standalone FCT (scratch/third.cc qp_finish:
/// CustomHeader::GetStaticWholeHeaderSize() - IntHeader::GetStaticSize(): Ethernet 14,
/// IPv4 20, UDP 8, SeqTs 6).
constexpr uint64_t PEER_STANDALONE_OVERHEAD = 48;

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
struct FlowRun
{
    const HpccTopologyReader* topo{nullptr};
    std::vector<std::vector<uint32_t>> adjacency;
    std::unordered_map<uint32_t, std::vector<PathInfo>> pathCache;
    std::vector<FlowState> flows;
    /// Indices in `flows` of each replayer's flows (RdmaFlowReplayerHelper's order)
    std::vector<std::vector<uint32_t>> replayerFlows;
    uint32_t mtu{1000};
    bool peerFraming{false};    //!< --framing=hpcc-sim
    bool perPairBaseRtt{false}; //!< GLOBAL_T 0: each queue pair's BaseRtt is its pair's
    std::ofstream fct;
    uint32_t remaining{0};
};

/// The path of a flow, as the peer's CalculateRoute finds it (cached per destination).
const PathInfo&
FlowPath(FlowRun* run, const HpccFlow& f)
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
StandaloneFctNs(FlowRun* run, const HpccFlow& f)
{
    const PathInfo& p = FlowPath(run, f);
    const uint64_t baseRtt = PairBaseRttNs(p);
    // This model's bytes (82 per packet and the RETH once, RdmaWireSize) or the peer's.
    const uint64_t totalBytes =
        run->peerFraming
            ? f.size + RdmaWireSize::Packets(f.size, run->mtu) * PEER_STANDALONE_OVERHEAD
            : RdmaWireSize::WriteMessage(f.size, run->mtu);
    return baseRtt + static_cast<uint64_t>(static_cast<long double>(totalBytes) * 8e9L / p.bw);
}

/// Replayer `replayer`'s flow `local` completed: its fct.txt line.
void
OnFlowComplete(FlowRun* run, uint32_t replayer, uint32_t local, const RdmaCompletion& c)
{
    FlowState& s = run->flows[run->replayerFlows[replayer][local]];
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

/// Replayer `replayer`'s flow `local` started: its queue pair and standalone FCT.
void
OnFlowStarted(FlowRun* run,
              uint32_t replayer,
              uint32_t local,
              Ptr<RdmaQueuePair> qp,
              Ptr<RdmaQueuePair> /* peer */)
{
    FlowState& s = run->flows[run->replayerFlows[replayer][local]];
    s.qp = qp;
    s.sport = qp->GetSourcePort();
    s.standaloneNs = StandaloneFctNs(run, *s.flow);
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
InstallBaseRtt(RdmaHelper& rdma, Time t)
{
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(t));
}

/// The configuration report's line on T and its BDP (GLOBAL_T 1).
std::string
BaseRttNote(const HpccTopologyReader& topo, Time t)
{
    std::ostringstream os;
    os << "  base RTT T (GLOBAL_T 1, the largest of the topology): " << t.GetNanoSeconds()
       << " ns, BDP "
       << uint64_t(static_cast<unsigned __int128>(topo.GetLinks().front().rate.GetBitRate()) *
                   t.GetNanoSeconds() / 8000000000ULL)
       << " bytes\n";
    return os.str();
}

/// Install the NICs: the peer's addresses, MTU, ACKs, congestion control, loss recovery.
void
InstallNics(RdmaHelper& rdma,
            const Settings& s,
            const HpccTopologyReader& topo,
            const NodeContainer& nodes,
            Time cnpInterval,
            Time baseRtt)
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
        // stops naming the attribute if it does not exist. The peer's DCQCN (rdma-hw.cc,
        // "Mellanox's version"): alpha sampled once per period from the first CNP, alpha 1
        // at the first CNP, RC (1 - alpha / 2) down to MinRate.
        const std::pair<const char*, std::string> attributes[] = {
            {"G", a.at("G")},
            {"AlphaUpdateInterval", a.at("AlphaUpdateInterval")},
            {"RateDecreaseInterval", a.at("RateDecreaseInterval")},
            {"RateIncreaseInterval", a.at("RateIncreaseInterval")},
            {"FastRecoverySteps", a.at("FastRecoverySteps")},
            {"AdditiveIncreaseRate", a.at("AdditiveIncreaseRate")},
            {"HyperIncreaseRate", a.at("HyperIncreaseRate")},
            {"MinRate", a.at("MinRate")},
            {"ClampTargetRate", a.at("ClampTargetRate")},
            {"ByteCounter", a.at("ByteCounter")},
            {"AlphaUpdateMode", "Periodic"},
            {"InitialAlpha", "1"},
            {"RateDecreaseDivisor", "2"},
            {"MinDecreaseFactor", "0"},
            {"ClampTargetRateAfterTimeIncrease", "true"},
        };
        // Each call adds to the congestion control's factory, in this order.
        for (const auto& [name, value] : attributes)
        {
            rdma.SetCongestionControl("ns3::DcqcnCongestionControl", name, StringValue(value));
        }
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
        InstallBaseRtt(rdma, baseRtt);
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
PrintSummary(std::ostream& os,
             const FlowRun& run,
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
    RdmaSampleSummary fctSummary; // percentiles by HPCC's analysis-script rule
    fctSummary.Add(fcts);
    auto pct = [&fctSummary](double p) { return fctSummary.GetIndexPercentile(p); };
    const double mean = fctSummary.GetMean();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    os << std::fixed << std::setprecision(1);
    for (const auto& note : switchNotes)
    {
        os << "note: " << note << "\n";
    }
    os << "flows completed " << fcts.size() << "/" << run.flows.size();
    if (!fcts.empty())
    {
        os << "; FCT mean " << mean << " us, p50 " << pct(0.5) << " us, p99 " << pct(0.99)
           << " us; last flow done " << (last - firstStart).GetSeconds() * 1e6
           << " us after the first start";
    }
    os << "\nPFC: pause frames " << pfc.pauses + pfc.refreshes << " (" << pfc.pauses << " pauses, "
       << pfc.refreshes << " refreshes), resume frames " << pfc.resumes << "\ndrops: switch "
       << switchDrops << ", links " << linkDrops << "; ECN marks " << ecnMarks << ", CNPs " << cnps
       << "; retransmissions " << retransmissions << ", timeouts " << timeouts
       << "\nframes on links " << frames << "\nevents " << events << ", simulated "
       << std::setprecision(6) << simulated.GetSeconds() << " s, wall " << std::setprecision(3)
       << wall << " s (user CPU " << ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6
       << " s), peak RSS " << std::setprecision(1) << ru.ru_maxrss / 1024.0 << " MB\n";
    os << "output: " << fctPath << ", " << pfcPath << "\n";
    for (const auto& n : s.notProduced)
    {
        os << "not produced: " << n << "\n";
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

} // namespace

/// Everything the scenario reads, builds and records.
struct HpccScenarioHelper::State
{
    std::chrono::steady_clock::time_point wallStart{std::chrono::steady_clock::now()};
    std::string inputDir;
    std::string outDir{"results/hpcc-compat"};
    Time cnpInterval{0};
    bool peerFraming{false};
    bool peerEcmp{false};
    bool configured{false};
    bool installed{false};

    std::string configFile;
    std::string topologyPath;
    std::string flowPath;
    std::string framingNote;
    std::string baseRttNote;
    Time baseRtt{0};
    bool oneDataClass{true};
    uint32_t cnpDscp{48};

    HpccConfigReader cfg;
    Settings settings;
    HpccTopologyReader topo;
    HpccFlowReader flowReader;

    RdmaHelper rdma;
    NodeContainer nodes;
    NodeContainer switches;
    std::vector<std::string> switchNotes;
    std::string fctPath;
    std::string pfcPath;
    FlowRun run;
    PfcLog pfc;
    Time firstStart{Time::Max()};
    ApplicationContainer replayers;       //!< one RdmaFlowReplayer per source host
    RdmaConservationMonitor conservation; //!< sent = delivered + dropped + in flight
};

HpccScenarioHelper::HpccScenarioHelper()
    : m_state(std::make_unique<State>())
{
}

HpccScenarioHelper::~HpccScenarioHelper() = default;

void
HpccScenarioHelper::SetInputDirectory(const std::string& dir)
{
    m_state->inputDir = dir;
}

void
HpccScenarioHelper::SetOutputDirectory(const std::string& dir)
{
    m_state->outDir = dir;
}

void
HpccScenarioHelper::SetCnpInterval(Time interval)
{
    m_state->cnpInterval = interval;
}

void
HpccScenarioHelper::SetPeerFraming(bool peer)
{
    m_state->peerFraming = peer;
}

void
HpccScenarioHelper::SetPeerEcmp(bool peer)
{
    m_state->peerEcmp = peer;
}

Ipv4Address
HpccScenarioHelper::HpccAddress(uint32_t id)
{
    return ns3::HpccAddress(id);
}

void
HpccScenarioHelper::Configure(const std::string& configFile)
{
    NS_ABORT_MSG_IF(m_state->configured, "HpccScenarioHelper::Configure: called twice");
    State& st = *m_state;
    st.configFile = configFile;
    HpccConfigReader& cfg = st.cfg;
    ReadInput(cfg, configFile, "configuration");
    st.settings = HpccConfigMapper::Map(cfg);
    Settings& s = st.settings;
    st.framingNote = "roce (RoCEv2 on Ethernet: data payload + 82, RETH 16 once)";
    if (st.peerFraming)
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
        st.framingNote = s.ccMode == 7 ? "hpcc-sim (the peer's packet bytes: data payload + 44 (36 "
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
    const std::string dir = st.inputDir.empty() ? cfg.GetDirectory() : st.inputDir;

    st.topologyPath = Resolve(dir, s.topologyFile);
    st.flowPath = Resolve(dir, s.flowFile);
    for (const auto& [key, path] : {std::make_pair("TOPOLOGY_FILE", st.topologyPath),
                                    std::make_pair("FLOW_FILE", st.flowPath)})
    {
        if (!FileExists(path))
        {
            cfg.Fail(key,
                     "file '" + path +
                         "' not found (relative paths are resolved against --dir, "
                         "default the configuration file's directory)");
        }
    }
    HpccTopologyReader& topo = st.topo;
    ReadInput(topo, st.topologyPath, "topology");
    HpccFlowReader& flowReader = st.flowReader;
    ReadInput(flowReader, st.flowPath, "flow");
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
    st.oneDataClass = priorityGroups.size() == 1;
    st.cnpDscp = st.oneDataClass ? (*priorityGroups.begin() << 3) | 2 : 48;
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
    if (s.ccNeedsBaseRtt && !s.perPairBaseRtt)
    {
        st.baseRtt = LargestBaseRtt(topo, s.mtu);
        st.baseRttNote = BaseRttNote(topo, st.baseRtt);
    }
    st.configured = true;
}

void
HpccScenarioHelper::PrintConfiguration(std::ostream& os) const
{
    const State& st = *m_state;
    NS_ABORT_MSG_IF(!st.configured, "HpccScenarioHelper::PrintConfiguration: call Configure first");
    const Settings& s = st.settings;
    os << "hpcc-compat: " << st.configFile << "\n  topology " << st.topologyPath << ": "
       << st.topo.GetNNodes() << " nodes (" << st.topo.GetNSwitches() << " switches), "
       << st.topo.GetLinks().size() << " links\n  flows " << st.flowPath << ": "
       << st.flowReader.GetFlows().size() << "\n  framing " << st.framingNote;
    if (s.ccMode == 1)
    {
        os << "\n  CNPs: DSCP " << st.cnpDscp
           << (st.oneDataClass ? " (the flows' data class, as the peer's CNP-flagged ACKs)"
                               : " (the flows use several priority groups: not the peer's "
                                 "class, which is each flow's own)");
    }
    else
    {
        os << "\n  CNPs: none (RdmaNic::CnpEnabled false; only the peer's DCQCN reads "
              "its ACKs' CNP flag)";
    }
    os << "\nconfiguration mapping:\n";
    for (const auto& line : s.mapping)
    {
        os << line << "\n";
    }
    os << st.baseRttNote;
}

void
HpccScenarioHelper::Install()
{
    State& st = *m_state;
    NS_ABORT_MSG_IF(!st.configured, "HpccScenarioHelper::Install: call Configure first");
    NS_ABORT_MSG_IF(st.installed, "HpccScenarioHelper::Install: called twice");
    const Settings& s = st.settings;
    const HpccTopologyReader& topoConst = st.topo;
    HpccTopologyReader& topo = st.topo;
    const HpccFlowReader& flowReader = st.flowReader;
    RdmaHelper& rdma = st.rdma;

    // --- topology
    RdmaLinkHelper link;
    topo.SetDefaultErrorRate(s.errorRate);
    st.nodes = topo.Build(link);
    const NodeContainer& nodes = st.nodes;
    st.switches = topo.GetSwitches(nodes);

    // --- NICs and switches
    rdma.SetNicAttribute("CnpDscp", UintegerValue(st.cnpDscp));
    InstallNics(rdma, s, topoConst, nodes, st.cnpInterval, st.baseRtt);
    st.switchNotes = InstallSwitches(rdma, st.cfg, s, topoConst, flowReader, nodes);
    if (st.peerEcmp)
    {
        // The peer's data packets carry the flow file's dport, which its hash includes.
        const auto& all = flowReader.GetFlows();
        const uint16_t dport = all.empty() ? 0 : static_cast<uint16_t>(all.front().dport);
        for (const auto& f : all)
        {
            RdmaOptionChecker::Require(f.dport == dport,
                                       "ecmp",
                                       "hpcc-sim",
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
    rdma.AssignStreams(st.switches, 0);
    topo.AssignStreams(1000);
    RdmaRoutingHelper::PopulateRoutingTables(nodes);

    // --- outputs
    RdmaOutputHelper::CreateDirectories(st.outDir);
    st.fctPath = st.outDir + "/" + BaseName(s.fctFile);
    st.pfcPath = st.outDir + "/" + BaseName(s.pfcFile);
    FlowRun& run = st.run;
    run.topo = &topoConst;
    run.mtu = s.mtu;
    run.peerFraming = st.peerFraming;
    run.perPairBaseRtt = s.perPairBaseRtt;
    run.fct.open(st.fctPath);
    NS_ABORT_MSG_IF(!run.fct, "cannot write " << st.fctPath);
    HookPfc(st.pfc, st.pfcPath, topoConst, nodes);

    // --- flows
    run.adjacency.resize(topo.GetNNodes());
    for (uint32_t l = 0; l < topo.GetLinks().size(); ++l)
    {
        run.adjacency[topo.GetLinks()[l].src].push_back(l);
        run.adjacency[topo.GetLinks()[l].dst].push_back(l);
    }
    const auto& flows = flowReader.GetFlows();
    run.flows.resize(flows.size());
    // One RdmaFlowReplayer per source host, in node order, with its flows in file order; it
    // numbers the UDP source ports as the peer does (10000, + 1 per flow of a (source,
    // destination) pair) and sends priority group p with DSCP (p << 3) | 2.
    std::map<uint32_t, std::vector<uint32_t>> bySource;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        run.flows[i].flow = &flows[i];
        st.firstStart = std::min(st.firstStart, flows[i].start);
        bySource[flows[i].src].push_back(i);
    }
    for (auto& [src, indices] : bySource)
    {
        run.replayerFlows.push_back(std::move(indices));
    }
    RdmaFlowReplayerHelper replay(flows);
    if (s.perPairBaseRtt)
    {
        // GLOBAL_T 0: the peer gives each queue pair its own pair's base RTT and BDP.
        replay.SetConnectionAttributes([&run](const HpccFlow& f, ObjectFactory& factory) {
            factory.Set("BaseRtt", TimeValue(NanoSeconds(PairBaseRttNs(FlowPath(&run, f)))));
        });
    }
    st.replayers = replay.Install(nodes);
    NS_ASSERT(st.replayers.GetN() == run.replayerFlows.size());
    for (uint32_t k = 0; k < st.replayers.GetN(); ++k)
    {
        st.replayers.Get(k)->TraceConnectWithoutContext("FlowStarted",
                                                        MakeBoundCallback(&OnFlowStarted, &run, k));
        st.replayers.Get(k)->TraceConnectWithoutContext(
            "FlowCompleted",
            MakeBoundCallback(&OnFlowComplete, &run, k));
    }
    run.remaining = static_cast<uint32_t>(flows.size());

    st.conservation.Install(NodeContainer::GetGlobal());
    st.installed = true;
}

void
HpccScenarioHelper::Run()
{
    State& st = *m_state;
    NS_ABORT_MSG_IF(!st.installed, "HpccScenarioHelper::Run: call Install first");
    Simulator::Stop(st.settings.stopTime);
    Simulator::Run();
    st.run.fct.close();
    st.pfc.out.close();
}

void
HpccScenarioHelper::PrintSummary(std::ostream& os) const
{
    const State& st = *m_state;
    ns3::PrintSummary(os,
                      st.run,
                      st.pfc,
                      st.switches,
                      st.settings,
                      st.switchNotes,
                      st.firstStart,
                      st.wallStart,
                      st.fctPath,
                      st.pfcPath);
    st.conservation.Print(os);
}

const HpccScenarioSettings&
HpccScenarioHelper::GetSettings() const
{
    return m_state->settings;
}

NodeContainer
HpccScenarioHelper::GetNodes() const
{
    return m_state->nodes;
}

uint32_t
HpccScenarioHelper::GetNFlows() const
{
    return static_cast<uint32_t>(m_state->flowReader.GetFlows().size());
}

uint32_t
HpccScenarioHelper::GetNFlowsCompleted() const
{
    uint32_t n = 0;
    for (const auto& f : m_state->run.flows)
    {
        n += f.done ? 1 : 0;
    }
    return n;
}

std::string
HpccScenarioHelper::GetFctPath() const
{
    return m_state->fctPath;
}

std::string
HpccScenarioHelper::GetPfcPath() const
{
    return m_state->pfcPath;
}

} // namespace ns3
