/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Migration from the HPCC simulator family: its topology, flow and configuration files
// load (test/data/hpcc/ holds copies of the shared benchmark inputs), malformed files stop
// with the file, line, field and value, and examples/hpcc-compat runs small scenarios and
// writes fct.txt and pfc.txt in that simulator's formats with the analytical values.

#include "rdma-test-utils.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

std::string
DataFile(const std::string& name)
{
    return std::string(RDMA_SOURCE_DIR) + "/test/data/hpcc/" + name;
}

void
ParseTopology(HpccTopologyReader& r, const std::string& text)
{
    std::istringstream in(text);
    r.Parse(in, "topo.txt");
}

void
ParseFlows(HpccFlowReader& r, const std::string& text)
{
    std::istringstream in(text);
    r.Parse(in, "flows.txt");
}

void
ParseConfig(HpccConfigReader& r, const std::string& text)
{
    std::istringstream in(text);
    r.Parse(in, "config.txt");
}

/// Run `f`, return the message of the HpccInputError it throws ("" if none): the readers'
/// Validate() and the configuration getters report errors this way (issue 13).
template <typename F>
std::string
InputError(F f)
{
    try
    {
        f();
    }
    catch (const HpccInputError& e)
    {
        return e.what();
    }
    return "";
}

/// Path of the hpcc-compat example.
std::string
HpccCompatExample()
{
    return rdmatest::ExamplePath("hpcc-compat");
}

std::string
OutputDir(const std::string& name)
{
    const std::string sub = rdmatest::OutputDir() + "/" + name;
    mkdir(sub.c_str(), 0755);
    return sub;
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path);
    out << text;
}

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Split a file into lines of fields.
std::vector<std::vector<std::string>>
ReadRecords(const std::string& path)
{
    std::vector<std::vector<std::string>> records;
    std::istringstream in(ReadText(path));
    std::string line;
    while (std::getline(in, line))
    {
        records.push_back(HpccTopologyReader::SplitFields(line));
    }
    return records;
}

/// The shared benchmark configuration with other files and ECN off: every key of it is
/// accepted, and without ECN marks DCQCN stays at line rate (a fixed-rate run).
std::string
TinyConfig(const std::string& topology, const std::string& flows, const std::string& extra)
{
    std::set<std::string> replaced;
    {
        std::istringstream extraLines(extra);
        std::string line;
        while (std::getline(extraLines, line))
        {
            const auto f = HpccTopologyReader::SplitFields(line);
            if (!f.empty())
            {
                replaced.insert(f[0]);
            }
        }
    }
    std::istringstream in(ReadText(DataFile("config_dcqcn_a2a16.txt")));
    std::ostringstream out;
    std::string line;
    while (std::getline(in, line))
    {
        const auto f = HpccTopologyReader::SplitFields(line);
        if (!f.empty() && replaced.count(f[0]))
        {
            continue; // replaced below
        }
        if (!f.empty() && f[0] == "TOPOLOGY_FILE")
        {
            line = "TOPOLOGY_FILE " + topology;
        }
        else if (!f.empty() && f[0] == "FLOW_FILE")
        {
            line = "FLOW_FILE " + flows;
        }
        else if (!f.empty() && f[0] == "ENABLE_QCN")
        {
            line = "ENABLE_QCN 0";
        }
        out << line << "\n";
    }
    out << extra;
    return out.str();
}

/// Run the example (output files into dir, with extra command-line arguments); returns its
/// exit status, stdout+stderr in `output`.
int
RunExample(const std::string& dir,
           const std::string& config,
           std::string* output,
           const std::string& args = "")
{
    const std::string log = dir + "/log.txt";
    const std::string cmd = HpccCompatExample() + " --config=" + config + " --outDir=" + dir + " " +
                            args + " > " + log + " 2>&1";
    const int status = std::system(cmd.c_str());
    *output = ReadText(log);
    return status;
}

/// Write topo.txt, flows.txt and config.txt (TinyConfig plus `extraConfig`) of a 2 -> 1
/// incast of 1 MB flows through one switch into dir.
void
WriteTwoToOneIncast(const std::string& dir, const std::string& extraConfig)
{
    WriteFile(dir + "/topo.txt",
              "4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "2\n1 0 3 100 1000000 2.0\n2 0 3 100 1000000 2.0\n");
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", extraConfig));
}

/// TinyConfig additions for DCQCN with ECN thresholds low enough for a 1 MB buffer:
/// Kmin 10 KB, Kmax 50 KB, Pmax 1.
const char* const DCQCN_SMALL_BUFFER = "ENABLE_QCN 1\nBUFFER_SIZE 1\nKMIN_MAP 1 100000000000 10\n"
                                       "KMAX_MAP 1 100000000000 50\nPMAX_MAP 1 100000000000 1\n";

} // namespace

TEST(RdmaHpccCompat, SharedTopologyFileLoads)
{
    HpccTopologyReader topo;
    topo.Read(DataFile("fattree_k4.txt"));
    EXPECT_EQ(topo.GetNNodes(), 36u);
    EXPECT_EQ(topo.GetNSwitches(), 20u);
    EXPECT_EQ(topo.GetNHosts(), 16u);
    ASSERT_EQ(topo.GetLinks().size(), 48u);
    for (uint32_t i = 0; i < 36; ++i)
    {
        EXPECT_EQ(topo.IsSwitch(i), i >= 16) << i;
    }
    EXPECT_EQ(topo.GetSwitchIds().front(), 16u);
    EXPECT_EQ(topo.GetSwitchIds().back(), 35u);
    const HpccLink& first = topo.GetLinks().front();
    EXPECT_EQ(first.src, 0u);
    EXPECT_EQ(first.dst, 16u);
    EXPECT_EQ(first.rate.GetBitRate(), 100000000000ULL);
    EXPECT_EQ(first.delay, MicroSeconds(1)); // "0.001ms", exactly
    EXPECT_EQ(first.errorRate, 0.0);
    EXPECT_EQ(first.line, 3u);
    const HpccLink& last = topo.GetLinks().back();
    EXPECT_EQ(last.src, 31u);
    EXPECT_EQ(last.dst, 35u);
    EXPECT_EQ(last.line, 50u);

    // Build: nodes in file order, one device per host, k = 4 ports per switch.
    RdmaLinkHelper link;
    NodeContainer nodes = topo.Build(link);
    ASSERT_EQ(nodes.GetN(), 36u);
    EXPECT_EQ(topo.GetHosts(nodes).GetN(), 16u);
    EXPECT_EQ(topo.GetSwitches(nodes).GetN(), 20u);
    for (uint32_t i = 0; i < 36; ++i)
    {
        EXPECT_EQ(nodes.Get(i)->GetNDevices(), i < 16 ? 1u : 4u) << i;
    }
    Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(topo.GetLinkDevices(47).Get(1));
    EXPECT_EQ(d->GetNode(), nodes.Get(35));
    EXPECT_EQ(d->GetDataRate(), DataRate("100Gbps"));
    EXPECT_EQ(d->GetRdmaChannel()->GetDelay(), MicroSeconds(1));
    PointerValue em;
    d->GetAttribute("ReceiveErrorModel", em);
    EXPECT_FALSE(em.Get<ErrorModel>()); // error rate 0: no error model
    Simulator::Destroy();
}

TEST(RdmaHpccCompat, SharedFlowFilesLoad)
{
    HpccTopologyReader topo;
    topo.Read(DataFile("fattree_k4.txt"));
    HpccFlowReader a2a;
    a2a.Read(DataFile("flow_a2a16.txt"));
    a2a.Validate(topo);
    ASSERT_EQ(a2a.GetFlows().size(), 240u);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& f : a2a.GetFlows())
    {
        EXPECT_EQ(f.priorityGroup, 3);
        EXPECT_EQ(f.dport, 100);
        EXPECT_EQ(f.size, 1000000u);
        EXPECT_EQ(f.start, Seconds(2));
        pairs.insert({f.src, f.dst});
    }
    EXPECT_EQ(pairs.size(), 240u); // every ordered pair of the 16 hosts once
    EXPECT_EQ(a2a.GetFlows()[0].line, 2u);
    EXPECT_EQ(a2a.GetFlows()[239].src, 15u);
    EXPECT_EQ(a2a.GetFlows()[239].dst, 14u);

    HpccFlowReader incast;
    incast.Read(DataFile("flow_incast15.txt"));
    incast.Validate(topo);
    ASSERT_EQ(incast.GetFlows().size(), 15u);
    for (uint32_t i = 0; i < 15; ++i)
    {
        EXPECT_EQ(incast.GetFlows()[i].src, i + 1);
        EXPECT_EQ(incast.GetFlows()[i].dst, 0u);
    }
}

