/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// examples/incast-window-vs-rate and examples/cc-convergence in short runs, each in its own
// temporary directory, against first principles:
//  - incast, fixed rate, PFC: no drop, every byte posted is delivered, the last completion
//    is the bottleneck bound N x wire(size) / C plus at most one base round trip, and the
//    victim, which never crosses the congested port, is slowed down by the pauses alone
//    (head-of-line blocking on the trunk); alone it completes at its line-rate bound;
//  - incast without PFC, go-back-N: the switch drops, every drop is resent, no pause;
//  - convergence, fixed window W: one flow gets W / RTT (Little's law), k >= 2 flows share
//    the link equally (Jain's index 1) at its full goodput, and the queue holds what the
//    windows put in flight beyond the bandwidth-delay product.

#include "rdma-test-utils.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>

namespace
{

/// Run an example with arguments; its exit status, stdout+stderr in `output`.
int
RunExample(const std::string& name,
           const std::string& dir,
           const std::string& args,
           std::string* output)
{
    const std::string log = dir + "/log.txt";
    const std::string cmd = ns3::rdmatest::ExamplePath(name) + " --outputDir=" + dir + " " + args +
                            " > " + log + " 2>&1";
    const int status = std::system(cmd.c_str());
    std::ifstream in(log);
    std::ostringstream s;
    s << in.rdbuf();
    *output = s.str();
    return status;
}

using ns3::rdmatest::CsvNumber;
using ns3::rdmatest::ReadCsvRows;

#define SKIP_WITHOUT_EXAMPLES(name)                                                                \
    if (ns3::rdmatest::ExamplePath(name).empty())                                                  \
    {                                                                                              \
        GTEST_SKIP() << "examples not built";                                                      \
    }

} // namespace

TEST(RdmaCcExamples, IncastFixedRateWithPfcIsLosslessAtTheBottleneckBound)
{
    SKIP_WITHOUT_EXAMPLES("incast-window-vs-rate");
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("cc-examples");
    std::string out;
    ASSERT_EQ(RunExample("incast-window-vs-rate",
                         dir,
                         "--cc=fixed-rate --senders=16 --size=100000 --victimSize=300000",
                         &out),
              0)
        << out;
    const auto runs = ReadCsvRows(dir + "/runs.csv");
    ASSERT_EQ(runs.size(), 1U) << out;
    const auto& r = runs[0];
    EXPECT_EQ(r.at("label"), "fixed-rate-pfc-gbn");
    EXPECT_EQ(CsvNumber(r, "incast_completed"), 16);
    EXPECT_EQ(CsvNumber(r, "switch_drops"), 0);
    EXPECT_EQ(CsvNumber(r, "link_drops"), 0);
    EXPECT_EQ(CsvNumber(r, "retransmissions"), 0);
    EXPECT_EQ(CsvNumber(r, "bytes_posted"), 16 * 100000 + 300000);
    EXPECT_EQ(CsvNumber(r, "bytes_delivered"), CsvNumber(r, "bytes_posted"));
    EXPECT_GT(CsvNumber(r, "xoff_b"), 0);
    // The bound: 16 x (100,000 + 98 packets x 82 + 16) B x 8 / 100 Gb/s = 138.30 us. The
    // bottleneck never idles once the first packet is there, so the last completion is the
    // bound plus the first packet's way in and the last ACK's way back: at most one base
    // RTT (host link, 800 Gb/s trunk, host link, 1 us each: 2 x 1192 B x 8 / 100 Gb/s +
    // 1192 B x 8 / 800 Gb/s + 6 us = 6.2026 us), 4.5 % of the bound.
    const double bound = 16 * (100000 + 98 * 82.0 + 16) * 8 / 100e9 * 1e6;
    EXPECT_NEAR(CsvNumber(r, "bound_us"), bound, 1e-6 * bound);
    EXPECT_GE(CsvNumber(r, "last_completion_us"), bound);
    EXPECT_LE(CsvNumber(r, "last_completion_us"), bound + 6.2026) << out;
    // Alone, the victim takes its line-rate bound (the example's formula, to 0.1 %); with
    // the incast, PFC pauses the trunk it shares and it takes far longer although the port
    // the incast congests is not on its path.
    EXPECT_NEAR(CsvNumber(r, "victim_alone_us"),
                CsvNumber(r, "victim_bound_us"),
                1e-3 * CsvNumber(r, "victim_bound_us"));
    EXPECT_GT(CsvNumber(r, "victim_fct_us"), 1.5 * CsvNumber(r, "victim_alone_us")) << out;
    EXPECT_GT(CsvNumber(r, "trunk_paused_us"), 0);
    // The time series exists and starts at 0 with an empty queue.
    const auto series = ReadCsvRows(dir + "/queue-fixed-rate-pfc-gbn.csv");
    ASSERT_GT(series.size(), 10U);
    EXPECT_EQ(CsvNumber(series[0], "time_us"), 0);
    EXPECT_EQ(CsvNumber(series[0], "bottleneck_queue_bytes"), 0);
}

