/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TEST_UTILS_H
#define RDMA_TEST_UTILS_H

#include "rdma-test-environment.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <list>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/// Arm or disarm the test binary's operator new counter (defined in
/// rdma-cc-allocation-test.cc, which replaces the global operator new).
void SetCountingAllocations(bool on);
/// \return the operator new calls counted since the last call; resets the count
uint64_t TakeCountedAllocations();

/**
 * Run one test of this binary again in a child process with ns-3's packet metadata off (as
 * in a simulation without tracing; this binary turns it on: PacketMetadataOn), and expect
 * it to pass there. The test calls this when PacketMetadataOn::METADATA_OFF_ENV is unset
 * and returns; in the child, where it is set, it runs its checks.
 * \param test the test's full name (Suite.Name)
 */
void RunInChildWithMetadataOff(const std::string& test);

/**
 * Parse a command line holding one argument, as an example's CommandLine would.
 * \param arg the argument, e.g. "--SchedulerType=ns3::HeapScheduler"
 * \param global the global value to read back
 * \return that global value's string after the parse
 */
inline std::string
GlobalValueAfterCommandLine(const std::string& arg, const std::string& global)
{
    CommandLine cmd;
    std::string arg0 = "test";
    std::string arg1 = arg;
    char* argv[] = {arg0.data(), arg1.data()};
    cmd.Parse(2, argv);
    StringValue v;
    GlobalValue::GetValueByName(global, v);
    return v.Get();
}

/// Run the simulation with the operator new counter armed, then destroy it.
/// \return the allocations made while it ran
inline uint64_t
RunCountingAllocations()
{
    TakeCountedAllocations();
    SetCountingAllocations(true);
    Simulator::Run();
    SetCountingAllocations(false);
    const uint64_t allocations = TakeCountedAllocations();
    Simulator::Destroy();
    return allocations;
}

/// Bytes per data packet besides the payload on the wire: Ethernet 14 + IPv4 20 + UDP 8 +
/// BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 + inter-frame gap 12.
/// Derived here independently; the model's one definition must agree.
constexpr double PER_PACKET_OVERHEAD = 82.0;
static_assert(RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES == 82, "RoCEv2 data packet overhead");

/// \return analytical RoCEv2 WRITE goodput in bit/s at a line rate and path MTU
inline double
AnalyticalGoodput(double lineRateBps, uint32_t mtu)
{
    return lineRateBps * mtu / (mtu + PER_PACKET_OVERHEAD);
}

/**
 * A star: hosts[0] is the receiver, hosts[1..n] the senders, all on one switch.
 * Links are created, NICs and the switch installed and routes computed.
 */
struct Star
{
    NodeContainer hosts;
    Ptr<Node> switchNode;
    NetDeviceContainer devices; //!< pairs: (host i port, switch port i)
    RdmaHelper rdma;
    RdmaLinkHelper link;

    /**
     * \param nHosts number of hosts (receiver included)
     * \param rate link rate
     * \param delay link delay
     */
    Star(uint32_t nHosts, const std::string& rate, Time delay)
    {
        hosts.Create(nHosts);
        switchNode = CreateObject<Node>();
        link.SetDeviceAttribute("DataRate", StringValue(rate));
        link.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            devices.Add(link.Install(hosts.Get(i), switchNode));
        }
    }

    /// Install NICs, the switch and routes (after configuring rdma).
    void Install()
    {
        rdma.InstallHosts(hosts);
        rdma.InstallSwitch(switchNode);
        rdma.AssignStreams(NodeContainer(switchNode), 0);
        RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, NodeContainer(switchNode)));
    }

    /// \return the switch
    Ptr<RdmaSwitch> Switch() const
    {
        return switchNode->GetObject<RdmaSwitch>();
    }

    /// \return the host-side device of host i
    Ptr<RdmaNetDevice> HostDevice(uint32_t i) const
    {
        return DynamicCast<RdmaNetDevice>(devices.Get(2 * i));
    }

    /// \return the switch port facing host i
    Ptr<RdmaNetDevice> SwitchDevice(uint32_t i) const
    {
        return DynamicCast<RdmaNetDevice>(devices.Get(2 * i + 1));
    }
};

/// Records completions of one queue pair.
struct CompletionLog
{
    std::vector<RdmaCompletion> sends;
    std::vector<RdmaCompletion> receives;

    void OnSend(const RdmaCompletion& c)
    {
        sends.push_back(c);
    }

    void OnReceive(const RdmaCompletion& c)
    {
        receives.push_back(c);
    }

