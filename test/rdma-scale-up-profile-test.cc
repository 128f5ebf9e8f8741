/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ScaleUpHelper profiles (roce, ualink, sue, sue-pfc): each builds a pod whose devices carry
// the framing, link flow control and link-level retry the profile names and whose queue
// pairs run its end-to-end loss recovery; WRITEs complete over each; the ualink pod's link
// carries 640-byte DL flits (a 4 KB WRITE's wire time is the FLIT arithmetic of
// doc/scale-up-link.rst); roce is the helper's behaviour before profiles; values can be
// overridden after SetProfile; a bad profile name is a clear error.

#include "rdma-test-utils.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// TypeId name of an object, "" for none.
template <typename T>
std::string
NameOf(Ptr<T> o)
{
    return o == nullptr ? "" : o->GetInstanceTypeId().GetName();
}

/// What one pod of a profile did: every accelerator WRITEs `bytes` to the next one.
struct PodRun
{
    uint32_t sendCompletions{0};
    uint32_t receiveCompletions{0};
    uint64_t retransmissions{0};
    std::string lossRecovery;  //!< of accelerator 0's queue pair
    uint32_t reorderWindow{0}; //!< its GetReorderWindow()
};

/// A 4-accelerator, 2-plane pod of `profile`; checks what every device carries.
PodRun
RunProfile(const std::string& profile,
           const std::string& framing,
           const std::string& flowControl,
           bool retry,
           uint64_t bytes)
{
    SCOPED_TRACE("profile " + profile);
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetProfile(profile);
    pod.SetAccelerators(4);
    pod.SetPlanes(2);
    pod.Install(rdma);
    for (uint32_t d = 0; d < pod.GetDevices().GetN(); ++d)
    {
        Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(pod.GetDevices().Get(d));
        EXPECT_EQ(NameOf(dev->GetLinkFraming()), framing) << "device " << d;
        EXPECT_EQ(NameOf(dev->GetLinkFlowControl()), flowControl) << "device " << d;
        EXPECT_EQ(dev->GetLinkRetry() != nullptr, retry) << "device " << d;
        EXPECT_EQ(dev->GetDataRate(), pod.GetLinkRate());
        EXPECT_EQ(dev->GetRdmaChannel()->GetDelay(), pod.GetChannelDelay());
    }
    PodRun run;
    CompletionLog log;
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < 4; ++i)
    {
        auto [qp, peer] = rdma.Connect(pod.GetAccelerator(i), pod.GetAccelerator((i + 1) % 4));
        log.Attach(qp, peer);
        qps.push_back(qp);
        PostWriteAt(qp, pod.GetAccelerator(i), MicroSeconds(1), bytes);
    }
    run.lossRecovery = NameOf(qps[0]->GetLossRecovery());
    run.reorderWindow = qps[0]->GetLossRecovery()->GetReorderWindow();
    // Credit links refresh for as long as the simulation runs: stop it.
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    run.sendCompletions = log.sends.size();
    run.receiveCompletions = log.receives.size();
    for (const auto& qp : qps)
    {
        run.retransmissions += qp->GetRetransmissions();
    }
    Simulator::Destroy();
    return run;
}

} // namespace

TEST(RdmaScaleUpProfile, RoceIsTheDefaultAndUnchanged)
{
    // "roce" is the default, and SetProfile("roce") restores the figures of
    // RdmaScaleUp.DefaultsAreDocumented: no link option, the RdmaHelper's loss recovery.
    ScaleUpHelper a;
    EXPECT_EQ(a.GetProfile(), "roce");
    ScaleUpHelper b;
    b.SetProfile("ualink");
    b.SetProfile("roce");
    for (ScaleUpHelper* pod : {&a, &b})
    {
        EXPECT_EQ(pod->GetLinkRate(), DataRate("200Gbps"));
        EXPECT_EQ(pod->GetLinkLatency(), NanoSeconds(10));
        EXPECT_EQ(pod->GetSwitchLatency(), NanoSeconds(150));
        EXPECT_EQ(pod->GetLinkFraming(), "");
        EXPECT_EQ(pod->GetLinkFlowControl(), "");
        EXPECT_FALSE(pod->GetLinkRetry());
        EXPECT_EQ(pod->GetLossRecovery(), "");
    }
    const PodRun run = RunProfile("roce", "", "ns3::RdmaPfcFlowControl", false, 64 * 1024);
    EXPECT_EQ(run.sendCompletions, 4u);
    EXPECT_EQ(run.receiveCompletions, 4u);
    EXPECT_EQ(run.retransmissions, 0u);
    EXPECT_EQ(run.lossRecovery, "ns3::RdmaGoBackNLossRecovery"); // ns3::RdmaNic's default
}