TEST(RdmaHpccCompat, SharedConfigFileLoads)
{
    HpccConfigReader cfg;
    cfg.Read(DataFile("config_dcqcn_a2a16.txt"));
    EXPECT_EQ(cfg.GetEntries().size(), 47u);
    EXPECT_EQ(cfg.GetDirectory(), std::string(RDMA_SOURCE_DIR) + "/test/data/hpcc");
    EXPECT_TRUE(cfg.GetBoolean("ENABLE_QCN"));
    EXPECT_EQ(cfg.GetUinteger("CC_MODE"), 1u);
    EXPECT_EQ(cfg.GetUinteger("PACKET_PAYLOAD_SIZE"), 1000u);
    EXPECT_EQ(cfg.GetString("TOPOLOGY_FILE"), "fattree_k4.txt");
    EXPECT_EQ(cfg.GetDouble("EWMA_GAIN", 0, 1), 1.0 / 256);
    EXPECT_EQ(cfg.GetDataRate("RATE_AI"), DataRate("20Mbps"));
    EXPECT_EQ(cfg.GetDataRate("MIN_RATE"), DataRate("1Gbps"));
    EXPECT_EQ(cfg.GetUinteger("LINK_DOWN", 0, UINT64_MAX, 2), 0u);
    const auto kmax = cfg.GetRateMap("KMAX_MAP");
    ASSERT_EQ(kmax.size(), 2u);
    EXPECT_EQ(kmax.at(100000000000ULL), 1600);
    EXPECT_EQ(kmax.at(400000000000ULL), 6400);
    EXPECT_EQ(cfg.GetRateMap("PMAX_MAP").at(100000000000ULL), 0.2);
    EXPECT_EQ(cfg.Get("KMIN_MAP").line, 53u);
    EXPECT_EQ(cfg.GetUnusedKeys().size(), 47u);
    cfg.MarkUsed("CC_MODE");
    EXPECT_EQ(cfg.GetUnusedKeys().size(), 46u);
    EXPECT_FALSE(cfg.Has("PAUSE_TIME"));
    EXPECT_TRUE(HpccConfigReader::IsKnownKey("QLEN_MON_END"));
    EXPECT_FALSE(HpccConfigReader::IsKnownKey("ENABLE_IRN"));
    EXPECT_EQ(HpccConfigReader::GetKnownKeys().size(), 50u);
}

TEST(RdmaHpccCompat, RatesAndTimesParseExactly)
{
    Time t;
    ASSERT_TRUE(HpccTopologyReader::ParseTime("0.001ms", &t));
    EXPECT_EQ(t, MicroSeconds(1));
    ASSERT_TRUE(HpccTopologyReader::ParseTime("2.5ns", &t));
    EXPECT_EQ(t, PicoSeconds(2500));
    ASSERT_TRUE(HpccTopologyReader::ParseTime("1", &t));
    EXPECT_EQ(t, Seconds(1));
    ASSERT_TRUE(HpccTopologyReader::ParseTime("0.0000001s", &t));
    EXPECT_EQ(t, NanoSeconds(100));
    ASSERT_TRUE(HpccTopologyReader::ParseTime("1500fs", &t)); // 1.5 ps rounds to 2 ps
    EXPECT_EQ(t, PicoSeconds(2));
    ASSERT_TRUE(HpccTopologyReader::ParseSeconds("2.000000001", &t));
    EXPECT_EQ(t, Seconds(2) + NanoSeconds(1));
    for (const char* bad : {"", "1m", "-1us", "1.2.3us", "us", "1 us", "abc"})
    {
        EXPECT_FALSE(HpccTopologyReader::ParseTime(bad, &t)) << "'" << bad << "'";
    }
    EXPECT_FALSE(HpccTopologyReader::ParseSeconds("-2", &t));
    DataRate r;
    ASSERT_TRUE(HpccTopologyReader::ParseDataRate("100Gbps", &r));
    EXPECT_EQ(r.GetBitRate(), 100000000000ULL);
    ASSERT_TRUE(HpccTopologyReader::ParseDataRate("20Mb/s", &r));
    EXPECT_EQ(r.GetBitRate(), 20000000ULL);
    for (const char* bad : {"", "100Gbs", "fast", "Gbps", "100 Gbps"})
    {
        EXPECT_FALSE(HpccTopologyReader::ParseDataRate(bad, &r)) << "'" << bad << "'";
    }
    uint64_t u = 0;
    EXPECT_TRUE(HpccTopologyReader::ParseUnsigned("18446744073709551615", &u));
    EXPECT_FALSE(HpccTopologyReader::ParseUnsigned("18446744073709551616", &u));
    EXPECT_FALSE(HpccTopologyReader::ParseUnsigned("-1", &u));
    EXPECT_FALSE(HpccTopologyReader::ParseUnsigned("1.0", &u));
}

TEST(RdmaHpccCompat, SmallInlineTopologyAndErrorRates)
{
    // Two hosts and a switch; the second link has its own error rate, the first takes the
    // default (ERROR_RATE_PER_LINK).
    HpccTopologyReader topo;
    ParseTopology(topo,
                  "3 1 2\n"
                  "2\n"
                  "\n"
                  "0 2 25Gbps 500ns 0\n"
                  "1 2 100Gbps 0.002ms 0.5\n");
    EXPECT_EQ(topo.GetLinks()[1].line, 5u);
    EXPECT_EQ(topo.GetLinks()[1].errorRate, 0.5);
    topo.SetDefaultErrorRate(0.25);
    RdmaLinkHelper link;
    NodeContainer nodes = topo.Build(link);
    double rates[2];
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            PointerValue pv;
            topo.GetLinkDevices(l).Get(i)->GetAttribute("ReceiveErrorModel", pv);
            Ptr<RateErrorModel> em = pv.Get<RateErrorModel>();
            ASSERT_TRUE(em);
            EXPECT_EQ(em->GetUnit(), RateErrorModel::ERROR_UNIT_PACKET);
            rates[l] = em->GetRate();
        }
    }
    EXPECT_EQ(rates[0], 0.25);
    EXPECT_EQ(rates[1], 0.5);
    EXPECT_EQ(topo.AssignStreams(10), 4);
    Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(nodes.Get(0)->GetDevice(0));
    EXPECT_EQ(d->GetDataRate(), DataRate("25Gbps"));
    EXPECT_EQ(d->GetRdmaChannel()->GetDelay(), NanoSeconds(500));
    Simulator::Destroy();
}

// The peer lets a host have several links (its RdmaHw hashes each QP onto one NIC); here
// such a host gets one NIC with a port per link, and traffic between two dual-homed hosts
// completes over both switches.
TEST(RdmaHpccCompat, DualHomedHostsGetTwoPortNics)
{
    HpccTopologyReader topo;
    ParseTopology(topo,
                  "4 2 4\n"
                  "2 3\n"
                  "0 2 100Gbps 1us 0\n"
                  "0 3 100Gbps 1us 0\n"
                  "1 2 100Gbps 1us 0\n"
                  "1 3 100Gbps 1us 0\n");
    RdmaLinkHelper link;
    NodeContainer nodes = topo.Build(link);
    RdmaHelper rdma;
    rdma.InstallSwitches(NodeContainer(nodes.Get(2), nodes.Get(3)));
    rdma.InstallHosts(NodeContainer(nodes.Get(0), nodes.Get(1)));
    RdmaRoutingHelper::PopulateRoutingTables();
    Ptr<RdmaNic> a = RdmaHelper::GetNic(nodes.Get(0));
    ASSERT_EQ(a->GetNDevices(), 2u);
    // Port p is the host's p-th link in file order.
    EXPECT_EQ(a->GetDevice(1)->GetRdmaChannel()->GetPeer(a->GetDevice(1))->GetNode(), nodes.Get(3));
    CompletionLog log;
    std::vector<Ptr<RdmaQueuePair>> requesters;
    for (int q = 0; q < 8; ++q)
    {
        auto [qa, qb] = rdma.Connect(nodes.Get(0), nodes.Get(1));
        log.Attach(qa, qb);
        PostWriteAt(qa, nodes.Get(0), MicroSeconds(1), 64 * 1024);
    }
    Simulator::Run();
    EXPECT_EQ(log.sends.size(), 8u);
    EXPECT_EQ(log.receives.size(), 8u);
    // Eight QPs hashed onto two ports: both carry traffic unless all eight land on one
    // port, which happens with probability 2 x 2^-8 for a uniform hash (this hash and
    // these addresses give a fixed, deterministic split).
    EXPECT_GT(a->GetDataPacketsSent(0), 0u);
    EXPECT_GT(a->GetDataPacketsSent(1), 0u);
    EXPECT_EQ(a->GetDataPacketsSent(0) + a->GetDataPacketsSent(1), 8u * 64u);
    Simulator::Destroy();
}