    /// Attach to a connected pair (requester, responder).
    void Attach(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder)
    {
        requester->SetSendCompletionCallback(MakeCallback(&CompletionLog::OnSend, this));
        responder->SetReceiveCompletionCallback(MakeCallback(&CompletionLog::OnReceive, this));
    }
};

/// Post a WRITE of the given size at time t in the requester node's context.
inline void
PostWriteAt(Ptr<RdmaQueuePair> qp, Ptr<Node> node, Time t, uint64_t bytes, uint64_t wrId = 0)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = wrId;
    wr.length = bytes;
    wr.remoteAddress = 0x1000;
    Simulator::ScheduleWithContext(node->GetId(), t, &RdmaQueuePair::PostSend, qp, wr);
}

/// Attribute name/value pairs, the values as strings (StringValue).
using AttributeList = std::vector<std::pair<std::string, std::string>>;

/**
 * A congestion control made as a NIC makes one for a queue pair: created from its TypeId with
 * the given attributes (later pairs override earlier ones), then forked.
 * \param typeId the congestion control's TypeId name
 * \param attributes its attributes
 * \return the fork, as T
 */
template <typename T>
Ptr<T>
ForkCongestionControl(const std::string& typeId, const AttributeList& attributes)
{
    ObjectFactory factory(typeId);
    for (const auto& [name, value] : attributes)
    {
        factory.Set(name, StringValue(value));
    }
    return DynamicCast<T>(factory.Create<T>()->Fork());
}

/// Address of host i in a SwitchStar: 10.0.0.1 + i.
inline Ipv4Address
SwitchStarHostAddress(uint32_t i)
{
    return Ipv4Address(0x0a000001U + i);
}

/**
 * A star of hosts around one RdmaSwitch, built by hand (no RdmaHelper), for the switch's
 * own tests: switch port i faces host i (address SwitchStarHostAddress(i)), every link
 * 100 Gb/s with the given delay; the switch is configured before its ports are added, and
 * gets host routes unless `routes` is false. SinkT::Attach(host, device) is each host's
 * receiver.
 */
template <typename SinkT>
struct SwitchStar
{
    NodeContainer hosts;
    Ptr<Node> switchNode;
    Ptr<RdmaSwitch> sw;
    std::vector<Ptr<RdmaNetDevice>> hostDev;
    std::vector<Ptr<RdmaNetDevice>> switchDev;
    std::vector<SinkT> sinks;

    SwitchStar(uint32_t nHosts,
               Time delay,
               const std::function<void(Ptr<RdmaSwitch>)>& configure = {},
               bool routes = true)
        : sinks(nHosts)
    {
        hosts.Create(nHosts);
        switchNode = CreateObject<Node>();
        RdmaLinkHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            NetDeviceContainer d = link.Install(hosts.Get(i), switchNode);
            hostDev.push_back(DynamicCast<RdmaNetDevice>(d.Get(0)));
            switchDev.push_back(DynamicCast<RdmaNetDevice>(d.Get(1)));
        }
        sw = CreateObject<RdmaSwitch>();
        switchNode->AggregateObject(sw);
        if (configure)
        {
            configure(sw);
        }
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            EXPECT_EQ(sw->AddPort(switchDev[i]), i);
            if (routes)
            {
                sw->AddRoute(SwitchStarHostAddress(i), i);
            }
            sinks[i].Attach(hosts.Get(i), hostDev[i]);
        }
        sw->AssignStreams(11);
    }

    /// Make host i send the switch a PFC frame for class `cls` at time t.
    void HostPfcAt(uint32_t i, Time t, uint16_t quanta, uint8_t cls = 3)
    {
        std::array<uint16_t, RdmaNetDevice::NUM_CLASSES> q{};
        q[cls] = quanta;
        Simulator::ScheduleWithContext(hosts.Get(i)->GetId(),
                                       t,
                                       &RdmaNetDevice::SendPfc,
                                       hostDev[i],
                                       static_cast<uint8_t>(1U << cls),
                                       q);
    }
};

/**
 * The binary of an example of this module, next to rdma-incast's (RDMA_INCAST_EXAMPLE, an
 * absolute path, in-tree or standalone; in-tree names carry ns-3's prefix and suffix).
 * \param name the example's name, e.g. "pfc-storm"
 * \return its path, or "" if the examples are not built
 */
inline std::string
ExamplePath(const std::string& name)
{
    std::string exe = RDMA_INCAST_EXAMPLE;
    const auto pos = exe.rfind("rdma-incast");
    if (exe.empty() || pos == std::string::npos)
    {
        return "";
    }
    return exe.replace(pos, std::string("rdma-incast").size(), name);
}

