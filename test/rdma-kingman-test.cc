/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// examples/kingman at utilisation 0.8: the mean queueing delay at a switch egress port fed
// by Poisson arrivals is Pollaczek-Khinchine's, Wq = rho E[S^2] / (2 E[S] (1 - rho)), within
// 5 %, for deterministic service (M/D/1: Wq = rho E[S] / (2 (1 - rho)) = 2 E[S]) and
// exponential service (M/M/1: Wq = rho E[S] / (1 - rho) = 4 E[S]).
//
// How many packets. Successive waiting times are correlated, so the variance of their
// sample mean over n packets is sigma^2 / n with the asymptotic variance of M/M/1 (Daley
// 1968; Whitt 1989, "Planning queueing simulations"):
//   sigma^2 = rho (2 + 5 rho - 4 rho^2 + rho^3) / (mu^2 (1 - rho)^4)
//           = 0.8 x 3.952 / 0.0016 = 1976 E[S]^2   at rho = 0.8,
// against a mean of 4 E[S]: relative standard error sqrt(1976 / n) / 4. With n = 500,000
// packets it is 1.57 %, so 5 % is 3.2 standard errors (M/D/1's waiting times vary less:
// its error is smaller). The example also prints a batch-means 95 % interval, checked here
// to be within 5 % too. Arrivals: 16 senders on 400 Gb/s links into one 100 Gb/s port
// (the example explains why they stay Poisson); measured ca^2 must be within 0.05 of 1.

#include "rdma-test-utils.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace
{

using ns3::rdmatest::ReadCsvRows;

} // namespace

TEST(RdmaKingman, MeanQueueingDelayMatchesPollaczekKhinchineAtRho08)
{
    const std::string exe = ns3::rdmatest::ExamplePath("kingman");
    if (exe.empty())
    {
        GTEST_SKIP() << "examples not built";
    }
    const std::string dir = ns3::rdmatest::NewOutputSubdirectory("kingman");
    const std::string csv = dir + "/kingman.csv";
    const std::string cmd = exe +
                            " --rhos=0.8 --dists=deterministic,exponential --packets=500000 "
                            "--output=" +
                            csv + " > " + dir + "/log.txt 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const auto rows = ReadCsvRows(csv);
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& r : rows)
    {
        const double wq = std::stod(r.at("wq_mean_ns"));
        const double pk = std::stod(r.at("wq_pk_ns"));
        const double ci = std::stod(r.at("wq_ci95_ns"));
        const double es = std::stod(r.at("mean_service_ns"));
        std::cout << r.at("dist") << ": Wq " << wq << " ns +- " << ci << " (95 %), P-K " << pk
                  << " ns, ca2 " << r.at("ca2") << ", cs2 " << r.at("cs2") << "\n";
        EXPECT_NEAR(wq, pk, 0.05 * pk) << r.at("dist");
        EXPECT_LT(ci, 0.05 * pk) << r.at("dist") << ": too few packets to say so";
        EXPECT_NEAR(std::stod(r.at("ca2")), 1.0, 0.05) << r.at("dist");
        EXPECT_EQ(std::stod(r.at("drops")), 0) << r.at("dist");
        EXPECT_NEAR(std::stod(r.at("utilisation")), 0.8, 0.01) << r.at("dist");
        if (r.at("dist") == "deterministic")
        {
            EXPECT_NEAR(std::stod(r.at("cs2")), 0.0, 1e-9);
            EXPECT_NEAR(pk, 2 * es, 1e-6 * es); // M/D/1 at 0.8: 0.8 / (2 x 0.2) E[S]
        }
        else
        {
            // The exponential sizes are clamped to 46..9000 bytes and carry 38 bytes of
            // framing, so cs2 is below 1 (about 0.93); P-K uses the sizes drawn.
            EXPECT_NEAR(std::stod(r.at("cs2")), 0.93, 0.03);
        }
    }
}