TEST(RdmaHpccCompatDeathTest, MalformedTopologyNamesFileLineAndField)
{
    HpccTopologyReader r;
    EXPECT_DEATH(ParseTopology(r, ""), "topo.txt: empty topology file");
    EXPECT_DEATH(ParseTopology(r, "3 1\n"),
                 "topo.txt:1: the header has 2 fields; valid: exactly 3");
    EXPECT_DEATH(ParseTopology(r, "x 1 2\n"),
                 "topo.txt:1: header field 1 .nodes. 'x' is not valid; valid: an unsigned integer");
    EXPECT_DEATH(ParseTopology(r, "2 3 0\n"), "topo.txt:1: header field 2 .switches. '3'");
    EXPECT_DEATH(ParseTopology(r, "3 2 1\n2\n"),
                 "topo.txt:2: the switch id line has 1 ids; valid: exactly 2");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n3\n"),
                 "topo.txt:2: switch id 1 '3' is not valid; valid: a node id 0 .. 2");
    EXPECT_DEATH(ParseTopology(r, "3 2 1\n2 2\n"), "topo.txt:2: switch id 2 '2' is listed twice");
    EXPECT_DEATH(ParseTopology(r, "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbs 1us 0\n"),
                 "topo.txt:4: link field 3 .rate. '100Gbs' is not valid; valid: a number with a "
                 "unit such as 100Gbps");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n0 2 100Gbps 1xs 0\n"),
                 "topo.txt:3: link field 4 .delay. '1xs' is not valid; valid: a non-negative "
                 "number with a unit s, ms, us, ns, ps or fs");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n0 2 100Gbps 1us 2\n"),
                 "topo.txt:3: link field 5 .error_rate. '2' is not valid; valid: a probability");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n0 7 100Gbps 1us 0\n"),
                 "topo.txt:3: link field 2 .dst. '7' is not valid; valid: a node id 0 .. 2");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n2 2 100Gbps 1us 0\n"),
                 "topo.txt:3: link field 2 .dst. '2' equals src");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n0 2 100Gbps 1us\n"),
                 "topo.txt:3: link 1 has 4 fields; valid: exactly 5");
    EXPECT_DEATH(ParseTopology(r, "3 1 2\n2\n0 2 100Gbps 1us 0\n"),
                 "topo.txt: the file ends after 1 links; the header .line 1. announces 2");
    EXPECT_DEATH(ParseTopology(r, "3 1 1\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n"),
                 "topo.txt:4: unexpected content '1 2 100Gbps 1us 0' after the 1 links");
    EXPECT_DEATH(
        {
            HpccTopologyReader twoRates;
            ParseTopology(twoRates,
                          "3 1 3\n2\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n0 2 2Gbps 1us 0\n");
            RdmaLinkHelper link;
            twoRates.Build(link);
        },
        "topo.txt:5: host 0 has links of 2000000000bps .this line. and 1000000000bps .line "
        "3.; the ports of a NIC need the same rate");
    EXPECT_DEATH(r.Read("/nonexistent/topology.txt"),
                 "cannot open HPCC topology file '/nonexistent/topology.txt'");
}

TEST(RdmaHpccCompatDeathTest, MalformedFlowsNameFileLineAndField)
{
    HpccFlowReader r;
    EXPECT_DEATH(ParseFlows(r, "two\n"), "flows.txt:1: the header 'two' is not valid");
    EXPECT_DEATH(ParseFlows(r, "1\n0 1 3 100 1000\n"),
                 "flows.txt:2: flow 1 has 5 fields; valid: exactly 6");
    EXPECT_DEATH(ParseFlows(r, "1\n0 1 8 100 1000 2.0\n"),
                 "flows.txt:2: flow field 3 .priority_group. '8' is not valid; valid: a "
                 "traffic class 0 .. 7");
    EXPECT_DEATH(ParseFlows(r, "1\n0 1 3 70000 1000 2.0\n"),
                 "flows.txt:2: flow field 4 .dport. '70000' is not valid; valid: a port");
    EXPECT_DEATH(ParseFlows(r, "1\n0 1 3 100 0 2.0\n"),
                 "flows.txt:2: flow field 5 .size_bytes. '0' is not valid; valid: a number of "
                 "bytes >= 1");
    EXPECT_DEATH(ParseFlows(r, "1\n\n0 1 3 100 10 -2\n"),
                 "flows.txt:3: flow field 6 .start_seconds. '-2' is not valid");
    EXPECT_DEATH(ParseFlows(r, "1\n1 1 3 100 10 2\n"),
                 "flows.txt:2: flow field 2 .dst. '1' equals src");
    EXPECT_DEATH(ParseFlows(r, "2\n0 1 3 100 10 2\n"),
                 "flows.txt: the file ends after 1 flows; the header .line 1. announces 2");
    EXPECT_DEATH(ParseFlows(r, "1\n0 1 3 100 10 2\n0 1 3 100 10 2\n"),
                 "flows.txt:3: unexpected content");
    EXPECT_TRUE(std::regex_search(
        InputError([] {
            HpccTopologyReader topo;
            ParseTopology(topo, "3 1 2\n2\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n");
            HpccFlowReader flows;
            ParseFlows(flows, "2\n0 1 3 100 10 2\n0 2 3 100 10 2\n");
            flows.Validate(topo);
        }),
        std::regex("flows.txt:3: flow field 2 .dst. '2' is a switch in the topology topo.txt")));
    EXPECT_TRUE(std::regex_search(
        InputError([] {
            HpccTopologyReader topo;
            ParseTopology(topo, "3 1 2\n2\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n");
            HpccFlowReader flows;
            ParseFlows(flows, "1\n9 1 3 100 10 2\n");
            flows.Validate(topo);
        }),
        std::regex("flows.txt:2: flow field 1 .src. '9' is not a node of the topology topo.txt")));
}

TEST(RdmaHpccCompatDeathTest, MalformedConfigNamesFileLineAndKey)
{
    HpccConfigReader r;
    EXPECT_DEATH(ParseConfig(r, "ENABLE_QCN 1\n\nENABLE_IRN 1\n"),
                 "config.txt:3: unknown key 'ENABLE_IRN'; valid keys");
    EXPECT_DEATH(ParseConfig(r, "CC_MODE 1\nCC_MODE 3\n"),
                 "config.txt:2: key CC_MODE is set a second time .first on line 1.");
    EXPECT_DEATH(ParseConfig(r, "CC_MODE\n"),
                 "config.txt:1: key CC_MODE has 0 values; valid: exactly 1");
    EXPECT_DEATH(ParseConfig(r, "LINK_DOWN 0 0\n"),
                 "config.txt:1: key LINK_DOWN has 2 values; valid: exactly 3");
    EXPECT_DEATH(ParseConfig(r, "KMAX_MAP 2 100000000000 1600\n"),
                 "config.txt:1: KMAX_MAP announces 2 pairs but has 2 values after the count");
    EXPECT_DEATH(ParseConfig(r, "KMIN_MAP x\n"), "config.txt:1: KMIN_MAP count 'x' is not valid");
    EXPECT_TRUE(std::regex_search(
        InputError([] {
            HpccConfigReader c;
            ParseConfig(c, "# a comment\nENABLE_QCN 2\n");
            c.GetBoolean("ENABLE_QCN");
        }),
        std::regex("config.txt:2: ENABLE_QCN 2: value '2' is not valid; valid: 0 or 1")));
    EXPECT_TRUE(std::regex_search(
        InputError([] {
            HpccConfigReader c;
            ParseConfig(c, "RATE_AI 20Mbs\n");
            c.GetDataRate("RATE_AI");
        }),
        std::regex("config.txt:1: RATE_AI 20Mbs: value '20Mbs' is not valid; valid: a data rate")));
    EXPECT_TRUE(std::regex_search(
        InputError([] {
            HpccConfigReader c;
            ParseConfig(c, "PMAX_MAP 1 100000000000 x\n");
            c.GetRateMap("PMAX_MAP");
        }),
        std::regex("config.txt:1: PMAX_MAP 1 100000000000 x: value 'x' .pair 1. is not valid")));
    EXPECT_TRUE(std::regex_search(InputError([] {
                                      HpccConfigReader c;
                                      ParseConfig(c, "CC_MODE 1\n");
                                      c.GetString("FLOW_FILE");
                                  }),
                                  std::regex("config.txt: key FLOW_FILE is required but not set")));
    EXPECT_DEATH(r.Read("/nonexistent/config.txt"),
                 "cannot open HPCC configuration file '/nonexistent/config.txt'");
}

