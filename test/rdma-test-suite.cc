/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma-tests
 * ns-3 TestSuite adapter for the rdma module's GoogleTest tests.
 *
 * The module's tests (test/rdma-*-test.cc) are written with GoogleTest. In a standalone build
 * they form the executable build/test/rdma-gtest, registered with CTest. In an ns-3 source tree
 * they are compiled into the module's test library together with this file, so that
 * `./test.py -s rdma` (or `./ns3 run "test-runner --suite=rdma"`) runs exactly the same checks:
 * the suite's single test case initialises GoogleTest and runs every registered test.
 */

#include "ns3/test.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \defgroup rdma-tests Tests for the rdma module
 * \ingroup rdma
 * \ingroup tests
 */

/**
 * \ingroup rdma-tests
 * Runs all GoogleTest tests linked into the module's test library.
 */
class RdmaGoogleTestCase : public TestCase
{
  public:
    RdmaGoogleTestCase();

  private:
    void DoRun() override;
};

RdmaGoogleTestCase::RdmaGoogleTestCase()
    // ns-3 rejects test names with any of " / \ | ? (test/check-in-tree.py checks).
    : TestCase("GoogleTest tests of the rdma module, files rdma-*-test.cc")
{
}

void
RdmaGoogleTestCase::DoRun()
{
    // A dummy command line: test-runner's own arguments are not GoogleTest flags.
    std::string program = "rdma-test-suite";
    std::vector<char*> argv{program.data(), nullptr};
    int argc = 1;
    testing::InitGoogleTest(&argc, argv.data());
    int failed = RUN_ALL_TESTS();
    NS_TEST_ASSERT_MSG_EQ(failed,
                          0,
                          "GoogleTest reported failing tests of the rdma module (details above)");
}

/**
 * \ingroup rdma-tests
 * The ns-3 test suite "rdma".
 */
class RdmaTestSuite : public TestSuite
{
  public:
    RdmaTestSuite();
};

// The suite type (UNIT) and the test case duration (QUICK) are the defaults of the constructor
// and of AddTestCase(); they are not spelled out because ns-3.42 turned both enumerations into
// scoped enums (TestSuite::Type::UNIT, TestCase::Duration::QUICK), and this file builds with
// ns-3.36 and later alike.
RdmaTestSuite::RdmaTestSuite()
    : TestSuite("rdma")
{
    AddTestCase(new RdmaGoogleTestCase());
}

/// Static instance registering the suite with ns-3's test runner.
static RdmaTestSuite g_rdmaTestSuite;

} // namespace ns3
