/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// examples/credits-vs-pfc (16 x 200 KB into one 100 Gb/s port of a two-switch pod, a 1 MB
// victim on the same 400 Gb/s trunk; both switches 4 MiB) against first principles:
//  - both flow controls are lossless (no drop) and complete every WRITE; PFC sends pause
//    frames and no credit update, credits the reverse;
//  - the incast ends at the bottleneck bound: 16 x (200,000 + 196 packets x 82 + 16 RETH) B
//    = 3,457,408 B at 100 Gb/s = 276.59 us, plus at most the first packet's way in and the
//    last ACK's way back (six 1 us link crossings and the serializations: < 7.5 us; with
//    credits 2 us more, the first credit update's crossing and updates beside the ACKs);
//  - alone, the victim takes its line-rate bound: 1,000,000 + 977 x 82 + 16 = 1,080,130 B
//    = 86.41 us, plus the same < 7.5 us of path; with the incast it waits behind it on the
//    trunk (head-of-line blocking: a paused or credit-less trunk class stops it too), so its
//    FCT is more than 1.5 times that;
//  - with credits, B's trunk ingress never holds more than it advertised.

#include "rdma-test-utils.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using ns3::rdmatest::CsvNumber;

TEST(RdmaCreditsVsPfc, BothAreLosslessAtTheBoundAndTheVictimWaitsOnTheTrunk)
{
    const std::string exe = ns3::rdmatest::ExamplePath("credits-vs-pfc");
    if (exe.empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("credits-vs-pfc");
    const std::string csv = dir + "/out.csv";
    const std::string cmd = exe + " --output=" + csv + " > " + dir + "/log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const auto rows = ns3::rdmatest::ReadCsvRows(csv);
    ASSERT_EQ(rows.size(), 2u);
    const double incastBound = 3457408 * 8 / 100e9 * 1e6;
    const double victimBound = 1080130 * 8 / 100e9 * 1e6;
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        const auto& r = rows[i];
        const std::string fc = r.at("fc");
        SCOPED_TRACE(fc);
        EXPECT_EQ(CsvNumber(r, "incast_completed"), 16);
        EXPECT_EQ(CsvNumber(r, "drops"), 0);
        EXPECT_GE(CsvNumber(r, "incast_us"), incastBound);
        // Credits start with none: the first frame waits for the peer's first update, one
        // link crossing (1 us + 6.72 ns); updates also share the reverse links with ACKs.
        EXPECT_LE(CsvNumber(r, "incast_us"), incastBound + 7.5 + (fc == "credits" ? 2.0 : 0.0));
        EXPECT_GE(CsvNumber(r, "victim_alone_us"), victimBound);
        EXPECT_LE(CsvNumber(r, "victim_alone_us"), victimBound + 7.5);
        EXPECT_GT(CsvNumber(r, "victim_fct_us"), 1.5 * CsvNumber(r, "victim_alone_us"));
        EXPECT_GT(CsvNumber(r, "trunk_stall_us"), 0);
        if (fc == "pfc")
        {
            EXPECT_GT(CsvNumber(r, "pfc_frames"), 0);
            EXPECT_EQ(CsvNumber(r, "credit_updates"), 0);
        }
        else
        {
            EXPECT_EQ(fc, "credits");
            EXPECT_EQ(CsvNumber(r, "pfc_frames"), 0);
            EXPECT_GT(CsvNumber(r, "credit_updates"), 0);
            EXPECT_GT(CsvNumber(r, "trunk_partition_b_bytes"), 0);
            EXPECT_LE(CsvNumber(r, "peak_trunk_ingress_b_bytes"),
                      CsvNumber(r, "trunk_partition_b_bytes"));
        }
    }
}
