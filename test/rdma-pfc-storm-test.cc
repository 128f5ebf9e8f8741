/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// examples/pfc-storm: a broken NIC's pause storm spreads through a k = 4 fat-tree.
//
// Expected values, from first principles:
//  - no storm: every flow gets its offered rate times the payload share of a packet,
//    4 Gb/s x 1024 / (1024 + 82) = 3.7034 Gb/s (fixed-rate congestion control paces wire
//    bytes), and no link is loaded enough for a single pause: a host's 15 flows offer
//    60 Gb/s, and the busiest fabric link under ECMP carries far fewer than the 25 flows
//    that would overload it;
//  - storm: the flows to the broken host stop at once (its ToR port to it is paused); the
//    pause then climbs hop by hop (ToR -> aggregation -> core -> other pods' aggregation ->
//    their ToRs -> hosts), because a paused queue stops the whole lossless class on that
//    link; after 1 ms of storm the fabric carries almost nothing, no packet is dropped (the
//    class is lossless), and once the NIC sends XON every flow completes;
//  - with the switches' PFC watchdog the storm stays at the broken host's ToR.

#include "rdma-test-utils.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <sys/wait.h>

namespace
{

/// Run pfc-storm with arguments; returns its exit status, stdout+stderr in `output`.
int
RunStorm(const std::string& name, const std::string& args, std::string* output)
{
    const std::string dir = ns3::rdmatest::OutputDir() + "/pfc-storm-" + name;
    std::filesystem::create_directories(dir);
    const std::string log = dir + "/log.txt";
    const std::string cmd = ns3::rdmatest::ExamplePath("pfc-storm") + " --output=" + dir +
                            "/flows.csv --seriesOutput=" + dir + "/series.csv " + args + " > " +
                            log + " 2>&1";
    const int status = std::system(cmd.c_str());
    std::ifstream in(log);
    std::ostringstream s;
    s << in.rdbuf();
    *output = s.str();
    return status;
}

/// \return the first number after `label` in the text (NaN if absent)
double
NumberAfter(const std::string& text, const std::string& label)
{
    const auto pos = text.find(label);
    if (pos == std::string::npos)
    {
        return std::nan("");
    }
    return std::strtod(text.c_str() + pos + label.size(), nullptr);
}

/// The "paused ports" line: most paused at once in a tier (hosts, edge, aggregation, core).
uint32_t
MostPaused(const std::string& text, const std::string& tier)
{
    std::smatch m;
    const std::regex re(" " + tier + " (\\d+)/(\\d+)");
    const auto line = text.substr(text.find("paused ports"));
    return std::regex_search(line, m, re) ? std::stoul(m[1]) : 0;
}

constexpr double OFFERED_GOODPUT_GBPS = 4.0 * 1024 / (1024 + 82);

} // namespace

