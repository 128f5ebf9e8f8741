/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DCTCP for RDMA (DctcpCongestionControl): alpha's update and the once-per-window cut and
// increase against hand-computed values, the window, bad configurations; then one link
// shared by DCTCP flows with step marking at K: the link stays full with the queue near K,
// and flows that start apart converge to fair shares.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>
#include <iostream>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

using Attrs = std::vector<std::pair<std::string, std::string>>;

/// A DCTCP reaction point driven by hand: ACKs of 1000-byte packets, 100 Gb/s line.
struct Rp
{
    Ptr<DctcpCongestionControl> cc;
    RdmaCcState state;

    explicit Rp(const std::vector<std::pair<std::string, std::string>>& attributes = {})
    {
        rdmatest::AttributeList all = {{"AdditiveIncreaseRate", "1Gbps"}, {"UseWindow", "false"}};
        all.insert(all.end(), attributes.begin(), attributes.end()); // later ones override
        cc = rdmatest::ForkCongestionControl<DctcpCongestionControl>("ns3::DctcpCongestionControl",
                                                                     all);
        state.lineRate = DataRate("100Gbps");
        state.mtu = 1000;
        cc->Init(state);
    }

    /// An ACK that moves snd_una to `una` (acknowledging `bytes`), with snd_nxt at `sent`.
    void Ack(uint64_t una, uint64_t sent, bool ce, uint64_t bytes = 1000)
    {
        state.bytesSent = sent;
        state.bytesAcked = una;
        RdmaAckFeedback fb;
        fb.advanced = true;
        fb.ackedBytes = bytes;
        fb.ackedUpToBytes = una;
        fb.ecnEcho = ce;
        cc->OnAck(state, fb);
    }
};

} // namespace

TEST(RdmaDctcp, AlphaCutAndIncreaseOncePerWindowByHand)
{
    // HPCC simulator rules (HandleAckDctcp), g = 1/16, alpha0 = 1, AI 1 Gb/s, 1000-byte
    // packets, ten packets in flight behind each ACK (snd_nxt = snd_una + 10000).
    Rp rp;
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    // First ACK: opens the first window, ending at snd_nxt = 11000 and counting
    // snd_nxt / MTU + 1 = 12 packets. Outside CWR a window start also adds AI, capped at the
    // line rate.
    rp.Ack(1000, 11000, false);
    EXPECT_DOUBLE_EQ(rp.cc->GetAlpha(), 1.0);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    // A CE echo cuts at once: 100 x (1 - 1/2) = 50 Gb/s, CWR until snd_nxt = 13000.
    rp.Ack(2000, 12000, false);
    rp.Ack(3000, 13000, true);
    EXPECT_EQ(rp.state.rate, DataRate("50Gbps"));
    EXPECT_TRUE(rp.cc->InCwr());
    // A second echo in CWR: no cut.
    rp.Ack(4000, 14000, false);
    rp.Ack(5000, 15000, true);
    EXPECT_EQ(rp.state.rate, DataRate("50Gbps"));
    for (uint64_t una = 6000; una <= 11000; una += 1000)
    {
        rp.Ack(una, una + 10000, false);
    }
    EXPECT_DOUBLE_EQ(rp.cc->GetAlpha(), 1.0); // snd_una 11000 has not passed the end
    // snd_una 12000 > 11000 ends the window: F = 2 / 12, alpha = 15/16 + 2 / (12 x 16).
    // Still in CWR (12000 <= 13000): no increase. The next window ends at 22000 and counts
    // (22000 - 12000) / 1000 + 1 = 11 packets.
    rp.Ack(12000, 22000, false);
    const double alpha1 = 15.0 / 16 + 2.0 / 12 / 16; // 0.947917
    EXPECT_DOUBLE_EQ(rp.cc->GetAlpha(), alpha1);
    EXPECT_EQ(rp.state.rate, DataRate("50Gbps"));
    // snd_una 14000 > 13000 leaves CWR, without an increase (not a window end).
    rp.Ack(14000, 24000, false);
    EXPECT_FALSE(rp.cc->InCwr());
    EXPECT_EQ(rp.state.rate, DataRate("50Gbps"));
    // snd_una 23000 ends the window with no marks: alpha x 15/16; outside CWR: + 1 Gb/s.
    rp.Ack(23000, 33000, false);
    const double alpha2 = alpha1 * 15 / 16; // 0.888672
    EXPECT_DOUBLE_EQ(rp.cc->GetAlpha(), alpha2);
    EXPECT_EQ(rp.state.rate, DataRate("51Gbps"));
    // A mark now cuts by alpha2 / 2: 51 x (1 - 0.444336) = 28.339 Gb/s.
    rp.Ack(24000, 34000, true);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 51e9 * (1 - alpha2 / 2), 1.0);
}