TEST(RdmaScaleUpProfile, UalinkCarriesFlitsCreditsRetryUnreliable)
{
    ScaleUpHelper pod;
    pod.SetProfile("ualink");
    // x4 port of 200 Gb/s lanes (UALink 200G 1.0), the <= 150 ns switch target.
    EXPECT_EQ(pod.GetLinkRate(), DataRate("800Gbps"));
    EXPECT_EQ(ScaleUpHelper::UalinkPortRate(1), DataRate("200Gbps"));
    EXPECT_EQ(ScaleUpHelper::UalinkPortRate(2), DataRate("400Gbps"));
    EXPECT_EQ(pod.GetSwitchLatency(), NanoSeconds(150));
    EXPECT_EQ(pod.GetLossRecovery(), "ns3::RdmaNoRetransmitLossRecovery");
    // Replay buffer from the link: 800 Gb/s x (2 x 85 ns + 500 ns) = 67,000 B, + 2 frames of
    // 9000 + 14 + 2 = 9016 B, + an 84-byte ACK, + one frame: 67,000 + 18,032 + 84 + 9016.
    EXPECT_EQ(pod.GetReplayBufferBytes(), 67000u + 18032u + 84u + 9016u);
    const PodRun run = RunProfile("ualink",
                                  "ns3::RdmaUalinkFlitFraming",
                                  "ns3::RdmaCreditFlowControl",
                                  true,
                                  64 * 1024);
    EXPECT_EQ(run.sendCompletions, 4u);
    EXPECT_EQ(run.receiveCompletions, 4u);
    EXPECT_EQ(run.retransmissions, 0u);
    EXPECT_EQ(run.lossRecovery, "ns3::RdmaNoRetransmitLossRecovery");
    // UALink requests carry their address: placed as they arrive, over the planes too.
    EXPECT_EQ(run.reorderWindow, ScaleUpHelper::UALINK_REORDER_WINDOW);
}

TEST(RdmaScaleUpProfile, SueCarriesCompressedHeaderRetryAndCreditsOrPfc)
{
    ScaleUpHelper pod;
    pod.SetProfile("sue");
    EXPECT_EQ(pod.GetLinkRate(), DataRate("800Gbps"));
    EXPECT_EQ(pod.GetSwitchLatency(), NanoSeconds(250)); // Tomahawk Ultra
    EXPECT_EQ(pod.GetLossRecovery(), "");                // SUE keeps a reliable transport
    for (const std::string fc : {"ns3::RdmaCreditFlowControl", "ns3::RdmaPfcFlowControl"})
    {
        const PodRun run = RunProfile(fc == "ns3::RdmaPfcFlowControl" ? "sue-pfc" : "sue",
                                      "ns3::RdmaCompressedHeaderFraming",
                                      fc,
                                      true,
                                      64 * 1024);
        EXPECT_EQ(run.sendCompletions, 4u) << fc;
        EXPECT_EQ(run.receiveCompletions, 4u) << fc;
        EXPECT_EQ(run.retransmissions, 0u) << fc;
        EXPECT_EQ(run.lossRecovery, "ns3::RdmaGoBackNLossRecovery") << fc;
    }
}

TEST(RdmaScaleUpProfile, ValuesCanBeOverriddenAfterTheProfile)
{
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetProfile("ualink");
    pod.SetLinkRate(ScaleUpHelper::UalinkPortRate(1));
    pod.SetSwitchLatency(NanoSeconds(300));
    pod.SetLinkFraming("");
    pod.SetLinkFlowControl("ns3::RdmaPfcFlowControl");
    pod.SetLinkRetry(false);
    pod.SetLossRecovery("ns3::RdmaSackLossRecovery");
    pod.SetAccelerators(2);
    pod.SetPlanes(1);
    pod.Install(rdma);
    Ptr<RdmaNetDevice> dev = pod.GetAcceleratorDevice(0, 0);
    EXPECT_EQ(dev->GetDataRate(), DataRate("200Gbps"));
    EXPECT_EQ(dev->GetRdmaChannel()->GetDelay(), NanoSeconds(160));
    EXPECT_EQ(dev->GetLinkFraming(), nullptr);
    EXPECT_EQ(NameOf(dev->GetLinkFlowControl()), "ns3::RdmaPfcFlowControl");
    EXPECT_EQ(dev->GetLinkRetry(), nullptr);
    auto [qp, peer] = rdma.Connect(pod.GetAccelerator(0), pod.GetAccelerator(1));
    EXPECT_EQ(NameOf(qp->GetLossRecovery()), "ns3::RdmaSackLossRecovery");
    Simulator::Destroy();
}

