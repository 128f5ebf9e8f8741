/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// TIMELY (TimelyCongestionControl): the gradient response, each of the four branches of
// Algorithm 1 (Mittal et al., SIGCOMM 2015) against hand-computed values, hyper-active
// increase, the completion events; then two flows on one link.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>
#include <iostream>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

using Attrs = std::vector<std::pair<std::string, std::string>>;

/// A TIMELY reaction point driven by hand at 10 Gb/s, the default parameters (alpha 0.875,
/// beta 0.8, T_low 50 us, T_high 500 us, MinRtt 20 us, delta 10 Mb/s, HAI 50 Mb/s).
struct Rp
{
    Ptr<TimelyCongestionControl> cc;
    RdmaCcState state;

    explicit Rp(const std::vector<std::pair<std::string, std::string>>& attributes = {})
    {
        cc =
            rdmatest::ForkCongestionControl<TimelyCongestionControl>("ns3::TimelyCongestionControl",
                                                                     attributes);
        state.lineRate = DataRate("10Gbps");
        state.mtu = 1000;
        cc->Init(state);
    }

    /// An ACK up to `una`, snd_nxt at `sent`, with an RTT sample of `rttUs` microseconds.
    void Ack(uint64_t una, uint64_t sent, double rttUs)
    {
        state.bytesSent = sent;
        state.bytesAcked = una;
        RdmaAckFeedback fb;
        fb.advanced = true;
        fb.ackedBytes = 1000;
        fb.ackedUpToBytes = una;
        fb.rtt = NanoSeconds(static_cast<int64_t>(rttUs * 1000));
        cc->OnAck(state, fb);
    }
};

} // namespace

TEST(RdmaTimely, GradientResponseOfEachBranchByHand)
{
    Rp rp;
    // First event: only records the RTT (60 us); the next event must pass snd_nxt = 20000.
    rp.Ack(1000, 20000, 60);
    EXPECT_EQ(rp.state.rate, DataRate("10Gbps"));
    // Positive gradient, T_low < RTT < T_high: rtt_diff = 0.875 x (80 - 60) = 17.5 us,
    // g = 17.5 / 20 = 0.875, rate x (1 - 0.8 x 0.875) = 10 x 0.3 = 3 Gb/s.
    rp.Ack(21000, 40000, 80);
    EXPECT_NEAR(rp.cc->GetRttDiff(), 17.5e-6, 1e-15);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3e9, 1.0);
    // Not past snd_nxt 40000 of the last event: no event.
    rp.Ack(30000, 41000, 400);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3e9, 1.0);
    // Negative gradient: rtt_diff = 0.125 x 17.5 + 0.875 x (70 - 80) = -6.5625 us: + delta.
    rp.Ack(41000, 60000, 70);
    EXPECT_NEAR(rp.cc->GetRttDiff(), -6.5625e-6, 1e-15);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3.01e9, 1.0);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 1U);
    // RTT below T_low: + delta whatever the gradient, four more times (stages 1..4 -> 5).
    uint64_t una = 61000;
    for (int i = 0; i < 4; ++i, una += 20000)
    {
        rp.Ack(una, una + 19000, 40);
    }
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3.05e9, 1.0);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 5U);
    // Five increases in a row: hyper-active increase, + 5 delta = 50 Mb/s.
    rp.Ack(una, una + 19000, 40);
    una += 20000;
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3.10e9, 1.0);
    // RTT above T_high: rate x (1 - 0.8 x (1 - 500 / 600)) = 3.1 x 0.866667 = 2.686667 Gb/s.
    rp.Ack(una, una + 19000, 600);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3.1e9 * (1 - 0.8 * (1 - 500.0 / 600)), 2.0);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 0U);
}

TEST(RdmaTimely, GradientAboveOneStopsAtMinRate)
{
    // g = 0.875 x 40 / 20 = 1.75: 1 - 0.8 x 1.75 < 0, so the factor is 0 and MinRate holds.
    Rp rp(Attrs{{"MinRate", "1Gbps"}});
    rp.Ack(1000, 20000, 60);
    rp.Ack(21000, 40000, 100);
    EXPECT_EQ(rp.state.rate, DataRate("1Gbps"));
}

TEST(RdmaTimely, PerSegmentCompletionEvents)
{
    // The paper's completion events: every 16384 bytes acknowledged, whatever snd_nxt.
    Rp rp(Attrs{{"UpdateMode", "PerSegment"}});
    rp.Ack(1000, 200000, 60);  // first: record, next event at 1000 + 16384
    rp.Ack(17000, 200000, 80); // 17000 < 17384: none
    EXPECT_EQ(rp.state.rate, DataRate("10Gbps"));
    rp.Ack(17384, 200000, 80); // passes: g = 0.875, rate x 0.3
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 3e9, 1.0);
}

TEST(RdmaTimelyDeathTest, ImpossibleConfigurationsAbort)
{
    EXPECT_DEATH({ Rp rp(Attrs{{"Beta", "1"}}); }, "Beta 1 is impossible; valid: \\(0, 1\\)");
    EXPECT_DEATH(
        {
            Rp rp(Attrs{{"THigh", "40us"}});
        },
        "THigh .* is not above TLow .*; valid: THigh > TLow");
    EXPECT_DEATH(
        {
            ObjectFactory f("ns3::TimelyCongestionControl");
            Ptr<TimelyCongestionControl> cc = f.Create<TimelyCongestionControl>();
            RdmaCcState state;
            state.lineRate = DataRate("10Gbps");
            state.baseRtt = MicroSeconds(600);
            cc->Init(state);
        },
        "THigh .* is not above the base RTT .*; valid: THigh > base RTT");
}