TEST(RdmaDctcp, ByteFractionOfRfc8257)
{
    // Coalesced ACKs: an unmarked ACK of 1000 bytes opens the first window (ends at 11000,
    // 12 packets), a marked one of 5000 and an unmarked one of 6000 ending it.
    // Packets (simulator): F = 1 marked ACK / 12 packets. Bytes (RFC 8257): F = 5000 / 12000.
    for (const char* mode : {"Packets", "Bytes"})
    {
        Rp rp(Attrs{{"FractionMode", mode}, {"MinRate", "1Gbps"}});
        rp.Ack(1000, 11000, false, 1000);
        rp.Ack(6000, 16000, true, 5000);
        rp.Ack(12000, 22000, false, 6000);
        const double f = std::string(mode) == "Packets" ? 1.0 / 12 : 5000.0 / 12000;
        EXPECT_DOUBLE_EQ(rp.cc->GetAlpha(), 15.0 / 16 + f / 16) << mode;
    }
}

TEST(RdmaDctcp, VariableWindowFollowsTheRate)
{
    // Window on, base RTT 8 us: BDP = 100 Gb/s x 8 us / 8 = 100000 bytes; with
    // VariableWindow the window is BDP x rate / line rate (the simulator's VAR_WIN).
    Rp rp(Attrs{{"UseWindow", "true"}});
    EXPECT_EQ(rp.state.window, 0U); // base RTT unknown at Init: no window yet
    rp.state.baseRtt = MicroSeconds(8);
    rp.Ack(1000, 11000, false);
    EXPECT_EQ(rp.state.window, 100000U);
    rp.Ack(2000, 12000, true); // cut to 50 Gb/s
    EXPECT_EQ(rp.state.window, 50000U);
    Rp fixed(Attrs{{"UseWindow", "true"}, {"VariableWindow", "false"}});
    fixed.state.baseRtt = MicroSeconds(8);
    fixed.Ack(1000, 11000, false);
    fixed.Ack(2000, 12000, true);
    EXPECT_EQ(fixed.state.rate, DataRate("50Gbps"));
    EXPECT_EQ(fixed.state.window, 100000U);
}

TEST(RdmaDctcp, MinRateBoundsTheCut)
{
    Rp rp(Attrs{{"MinRate", "60Gbps"}});
    rp.Ack(1000, 11000, true);
    EXPECT_EQ(rp.state.rate, DataRate("60Gbps"));
}

TEST(RdmaDctcpDeathTest, ImpossibleConfigurationsAbort)
{
    EXPECT_DEATH({ Rp rp(Attrs{{"MinRate", "200Gbps"}}); }, "MinRate 200000000000bps exceeds");
    EXPECT_DEATH({ Rp rp(Attrs{{"G", "0"}}); }, "G 0 freezes alpha; valid: \\(0, 1\\]");
}