/// Time stamps of the frames above 4000 bytes a trace sees.
void
RecordLarge(std::vector<Time>* times, Ptr<const Packet> p)
{
    if (p->GetSize() > 4000)
    {
        times->push_back(Simulator::Now());
    }
}

TEST(RdmaScaleUpProfile, UalinkWireTimeIsFlitArithmetic)
{
    // A 4 KB WRITE in one packet (RoCE MTU 4096) is one transaction of
    // ceil((16 + 4096) / 64) = 65 TL flits; a DL flit holds 9 (640 - 3 - 5 x 1 - 4 = 628
    // payload bytes), so 8 DL flits of 640 B = 5120 B (doc/scale-up-link.rst), 51.2 ns at
    // 800 Gb/s (x4 lanes). Under FLIT framing a frame is delivered with its last DL flit:
    // the switch receives it 51.2 ns + the channel delay (10 + 150 / 2 ns) after the
    // accelerator starts sending it, on an idle link (posted once credits have arrived).
    // Exact to the picosecond (a bit lasts 1.25 ps; 5120 B is a whole number of ps).
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(4096));
    ScaleUpHelper pod;
    pod.SetProfile("ualink");
    pod.SetAccelerators(2);
    pod.SetPlanes(1);
    pod.Install(rdma);
    std::vector<Time> txBegin;
    std::vector<Time> rx;
    pod.GetAcceleratorDevice(0, 0)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(&RecordLarge, &txBegin));
    pod.GetSwitchDevice(0, 0)->TraceConnectWithoutContext("MacRx",
                                                          MakeBoundCallback(&RecordLarge, &rx));
    auto [qp, peer] = rdma.Connect(pod.GetAccelerator(0), pod.GetAccelerator(1));
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, pod.GetAccelerator(0), MicroSeconds(2), 4096);
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    ASSERT_EQ(txBegin.size(), 1u);
    ASSERT_EQ(rx.size(), 1u);
    EXPECT_EQ(rx[0] - txBegin[0], PicoSeconds(51200) + NanoSeconds(85));
    EXPECT_EQ(log.receives.size(), 1u);
    EXPECT_EQ(pod.GetAcceleratorDevice(0, 0)->GetLinkRetry()->GetFramesReplayed(), 0u);
    Simulator::Destroy();
}

TEST(RdmaScaleUpProfileDeathTest, BadProfileNamesTheValidOnes)
{
    ScaleUpHelper pod;
    EXPECT_DEATH(pod.SetProfile("nvlink"),
                 "profile \"nvlink\" is not known; valid: roce, ualink, sue, sue-pfc");
    EXPECT_DEATH(ScaleUpHelper::UalinkPortRate(3), "3 lanes is invalid; valid: 1, 2, 4");
    EXPECT_DEATH(pod.SetLinkFraming("ns3::RdmaCreditFlowControl"),
                 "is not a ns3::RdmaLinkFraming; valid: .*ns3::RdmaUalinkFlitFraming");
}

namespace
{

/// Run scale-up-allreduce (8 accelerators, 4 planes, 4 MiB, MTU 1024) with a profile and
/// path selector; the summary CSV as a map ({} if the example is not built).
std::map<std::string, std::string>
RunAllReduce(const std::string& profile, const std::string& selector)
{
    const std::string exe = RDMA_SCALE_UP_EXAMPLE;
    if (exe.empty())
    {
        return {};
    }
    const std::string dir = OutputDir() + "/profile-" + profile + "-" + selector;
    RdmaOutputHelper::CreateDirectories(dir);
    const std::string cmd = exe + " --profile=" + profile + " --pathSelector=" + selector +
                            " --output=" + dir + " > " + dir + ".log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const std::vector<CsvRow> rows = ReadCsvRows(dir + "/scale-up-allreduce.csv");
    EXPECT_EQ(rows.size(), 1u) << "the summary CSV has one data line";
    return rows.empty() ? CsvRow() : rows.front();
}

/**
 * The example's analytical ring all-reduce time T = 2 (N - 1) (alpha + (S/N) / B_eff) for
 * N = 8, S = 4 MiB, MTU m = 1024, an ACK every 16 packets, with wire bytes W per data packet
 * and A per ACK: a chunk of 512 packets has 32 ACKs, all on one plane of P' (interleave,
 * G = m), a = 32 A P' / 512 ACK bytes per data packet there; B_eff = P' R m / (W + a);
 * alpha = 2 d + L + (2 - 1 / P') W / R, d = 10 ns.
 */
double
RingTime(double w, double ackBytes, double rate, double switchLatency, double planesPerQp)
{
    const double a = 32 * ackBytes * planesPerQp / 512;
    const double beff = planesPerQp * rate * 1024 / (w + a);
    const double alpha = 2 * 10e-9 + switchLatency + (2 - 1 / planesPerQp) * w * 8 / rate;
    return 14 * (alpha + 524288 * 8 / beff);
}

} // namespace