TEST(RdmaCcExamples, IncastWithoutPfcDropsAndGoBackNRecoversEverything)
{
    SKIP_WITHOUT_EXAMPLES("incast-window-vs-rate");
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("cc-examples");
    std::string out;
    ASSERT_EQ(RunExample("incast-window-vs-rate",
                         dir,
                         "--cc=fixed-rate --pfc=0 --lossRecovery=gbn --rto=100us --senders=16 "
                         "--size=100000 --victimSize=300000 --alone=0",
                         &out),
              0)
        << out;
    const auto runs = ReadCsvRows(dir + "/runs.csv");
    ASSERT_EQ(runs.size(), 1U) << out;
    const auto& r = runs[0];
    EXPECT_EQ(r.at("label"), "fixed-rate-lossy-gbn");
    EXPECT_EQ(CsvNumber(r, "xoff_leaves") + CsvNumber(r, "xoff_b"), 0);
    EXPECT_GT(CsvNumber(r, "switch_drops"), 0);
    // Every dropped data packet is sent again (go-back-N resends more: the whole window
    // behind the gap).
    EXPECT_GE(CsvNumber(r, "retransmissions"), CsvNumber(r, "switch_drops"));
    EXPECT_EQ(CsvNumber(r, "incast_completed"), 16);
    EXPECT_EQ(CsvNumber(r, "bytes_delivered"), CsvNumber(r, "bytes_posted"));
    // A second run appends a row; a rerun with another label gets its own series.
    ASSERT_EQ(RunExample("incast-window-vs-rate",
                         dir,
                         "--cc=dcqcn --senders=4 --size=20000 --victimSize=20000 --alone=0",
                         &out),
              0)
        << out;
    EXPECT_EQ(ReadCsvRows(dir + "/runs.csv").size(), 2U);
    EXPECT_TRUE(std::filesystem::exists(dir + "/queue-dcqcn-pfc-gbn.csv"));
}

// --cc, --ccAttr and --lossRecovery errors exit with status 1 and name the option, the value
// and what is valid; they used to abort (status 134, "terminate called ..."), and a malformed
// number gave only ns-3's "Attribute value "abc" is not properly formatted".
TEST(RdmaCcExamples, AttributeErrorsExitWithStatusOne)
{
    SKIP_WITHOUT_EXAMPLES("cc-convergence");
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("cc-examples");
    std::string out;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--ccAttr=G=abc", "option --ccAttr: value 'G=abc' is not valid; valid: a number"},
        {"--ccAttr=G=2",
         "option --ccAttr: value 'G=2' is not valid; valid: G of "
         "ns3::DcqcnCongestionControl"},
        {"--ccAttr=Foo=1",
         "option --ccAttr: value 'Foo=1' is not valid; valid: an attribute of "
         "ns3::DcqcnCongestionControl: G, "},
        {"--ccAttr=G", "option --ccAttr: value 'G' is not valid; valid: Name=Value"},
        {"--cc=swift --ccAttr=BaseTarget=5xs",
         "option --ccAttr: value 'BaseTarget=5xs' is not valid; valid: a time"},
        {"--cc=nosuch", "option --cc: value 'nosuch' is not valid; valid: dcqcn, "},
        {"--lossRecovery=irn", "option --lossRecovery: value 'irn' is not valid; valid: gbn, "},
        {"--flows=65", "option --flows: value '65' is not valid; valid: 1 .. 64"},
        {"--sampleInterval=2ms",
         "option --sampleInterval: value '+2000us' is not valid; valid: a "
         "time > 0 and at most --interval"},
        {"--outputDir=/proc/no/such", "option --outputDir: value '/proc/no/such' is not valid"},
    };
    for (const auto& [args, message] : cases)
    {
        const int status = RunExample("cc-convergence", dir, args, &out);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << args << "\n" << out;
        EXPECT_NE(out.find(message), std::string::npos) << args << "\n" << out;
    }
}