namespace
{

constexpr uint32_t MTU = 1000;
constexpr double LINE = 100e9;

/// What a shared-link run measures from `from` to `end`.
struct LinkResult
{
    std::vector<double> goodput; //!< bit/s per flow
    double queueMean{0};
    double queueMax{0};
    double jain{0};
};

/**
 * N DCTCP senders WRITE without end to one receiver through one switch (100 Gb/s, 1 us
 * links), step marking at K (Kmin = Kmax = K, Pmax 1, as DCTCP asks), AI 1 Gb/s per
 * window; sender i starts at i x stagger. With `window` (the simulator's run.py: HAS_WIN 1,
 * VAR_WIN 1) each flow also keeps at most BDP x rate / line rate in flight, so a cut takes
 * effect within the round trip as in window-based DCTCP (rate alone drains the queue only
 * at the rate deficit, and the marks of the still-long queue cut again in the next
 * windows). The bottleneck queue is sampled every 1 us from `from` to `end`.
 */
LinkResult
RunSharedLink(uint32_t n, uint32_t k, Time stagger, Time from, Time end, bool window = true)
{
    Star star(n + 1, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
    // DCTCP's switch marks "arriving packets" above K (Alizadeh et al., SIGCOMM 2010
    // section 3.1): enqueue marking, which these derivations assume.
    star.rdma.SetSwitchAttribute("EcnMarkingPoint", StringValue("Enqueue"));
    star.rdma.SetSwitchAttribute("EcnKmin", UintegerValue(k));
    star.rdma.SetSwitchAttribute("EcnKmax", UintegerValue(k));
    star.rdma.SetSwitchAttribute("EcnPmax", DoubleValue(1.0));
    star.rdma.SetCongestionControl("ns3::DctcpCongestionControl",
                                   "UseWindow",
                                   BooleanValue(window),
                                   "AdditiveIncreaseRate",
                                   DataRateValue(DataRate("1Gbps")));
    star.Install();
    std::vector<Ptr<RdmaQueuePair>> responders;
    for (uint32_t s = 1; s <= n; ++s)
    {
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(s), star.hosts.Get(0));
        responders.push_back(peer);
        PostWriteAt(qp, star.hosts.Get(s), stagger * (s - 1), 1'000'000'000);
    }
    std::vector<uint64_t> bytesFrom(n);
    std::vector<uint32_t> queue;
    Ptr<RdmaNetDevice> bottleneck = star.SwitchDevice(0);
    std::function<void()> sample = [&]() {
        queue.push_back(bottleneck->GetQueueBytes(3));
        if (Simulator::Now() + MicroSeconds(1) < end)
        {
            Simulator::Schedule(MicroSeconds(1), sample);
        }
    };
    Simulator::Schedule(from, [&]() {
        for (uint32_t i = 0; i < n; ++i)
        {
            bytesFrom[i] = responders[i]->GetBytesReceived();
        }
        sample();
    });
    Simulator::Stop(end);
    Simulator::Run();
    LinkResult r;
    double sum = 0;
    double sumSq = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double g =
            (responders[i]->GetBytesReceived() - bytesFrom[i]) * 8.0 / (end - from).GetSeconds();
        r.goodput.push_back(g);
        sum += g;
        sumSq += g * g;
    }
    r.jain = sum * sum / (n * sumSq);
    for (uint32_t q : queue)
    {
        r.queueMean += q;
        r.queueMax = std::max<double>(r.queueMax, q);
    }
    r.queueMean /= queue.size();
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(RdmaDctcp, LinkStaysFullWithTheQueueNearK)
{
    // Two flows at line rate into one port, window on, K = 40 KB (above C x RTT / 7 = 100
    // Gb/s x 4.3 us / 7 = 7.7 KB, DCTCP paper section 3.4, so the link never idles). Measured over
    // 0.5-1.5 ms, after alpha (1 at the start) has settled: g = 1/16 per window of ~4.3 us,
    // so alpha forgets its start after 2/g windows, about 0.14 ms.
    const uint32_t k = 40000;
    const LinkResult r = RunSharedLink(2, k, Seconds(0), MicroSeconds(500), MicroSeconds(1500));
    const double total = r.goodput[0] + r.goodput[1];
    std::cout << "[ DCTCP 2 flows, K 40 KB ] goodput " << total / 1e9 << " Gb/s (max "
              << AnalyticalGoodput(LINE, MTU) / 1e9 << "), queue mean " << r.queueMean / 1e3
              << " KB max " << r.queueMax / 1e3 << " KB\n";
    EXPECT_GE(total, 0.97 * AnalyticalGoodput(LINE, MTU));
    // The queue oscillates about K: each window's marks come a round trip late, so it
    // overshoots by at most the excess rate over one RTT (with AI 1 Gb/s per window and two
    // flows, a few KB) and after a cut of alpha / 2 it drains below K by about alpha / 2 of
    // the BDP (about 50 KB x alpha / 2, a few KB for the settled alpha).
    EXPECT_NEAR(r.queueMean, k, 0.25 * k);
    EXPECT_LT(r.queueMax, 1.5 * k);
}

TEST(RdmaDctcp, TwoFlowsStartingApartConvergeToFairShares)
{
    // Flow 1 has the link alone for 0.3 ms, then flow 2 joins at line rate. Each marked
    // window cuts a flow by alpha / 2 of its own rate and both add the same 1 Gb/s per
    // window, so the difference shrinks by about alpha / 2 per cut (AIMD, Chiu and Jain
    // 1989): measured over 1.5-2.5 ms, each within 10 % of C / 2, Jain's index >= 0.99.
    const LinkResult r =
        RunSharedLink(2, 40000, MicroSeconds(300), MicroSeconds(1500), MicroSeconds(2500));
    const double fair = AnalyticalGoodput(LINE, MTU) / 2;
    std::cout << "[ DCTCP 2 flows, joined ] " << r.goodput[0] / 1e9 << " / " << r.goodput[1] / 1e9
              << " Gb/s (fair " << fair / 1e9 << "), Jain " << r.jain << "\n";
    for (double g : r.goodput)
    {
        EXPECT_NEAR(g, fair, 0.1 * fair);
    }
    EXPECT_GE(r.jain, 0.99);
}

TEST(RdmaDctcp, SixteenFlowsShareTheLinkFairly)
{
    // 16 flows start together: every window is marked for all of them alike, so they stay
    // within 15 % of C / 16 (Jain >= 0.98) and the link stays full (>= 95 %).
    const LinkResult r =
        RunSharedLink(16, 40000, Seconds(0), MicroSeconds(500), MicroSeconds(1500));
    const double fair = AnalyticalGoodput(LINE, MTU) / 16;
    double total = 0;
    for (double g : r.goodput)
    {
        EXPECT_NEAR(g, fair, 0.15 * fair);
        total += g;
    }
    std::cout << "[ DCTCP 16 flows ] total " << total / 1e9 << " Gb/s, Jain " << r.jain
              << ", queue mean " << r.queueMean / 1e3 << " KB max " << r.queueMax / 1e3 << " KB\n";
    EXPECT_GE(r.jain, 0.98);
    EXPECT_GE(total, 0.95 * AnalyticalGoodput(LINE, MTU));
}