TEST(RdmaHpccCompat, ExampleWritesFctInThePeersFormat)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    struct stat st;
    ASSERT_EQ(stat(HpccCompatExample().c_str(), &st), 0)
        << HpccCompatExample() << " is not built (build the hpcc-compat target)";
    // Hosts 0 and 1 on switch 2, 100 Gb/s and 1 us links; two flows that do not overlap:
    // 0 -> 1, 100000 bytes at 2.0 s, and 1 -> 0, 50000 bytes at 2.0001 s.
    const std::string dir = OutputDir("hpcc-compat-fct");
    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "2\n0 1 3 100 100000 2.0\n1 0 3 200 50000 2.0001\n");
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", ""));
    std::remove((dir + "/fct.txt").c_str());
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("not produced: qlen.txt"), std::string::npos) << output;

    const auto fct = ReadRecords(dir + "/fct.txt");
    ASSERT_EQ(fct.size(), 2u) << ReadText(dir + "/fct.txt");
    // Analytical FCT: the sender serializes all packets back to back (1000-byte payload,
    // 82 bytes of headers and framing, 16 more for the RETH of the first), the switch
    // starts forwarding once the first packet (87.84 ns at 100 Gb/s) is in and is never
    // starved after that, the ACK (86 wire bytes, 6.88 ns) comes back over both links;
    // 4 x 1 us of propagation:
    //   flow 0: 100 packets: (100 x 1082 + 16) x 0.08 ns = 8657.28 ns -> 12758.88 ns
    //   flow 1:  50 packets: (50 x 1082 + 16) x 0.08 ns = 4329.28 ns -> 8430.88 ns
    // fct.txt has whole nanoseconds (truncated, as the peer's GetTimeStep in ns).
    // Standalone FCT (the peer's formula, our framing): base RTT 2 x 2000 + 2 x 80 ns
    // (one payload per hop) + (size + packets x 82 + 16) x 0.08 ns.
    const std::vector<std::vector<std::string>> expected = {
        {"0b000001", "0b000101", "10000", "100", "100000", "2000000000", "12758", "12817"},
        {"0b000101", "0b000001", "10000", "200", "50000", "2000100000", "8430", "8489"},
    };
    EXPECT_EQ(fct[0], expected[0]);
    EXPECT_EQ(fct[1], expected[1]);
    // No congestion: no PFC frame.
    EXPECT_EQ(ReadText(dir + "/pfc.txt"), "");
}

TEST(RdmaHpccCompat, SourcePortsNumberedPerSourceDestinationPair)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    // The peer's scratch/third.cc keeps portNumder[src][dst], set to 10000 for every host
    // pair and incremented per flow of that pair: host 0's flows to 1, 2, 1 and 2 -> 1 use
    // source ports 10000, 10000, 10001 and 10000 (numbered per source host they would be
    // 10000, 10001, 10002 and 10000).
    const std::string dir = OutputDir("hpcc-compat-ports");
    WriteFile(dir + "/topo.txt",
              "4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt",
              "4\n0 1 3 100 1000 2.0\n0 2 3 100 1000 2.00001\n0 1 3 100 1000 2.00002\n"
              "2 1 3 100 1000 2.00003\n");
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", ""));
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    const auto fct = ReadRecords(dir + "/fct.txt");
    ASSERT_EQ(fct.size(), 4u) << ReadText(dir + "/fct.txt");
    std::map<std::string, std::string> portOfStart; // start_ns -> sport
    for (const auto& f : fct)
    {
        ASSERT_GE(f.size(), 6u);
        portOfStart[f[5]] = f[2];
    }
    EXPECT_EQ(portOfStart["2000000000"], "10000");
    EXPECT_EQ(portOfStart["2000010000"], "10000");
    EXPECT_EQ(portOfStart["2000020000"], "10001");
    EXPECT_EQ(portOfStart["2000030000"], "10000");
}

TEST(RdmaHpccCompat, ExampleWritesPfcInThePeersFormat)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    struct stat st;
    ASSERT_EQ(stat(HpccCompatExample().c_str(), &st), 0)
        << HpccCompatExample() << " is not built (build the hpcc-compat target)";
    // 2 -> 1 incast of 1 MB each through a 1 MB switch buffer: the switch pauses both
    // senders (hosts 1 and 2). Output names from the configuration.
    const std::string dir = OutputDir("hpcc-compat-pfc");
    WriteTwoToOneIncast(dir,
                        "BUFFER_SIZE 1\nFCT_OUTPUT_FILE mix/fct_incast.txt\nPFC_OUTPUT_FILE "
                        "pfc_incast.txt\n");
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;

    const auto fct = ReadRecords(dir + "/fct_incast.txt");
    ASSERT_EQ(fct.size(), 2u);
    // Lossless and work-conserving: the receiver's link carries both messages back to
    // back; the last completes after 2 x (1000 x 1082 + 16) x 0.08 ns = 173.1264 us plus
    // the last hop, the ACK and the first packet's way in (~3.2 us).
    const double lastFctUs = std::max(std::stod(fct[0][6]), std::stod(fct[1][6])) / 1000;
    EXPECT_GT(lastFctUs, 173.1264 + 2);
    EXPECT_LT(lastFctUs, 173.1264 + 5);

    const auto pfc = ReadRecords(dir + "/pfc_incast.txt");
    ASSERT_GE(pfc.size(), 2u);
    std::map<std::string, std::string> lastType;
    uint64_t previous = 0;
    for (const auto& rec : pfc)
    {
        // time_ns node_id node_type if_index type
        ASSERT_EQ(rec.size(), 5u);
        const uint64_t t = std::stoull(rec[0]);
        EXPECT_GE(t, 2000000000u);
        EXPECT_LE(t, 2000000000u + 180000);
        EXPECT_GE(t, previous); // in time order
        previous = t;
        EXPECT_TRUE(rec[1] == "1" || rec[1] == "2") << "paused node " << rec[1];
        EXPECT_EQ(rec[2], "0"); // a host
        EXPECT_EQ(rec[3], "1"); // its only port, device 0 + 1
        EXPECT_TRUE(rec[4] == "0" || rec[4] == "1");
        // Pause and resume alternate per node (no refresh: pauses are short here).
        EXPECT_NE(lastType[rec[1]], rec[4]) << "node " << rec[1] << " at " << t;
        lastType[rec[1]] = rec[4];
    }
    EXPECT_EQ(lastType["1"], "0"); // both senders resumed in the end
    EXPECT_EQ(lastType["2"], "0");
    EXPECT_NE(output.find("PFC: pause frames " + std::to_string(pfc.size() / 2)), std::string::npos)
        << output;
}

TEST(RdmaHpccCompat, ExampleRunsDcqcn)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    struct stat st;
    ASSERT_EQ(stat(HpccCompatExample().c_str(), &st), 0)
        << HpccCompatExample() << " is not built (build the hpcc-compat target)";
    // The 2 -> 1 incast with ECN on (the shared configuration's DCQCN parameters) and
    // thresholds low enough for the 1 MB buffer: Kmin 10 KB, Kmax 50 KB, Pmax 1.
    const std::string dir = OutputDir("hpcc-compat-dcqcn");
    WriteTwoToOneIncast(dir, DCQCN_SMALL_BUFFER);
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("-> ns3::DcqcnCongestionControl::G 0.00390625"), std::string::npos)
        << output;
    EXPECT_NE(output.find("-> ns3::DcqcnCongestionControl::RateIncreaseInterval 300 us"),
              std::string::npos)
        << output;
    // ACK_HIGH_PRIO 1 (the shared configuration's): the peer's switches still queue ACKs,
    // and the CNP flag they carry, with the data (third.cc never sets the switches'
    // AckHighPrio): ACKs and CNPs in the flows' class, DSCP (3 << 3) | 2.
    EXPECT_NE(output.find("ACK_HIGH_PRIO             1                  -> accepted: "
                          "ns3::RdmaNic::AckDscp -1"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("CNPs: DSCP 26 (the flows' data class"), std::string::npos) << output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(output, m, std::regex("ECN marks ([0-9]+), CNPs ([0-9]+)")))
        << output;
    // Every CE-marked packet that arrives makes a CNP (CnpInterval 0, like the peer).
    EXPECT_GT(std::stoull(m[1]), 10u);
    EXPECT_EQ(std::stoull(m[2]), std::stoull(m[1]));
    EXPECT_EQ(ReadRecords(dir + "/fct.txt").size(), 2u);
}

