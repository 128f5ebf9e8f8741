/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Issue 11's performance rule, as a test: the per-ACK work of every congestion control
// (OnAck with RTT samples, ECN echoes, Falcon's timestamps and HPCC's per-hop telemetry;
// OnPacketSent) allocates nothing. This file replaces the global operator new of the test
// binary with one that counts calls while a counter is armed; everything else passes through
// to malloc and free unchanged.

#include "rdma-test-utils.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <new>
#include <string>
#include <unistd.h>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// Allocations made while g_counting is set.
uint64_t g_allocations = 0;
bool g_counting = false;

void*
CountedAllocate(std::size_t size)
{
    if (g_counting)
    {
        ++g_allocations;
    }
    void* p = std::malloc(size == 0 ? 1 : size);
    if (!p)
    {
        throw std::bad_alloc();
    }
    return p;
}

} // namespace

void*
operator new(std::size_t size)
{
    return CountedAllocate(size);
}

void*
operator new[](std::size_t size)
{
    return CountedAllocate(size);
}

void
operator delete(void* p) noexcept
{
    std::free(p);
}

void
operator delete[](void* p) noexcept
{
    std::free(p);
}

void
operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

void
operator delete[](void* p, std::size_t) noexcept
{
    std::free(p);
}

namespace ns3::rdmatest
{

// The counter, for the other test files of this binary (rdma-memory-agent-test.cc).

void
SetCountingAllocations(bool on)
{
    g_counting = on;
}

uint64_t
TakeCountedAllocations()
{
    const uint64_t n = g_allocations;
    g_allocations = 0;
    return n;
}

void
RunInChildWithMetadataOff(const std::string& test)
{
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    ASSERT_GT(n, 0);
    exe[n] = '\0';
    const std::string env = std::string(PacketMetadataOn::METADATA_OFF_ENV) + "=1 ";
    // Standalone: rdma-gtest with this test's filter. In an ns-3 tree: ns-3's test-runner
    // with the rdma suite only (not test.py's arguments, which name its output files),
    // GoogleTest's filter from the environment.
    const bool standalone = std::string(exe).find("rdma-gtest") != std::string::npos;
    const std::string command =
        standalone
            ? env + "'" + exe + "' --gtest_filter=" + test + " >child-output.txt 2>&1"
            : env + "GTEST_FILTER=" + test + " '" + exe + "' --suite=rdma >child-output.txt 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream childOutput("child-output.txt");
    const std::string output((std::istreambuf_iterator<char>(childOutput)),
                             std::istreambuf_iterator<char>());
    std::remove("child-output.txt");
    EXPECT_EQ(status, 0) << output;
    EXPECT_NE(output.find("[  PASSED  ] 1 test"), std::string::npos) << output;
}

} // namespace ns3::rdmatest

namespace
{

/// A hop record at 100 Gb/s whose counters advance with the ACK number k.
RdmaIntHop
HopAt(uint64_t k, uint32_t hop)
{
    RdmaIntHop h;
    h.Set(100'000'000'000ULL, 1'000'000 + k * 90 + hop * 7, k * 1'100, (k % 13) * 800);
    return h;
}

/**
 * Drive a congestion control through `acks` ACKs of 1000 bytes each (RTT 8..20 us, every
 * fifth ECN-echoed, Falcon timestamps, two hops of telemetry, a NAK and a RACK loss now and
 * then) and return the allocations made after the first `warmUp` of them.
 */
uint64_t
AllocationsPerAckRun(const std::string& typeId, uint32_t acks, uint32_t warmUp)
{
    Simulator::Destroy();
    Ptr<RdmaCongestionControl> cc = ForkCongestionControl<RdmaCongestionControl>(typeId, {});
    RdmaCcState state;
    state.lineRate = DataRate("100Gbps");
    state.rate = state.lineRate;
    state.mtu = 1000;
    state.baseRtt = MicroSeconds(8);
    cc->Init(state);
    RdmaIntHeader telemetry;
    RdmaAckFeedback fb;
    g_allocations = 0;
    for (uint32_t k = 0; k < acks; ++k)
    {
        g_counting = k >= warmUp;
        cc->OnPacketSent(state, 1082);
        state.bytesSent += 1000;
        state.bytesAcked += 1000;
        state.latestRtt = MicroSeconds(8 + k % 13);
        state.minRtt = std::min(state.minRtt, state.latestRtt);
        state.srtt = state.latestRtt;
        telemetry = RdmaIntHeader();
        telemetry.PushHop(HopAt(k, 0));
        telemetry.PushHop(HopAt(k, 1));
        fb = RdmaAckFeedback();
        fb.advanced = true;
        fb.ackedBytes = 1000;
        fb.ackedUpToBytes = state.bytesAcked;
        fb.ackedSeq = k;
        fb.rtt = state.latestRtt;
        fb.ecnEcho = k % 5 == 0;
        fb.hasTimestamps = true;
        fb.t1 = MicroSeconds(k * 10);
        fb.t2 = fb.t1 + MicroSeconds(3);
        fb.t3 = fb.t2 + NanoSeconds(200);
        fb.t4 = fb.t1 + fb.rtt;
        fb.hops = 2;
        fb.telemetry = &telemetry;
        cc->OnAck(state, fb);
        if (k % 97 == 50)
        {
            cc->OnLoss(state, RdmaLossEvent::NAK, k);
        }
        if (k % 131 == 70)
        {
            cc->OnLoss(state, RdmaLossEvent::RACK, k);
        }
    }
    g_counting = false;
    cc->Dispose();
    Simulator::Destroy();
    return g_allocations;
}

} // namespace