/**
 * Split one CSV line at its commas; a field in double quotes keeps its commas (the quotes are
 * dropped).
 * \param line the line
 * \return its fields
 */
inline std::vector<std::string>
SplitCsvLine(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line)
    {
        if (c == '"')
        {
            quoted = !quoted;
        }
        else if (c == ',' && !quoted)
        {
            out.emplace_back();
        }
        else
        {
            out.back() += c;
        }
    }
    return out;
}

/// One data row of a CSV file: column name -> field.
using CsvRow = std::map<std::string, std::string>;

/**
 * \param path a CSV file whose first line names the columns (an example's output)
 * \return its data rows (none if the file is missing or empty)
 */
inline std::vector<CsvRow>
ReadCsvRows(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::vector<CsvRow> rows;
    if (!std::getline(in, line))
    {
        return rows;
    }
    const std::vector<std::string> header = SplitCsvLine(line);
    while (std::getline(in, line))
    {
        const std::vector<std::string> fields = SplitCsvLine(line);
        CsvRow row;
        for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
        {
            row[header[i]] = fields[i];
        }
        rows.push_back(row);
    }
    return rows;
}

/**
 * \param row a row of ReadCsvRows
 * \param column a column name
 * \return the field as a number; NaN if the row has no such column (so a comparison fails)
 */
inline double
CsvNumber(const CsvRow& row, const std::string& column)
{
    auto it = row.find(column);
    return it == row.end() ? std::nan("") : std::stod(it->second);
}

/**
 * A new, empty directory of its own under the test process's OutputDir() (removed with it
 * after the last test), for an example run's files.
 * \param prefix the start of its name
 * \return its path
 */
inline std::string
NewOutputSubdirectory(const std::string& prefix)
{
    std::filesystem::create_directories(OutputDir());
    std::string pattern = OutputDir() + "/" + prefix + "-XXXXXX";
    if (!mkdtemp(pattern.data()))
    {
        ADD_FAILURE() << "cannot create a directory " << pattern;
    }
    return pattern;
}

/// Drops the data frames a sender port transmits with the given numbers (from 1), by uid.
struct DropByNumber
{
    Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
    std::set<uint64_t> numbers;
    std::list<uint32_t> uids;
    uint64_t count{0};

    /// Install: count frames leaving `sender`, drop them at `receiver`.
    void Install(Ptr<RdmaNetDevice> sender, Ptr<RdmaNetDevice> receiver)
    {
        receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
        sender->TraceConnectWithoutContext("PhyTxBegin",
                                           MakeBoundCallback(
                                               +[](DropByNumber* d, Ptr<const Packet> p) {
                                                   if (d->numbers.count(++d->count))
                                                   {
                                                       d->uids.push_back(
                                                           static_cast<uint32_t>(p->GetUid()));
                                                       d->em->SetList(d->uids);
                                                   }
                                               },
                                               this));
    }
};

/**
 * A cable that delays every Every-th frame from one end by Extra, as a sprayed packet
 * taking a longer path would be: reordering without loss.
 */
class ReorderingChannel : public RdmaChannel
{
  public:
    Ptr<RdmaNetDevice> delayedSender; //!< frames from this end may be delayed
    uint32_t every{10};
    Time extra;
    uint64_t count{0};
    uint64_t delayed{0};

    bool TransmitStart(const Ptr<Packet>& frame,
                       const Ptr<RdmaNetDevice>& src,
                       Time txTime) override
    {
        if (src == delayedSender && ++count % every == 0)
        {
            ++delayed;
            Ptr<RdmaNetDevice> dst = GetPeer(src);
            Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                           txTime + GetDelay() + extra,
                                           &RdmaNetDevice::Receive,
                                           dst,
                                           frame);
            return true;
        }
        return RdmaChannel::TransmitStart(frame, src, txTime);
    }
};

/**
 * A RoCEv2 packet as a queue pair would send it (IPv4, UDP to 4791, BTH, zero-filled payload;
 * no ICRC), for tests that send packets a NIC cannot use.
 * \param from source address
 * \param to destination address
 * \param opcode BTH opcode
 * \param destQp BTH destination QP
 * \param payload payload bytes
 * \return the IPv4 packet
 */
inline Ptr<Packet>
MakeRoceV2Packet(Ipv4Address from,
                 Ipv4Address to,
                 uint8_t opcode,
                 uint32_t destQp,
                 uint32_t payload)
{
    RdmaBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(destQp);
    RdmaHeaderStack stack;
    stack.BeginRoce();
    stack.Append(bth);
    Ptr<Packet> p = Create<Packet>(payload);
    stack.FinishIpv4Udp(from, to, 0, 0, 49152, 4791, p->GetSize());
    p->AddHeader(stack);
    return p;
}