// ns-3's global --RngRun must reach the example (it used to be overridden by the example's
// own --run default): --RngRun=2 and --run=2 give the same random ECN marking, and one that
// differs from run 1's.
TEST(RdmaHpccCompat, ExampleHonoursRngRun)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir("hpcc-compat-rngrun");
    WriteTwoToOneIncast(dir, DCQCN_SMALL_BUFFER);
    auto run = [&](const std::string& args) {
        std::string output;
        EXPECT_EQ(RunExample(dir, dir + "/config.txt", &output, args), 0) << output;
        return ReadText(dir + "/fct.txt");
    };
    const std::string run1 = run("");
    const std::string rngRun2 = run("--RngRun=2");
    const std::string run2 = run("--run=2");
    ASSERT_FALSE(run1.empty());
    EXPECT_EQ(rngRun2, run2);
    // Random marking between Kmin and Kmax on hundreds of packets: another run cannot give
    // the same completion times to the nanosecond.
    EXPECT_NE(rngRun2, run1);
}

TEST(RdmaHpccCompat, ExampleRefusesWhatItCannotHonour)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    struct stat st;
    ASSERT_EQ(stat(HpccCompatExample().c_str(), &st), 0)
        << HpccCompatExample() << " is not built (build the hpcc-compat target)";
    const std::string dir = OutputDir("hpcc-compat-errors");
    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "1\n0 1 3 100 1000 2.0\n");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"CC_MODE 10\n",
         "CC_MODE 10: CC_MODE 10 .HPCC-PINT. is not supported; supported: 1 .DCQCN., 3 "
         ".HPCC., 7 .TIMELY., 8 .DCTCP."},
        {"CC_MODE 3\nMULTI_RATE 1\n",
         "MULTI_RATE 1: HPCC with a rate per hop is not supported; valid: MULTI_RATE 0"},
        {"CC_MODE 3\nHAS_WIN 1\nVAR_WIN 0\nMULTI_RATE 0\n",
         "VAR_WIN 0: HPCC's window is W = R x T .VAR_WIN 1.; a fixed BDP window"},
        {"LINK_DOWN 2000 0 2\n", "LINK_DOWN 2000 0 2: taking a link down is not supported yet"},
        {"RATE_BOUND 0\n", "RATE_BOUND 0: RATE_BOUND 0 .send at line rate"},
        {"L2_ACK_INTERVAL 0\n", "L2_ACK_INTERVAL 0: no acknowledgements at all is not supported"},
        {"PACKET_PAYLOAD_SIZE 9000\n",
         "PACKET_PAYLOAD_SIZE 9000: value '9000' is not valid; valid: an integer 1 .. 4096"},
    };
    for (const auto& [line, message] : cases)
    {
        WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", line));
        std::string output;
        EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0) << line;
        EXPECT_TRUE(std::regex_search(output, std::regex(message)))
            << "for '" << line << "' expected /" << message << "/ in:\n"
            << output;
        // The message names the file and the line of the key.
        EXPECT_NE(output.find(dir + "/config.txt:"), std::string::npos) << output;
    }
    // --ecmp=hpcc-sim hashes one destination port (the peer's flows carry the file's dport):
    // two dports are an option error with status 1 (it aborted).
    WriteFile(dir + "/twoports.txt", "2\n0 1 3 100 1000 2.0\n1 0 3 200 1000 2.0\n");
    {
        WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "twoports.txt", ""));
        std::string output;
        const int status = RunExample(dir, dir + "/config.txt", &output, "--ecmp=hpcc-sim");
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << output;
        EXPECT_NE(output.find("option --ecmp: value 'hpcc-sim' is not valid; valid: hpcc-sim only "
                              "with one dport for every flow"),
                  std::string::npos)
            << output;
    }
    // One RdmaSwitch has one Kmin/Kmax/Pmax: a switch with 100 and 400 Gb/s ports whose
    // KMIN_MAP entries differ (400 and 1600 KB in the shared configuration) is refused.
    WriteFile(dir + "/mixed.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 400Gbps 0.001ms 0\n");
    {
        WriteFile(dir + "/config.txt", TinyConfig("mixed.txt", "flows.txt", "ENABLE_QCN 1\n"));
        std::string output;
        EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0);
        EXPECT_NE(output.find("switch 2 has ports of 100000000000 and 400000000000 bit/s whose "
                              "ECN thresholds differ"),
                  std::string::npos)
            << output;
    }
    // A key of another simulator of the family.
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", "ENABLE_IRN 1\n"));
    std::string output;
    EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0);
    EXPECT_NE(output.find("unknown key 'ENABLE_IRN'"), std::string::npos) << output;
}

// Issue 13: the peer's headroom 3 x rate x delay was computed in 64 bits and wrapped (100 Gb/s
// x 0.184467441 s gave 9 bytes of headroom and drops in the lossless class); KMIN_MAP /
// KMAX_MAP values were cast from double to integer out of range (1e17 KB). Both are refused
// with the key, the value and the valid range, before the run.
TEST(RdmaHpccCompat, HeadroomAndEcnThresholdsDoNotWrap)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir("hpcc-compat-wrap");
    WriteFile(dir + "/flows.txt", "1\n0 1 3 100 1000 2.0\n");
    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.184467441s 0\n");
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", ""));
    std::string output;
    EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_TRUE(std::regex_search(
        output,
        std::regex("switch 2's port 1 .100000000000 bit/s, delay 184467441 ns in .*topo.txt. "
                   "needs a PFC headroom of 3 x rate x delay = 6917529036 bytes, more than "
                   "the buffer")))
        << output;
    EXPECT_EQ(output.find("terminate called"), std::string::npos) << output;

    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/config.txt",
              TinyConfig("topo.txt",
                         "flows.txt",
                         "ENABLE_QCN 1\nKMIN_MAP 1 100000000000 1e17\n"
                         "KMAX_MAP 1 100000000000 2e17\nPMAX_MAP 1 100000000000 0.2\n"));
    EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_TRUE(std::regex_search(output,
                                  std::regex("KMIN_MAP 1 100000000000 1e17: value 1e.17 for rate "
                                             "100000000000 is above the buffer")))
        << output;
}

namespace
{

/// MacTx sink: what the device would charge for the IPv4 packet.
void
RecordCharged(std::vector<uint32_t>* out, Ptr<RdmaNetDevice> dev, Ptr<const Packet> p)
{
    out->push_back(dev->GetPacketWireBytes(p));
}

} // namespace

TEST(RdmaHpccCompat, HpccSimulatorFramingChargesThePeersPacketBytes)
{
    // Framing HpccSimulator charges the bytes of the HPCC simulator's packets (its
    // RdmaHw::GetNxtPacket, RdmaHw::ReceiveUdp, QbbNetDevice::SendPfc; DCQCN: no INT):
    //   data: PPP 2 + IPv4 20 + UDP 8 + SeqTs 6 + payload  = payload + 36
    //   ACK:  PPP 2 + IPv4 20 + qbb 12 padded to 60 - 14 - 20 = 26  = 48
    //   CNP:  0 (the peer flags the ACK instead)
    //   PFC:  PPP 2 + IPv4 20 + pause 9                    = 31
    // Two senders into host 0 through a switch that marks every queued packet: each
    // sends 19 full packets and one of 500 bytes, without loss.
    Star star(3, "100Gbps", MicroSeconds(1));
    for (uint32_t i = 0; i < star.devices.GetN(); ++i)
    {
        star.devices.Get(i)->SetAttribute("Framing", EnumValue(RdmaNetDevice::HPCC_SIMULATOR));
    }
    star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    star.rdma.SetSwitchAttribute("EcnKmin", UintegerValue(0));
    star.rdma.SetSwitchAttribute("EcnKmax", UintegerValue(0));
    star.Install();
    std::vector<Ptr<RdmaQueuePair>> responders;
    for (uint32_t s = 1; s <= 2; ++s)
    {
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(s), star.hosts.Get(0));
        responders.push_back(peer);
        PostWriteAt(qp, star.hosts.Get(s), Seconds(0), 19500);
    }
    // What a pacer would charge for each IPv4 packet host 1 sends (GetPacketWireBytes).
    std::vector<uint32_t> charged;
    Ptr<RdmaNetDevice> sender = star.HostDevice(1);
    sender->TraceConnectWithoutContext("MacTx",
                                       MakeBoundCallback(&RecordCharged, &charged, sender));
    Simulator::Run();
    ASSERT_EQ(charged.size(), 20u);
    for (uint32_t i = 0; i < 19; ++i)
    {
        EXPECT_EQ(charged[i], 1036u) << "packet " << i;
    }
    EXPECT_EQ(charged[19], 536u);
    uint64_t cnps = 0;
    for (const auto& r : responders)
    {
        cnps += r->GetCnpsSent();
    }
    for (uint32_t s = 1; s <= 2; ++s)
    {
        EXPECT_EQ(star.HostDevice(s)->GetTxFrames(), 20u) << "sender " << s;
        EXPECT_EQ(star.HostDevice(s)->GetTxWireBytes(), 19u * 1036 + 536) << "sender " << s;
    }
    EXPECT_EQ(star.SwitchDevice(0)->GetTxWireBytes(), 2u * (19 * 1036 + 536));
    EXPECT_GT(cnps, 0u);
    EXPECT_EQ(star.HostDevice(0)->GetTxFrames(), 40u + cnps); // an ACK per packet, the CNPs
    EXPECT_EQ(star.HostDevice(0)->GetTxWireBytes(), 40u * 48);
    Simulator::Destroy();

    Ptr<Packet> pfc = Create<Packet>();
    pfc->AddHeader(PfcPauseHeader());
    EthernetHeader eth(false);
    eth.SetLengthType(RdmaNetDevice::ETHERTYPE_MAC_CONTROL);
    pfc->AddHeader(eth);
    EXPECT_EQ(RdmaNetDevice::HpccSimulatorWireBytes(pfc, 0), 31u);
    // HPCC (CC_MODE 3) carries a 42-byte INT header in data packets and ACKs (no pad).
    EXPECT_EQ(RdmaNetDevice::HpccSimulatorWireBytes(pfc, 42), 31u);
    // Ethernet framing charges the frame: a 1000-byte IPv4 packet is 1038 wire bytes.
    Ptr<RdmaNetDevice> ethernet = CreateObject<RdmaNetDevice>();
    EXPECT_EQ(ethernet->GetPacketWireBytes(Create<Packet>(1000)), 1038u);
}