TEST(RdmaCcAllocation, TheCounterSeesAnAllocation)
{
    // The counter works: one armed allocation is counted (so a zero below means none).
    g_allocations = 0;
    g_counting = true;
    auto* p = new std::vector<int>(4);
    g_counting = false;
    delete p;
    EXPECT_EQ(g_allocations, 2u); // the vector object and its array
}

TEST(RdmaCcAllocation, PerAckWorkOfEveryCongestionControlAllocatesNothing)
{
    // The first 200 ACKs may size buffers (a TracedValue's first callback, a ring); after
    // them 3000 ACKs with losses must allocate nothing.
    for (const char* typeId : {"ns3::DcqcnCongestionControl",
                               "ns3::DctcpCongestionControl",
                               "ns3::TimelyCongestionControl",
                               "ns3::HpccCongestionControl",
                               "ns3::SwiftCongestionControl",
                               "ns3::FalconCongestionControl",
                               "ns3::RdmaFixedWindowCongestionControl",
                               "ns3::RdmaFixedRateCongestionControl"})
    {
        EXPECT_EQ(AllocationsPerAckRun(typeId, 3200, 200), 0u) << typeId;
    }
}

TEST(RdmaCcAllocation, TelemetryInsertionAllocatesNothingPerHop)
{
    // The switch's telemetry stage writes each hop's record into the INT area the sender
    // reserved (peek the trailer, rewrite, put it back): five hops on each of 200 packets,
    // the packets made before counting. ns-3's packet metadata, which this test binary turns
    // on for ASCII traces (PacketMetadataOn), allocates on every AddTrailer; a simulation
    // without tracing has it off. So the count runs in a child process of the standalone
    // test binary started with metadata off.
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaCcAllocation.TelemetryInsertionAllocatesNothingPerHop");
        return;
    }
    Ptr<RdmaIntInserter> inserter = CreateObject<RdmaIntInserter>();
    std::vector<Ptr<Packet>> packets;
    for (int i = 0; i < 200; ++i)
    {
        Ptr<Packet> p = Create<Packet>(1000);
        p->AddTrailer(RdmaIntTrailer());
        packets.push_back(p);
    }
    RdmaEgressContext ctx{};
    ctx.lineRateBps = 100'000'000'000ULL;
    ctx.telemetry = true;
    g_allocations = 0;
    g_counting = true;
    for (int hop = 0; hop < 5; ++hop)
    {
        for (uint32_t i = 0; i < packets.size(); ++i)
        {
            ctx.port = hop;
            ctx.now = NanoSeconds(1000 * hop + i);
            ctx.txBytes = 1082ULL * (i + 1);
            ctx.portQueueBytes = 80ULL * i;
            inserter->Dequeue(packets[i], ctx);
        }
    }
    g_counting = false;
    EXPECT_EQ(g_allocations, 0u);
    EXPECT_EQ(inserter->GetRecordsWritten(), 1000u); // every hop written (not skipped)
    inserter->Dispose();
}
