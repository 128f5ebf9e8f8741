/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TEST_ENVIRONMENT_H
#define RDMA_TEST_ENVIRONMENT_H

#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

/*
 * What every test process gets before its first test, whichever test files it links and
 * whether it runs one test (CTest, standalone) or all of them (ns-3's test-runner, in-tree).
 */

namespace ns3
{
namespace rdmatest
{

/**
 * Every test simulates in picoseconds, as the examples do: at 100 Gb/s one bit lasts
 * 10 ps and frames are not whole nanoseconds. Set once per process, before any test runs
 * (ns-3 allows changing the resolution only before the simulation starts).
 */
class PicosecondResolution : public ::testing::Environment
{
  public:
    void SetUp() override
    {
        if (Time::GetResolution() != Time::PS)
        {
            Time::SetResolution(Time::PS);
        }
    }
};

/**
 * Packet metadata (what ns-3's ASCII traces and Packet::Print show) is on for the whole
 * process, from before the first packet. ASCII tracing turns it on; ns-3 allows that only
 * before any packet has been created without metadata (an assertion in PacketMetadata::Enable
 * of ns-3 builds with assertions, the default and debug profiles), and a test cannot know
 * which tests ran before it in the same process. Turning it on first, as ns-3's own message
 * advises, makes every test see the same packets in every mode.
 */
class PacketMetadataOn : public ::testing::Environment
{
  public:
    void SetUp() override
    {
        // A test that must see ns-3 as a simulation without tracing does (metadata off:
        // RdmaCcAllocation's per-hop count) re-runs itself in a child process with this set.
        if (std::getenv(METADATA_OFF_ENV) == nullptr)
        {
            Packet::EnablePrinting();
        }
    }

    /// Environment variable that keeps metadata off in this process.
    static constexpr const char* METADATA_OFF_ENV = "RDMA_TEST_PACKET_METADATA_OFF";
};

/**
 * Tests write only into temporary directories. The process runs in a fresh, empty
 * temporary working directory (examples started by a test inherit it), files go into
 * OutputDir(), and at the end the working directory must still be empty: a test or an
 * example that writes into the current directory (e.g. an example's default results/
 * folder) fails the run, naming what it wrote. Both directories are removed at the end
 * unless a test failed (then their path is printed, to look at the files).
 */
class TemporaryDirectories : public ::testing::Environment
{
  public:
    void SetUp() override
    {
        std::string pattern = ::testing::TempDir() + "rdma-test-XXXXXX";
        if (!mkdtemp(pattern.data()))
        {
            FAIL() << "cannot create a temporary directory from " << pattern;
        }
        s_root = pattern;
        std::filesystem::create_directory(s_root / "cwd");
        std::filesystem::create_directory(s_root / "output");
        m_previous = std::filesystem::current_path();
        std::filesystem::current_path(s_root / "cwd");
    }

    void TearDown() override
    {
        if (s_root.empty())
        {
            return;
        }
        std::vector<std::string> written;
        for (const auto& entry : std::filesystem::directory_iterator(s_root / "cwd"))
        {
            written.push_back(entry.path().filename().string());
        }
        std::error_code ignored;
        std::filesystem::current_path(m_previous, ignored);
        EXPECT_TRUE(written.empty())
            << "tests must write only into rdmatest::OutputDir(), but the working directory "
            << (s_root / "cwd") << " received " << ::testing::PrintToString(written);
        if (::testing::UnitTest::GetInstance()->Failed())
        {
            std::cerr << "rdma tests: temporary files kept in " << s_root << "\n";
        }
        else
        {
            std::filesystem::remove_all(s_root, ignored);
        }
        s_root.clear();
    }

    /// \return this process's temporary directory (empty before SetUp and after TearDown)
    static const std::filesystem::path& Root()
    {
        return s_root;
    }

  private:
    static inline std::filesystem::path s_root; //!< rdma-test-XXXXXX under gtest's TempDir()
    std::filesystem::path m_previous;           //!< the working directory before SetUp
};

/// One registration per process, whichever test files include this header.
inline ::testing::Environment* const g_picosecondEnvironment =
    ::testing::AddGlobalTestEnvironment(new PicosecondResolution);
/// One registration per process (see PacketMetadataOn).
inline ::testing::Environment* const g_packetMetadataEnvironment =
    ::testing::AddGlobalTestEnvironment(new PacketMetadataOn);
/// One registration per process (see TemporaryDirectories).
inline ::testing::Environment* const g_temporaryDirectoriesEnvironment =
    ::testing::AddGlobalTestEnvironment(new TemporaryDirectories);

/**
 * The directory tests write their files into: a temporary directory of this test process,
 * empty when the first test starts and removed after the last one.
 * \return its absolute path, without a trailing '/'
 */
inline std::string
OutputDir()
{
    const std::filesystem::path& root = TemporaryDirectories::Root();
    if (root.empty())
    {
        ADD_FAILURE() << "rdmatest::OutputDir() called outside a running test";
        return ::testing::TempDir() + "rdma-test-output";
    }
    return (root / "output").string();
}

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_TEST_ENVIRONMENT_H */