TEST(RdmaHpccCompat, HpccEcmpHashIsMurmur3)
{
    // MurmurHash3_x86_32 reference vectors (Appleby's SMHasher): "" with seeds 0, 1 and
    // 0xffffffff, four zero bytes with seed 0, "aaaa" with seed 0x9747b28c.
    const uint8_t zeros[4] = {0, 0, 0, 0};
    const uint8_t aaaa[4] = {'a', 'a', 'a', 'a'};
    EXPECT_EQ(RdmaHpccEcmpLoadBalancer::Murmur3(zeros, 0, 0), 0u);
    EXPECT_EQ(RdmaHpccEcmpLoadBalancer::Murmur3(zeros, 0, 1), 0x514e28b7u);
    EXPECT_EQ(RdmaHpccEcmpLoadBalancer::Murmur3(zeros, 0, 0xffffffffu), 0x81f16f39u);
    EXPECT_EQ(RdmaHpccEcmpLoadBalancer::Murmur3(zeros, 4, 0), 0x2362f9deu);
    EXPECT_EQ(RdmaHpccEcmpLoadBalancer::Murmur3(aaaa, 4, 0x9747b28cu), 0x5a97808au);
}

TEST(RdmaHpccCompat, HpccEcmpTakesThePeersPaths)
{
    // The incast15 flows (host s -> host 0, source port 10000, dport 100) on the shared k = 4
    // fat-tree with RdmaHpccEcmpLoadBalancer (seed = node id) on every switch: walking the
    // forwarding decisions gives the paths the peer's code gives (SwitchNode::GetOutDev with
    // EcmpHash, next hops in its BFS order; computed independently from its source with a
    // Python port of EcmpHash): 9 of the 14 remote flows reach edge switch 16 through
    // aggregation switch 24, 5 through 25.
    HpccTopologyReader topo;
    topo.Read(DataFile("fattree_k4.txt"));
    RdmaLinkHelper link;
    NodeContainer nodes = topo.Build(link);
    RdmaHelper rdma;
    NodeContainer switches;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        if (topo.IsSwitch(i))
        {
            switches.Add(nodes.Get(i));
            continue;
        }
        const uint32_t address = 0x0b000001u + (i / 256) * 0x10000u + (i % 256) * 0x100u;
        rdma.SetBaseAddress(Ipv4Address(address & 0xffffff00u), Ipv4Mask("255.255.255.0"));
        rdma.InstallHost(nodes.Get(i));
    }
    rdma.InstallSwitches(switches);
    for (uint32_t id : topo.GetSwitchIds())
    {
        Ptr<RdmaHpccEcmpLoadBalancer> lb = CreateObject<RdmaHpccEcmpLoadBalancer>();
        lb->SetAttribute("Seed", UintegerValue(id));
        lb->SetAttribute("DestinationPort", UintegerValue(100));
        nodes.Get(id)->GetObject<RdmaSwitch>()->SetAttribute("LoadBalancer", PointerValue(lb));
    }
    RdmaRoutingHelper::PopulateRoutingTables(nodes);
    const std::vector<std::vector<uint32_t>> expected = {
        {1, 16, 0},
        {2, 17, 24, 16, 0},
        {3, 17, 25, 16, 0},
        {4, 18, 26, 33, 24, 16, 0},
        {5, 18, 27, 34, 25, 16, 0},
        {6, 19, 27, 35, 25, 16, 0},
        {7, 19, 27, 35, 25, 16, 0},
        {8, 20, 29, 34, 25, 16, 0},
        {9, 20, 28, 33, 24, 16, 0},
        {10, 21, 28, 33, 24, 16, 0},
        {11, 21, 28, 32, 24, 16, 0},
        {12, 22, 30, 32, 24, 16, 0},
        {13, 22, 30, 32, 24, 16, 0},
        {14, 23, 30, 33, 24, 16, 0},
        {15, 23, 30, 32, 24, 16, 0},
    };
    const Ipv4Address dst = RdmaHelper::GetNic(nodes.Get(0))->GetAddress();
    for (const auto& path : expected)
    {
        const Ipv4Address src = RdmaHelper::GetNic(nodes.Get(path[0]))->GetAddress();
        std::vector<uint32_t> walked = {path[0], path[1]}; // a host has one link
        uint32_t node = path[1];
        while (node != 0 && walked.size() < 10)
        {
            Ptr<RdmaSwitch> sw = nodes.Get(node)->GetObject<RdmaSwitch>();
            const int64_t port = sw->SelectEgressPort(src, dst, 17, 10000, 4791);
            ASSERT_GE(port, 0);
            Ptr<RdmaNetDevice> out = sw->GetPort(static_cast<uint32_t>(port));
            node = out->GetRdmaChannel()->GetPeer(out)->GetNode()->GetId();
            walked.push_back(node);
        }
        EXPECT_EQ(walked, path) << "flow from host " << path[0];
    }
    Simulator::Destroy();
}

TEST(RdmaHpccCompat, DctcpAndTimelyModesRunWithThePeersKeys)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    // CC_MODE 8 with the keys of the peer's run.py for DCTCP (window on, VAR_WIN 1, g 1/16,
    // DCTCP_RATE_AI 615 Mb/s) and a 30 KB step threshold: two 1 MB flows into one port.
    const std::string dir = OutputDir("hpcc-compat-dctcp");
    WriteTwoToOneIncast(dir,
                        "CC_MODE 8\nENABLE_QCN 1\nHAS_WIN 1\nVAR_WIN 1\nEWMA_GAIN 0.0625\n"
                        "DCTCP_RATE_AI 615Mb/s\nBUFFER_SIZE 1\nKMIN_MAP 1 100000000000 30\n"
                        "KMAX_MAP 1 100000000000 30\nPMAX_MAP 1 100000000000 1\n");
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("-> ns3::DctcpCongestionControl::AdditiveIncreaseRate 615Mb/s"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("-> ns3::DctcpCongestionControl::G 0.0625"), std::string::npos) << output;
    // The peer's T: 2 x (1 + 1) us of propagation + 2 x 1000 B x 8 / 100 Gb/s = 4160 ns;
    // BDP = 4160 ns x 100 Gb/s / 8 = 52000 bytes.
    EXPECT_NE(output.find("base RTT T (GLOBAL_T 1, the largest of the topology): 4160 ns, BDP "
                          "52000 bytes"),
              std::string::npos)
        << output;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(output, m, std::regex("ECN marks ([0-9]+), CNPs ([0-9]+)")))
        << output;
    EXPECT_GT(std::stoull(m[1]), 0u);
    // The peer sends no CNP outside DCQCN: the CE mark reaches DCTCP as the ACK's ECN echo
    // only (ns3::RdmaNic::CnpEnabled false), so the reverse path carries no CNP frame.
    EXPECT_EQ(std::stoull(m[2]), 0u) << output;
    EXPECT_NE(output.find("ns3::RdmaNic::CnpEnabled false"), std::string::npos) << output;
    // DCTCP (and the window) keep the queue far below the PFC threshold of a 1 MB buffer.
    EXPECT_NE(output.find("pause frames 0"), std::string::npos) << output;

    // CC_MODE 7 with the run.py TIMELY keys: AI 100 Mb/s, HAI 500 Mb/s, no window.
    WriteTwoToOneIncast(dir,
                        "CC_MODE 7\nHAS_WIN 0\nRATE_AI 100Mb/s\nRATE_HAI 500Mb/s\n"
                        "ACK_HIGH_PRIO 1\n");
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("-> ns3::TimelyCongestionControl::HyperIncreaseRate 500Mb/s"),
              std::string::npos)
        << output;
    EXPECT_EQ(output.find("base RTT T"), std::string::npos) << output; // no window, no T
}