TEST(RdmaCcExamples, BadChoicesAreNamed)
{
    SKIP_WITHOUT_EXAMPLES("incast-window-vs-rate");
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("cc-examples");
    std::string out;
    EXPECT_NE(RunExample("incast-window-vs-rate", dir, "--cc=nosuch", &out), 0);
    EXPECT_NE(out.find("option --cc: value 'nosuch' is not valid; valid: dcqcn"), std::string::npos)
        << out;
    EXPECT_NE(RunExample("incast-window-vs-rate", dir, "--ccAttr=Gain=2", &out), 0);
    EXPECT_NE(out.find("option --ccAttr: value 'Gain=2' is not valid; valid: an attribute of "
                       "ns3::DcqcnCongestionControl: G,"),
              std::string::npos)
        << out;
    EXPECT_NE(RunExample("incast-window-vs-rate", dir, "--lossRecovery=irn", &out), 0);
    EXPECT_NE(out.find("option --lossRecovery: value 'irn' is not valid; valid: gbn, gb0, sack"),
              std::string::npos)
        << out;
    EXPECT_NE(RunExample("incast-window-vs-rate", dir, "--senders=257", &out), 0);
    EXPECT_NE(out.find("option --senders: value '257' is not valid; valid: 1 .. 256"),
              std::string::npos)
        << out;
    EXPECT_NE(RunExample("cc-convergence", dir, "--flows=0", &out), 0);
    EXPECT_NE(out.find("option --flows: value '0' is not valid; valid: 1 .. 64"), std::string::npos)
        << out;
    EXPECT_NE(RunExample("cc-convergence", dir, "--settle=1", &out), 0);
    EXPECT_NE(out.find("option --settle: value '1' is not valid; valid: 0 .. 0.95"),
              std::string::npos)
        << out;
}

TEST(RdmaCcExamples, ConvergenceOfFixedWindowsFollowsLittlesLaw)
{
    SKIP_WITHOUT_EXAMPLES("cc-convergence");
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("cc-examples");
    std::string out;
    // Three flows of window W = 40,000 B; phases of 1, 2, 3 (twice as long), 2, 1 flows.
    const double w = 40000;
    ASSERT_EQ(RunExample("cc-convergence",
                         dir,
                         "--cc=fixed-window --ccAttr=Window=40000 --flows=3 --interval=300us",
                         &out),
              0)
        << out;
    const auto phases = ReadCsvRows(dir + "/phases-fixed-window.csv");
    ASSERT_EQ(phases.size(), 5U) << out;
    // Base RTT through one switch: 2 x (wire(1068 + 14) + wire(48 + 14)) at 100 Gb/s plus
    // 4 us = 4190.72 ns (the cc-interface test's figure); goodput C x 1024 / 1106.
    const double rtt = 4.19072e-6;
    const double goodput = ns3::rdmatest::AnalyticalGoodput(100e9, 1024);
    for (const auto& p : phases)
    {
        const double k = CsvNumber(p, "active_flows");
        const double total = CsvNumber(p, "total_gbps") * 1e9;
        if (k * w * 8 / rtt < goodput)
        {
            // Window-limited: W / RTT per flow (76.36 Gb/s), and no queue.
            EXPECT_NEAR(total, k * w * 8 / rtt, 0.005 * total) << "phase " << p.at("phase");
            EXPECT_LT(CsvNumber(p, "queue_mean_bytes"), 1100);
            continue;
        }
        // Link-limited: the k windows fill the link and the rest queues. By Little's law
        // RTT = k W / goodput, so the queue holds (k W / goodput - base RTT) x C wire bytes,
        // of which 1068 in every 1106 are the IPv4 bytes the queue counts: k = 2: 32.85 KB,
        // k = 3: 74.57 KB.
        EXPECT_NEAR(total, goodput, 0.002 * goodput) << "phase " << p.at("phase");
        EXPECT_GT(CsvNumber(p, "jain"), 0.999) << "phase " << p.at("phase");
        const double queue = (k * w * 8 / goodput - rtt) * 100e9 / 8 * 1068 / 1106;
        EXPECT_NEAR(CsvNumber(p, "queue_mean_bytes"), queue, 0.01 * queue)
            << "phase " << p.at("phase");
    }
    // The Window trace reports the fixed window, the Rate trace the line rate.
    const auto series = ReadCsvRows(dir + "/series-fixed-window.csv");
    ASSERT_GT(series.size(), 100U);
    EXPECT_EQ(CsvNumber(series.back(), "window_bytes_0"), w);
    EXPECT_EQ(CsvNumber(series.back(), "rate_gbps_0"), 100);
    const auto runs = ReadCsvRows(dir + "/runs.csv");
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(CsvNumber(runs[0], "switch_drops"), 0);
    EXPECT_EQ(CsvNumber(runs[0], "phases"), 5);
}
