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

namespace
{

/// \return the rows of a CSV file (no quoted fields) as column -> value maps
std::vector<std::map<std::string, double>>
ReadCsv(const std::string& path, std::vector<std::string>* labels)
{
    std::ifstream in(path);
    std::string line;
    std::vector<std::map<std::string, double>> rows;
    std::vector<std::string> header;
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::stringstream s(line);
        std::string f;
        while (std::getline(s, f, ','))
        {
            fields.push_back(f);
        }
        if (header.empty())
        {
            header = fields;
            continue;
        }
        std::map<std::string, double> row;
        for (std::size_t i = 1; i < header.size() && i < fields.size(); ++i)
        {
            row[header[i]] = std::stod(fields[i]);
        }
        labels->push_back(fields.at(0));
        rows.push_back(row);
    }
    return rows;
}

} // namespace

TEST(RdmaCreditsVsPfc, BothAreLosslessAtTheBoundAndTheVictimWaitsOnTheTrunk)
{
    const std::string exe = ns3::rdmatest::ExamplePath("credits-vs-pfc");
    if (exe.empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    std::string pattern =
        (std::filesystem::temp_directory_path() / "rdma-credits-vs-pfc-XXXXXX").string();
    const std::string dir = mkdtemp(pattern.data());
    const std::string csv = dir + "/out.csv";
    const std::string cmd = exe + " --output=" + csv + " > " + dir + "/log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::vector<std::string> fc;
    const auto rows = ReadCsv(csv, &fc);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(rows.size(), 2u);
    const double incastBound = 3457408 * 8 / 100e9 * 1e6;
    const double victimBound = 1080130 * 8 / 100e9 * 1e6;
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        const auto& r = rows[i];
        SCOPED_TRACE(fc[i]);
        EXPECT_EQ(r.at("incast_completed"), 16);
        EXPECT_EQ(r.at("drops"), 0);
        EXPECT_GE(r.at("incast_us"), incastBound);
        // Credits start with none: the first frame waits for the peer's first update, one
        // link crossing (1 us + 6.72 ns); updates also share the reverse links with ACKs.
        EXPECT_LE(r.at("incast_us"), incastBound + 7.5 + (fc[i] == "credits" ? 2.0 : 0.0));
        EXPECT_GE(r.at("victim_alone_us"), victimBound);
        EXPECT_LE(r.at("victim_alone_us"), victimBound + 7.5);
        EXPECT_GT(r.at("victim_fct_us"), 1.5 * r.at("victim_alone_us"));
        EXPECT_GT(r.at("trunk_stall_us"), 0);
        if (fc[i] == "pfc")
        {
            EXPECT_GT(r.at("pfc_frames"), 0);
            EXPECT_EQ(r.at("credit_updates"), 0);
        }
        else
        {
            EXPECT_EQ(fc[i], "credits");
            EXPECT_EQ(r.at("pfc_frames"), 0);
            EXPECT_GT(r.at("credit_updates"), 0);
            EXPECT_GT(r.at("trunk_partition_b_bytes"), 0);
            EXPECT_LE(r.at("peak_trunk_ingress_b_bytes"), r.at("trunk_partition_b_bytes"));
        }
    }
}