// The HPCC simulator's DCQCN with a window (HAS_WIN 1; rdma-hw.cc, RdmaQueuePair::GetWin):
// win = line rate x T / 8 bytes, and with VAR_WIN 1 win x RC / line rate at every moment.
TEST(RdmaHpccCompat, DcqcnWindowIsThePeersBdpScaledByTheRate)
{
    // T = 12480 ns (the a2a16 fat-tree's largest base RTT) at 100 Gb/s:
    // BDP = 100e9 x 12480e-9 / 8 = 156000 bytes.
    auto make = [](bool useWindow, bool variable) {
        return ForkCongestionControl<DcqcnCongestionControl>(
            "ns3::DcqcnCongestionControl",
            {{"UseWindow", useWindow ? "true" : "false"},
             {"VariableWindow", variable ? "true" : "false"}});
    };
    auto fresh = []() {
        RdmaCcState st;
        st.lineRate = DataRate("100Gbps");
        st.mtu = 1000;
        st.baseRtt = NanoSeconds(12480);
        return st;
    };

    // Off (the default, the paper's and the NICs' DCQCN): no window, before and after a cut.
    {
        RdmaCcState st = fresh();
        Ptr<DcqcnCongestionControl> cc = make(false, false);
        cc->Init(st);
        EXPECT_EQ(st.window, 0u);
        cc->OnCnp(st);
        EXPECT_EQ(st.rate, DataRate("50Gbps")); // alpha 1: RC x (1 - 1/2)
        EXPECT_EQ(st.window, 0u);
        Simulator::Destroy();
    }
    // HAS_WIN 1, VAR_WIN 0: the full BDP whatever the rate.
    {
        RdmaCcState st = fresh();
        Ptr<DcqcnCongestionControl> cc = make(true, false);
        cc->Init(st);
        EXPECT_EQ(st.window, 156000u);
        cc->OnCnp(st);
        EXPECT_EQ(st.rate, DataRate("50Gbps"));
        EXPECT_EQ(st.window, 156000u);
        Simulator::Destroy();
    }
    // HAS_WIN 1, VAR_WIN 1: BDP x RC / line rate after the cut (50 Gb/s: 78000) and after the
    // first rate-increase timer (55 us, fast recovery: RC = (RT + RC) / 2 = 75 Gb/s: 117000).
    {
        RdmaCcState st = fresh();
        Ptr<DcqcnCongestionControl> cc = make(true, true);
        cc->Init(st);
        EXPECT_EQ(st.window, 156000u); // at line rate
        cc->OnCnp(st);
        EXPECT_EQ(st.window, 78000u);
        Simulator::Stop(MicroSeconds(56));
        Simulator::Run();
        EXPECT_EQ(st.rate, DataRate("75Gbps"));
        EXPECT_EQ(st.window, 117000u);
        Simulator::Destroy();
    }
    // No BaseRtt given: the queue pair takes it from the RTT samples (the smallest so far) and
    // the window follows at the next acknowledgement: 4160 ns -> 52000 bytes.
    {
        RdmaCcState st = fresh();
        st.baseRtt = Time(0);
        Ptr<DcqcnCongestionControl> cc = make(true, true);
        cc->Init(st);
        EXPECT_EQ(st.window, 0u);
        st.baseRtt = NanoSeconds(4160);
        RdmaAckFeedback fb;
        cc->OnAck(st, fb);
        EXPECT_EQ(st.window, 52000u);
        Simulator::Destroy();
    }
}

// End to end: the queue pair enforces DCQCN's window. One flow through one switch (1 us
// links, 1000-byte payloads); BaseRtt 2 us gives W = 100 Gb/s x 2 us / 8 = 25000 bytes,
// less than the path holds (RTT 4186.88 ns: a 1082-byte data frame (86.56 ns) and an 86-byte
// ACK frame (6.88 ns) serialized twice each, 4 x 1 us of propagation). Nothing queues, so no
// CNP, and Little's law gives goodput W / RTT = 25000 x 8 / 4186.88 ns = 47.77 Gb/s; without
// the window the flow runs at line rate (92.42 Gb/s of goodput).
TEST(RdmaHpccCompat, DcqcnWindowCapsBytesInFlightAtTheBdp)
{
    constexpr uint32_t mtu = 1000;
    constexpr uint64_t window = 25000;
    const double rtt = 2 * (86.56e-9 + 6.88e-9 + 2e-6);
    for (bool useWindow : {true, false})
    {
        Star star(2, "100Gbps", MicroSeconds(1));
        star.rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
        star.rdma.SetCongestionControl("ns3::DcqcnCongestionControl",
                                       "UseWindow",
                                       BooleanValue(useWindow),
                                       "VariableWindow",
                                       BooleanValue(true));
        star.rdma.SetQueuePairAttribute("BaseRtt", TimeValue(NanoSeconds(2000)));
        star.Install();
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        CompletionLog log;
        log.Attach(qp, peer);
        uint64_t maxInFlight = 0;
        qp->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](uint64_t* max, Ptr<RdmaQueuePair> q, uint64_t, bool) {
                    *max = std::max(*max, q->GetCcState().bytesInFlight);
                },
                &maxInFlight,
                qp));
        const uint32_t messages = 20;
        for (uint32_t i = 0; i < messages; ++i)
        {
            PostWriteAt(qp, star.hosts.Get(1), Seconds(0), 100 * mtu, i);
        }
        Simulator::Run();
        ASSERT_EQ(log.sends.size(), messages);
        EXPECT_EQ(qp->GetCnpsReceived(), 0u);
        // Steady state: completions 5 to 20.
        uint64_t bytes = 0;
        for (std::size_t i = 5; i < messages; ++i)
        {
            bytes += log.sends[i].length;
        }
        const double goodput =
            bytes * 8.0 /
            (log.sends.back().completionTime - log.sends[4].completionTime).GetSeconds();
        if (useWindow)
        {
            EXPECT_EQ(qp->GetCcState().window, window);
            // A packet leaves only while fewer than W bytes are in flight.
            EXPECT_LT(maxInFlight, window + mtu);
            EXPECT_GE(maxInFlight, window);
            EXPECT_NEAR(goodput / (window * 8.0 / rtt), 1.0, 0.02) << goodput;
        }
        else
        {
            EXPECT_EQ(qp->GetCcState().window, 0u);
            // The path's pipe at line rate: RTT x 92.42 Gb/s / 8 = 48.4 KB of payload.
            EXPECT_GT(maxInFlight, 45000u);
            EXPECT_NEAR(goodput / AnalyticalGoodput(100e9, mtu), 1.0, 0.02) << goodput;
        }
        Simulator::Destroy();
    }
}

