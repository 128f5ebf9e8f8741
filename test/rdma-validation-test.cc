/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad input stops with a message that names the offending value and what would be valid.

#include "rdma-test-utils.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::rdmatest;

TEST(RdmaValidationDeathTest, UnknownCongestionControlTypeId)
{
    RdmaHelper rdma;
    EXPECT_DEATH(rdma.SetCongestionControl("ns3::NoSuchCongestionControl"),
                 "unknown congestion control TypeId 'ns3::NoSuchCongestionControl'; valid: "
                 ".*ns3::RdmaFixedRateCongestionControl");
}

TEST(RdmaValidationDeathTest, UnknownLossRecoveryTypeId)
{
    RdmaHelper rdma;
    // A real TypeId of the wrong kind is refused too.
    EXPECT_DEATH(rdma.SetLossRecovery("ns3::RdmaFixedRateCongestionControl"),
                 "unknown loss recovery TypeId 'ns3::RdmaFixedRateCongestionControl'; valid: "
                 ".*ns3::RdmaGoBackNLossRecovery");
}

TEST(RdmaValidationDeathTest, UnknownSchedulerTypeId)
{
    EXPECT_DEATH(RdmaHelper::SetScheduler("ns3::NoSuchScheduler"),
                 "unknown scheduler TypeId 'ns3::NoSuchScheduler'; valid: "
                 ".*ns3::PriorityQueueScheduler");
}

// The helper sets ns-3's SchedulerType (the fastest by default), which --SchedulerType on a
// command line parsed afterwards still overrides.
TEST(RdmaValidation, SetSchedulerBindsSchedulerType)
{
    StringValue saved;
    GlobalValue::GetValueByName("SchedulerType", saved);
    RdmaHelper::SetScheduler();
    StringValue v;
    GlobalValue::GetValueByName("SchedulerType", v);
    EXPECT_EQ(v.Get(), "ns3::RdmaRadixScheduler");
    RdmaHelper::SetScheduler("ns3::MapScheduler");
    GlobalValue::GetValueByName("SchedulerType", v);
    EXPECT_EQ(v.Get(), "ns3::MapScheduler");
    EXPECT_EQ(GlobalValueAfterCommandLine("--SchedulerType=ns3::HeapScheduler", "SchedulerType"),
              "ns3::HeapScheduler");
    GlobalValue::Bind("SchedulerType", saved);
}

TEST(RdmaValidationDeathTest, EcnKminAboveKmax)
{
    EXPECT_DEATH(
        {
            Star star(2, "100Gbps", MicroSeconds(1));
            star.rdma.SetSwitchAttribute("EcnKmin", UintegerValue(400000));
            star.rdma.SetSwitchAttribute("EcnKmax", UintegerValue(100000));
            star.Install();
            Simulator::Run();
        },
        "400000.*100000");
}

TEST(RdmaValidationDeathTest, QueuePairToUnreachableHost)
{
    EXPECT_DEATH(
        {
            Star a(2, "100Gbps", MicroSeconds(1));
            a.Install();
            Star b(2, "100Gbps", MicroSeconds(1));
            b.rdma.SetBaseAddress("10.1.0.0", "255.255.0.0");
            b.Install();
            a.rdma.Connect(a.hosts.Get(0), b.hosts.Get(1));
        },
        "host 10\\.1\\.0\\.2 \\(node [0-9]+\\) is unreachable from host 10\\.0\\.0\\.1");
}

TEST(RdmaValidationDeathTest, PathMtuLargerThanPortMtu)
{
    EXPECT_DEATH(
        {
            Star star(2, "100Gbps", MicroSeconds(1));
            star.HostDevice(1)->SetAttribute("Mtu", UintegerValue(1500));
            star.rdma.SetNicAttribute("Mtu", UintegerValue(4096));
            star.Install();
            star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        },
        "RdmaNic::Mtu 4096 .* exceeds the port's IP MTU 1500");
}

TEST(RdmaValidationDeathTest, FixedRateAboveLineRate)
{
    EXPECT_DEATH(
        {
            Star star(2, "25Gbps", MicroSeconds(1));
            star.rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl",
                                           "Rate",
                                           DataRateValue(DataRate("40Gbps")));
            star.Install();
            star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        },
        "Rate 40000000000bps exceeds the line rate 25000000000bps");
}

TEST(RdmaValidationDeathTest, HostWithoutLink)
{
    EXPECT_DEATH(
        {
            Ptr<Node> lonely = CreateObject<Node>();
            RdmaHelper rdma;
            rdma.InstallHost(lonely);
        },
        "has no RdmaNetDevice; connect it with RdmaLinkHelper first");
}

TEST(RdmaOutputHelper, CreatesTheFoldersOfAnOutputPath)
{
    const std::string root = OutputDir() + "/output-helper";
    std::filesystem::remove_all(root);
    RdmaOutputHelper::CreateParentDirectories(root + "/a/b/results.csv");
    EXPECT_TRUE(std::filesystem::is_directory(root + "/a/b"));
    EXPECT_FALSE(std::filesystem::exists(root + "/a/b/results.csv"));
    RdmaOutputHelper::CreateParentDirectories("bare-file-name.csv"); // nothing to create
    RdmaOutputHelper::CreateDirectories(root + "/a/b");              // already there: fine
    std::filesystem::remove_all(root);
}

TEST(RdmaValidationDeathTest, OutputDirectoryThatCannotBeCreated)
{
    EXPECT_DEATH(RdmaOutputHelper::CreateParentDirectories("/proc/no-such-dir/x.csv"),
                 "cannot create the output directory '/proc/no-such-dir'");
}