TEST(RdmaPfcStorm, WithoutAStormNothingIsPausedAndEveryFlowGetsItsRate)
{
    if (ns3::rdmatest::ExamplePath("pfc-storm").empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    std::string out;
    ASSERT_EQ(RunStorm("none", "--stormDuration=0 --size=300000", &out), 0) << out;
    // 50 us windows hold 3.7034 Gb/s x 50 us / 8 = 23.1 kB, about 23 packets per flow: the
    // window catches the packets of a flow within one packet either way (+-4.3 %); the mean
    // over 240 flows is far closer.
    EXPECT_NEAR(NumberAfter(out, "goodput before the storm: "), OFFERED_GOODPUT_GBPS, 0.01 * 3.7034)
        << out;
    EXPECT_NE(out.find("PFC frames received: hosts 0 edge 0 aggregation 0 core 0"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("victims (flows not to host 0 below 10 % of their goodput before the "
                       "storm): 0 of 225"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("completed 240/240 flows; drops: switch 0, links 0; retransmissions 0"),
              std::string::npos)
        << out;
}

TEST(RdmaPfcStorm, OneBrokenNicStallsTheFabricLosslesslyAndItRecovers)
{
    if (ns3::rdmatest::ExamplePath("pfc-storm").empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    std::string out;
    ASSERT_EQ(RunStorm("storm", "", &out), 0) << out;
    const double before = NumberAfter(out, "goodput before the storm: ");
    EXPECT_NEAR(before, OFFERED_GOODPUT_GBPS, 0.01 * 3.7034) << out;
    // The flows to the broken host stop; the other flows, none of which touches it, fall
    // to a small fraction of what they had (head-of-line blocking in the one class).
    EXPECT_EQ(NumberAfter(out, "goodput at the storm's end: flows to host 0 "), 0.0) << out;
    const double othersAfter = NumberAfter(out, "other flows ");
    EXPECT_LT(othersAfter, 0.1 * before) << out;
    // Every flow but those to and from the broken host: its NIC still transmits, and its
    // frames travel away from it, through queues no pause holds (240 - 15 - 15 = 210).
    EXPECT_EQ(NumberAfter(out, "below 10 % of their goodput before the storm): "), 210.0) << out;
    // The pause reached every tier and came back down to the hosts: at the storm's height
    // every host port but the broken host's is paused.
    EXPECT_GE(MostPaused(out, "core"), 1u) << out;
    EXPECT_GE(MostPaused(out, "aggregation"), 1u) << out;
    EXPECT_GE(MostPaused(out, "edge"), 1u) << out;
    EXPECT_EQ(MostPaused(out, "hosts"), 15u) << out;
    // Lossless throughout, and everything completes after the XON.
    EXPECT_NE(out.find("completed 240/240 flows; drops: switch 0, links 0; retransmissions 0"),
              std::string::npos)
        << out;
}

// The switches' PFC watchdog (detection and restoration 50 us, polls every 25 us) finds the
// storm at the broken host's ToR before the ToR's buffer pauses anything upstream: the only
// drops are the watchdog's (of packets for the broken host), no other flow is a victim and
// keeps its 3.70 Gb/s, and go-back-N resends the dropped packets after the storm.
TEST(RdmaPfcStorm, TheSwitchWatchdogContainsTheStorm)
{
    if (ns3::rdmatest::ExamplePath("pfc-storm").empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    std::string out;
    // Exit status 0: every flow completed and every drop was the watchdog's.
    ASSERT_EQ(RunStorm("watchdog", "--watchdog=50us", &out), 0) << out;
    EXPECT_NE(out.find("PFC watchdog (detection and restoration +50.00us): 1 storms detected"),
              std::string::npos)
        << out;
    EXPECT_GT(NumberAfter(out, "storms detected, "), 0.0) << out;
    EXPECT_NE(out.find("victims (flows not to host 0 below 10 % of their goodput before the "
                       "storm): 0 of 225"),
              std::string::npos)
        << out;
    EXPECT_NEAR(NumberAfter(out, "other flows "), OFFERED_GOODPUT_GBPS, 0.01 * 3.7034) << out;
    EXPECT_EQ(MostPaused(out, "aggregation"), 0u) << out;
    EXPECT_EQ(MostPaused(out, "core"), 0u) << out;
    EXPECT_EQ(MostPaused(out, "hosts"), 0u) << out;
    EXPECT_NE(out.find("completed 240/240 flows"), std::string::npos) << out;
    EXPECT_GT(NumberAfter(out, "retransmissions "), 0.0) << out;
}

TEST(RdmaPfcStorm, BadArgumentsAreNamed)
{
    if (ns3::rdmatest::ExamplePath("pfc-storm").empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    std::string out;
    // An option error exits with status 1 and a message (RdmaOptionChecker), not an abort.
    const auto exitStatus = [](int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; };
    EXPECT_EQ(exitStatus(RunStorm("bad-traffic", "--traffic=ring", &out)), 1) << out;
    EXPECT_NE(out.find("option --traffic: value 'ring' is not valid; valid: all-to-all, "
                       "permutation"),
              std::string::npos)
        << out;
    EXPECT_EQ(exitStatus(RunStorm("bad-window", "--window=200us", &out)), 1) << out;
    EXPECT_NE(out.find("option --window: value '200us' is not valid; valid: at most --stormStart "
                       "(100us): the window before the storm must fit before it"),
              std::string::npos)
        << out;
    EXPECT_EQ(exitStatus(RunStorm("bad-watchdog", "--watchdog=-1us", &out)), 1) << out;
    EXPECT_NE(out.find("option --watchdog: value '-1us' is not valid; valid: 0 (off) or a "
                       "positive time"),
              std::string::npos)
        << out;
    EXPECT_EQ(exitStatus(RunStorm("bad-host", "--stormHost=16", &out)), 1) << out;
    EXPECT_NE(out.find("option --stormHost: value '16' is not valid; valid: 0..15"),
              std::string::npos)
        << out;
}
