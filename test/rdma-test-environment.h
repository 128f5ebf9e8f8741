/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TEST_ENVIRONMENT_H
#define RDMA_TEST_ENVIRONMENT_H

#include "ns3/nstime.h"

#include <gtest/gtest.h>

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

/// One registration per process, whichever test files include this header.
inline ::testing::Environment* const g_picosecondEnvironment =
    ::testing::AddGlobalTestEnvironment(new PicosecondResolution);

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_TEST_ENVIRONMENT_H */
