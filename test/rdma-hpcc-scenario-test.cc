/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// HpccScenarioHelper in-process: the configuration mapping, topology and flow building and
// the peer's output formats of examples/hpcc-compat, run without the example program.
// test/rdma-hpcc-compat-test.cc runs the program itself on the same scenarios.

#include "rdma-test-utils.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <regex>
#include <sstream>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

std::string
ScenarioDir(const std::string& name)
{
    const std::string dir = rdmatest::OutputDir() + "/" + name;
    std::filesystem::create_directories(dir);
    return dir;
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Replace the line of `key` in a configuration's text (the key must be there).
std::string
SetKey(const std::string& text, const std::string& key, const std::string& value)
{
    const std::regex line("(^|\\n)" + key + " [^\\n]*");
    EXPECT_TRUE(std::regex_search(text, line)) << key;
    return std::regex_replace(text, line, "$1" + key + " " + value);
}

/// The shared benchmark configuration (test/data/hpcc) with other files and ECN off.
std::string
SharedConfig(const std::string& topology, const std::string& flows)
{
    std::string text =
        ReadText(std::string(RDMA_SOURCE_DIR) + "/test/data/hpcc/config_dcqcn_a2a16.txt");
    text = SetKey(text, "TOPOLOGY_FILE", topology);
    text = SetKey(text, "FLOW_FILE", flows);
    return SetKey(text, "ENABLE_QCN", "0");
}

/// Two hosts on one switch, 100 Gb/s and 1 us links, two flows that do not overlap.
std::string
WriteTwoHostScenario(const std::string& name, const std::string& ccMode = "1")
{
    const std::string dir = ScenarioDir(name);
    WriteFile(dir + "/topo.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
    WriteFile(dir + "/flows.txt", "2\n0 1 3 100 100000 2.0\n1 0 3 200 50000 2.0001\n");
    WriteFile(dir + "/config.txt",
              SetKey(SharedConfig("topo.txt", "flows.txt"), "CC_MODE", ccMode));
    return dir;
}

/// Configure with `dir`/config.txt; return the HpccInputError's message ("" if none).
std::string
ConfigureError(HpccScenarioHelper& scenario, const std::string& dir)
{
    try
    {
        scenario.Configure(dir + "/config.txt");
    }
    catch (const HpccInputError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// The helper runs the scenario of RdmaHpccCompat.ExampleWritesFctInThePeersFormat in-process
// and writes the same analytical FCTs (its comment derives them: (packets x 1082 + 16) x
// 0.08 ns of serialization, one packet's store-and-forward, the ACK and 4 us of propagation;
// standalone FCT base RTT 4160 ns + the same bytes at 100 Gb/s).
TEST(RdmaHpccScenarioHelper, RunsInProcessWithThePeersFctFormat)
{
    const std::string dir = WriteTwoHostScenario("hpcc-scenario-fct");
    HpccScenarioHelper scenario;
    scenario.SetOutputDirectory(dir + "/out");
    scenario.Configure(dir + "/config.txt");
    EXPECT_EQ(scenario.GetNFlows(), 2u);
    std::ostringstream report;
    scenario.PrintConfiguration(report);
    // Every key is reported: e.g. the DCQCN mode without ECN and the MTU.
    EXPECT_NE(report.str().find("ns3::RdmaNic::Mtu 1000"), std::string::npos) << report.str();
    EXPECT_NE(report.str().find("ENABLE_QCN"), std::string::npos) << report.str();
    scenario.Install();
    EXPECT_EQ(scenario.GetNodes().GetN(), 3u);
    scenario.Run();
    EXPECT_EQ(scenario.GetNFlowsCompleted(), 2u);
    std::ostringstream summary;
    scenario.PrintSummary(summary);
    EXPECT_NE(summary.str().find("flows completed 2/2"), std::string::npos) << summary.str();
    Simulator::Destroy();
    EXPECT_EQ(ReadText(scenario.GetFctPath()),
              "0b000001 0b000101 10000 100 100000 2000000000 12758 12817\n"
              "0b000101 0b000001 10000 200 50000 2000100000 8430 8489\n");
    EXPECT_EQ(ReadText(scenario.GetPfcPath()), ""); // no congestion, no PFC frame
}

// The peer's addresses: 11.(i/256).(i%256).1.
TEST(RdmaHpccScenarioHelper, AddressesAreThePeers)
{
    EXPECT_EQ(HpccScenarioHelper::HpccAddress(0), Ipv4Address("11.0.0.1"));
    EXPECT_EQ(HpccScenarioHelper::HpccAddress(257), Ipv4Address("11.1.1.1"));
}

// Bad input is an HpccInputError naming the key and what is valid, thrown by Configure
// before anything is built.
TEST(RdmaHpccScenarioHelper, BadConfigurationThrowsNamingTheKey)
{
    {
        const std::string dir = WriteTwoHostScenario("hpcc-scenario-ccmode", "10");
        HpccScenarioHelper scenario;
        const std::string e = ConfigureError(scenario, dir);
        EXPECT_NE(e.find("CC_MODE"), std::string::npos) << e;
        EXPECT_NE(e.find("HPCC-PINT"), std::string::npos) << e;
        EXPECT_NE(e.find("supported: 1 (DCQCN)"), std::string::npos) << e;
    }
    {
        const std::string dir = WriteTwoHostScenario("hpcc-scenario-flowfile");
        WriteFile(dir + "/config.txt", SharedConfig("topo.txt", "missing.txt"));
        HpccScenarioHelper scenario;
        const std::string e = ConfigureError(scenario, dir);
        EXPECT_NE(e.find("FLOW_FILE"), std::string::npos) << e;
        EXPECT_NE(e.find("missing.txt' not found"), std::string::npos) << e;
    }
    {
        // A flow to a node that is a switch: the flow reader's Validate names the line.
        const std::string dir = WriteTwoHostScenario("hpcc-scenario-flowdst");
        WriteFile(dir + "/flows.txt", "1\n0 2 3 100 1000 2.0\n");
        HpccScenarioHelper scenario;
        const std::string e = ConfigureError(scenario, dir);
        EXPECT_NE(e.find("flows.txt"), std::string::npos) << e;
    }
}