TEST(RdmaScaleUpProfile, AllReduceOverSuePfcIsTheCompressedHeaderArithmetic)
{
    // sue-pfc: 800 Gb/s, 250 ns switches, compressed header: a full data packet is 10 (header)
    // + 12 (BTH) + 1024 + 4 (FCS) + 20 (preamble, gap) = 1070 wire bytes, an ACK (10 + 12 + 4
    // bytes padded to the 64-byte minimum frame) 84; no retransmission with PFC. Measured
    // 23.606 us against 23.593 us (interleave) and 81.059 against 81.004 us (qp): tolerance
    // 0.5 %, the ACK-free head of each step (the example's "refined" term) being below it.
    for (const std::string selector : {"interleave", "qp"})
    {
        SCOPED_TRACE(selector);
        auto s = RunAllReduce("sue-pfc", selector);
        if (s.empty())
        {
            GTEST_SKIP() << "examples are not built";
        }
        ASSERT_EQ(s["completed"], "1");
        EXPECT_EQ(s["profile"], "sue-pfc");
        EXPECT_EQ(s["rate_bps"], "800000000000");
        EXPECT_EQ(s["retransmissions"], "0");
        const double t = RingTime(1070, 84, 800e9, 250e-9, selector == "qp" ? 1 : 4);
        EXPECT_NEAR(std::stod(s["total_us"]) * 1e-6, t, 0.005 * t);
    }
}

TEST(RdmaScaleUpProfile, AllReduceOverUalinkPaysTheFlits)
{
    // ualink: a full data packet is ceil((16 + 1024) / 64) = 17 TL flits (a RETH in every
    // packet, for the reorder window, still fits), 17 x 640 / 9 = 1208.9 stream bytes, an ACK
    // one TL flit (71.1 B): T0 = 89.52 us with one plane per queue pair. Credits and link
    // retry add control frames of one TL flit each on a link direction that also carries
    // data: a credit update per 64 blocks received (a 1084-byte IPv4 packet is 17 blocks:
    // 71.1 x 17 / 64 = 18.9 B per data packet) and an LLR ACK per 500 ns (71.1 x 12.09 ns /
    // 500 ns = 1.7 B per data packet at 800 Gb/s): W = 1229.5 B gives T1. Over the planes
    // (interleave) every link direction carries data both ways and pays both: measured
    // between T1 and T1 + 1.5 % (a frame is delivered at the end of its last DL flit, up to
    // 6.4 ns per hop and step, and the planes drift apart by the ACKs' share). With one plane
    // per queue pair a link carries reverse data only where two ring neighbours' queue pairs
    // hashed to one plane: between T0 and T1. The unreliable responder places packets as
    // they arrive (ReorderWindow 512): nothing is counted lost over the planes. (When a
    // frame was charged whole DL flits, a line-rate pacer charging the stream share beat
    // against them and left the link idle after every ninth frame: 94.05 us, +5.1 %; before
    // the reorder window, 10,721 packets that arrived were counted lost over the planes.)
    for (const std::string selector : {"interleave", "qp"})
    {
        SCOPED_TRACE(selector);
        auto s = RunAllReduce("ualink", selector);
        if (s.empty())
        {
            GTEST_SKIP() << "examples are not built";
        }
        ASSERT_EQ(s["completed"], "1");
        EXPECT_EQ(s["retransmissions"], "0");
        EXPECT_EQ(s["packets_lost"], "0");
        const double planes = selector == "qp" ? 1 : 4;
        const double t0 = RingTime(17 * 640.0 / 9, 640.0 / 9, 800e9, 150e-9, planes);
        const double t1 = RingTime(17 * 640.0 / 9 + 640.0 / 9 * (17.0 / 64 + 12.09 / 500),
                                   640.0 / 9,
                                   800e9,
                                   150e-9,
                                   planes);
        const double measured = std::stod(s["total_us"]) * 1e-6;
        EXPECT_GT(measured, selector == "qp" ? t0 : t1);
        EXPECT_LT(measured, selector == "qp" ? t1 : 1.015 * t1);
    }
}