// hpcc-compat maps the peer's DCQCN window keys: HAS_WIN 1 -> UseWindow, VAR_WIN ->
// VariableWindow, GLOBAL_T 1 -> BaseRtt = the topology's largest base RTT, GLOBAL_T 0 -> each
// flow's own pair's base RTT.
TEST(RdmaHpccCompat, DcqcnWindowVariantsRunWithThePeersKeys)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir("hpcc-compat-dcqcn-window");
    std::string output;
    // The 2 -> 1 incast with DCQCN and the window scaled by the rate.
    WriteTwoToOneIncast(dir,
                        std::string(DCQCN_SMALL_BUFFER) + "HAS_WIN 1\nVAR_WIN 1\nGLOBAL_T 1\n");
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("-> ns3::DcqcnCongestionControl::UseWindow true"), std::string::npos)
        << output;
    EXPECT_NE(output.find("-> ns3::DcqcnCongestionControl::VariableWindow true"), std::string::npos)
        << output;
    // T = 2 x (1 + 1) us + 2 x 1000 B x 8 / 100 Gb/s = 4160 ns; BDP 52000 bytes.
    EXPECT_NE(output.find("base RTT T (GLOBAL_T 1, the largest of the topology): 4160 ns, BDP "
                          "52000 bytes"),
              std::string::npos)
        << output;
    const std::string globalFct = ReadText(dir + "/fct.txt");

    // GLOBAL_T 0: every pair of this star has the same base RTT, so the same run.
    WriteTwoToOneIncast(dir,
                        std::string(DCQCN_SMALL_BUFFER) + "HAS_WIN 1\nVAR_WIN 1\nGLOBAL_T 0\n");
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("-> RdmaQueuePair::BaseRtt per flow"), std::string::npos) << output;
    EXPECT_EQ(ReadText(dir + "/fct.txt"), globalFct);

    // HAS_WIN 1 with ENABLE_QCN 0: DCQCN is never cut, the window still applies. Two flows
    // into one port through a 1 MB buffer: without a window the switch pauses the senders
    // (ExampleWritesPfcInThePeersFormat); with two windows of 52000 bytes at most about
    // 2 x 52000 - 52000 bytes can queue (the pipe holds one BDP), 26 KB per ingress port,
    // far below the dynamic PFC threshold (about 1/8 of the free buffer, ~110 KB).
    WriteTwoToOneIncast(dir, "BUFFER_SIZE 1\nHAS_WIN 1\nVAR_WIN 0\n");
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("ns3::DcqcnCongestionControl with its default parameters (never cut) "
                          "and the window"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("-> ns3::DcqcnCongestionControl::VariableWindow false (the full BDP)"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("PFC: pause frames 0 "), std::string::npos) << output;
    WriteTwoToOneIncast(dir, "BUFFER_SIZE 1\nHAS_WIN 0\n");
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_EQ(output.find("PFC: pause frames 0 "), std::string::npos) << output;
}

// The peer's window is T x the path's bottleneck rate, this module's T x the NIC's line rate:
// where they differ (a 100 Gb/s host behind a 40 Gb/s link) the window is refused.
TEST(RdmaHpccCompat, WindowThatIsNotThePeersIsRefused)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir("hpcc-compat-window-refused");
    // Host 0 -- 100G -- switch 2 -- 40G -- switch 3 -- 100G -- host 1.
    WriteFile(dir + "/topo.txt",
              "4 2 3\n2 3\n0 2 100Gbps 0.001ms 0\n2 3 40Gbps 0.001ms 0\n"
              "3 1 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "1\n0 1 3 100 100000 2.0\n");
    WriteFile(dir + "/config.txt",
              TinyConfig("topo.txt", "flows.txt", "HAS_WIN 1\nGLOBAL_T 0\nVAR_WIN 1\n"));
    std::string output;
    EXPECT_NE(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    // RTT = 2 x 3 us + 1000 B x 8 x (2 / 100 + 1 / 40) ns = 6360 ns; the peer's window
    // 6360 ns x 40 Gb/s / 8 = 31800 bytes, ours at 100 Gb/s 79500.
    EXPECT_TRUE(std::regex_search(
        output,
        std::regex("HAS_WIN 1: flow 0 .host 0 -> 1.: the peer's window is 31800 bytes .T x the "
                   "bottleneck rate., this module's would be 79500")))
        << output;
    // Without a window the same topology runs.
    WriteFile(dir + "/config.txt", TinyConfig("topo.txt", "flows.txt", "HAS_WIN 0\n"));
    EXPECT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
}

// --framing=hpcc-sim charges the peer's INT header of the CC mode (third.cc sets
// IntHeader::mode from CC_MODE; IntHeader::GetStaticSize): TIMELY's data packets carry its
// 8-byte timestamp, 1044 bytes for a 1000-byte payload (its ACKs stay 48: 12 + 8 < 26 bytes
// after the IPv4 header).
TEST(RdmaHpccCompat, HpccSimulatorFramingChargesTimelysTimestamp)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    // One 100000-byte flow, host 0 -> 1 through one switch, 100 Gb/s (0.08 ns per byte), 1 us
    // links; TIMELY never leaves line rate (the RTT stays below T_low). The sender serializes
    // 100 packets back to back, 100 x 1044 x 0.08 = 8352 ns; the last one crosses the switch
    // (83.52 ns), its ACK comes back over two links (2 x 48 x 0.08 = 7.68 ns), 4 x 1 us of
    // propagation: FCT 12443.2 ns (fct.txt truncates to 12443). Without the timestamp it
    // would be 100 x 1036 x 0.08 + 82.88 + 7.68 + 4000 = 12378.56 ns.
    const std::string dir = OutputDir("hpcc-compat-timely-framing");
    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "1\n0 1 3 100 100000 2.0\n");
    WriteFile(dir + "/config.txt",
              TinyConfig("topo.txt",
                         "flows.txt",
                         "CC_MODE 7\nHAS_WIN 0\nRATE_AI 100Mb/s\nRATE_HAI 500Mb/s\n"));
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output, "--framing=hpcc-sim"), 0) << output;
    EXPECT_NE(output.find("data payload + 44 (36 + TIMELY's 8-byte INT timestamp)"),
              std::string::npos)
        << output;
    const auto fct = ReadRecords(dir + "/fct.txt");
    ASSERT_EQ(fct.size(), 1u);
    ASSERT_GE(fct[0].size(), 7u);
    EXPECT_EQ(fct[0][6], "12443") << ReadText(dir + "/fct.txt");
}

// The HPCC simulator's TIMELY with a window (run.py timely_vwin: HAS_WIN 1, VAR_WIN 1):
// win = line rate x T / 8 bytes, x rate / line rate with VAR_WIN, as for DCQCN and DCTCP.
TEST(RdmaHpccCompat, TimelyWindowIsThePeersBdpScaledByTheRate)
{
    for (bool variable : {true, false})
    {
        Ptr<TimelyCongestionControl> cc = ForkCongestionControl<TimelyCongestionControl>(
            "ns3::TimelyCongestionControl",
            {{"UseWindow", "true"}, {"VariableWindow", variable ? "true" : "false"}});
        RdmaCcState st;
        st.lineRate = DataRate("100Gbps");
        st.mtu = 1000;
        st.baseRtt = NanoSeconds(12480); // BDP 156000 bytes
        cc->Init(st);
        EXPECT_EQ(st.window, 156000u);
        // The first completion event only records the RTT; the next one, past the snd_nxt of
        // the first (10000), sees 1000 us > T_high = 500 us: rate x (1 - 0.8 (1 - 500 /
        // 1000)) = 0.6 x 100 Gb/s = 60 Gb/s, window 156000 x 0.6 = 93600 with VAR_WIN.
        st.bytesSent = 10000;
        RdmaAckFeedback fb;
        fb.rtt = MicroSeconds(20);
        fb.ackedUpToBytes = 1000;
        cc->OnAck(st, fb);
        fb.rtt = MicroSeconds(1000);
        fb.ackedUpToBytes = 10001;
        cc->OnAck(st, fb);
        EXPECT_EQ(st.rate, DataRate("60Gbps"));
        EXPECT_EQ(st.window, variable ? 93600u : 156000u);
    }
    // Off (the default, the paper's TIMELY): no window.
    Ptr<TimelyCongestionControl> off =
        ForkCongestionControl<TimelyCongestionControl>("ns3::TimelyCongestionControl", {});
    RdmaCcState st;
    st.lineRate = DataRate("100Gbps");
    st.baseRtt = NanoSeconds(12480);
    off->Init(st);
    EXPECT_EQ(st.window, 0u);
}

TEST(RdmaHpccCompat, TimelyWindowVariantRunsWithThePeersKeys)
{
    if (HpccCompatExample().empty())
    {
        GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
    }
    const std::string dir = OutputDir("hpcc-compat-timely-window");
    WriteTwoToOneIncast(dir,
                        "CC_MODE 7\nHAS_WIN 1\nVAR_WIN 1\nRATE_AI 100Mb/s\nRATE_HAI 500Mb/s\n"
                        "BUFFER_SIZE 1\n");
    std::string output;
    ASSERT_EQ(RunExample(dir, dir + "/config.txt", &output), 0) << output;
    EXPECT_NE(output.find("flows completed 2/2"), std::string::npos) << output;
    EXPECT_NE(output.find("-> ns3::TimelyCongestionControl::UseWindow true"), std::string::npos)
        << output;
    EXPECT_NE(output.find("-> ns3::TimelyCongestionControl::VariableWindow true"),
              std::string::npos)
        << output;
    EXPECT_NE(output.find("base RTT T (GLOBAL_T 1, the largest of the topology): 4160 ns, BDP "
                          "52000 bytes"),
              std::string::npos)
        << output;
    // Two windows of at most 52000 bytes cannot fill the PFC threshold of a 1 MB buffer
    // (DcqcnWindowVariantsRunWithThePeersKeys has the arithmetic).
    EXPECT_NE(output.find("PFC: pause frames 0 "), std::string::npos) << output;
}
