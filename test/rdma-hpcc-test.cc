/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HPCC (HpccCongestionControl): the utilisation estimate and the window from hand-built
// telemetry records against hand-computed values (Li et al., SIGCOMM 2019, Algorithm 1),
// the once-per-RTT reference window and the per-ACK fast reaction, bounds, bad input.

#include "rdma-test-utils.h"

#include <functional>
#include <gtest/gtest.h>
#include <iostream>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

constexpr double LINE = 100e9;
const Time T = MicroSeconds(10); // base RTT of the hand-driven flow

using Attrs = std::vector<std::pair<std::string, std::string>>;

/// An HPCC reaction point driven by hand: 100 Gb/s line, T = 10 us, eta 0.95, W_AI =
/// 40 Mb/s x T.
struct Rp
{
    Ptr<HpccCongestionControl> cc;
    RdmaCcState state;

    explicit Rp(const std::vector<std::pair<std::string, std::string>>& attributes = {})
    {
        cc = rdmatest::ForkCongestionControl<HpccCongestionControl>("ns3::HpccCongestionControl",
                                                                    attributes);
        state.lineRate = DataRate("100Gbps");
        state.mtu = 1000;
        state.baseRtt = T;
        cc->Init(state);
    }

    /// An ACK up to `una` with snd_nxt at `sent` echoing `ih`.
    void Ack(uint64_t una, uint64_t sent, const RdmaIntHeader& ih)
    {
        state.bytesSent = sent;
        state.bytesAcked = una;
        RdmaAckFeedback fb;
        fb.advanced = true;
        fb.ackedBytes = 1000;
        fb.ackedUpToBytes = una;
        fb.telemetry = &ih;
        cc->OnAck(state, fb);
    }
};

/// One hop record at 100 Gb/s (multiplier 1: tx bytes in 128-byte units, queue in 80).
RdmaIntHop
Hop(uint64_t timeNs, uint64_t txUnits, uint64_t qlenUnits)
{
    RdmaIntHop h;
    h.Set(100'000'000'000ULL, timeNs, txUnits * 128, qlenUnits * 80);
    return h;
}

RdmaIntHeader
Records(std::initializer_list<RdmaIntHop> hops)
{
    RdmaIntHeader ih;
    for (const auto& h : hops)
    {
        ih.PushHop(h);
    }
    return ih;
}

} // namespace

TEST(RdmaHpcc, UtilisationAndWindowFromTwoRecordsByHand)
{
    Rp rp; // MaxStage 5 (paper), FastReact on
    EXPECT_TRUE(rp.cc->NeedsTelemetry());
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    EXPECT_EQ(rp.state.window, 125000U); // W_init = B x T = 100 Gb/s x 10 us / 8
    // First ACK: the records are only kept; lastUpdateSeq = snd_nxt = 20000.
    rp.Ack(1000, 20000, Records({Hop(1'000'000, 10000, 500), Hop(2'000'000, 0, 0)}));
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    EXPECT_DOUBLE_EQ(rp.cc->GetUtilisation(), 1.0);

    // Second ACK passes 20000: a full update (Wc kept), lastUpdateSeq = 40000.
    // Hop 0: tau = 5000 ns; tx 464 units = 59392 B -> 59392 x 8 / 5 us = 95.0272 Gb/s ->
    // 0.950272; queue min(500, 250) units = 20000 B -> 20000 x 8 / (100 Gb/s x 10 us) =
    // 0.16; u0 = 1.110272. Hop 1: tau 8000 ns, 390 units = 49920 B in 8 us = 49.92 Gb/s
    // -> u1 = 0.4992, no queue. u = max = u0 with tau = 5 us: U = (1 - 0.5) x 1 + 0.5 x
    // 1.110272 = 1.055136. U / eta = 1.110669 >= 1: W = Wc / (U / eta) + W_AI, as a rate
    // 100 / 1.110669 + 0.04 = 90.0758 Gb/s; stage 0.
    rp.Ack(21000, 40000, Records({Hop(1'005'000, 10464, 250), Hop(2'008'000, 390, 0)}));
    const double u1 = 0.5 * 1.0 + 0.5 * (59392 * 8 / 5e-6 / LINE + 20000 * 8 / (LINE * 10e-6));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 1.055136, 1e-9);
    EXPECT_NEAR(rp.cc->GetUtilisation(), u1, 1e-12);
    const double rate1 = LINE / (1.055136 / 0.95) + 40e6;
    EXPECT_NEAR(rp.state.rate.GetBitRate(), rate1, 1.0);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 90.0758e9, 1e5);
    EXPECT_EQ(rp.cc->GetReferenceRate(), rp.state.rate);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 0U);
    EXPECT_NEAR(double(rp.state.window), rate1 * 10e-6 / 8, 1.0); // W = R x T

    // Third ACK (22000 <= 40000): fast reaction, W from Wc but Wc and the stage kept.
    // Hop 0: tau = 10 us = T (weight 1), 700 units = 89600 B in 10 us = 71.68 Gb/s, queue
    // min(250, 0) = 0: u = 0.7168 = U. Hop 1: nothing sent, u = 0. U / eta = 0.754526 < 1
    // and stage 0 < 5: W = Wc + W_AI -> 90.0758 + 0.04 Gb/s.
    rp.Ack(22000, 41000, Records({Hop(1'015'000, 11164, 0), Hop(2'018'000, 390, 0)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 0.7168, 1e-12);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), rate1 + 40e6, 1.0);
    EXPECT_NEAR(rp.cc->GetReferenceRate().GetBitRate(), rate1, 1.0);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 0U);

    // Fourth ACK (41000 > 40000): full update. Hop 0: tau 20 us, capped at T (weight 1);
    // 977 units = 125056 B in 20 us = 50.0224 Gb/s -> u = 0.500224 = U < eta and stage 0 <
    // 5: additive, Wc = Wc + W_AI (the same rate as the fast reaction above), stage 1.
    rp.Ack(41000, 60000, Records({Hop(1'035'000, 11164 + 977, 0), Hop(2'038'000, 390, 0)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 977 * 128 * 8 / 20e-6 / LINE, 1e-12);
    EXPECT_NEAR(rp.cc->GetUtilisation(), 0.500224, 1e-9);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), rate1 + 40e6, 1.0);
    EXPECT_EQ(rp.cc->GetReferenceRate(), rp.state.rate);
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 1U);
}