/**
 * Run a scenario under RdmaSimulatorImpl and the radix scheduler with one of the
 * implementation's attributes set, and restore the defaults after (the simulator
 * destroyed).
 * \param attribute the attribute's name (e.g. "PrefetchMinPending")
 * \param value its value for this run
 * \param scenario builds the scenario, runs it and returns its log
 * \return the log
 */
inline std::string
WithFastestSimulator(const std::string& attribute,
                     const AttributeValue& value,
                     const std::function<std::string()>& scenario)
{
    StringValue savedImpl;
    StringValue savedScheduler;
    GlobalValue::GetValueByName("SimulatorImplementationType", savedImpl);
    GlobalValue::GetValueByName("SchedulerType", savedScheduler);
    RdmaHelper::UseFastestSimulator();
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(!RdmaSimulatorImpl::GetTypeId().LookupAttributeByName(attribute, &info),
                    "WithFastestSimulator: no attribute " << attribute);
    const Ptr<const AttributeValue> saved = info.initialValue;
    const std::string path = "ns3::RdmaSimulatorImpl::" + attribute;
    Config::SetDefault(path, value);
    const std::string log = scenario();
    Simulator::Destroy();
    Config::SetDefault(path, *saved);
    GlobalValue::Bind("SimulatorImplementationType", savedImpl);
    GlobalValue::Bind("SchedulerType", savedScheduler);
    return log;
}

/// What RunDcqcnFatTree4 returns.
struct FatTreeRunResult
{
    std::string completions; //!< each completion's time (ps) and length, one per line
    uint64_t events{0};      //!< events run
    uint64_t forwarded{0};   //!< frames the switches forwarded
    uint64_t marked{0};      //!< ECN marks
    uint64_t pauses{0};      //!< PFC pause frames the switches sent
    uint64_t drops{0};       //!< frames the switches dropped
};

/**
 * A k = 4 fat-tree (16 hosts, 20 switches, 1 us links) under DCQCN with ECN marking: every
 * host writes 150 kB to the host five after it (most flows cross the core; the edge and
 * aggregation switches balance them over their uplinks), and hosts 1 to 6 also to host 0
 * (an incast that PFC pauses). Runs under the simulator implementation and defaults as set
 * by the caller, and leaves the simulator to the caller to destroy.
 * \return its completions and the switches' counters
 */
inline FatTreeRunResult
RunDcqcnFatTree4()
{
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::DcqcnCongestionControl");
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
    rdma.SetSwitchAttribute("EcnKmin", UintegerValue(5000));
    rdma.SetSwitchAttribute("EcnKmax", UintegerValue(20000));
    rdma.SetSwitchAttribute("EcnPmax", DoubleValue(0.2));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(512 * 1024));
    FatTreeHelper tree;
    tree.SetThreeTier(4);
    tree.Install(rdma);
    rdma.AssignStreams(tree.GetSwitches(), 100); // the marks: the same in every run
    const uint32_t n = tree.GetNHosts();
    std::vector<CompletionLog> logs(n + 6);
    for (uint32_t i = 0; i < n + 6; ++i)
    {
        const uint32_t src = i < n ? i : i - n + 1;
        const uint32_t dst = i < n ? (i + 5) % n : 0;
        auto [a, b] = rdma.Connect(tree.GetHost(src), tree.GetHost(dst));
        logs[i].Attach(a, b);
        PostWriteAt(a, tree.GetHost(src), NanoSeconds(50 * i), 150'000, i);
    }
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    FatTreeRunResult r;
    for (uint32_t s = 0; s < tree.GetSwitches().GetN(); ++s)
    {
        Ptr<RdmaSwitch> sw = tree.GetSwitches().Get(s)->GetObject<RdmaSwitch>();
        r.forwarded += sw->GetForwardedPackets();
        r.marked += sw->GetEcnMarks();
        r.pauses += sw->GetPfcPausesSent();
        r.drops += sw->GetTotalDrops();
    }
    std::ostringstream completions;
    for (const CompletionLog& l : logs)
    {
        for (const RdmaCompletion& c : l.sends)
        {
            completions << c.completionTime.GetPicoSeconds() << ' ' << c.length << '\n';
        }
    }
    r.completions = completions.str();
    r.events = Simulator::GetEventCount();
    return r;
}

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_TEST_UTILS_H */