TEST(RdmaHpcc, SimulatorMiThreshZeroIsAlwaysMultiplicative)
{
    // MaxStage 0 (the simulator's run.py MI_THRESH 0): below eta too, W = Wc / (U / eta) +
    // W_AI. One hop, tau = T (weight 1), 488 units = 62464 B in 10 us, no queue: U =
    // 62464 x 8 / 10 us / 100 Gb/s = 0.499712.
    // eta 0.95: W = 100 / (0.499712 / 0.95) = 190 Gb/s, capped at the line rate (W_init).
    Rp rp(Attrs{{"MaxStage", "0"}});
    rp.Ack(1000, 20000, Records({Hop(0, 0, 0)}));
    rp.Ack(21000, 40000, Records({Hop(10'000, 488, 0)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 0.499712, 1e-9);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 0U);
    // eta 0.4: U / eta = 1.24928, W = 100 / 1.24928 + 0.04 = 80.0861 Gb/s.
    Rp low(Attrs{{"MaxStage", "0"}, {"EtaTarget", "0.4"}});
    low.Ack(1000, 20000, Records({Hop(0, 0, 0)}));
    low.Ack(21000, 40000, Records({Hop(10'000, 488, 0)}));
    EXPECT_NEAR(low.state.rate.GetBitRate(), LINE / (0.499712 / 0.4) + 40e6, 1.0);
    EXPECT_NEAR(low.state.rate.GetBitRate(), 80.0861e9, 1e5);
}

TEST(RdmaHpcc, MinRateIsTheFloor)
{
    // Both records show the saturated queue field, 131071 units = 10485680 B: the queue term
    // alone is 10485680 x 8 / (100 Gb/s x 10 us) = 83.885, so W = 100 / (83.885 / 0.95) +
    // 0.04 = 1.17 Gb/s, below MinRate 2 Gb/s.
    Rp rp(Attrs{{"MinRate", "2Gbps"}});
    rp.Ack(1000, 20000, Records({Hop(0, 0, 131071)}));
    rp.Ack(21000, 40000, Records({Hop(10'000, 0, 131071)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 10485680 * 8 / (LINE * 10e-6), 1e-9);
    EXPECT_EQ(rp.state.rate, DataRate("2Gbps"));
    EXPECT_EQ(rp.state.window, 2500U); // 2 Gb/s x 10 us / 8
}

TEST(RdmaHpcc, FastReactOffUsesOnlyTheOncePerRttAck)
{
    // FAST_REACT 0: ACKs before the update point change nothing, not even U or the kept
    // records, so the next update measures over the whole RTT.
    Rp rp(Attrs{{"FastReact", "false"}});
    rp.Ack(1000, 20000, Records({Hop(0, 0, 0)}));
    rp.Ack(2000, 21000, Records({Hop(5'000, 3000, 100)})); // ignored
    EXPECT_DOUBLE_EQ(rp.cc->GetUtilisation(), 1.0);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    // Update: tau 10 us (weight 1), 700 units = 89600 B in 10 us = 71.68 Gb/s, u = 0.7168,
    // no queue (min(0, 0)). Stage 0 < 5 and
    // U / eta < 1: W = Wc + W_AI = 100 Gb/s + 40 Mb/s, capped at the line rate.
    rp.Ack(21000, 40000, Records({Hop(10'000, 700, 0)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 0.7168, 1e-12);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    EXPECT_EQ(rp.cc->GetIncreaseStage(), 1U);
}

TEST(RdmaHpcc, AdditiveIncreaseWindowInBytes)
{
    // The paper's W_AI in bytes: 500 B over T = 10 us is 400 Mb/s of rate. Eta 0.5, one
    // hop at 977 units = 125056 B in 10 us: U = 1.000448, U / eta = 2.000896: W = 100 /
    // 2.000896 + 0.4 = 50.3776 Gb/s.
    Rp rp(Attrs{{"AdditiveIncreaseWindow", "500"}, {"EtaTarget", "0.5"}});
    rp.Ack(1000, 20000, Records({Hop(0, 0, 0)}));
    rp.Ack(21000, 40000, Records({Hop(10'000, 977, 0)}));
    EXPECT_NEAR(rp.cc->GetUtilisation(), 1.000448, 1e-9);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), LINE / 2.000896 + 400e6, 1.0);
    EXPECT_NEAR(rp.state.rate.GetBitRate(), 50.3776e9, 1e5);
}

TEST(RdmaHpcc, NewPathRestartsTheMeasurement)
{
    // A record with another number of hops (the flow moved) is kept, not compared.
    Rp rp;
    rp.Ack(1000, 20000, Records({Hop(0, 0, 0)}));
    rp.Ack(21000, 40000, Records({Hop(10'000, 0, 0), Hop(10'000, 0, 0)}));
    EXPECT_DOUBLE_EQ(rp.cc->GetUtilisation(), 1.0);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
    // An ACK without telemetry (a NAK) changes nothing.
    RdmaAckFeedback fb;
    fb.nak = true;
    rp.cc->OnAck(rp.state, fb);
    EXPECT_EQ(rp.state.rate, DataRate("100Gbps"));
}

TEST(RdmaHpccDeathTest, ImpossibleConfigurationsAbort)
{
    EXPECT_DEATH(
        {
            Rp rp(Attrs{{"EtaTarget", "1.2"}});
        },
        "EtaTarget 1.2 is impossible; valid: \\(0, 1\\]");
    EXPECT_DEATH({ Rp rp(Attrs{{"EtaTarget", "0"}}); }, "EtaTarget 0 is impossible");
    EXPECT_DEATH({ Rp rp(Attrs{{"MinRate", "200Gbps"}}); }, "MinRate 200000000000bps exceeds");
}

TEST(RdmaHpcc, TwoFlowsHoldTheLinkAtEtaWithANearEmptyQueue)
{
    // End to end (switch telemetry on, T = 4.5 us, about the path's round trip): two flows
    // into one 100 Gb/s port. HPCC steers the bottleneck's U, tx rate plus queue, to eta =
    // 0.95, so in steady state the queue is near empty and the port sends eta x C on the
    // wire (Li et al. section 3.2). Wire bytes per payload byte: (1000 + 82 + 44 INT) / 1000.
    Star star(3, "100Gbps", MicroSeconds(1));
    star.rdma.SetNicAttribute("Mtu", UintegerValue(1000));
    star.rdma.SetSwitchAttribute("Telemetry", BooleanValue(true));
    star.rdma.SetQueuePairAttribute("BaseRtt", TimeValue(NanoSeconds(4500)));
    star.rdma.SetCongestionControl("ns3::HpccCongestionControl");
    star.Install();
    std::vector<Ptr<RdmaQueuePair>> responders;
    for (uint32_t s = 1; s <= 2; ++s)
    {
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(s), star.hosts.Get(0));
        responders.push_back(peer);
        PostWriteAt(qp, star.hosts.Get(s), Seconds(0), 1'000'000'000);
    }
    const Time from = MicroSeconds(200);
    const Time end = MicroSeconds(700);
    std::vector<uint64_t> bytesFrom(2);
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
        for (uint32_t i = 0; i < 2; ++i)
        {
            bytesFrom[i] = responders[i]->GetBytesReceived();
        }
        sample();
    });
    Simulator::Stop(end);
    Simulator::Run();
    double wire = 0;
    std::vector<double> goodput;
    for (uint32_t i = 0; i < 2; ++i)
    {
        const double g =
            (responders[i]->GetBytesReceived() - bytesFrom[i]) * 8.0 / (end - from).GetSeconds();
        goodput.push_back(g);
        wire += g * (1000 + 82 + 44) / 1000.0;
    }
    double queueMean = 0;
    for (uint32_t q : queue)
    {
        queueMean += q;
    }
    queueMean /= queue.size();
    std::cout << "[ HPCC 2 flows ] wire rate " << wire / 1e9 << " Gb/s (eta x C = 95), flows "
              << goodput[0] / 1e9 << " / " << goodput[1] / 1e9 << " Gb/s goodput, queue mean "
              << queueMean / 1e3 << " KB\n";
    EXPECT_NEAR(wire, 0.95 * LINE, 0.03 * LINE);
    EXPECT_LT(queueMean, 5000);
    EXPECT_NEAR(goodput[0], goodput[1], 0.1 * goodput[0]);
    Simulator::Destroy();
}
