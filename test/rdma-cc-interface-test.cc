/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The congestion-control interface: the window the queue pair enforces (Little's law, for
// windows above and below one packet), the feedback record on every acknowledgement (SACK-only
// and duplicate ACKs included, Karn-filtered RTT samples, ECN-echo, Falcon's timestamps), the
// loss events (NAK, RACK, timeout) and the Rate/Window/Rtt trace sources.

#include "rdma-test-utils.h"

#include <gtest/gtest.h>
#include <iostream>
#include <map>

using namespace ns3;
using namespace ns3::rdmatest;

namespace ns3
{
namespace rdmatest
{

/**
 * A congestion control that records what it is told: a fixed window (0: none) at the line
 * rate, optionally asking for timestamps.
 */
class RecordingCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::rdmatest::RecordingCongestionControl")
                .SetParent<RdmaCongestionControl>()
                .SetGroupName("Rdma")
                .AddConstructor<RecordingCongestionControl>()
                .AddAttribute("Window",
                              "window in payload bytes, 0: none",
                              UintegerValue(0),
                              MakeUintegerAccessor(&RecordingCongestionControl::m_window),
                              MakeUintegerChecker<uint64_t>())
                .AddAttribute("Telemetry",
                              "ask for in-band telemetry",
                              BooleanValue(false),
                              MakeBooleanAccessor(&RecordingCongestionControl::m_telemetry),
                              MakeBooleanChecker())
                .AddAttribute("Timestamps",
                              "ask for timestamps",
                              BooleanValue(false),
                              MakeBooleanAccessor(&RecordingCongestionControl::m_timestamps),
                              MakeBooleanChecker());
        return tid;
    }

    std::string GetName() const override
    {
        return "Recording";
    }

    Ptr<RdmaCongestionControl> Fork() override
    {
        return CopyObject<RecordingCongestionControl>(this);
    }

    void Init(RdmaCcState& state) override
    {
        state.rate = state.lineRate;
        state.window = m_window;
    }

    void OnAck(RdmaCcState& state, const RdmaAckFeedback& fb) override
    {
        acks.push_back(fb);
        acks.back().telemetry = nullptr; // points into the ACK, gone after the call
        telemetryHops.push_back(fb.telemetry ? int(fb.telemetry->GetNHops()) : -1);
        telemetryMultipliers.push_back(fb.telemetry ? fb.telemetry->GetMultiplier() : 0);
        ackTimes.push_back(Simulator::Now());
        inFlightAtAck.push_back(state.bytesInFlight);
    }

    void OnLoss(RdmaCcState& /* state */, RdmaLossEvent event, uint64_t seq) override
    {
        losses.emplace_back(event, seq);
    }

    void OnCnp(RdmaCcState& /* state */) override
    {
        ++cnps;
    }

    bool NeedsTimestamps() const override
    {
        return m_timestamps;
    }

    bool NeedsTelemetry() const override
    {
        return m_telemetry;
    }

    uint32_t GetTelemetryMultiplier() const override
    {
        return 4;
    }

    std::vector<RdmaAckFeedback> acks;
    std::vector<Time> ackTimes;
    std::vector<int> telemetryHops;             //!< records in the echoed area, -1: none
    std::vector<uint32_t> telemetryMultipliers; //!< its units multiplier
    std::vector<uint64_t> inFlightAtAck;
    std::vector<std::pair<RdmaLossEvent, uint64_t>> losses;
    uint64_t cnps{0};

  private:
    uint64_t m_window{0};
    bool m_timestamps{false};
    bool m_telemetry{false};
};

NS_OBJECT_ENSURE_REGISTERED(RecordingCongestionControl);

} // namespace rdmatest
} // namespace ns3

namespace
{

constexpr uint32_t MTU = 1024;
constexpr double LINE_RATE = 100e9;
const Time DELAY = MicroSeconds(1);

/// Wire time of a frame carrying an IPv4 packet of ipBytes at 100 Gb/s, in seconds.
double
WireSeconds(uint32_t ipBytes)
{
    return RdmaNetDevice::WireBytes(ipBytes + 14) * 8.0 / LINE_RATE;
}

/// Round trip through one switch: a full data packet (IPv4 20, UDP 8, BTH 12, ICRC 4, RETH
/// 16 in the first packet only: ignored, as the samples are of later packets) store and
/// forward over two links, the ACK (48 IPv4 bytes) back over two links.
double
OneSwitchRtt()
{
    return 2 * (WireSeconds(MTU + 44) + WireSeconds(48) + 2 * DELAY.GetSeconds());
}

/// A sender (host 1) and a receiver (host 0) through one switch, with RecordingCongestionControl.
struct Flow
{
    Star star;
    Ptr<RdmaQueuePair> requester;
    Ptr<RdmaQueuePair> responder;
    CompletionLog log;
    std::map<uint64_t, Time> retransmitted; //!< sequence -> its first retransmission
    std::vector<Time> rtts;                 //!< the Rtt trace

    explicit Flow(uint32_t hosts = 2,
                  const std::string& lossRecovery = "ns3::RdmaGoBackNLossRecovery")
        : star(hosts, "100Gbps", DELAY)
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(MTU));
        star.rdma.SetLossRecovery(lossRecovery);
        star.rdma.SetCongestionControl("ns3::rdmatest::RecordingCongestionControl");
    }

    void Connect()
    {
        star.Install();
        std::tie(requester, responder) = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        log.Attach(requester, responder);
        requester->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](Flow* f, uint64_t seq, bool retx) {
                    if (retx)
                    {
                        f->retransmitted.emplace(seq, Simulator::Now());
                    }
                },
                this));
        requester->TraceConnectWithoutContext(
            "Rtt",
            MakeBoundCallback(
                +[](Flow* f, Time rtt) { f->rtts.push_back(rtt); },
                this));
    }

    Ptr<rdmatest::RecordingCongestionControl> Cc() const
    {
        return DynamicCast<rdmatest::RecordingCongestionControl>(requester->GetCongestionControl());
    }

    /// Steady-state goodput: the bytes of completions from the given one on, over the time
    /// from the completion before it to the last, bit/s.
    double Goodput(std::size_t from) const
    {
        uint64_t bytes = 0;
        for (std::size_t i = from; i < log.sends.size(); ++i)
        {
            bytes += log.sends[i].length;
        }
        const Time span = log.sends.back().completionTime - log.sends[from - 1].completionTime;
        return bytes * 8.0 / span.GetSeconds();
    }
};

/// Goodput with a fixed window of `window` bytes: min(C, W / RTT) (Little's law).
void
CheckLittlesLaw(uint64_t window)
{
    Flow f;
    f.star.rdma.SetCongestionControl("ns3::RdmaFixedWindowCongestionControl",
                                     "Window",
                                     UintegerValue(window));
    f.Connect();
    // Back-to-back WRITEs of whole packets; the rate is measured from the 5th completion on
    // (past the first round trip, where the window is filled before the first RTT sample).
    const uint32_t messages = 40;
    for (uint32_t i = 0; i < messages; ++i)
    {
        PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 100 * MTU, i);
    }
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), messages);
    const double rtt = OneSwitchRtt();
    const double expected = std::min(AnalyticalGoodput(LINE_RATE, MTU), window * 8.0 / rtt);
    const double measured = f.Goodput(5);
    std::cout << "window " << window << " B: goodput " << measured / 1e9 << " Gb/s, min(C, W/RTT) "
              << expected / 1e9 << " Gb/s (RTT " << rtt * 1e9 << " ns)\n";
    EXPECT_NEAR(measured / expected, 1.0, 0.02) << "window " << window;
    // Below line rate nothing queues on this path: the RTT samples equal the analytical round
    // trip to the picosecond, except a message's first packet, which carries a 16-byte RETH
    // (1.28 ns per hop), and a packet right behind it at the switch (up to 1.28 ns).
    ASSERT_EQ(f.rtts.size(), messages * 100U);
    const int64_t rttPs = std::llround(rtt * 1e12);
    const int64_t rethPs = std::llround(2 * 16 * 8 / LINE_RATE * 1e12);
    std::size_t exact = 0;
    for (std::size_t i = 0; i < f.rtts.size(); ++i)
    {
        ASSERT_GE(f.rtts[i].GetPicoSeconds(), rttPs) << "sample " << i;
        ASSERT_LE(f.rtts[i].GetPicoSeconds(), rttPs + rethPs) << "sample " << i;
        exact += f.rtts[i].GetPicoSeconds() == rttPs ? 1 : 0;
    }
    if (window * 8.0 / rtt < AnalyticalGoodput(LINE_RATE, MTU))
    {
        EXPECT_GE(exact, f.rtts.size() * 97 / 100);
    }
    // At line rate the packets after a RETH packet wait those 1.28 ns at the switch: a
    // message's packets are back to back, so the wait carries through the whole message.
    Simulator::Destroy();
}

} // namespace

TEST(RdmaCcInterface, WindowBelowOnePacketGivesLittlesLawRate)
{
    CheckLittlesLaw(256); // one packet every four round trips
    CheckLittlesLaw(700); // not a divisor of the packet
}

TEST(RdmaCcInterface, FractionalWindowGivesLittlesLawRate)
{
    CheckLittlesLaw(1536);  // 1.5 packets
    CheckLittlesLaw(10000); // 9.77 packets, about 38 % of the path's capacity
    CheckLittlesLaw(40000);
}

TEST(RdmaCcInterface, WindowAboveTheBdpGivesLineRate)
{
    // BDP = 100 Gb/s x 4.19 us = 52 KB: a larger window is limited by the link.
    CheckLittlesLaw(80000);
    CheckLittlesLaw(1 << 20);
}

namespace
{

/// Steady goodput of a fixed window of `window` bytes paced as `pacing` (the fixed window's
/// Pacing attribute, RdmaWindowPacing), the queue pair's BaseRtt attribute `baseRtt` (0:
/// learned from the first sample), on the same path and messages as CheckLittlesLaw.
double
PacedGoodput(uint64_t window, const std::string& pacing, Time baseRtt)
{
    Flow f;
    f.star.rdma.SetCongestionControl("ns3::RdmaFixedWindowCongestionControl",
                                     "Window",
                                     UintegerValue(window),
                                     "Pacing",
                                     StringValue(pacing));
    if (baseRtt.IsStrictlyPositive())
    {
        f.star.rdma.SetQueuePairAttribute("BaseRtt", TimeValue(baseRtt));
    }
    f.Connect();
    const uint32_t messages = 40;
    for (uint32_t i = 0; i < messages; ++i)
    {
        PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 100 * MTU, i);
    }
    Simulator::Run();
    EXPECT_EQ(f.log.sends.size(), messages);
    const double goodput = f.log.sends.size() == messages ? f.Goodput(5) : 0;
    std::cout << pacing << " window " << window << " B, BaseRtt " << baseRtt.As(Time::US)
              << ": goodput " << goodput / 1e9 << " Gb/s\n";
    Simulator::Destroy();
    return goodput;
}

} // namespace

TEST(RdmaCcInterface, WindowPacedOnTheBaseRttIgnoresTheMeasuredRtt)
{
    // HPCC's pacing (Li et al. 2019, section 3.2, Algorithm 1): R = W / T with T the base
    // RTT, a constant. Told a base RTT T' = 2 x the path's RTT, a window paced on it sends
    // W every T' (gap payload x T' / W; nothing queues, so the window cap never binds):
    // W / T', half the Little's-law rate W / RTT of the same window paced on the measured
    // (smoothed) RTT, which is the path's RTT here.
    const double rtt = OneSwitchRtt();
    const Time twice = PicoSeconds(std::llround(2 * rtt * 1e12));
    for (uint64_t window : {256, 10000})
    {
        const double measured = window * 8.0 / rtt;
        EXPECT_NEAR(PacedGoodput(window, "SmoothedRtt", twice) / measured, 1.0, 0.02) << window;
        EXPECT_NEAR(PacedGoodput(window, "BaseRtt", twice) / (measured / 2), 1.0, 0.02) << window;
    }
}

TEST(RdmaCcInterface, AckClockedWindowIsPacedOnlyBelowOnePacket)
{
    // Swift (Kumar et al. 2020, Algorithm 1: pacing_delay = rtt / cwnd if cwnd < 1, else 0)
    // and Falcon (OCP spec 10.3.5): a window of one packet or more is ACK-clocked. With one
    // ACK per packet and nothing queued, a packet leaves whenever fewer than W bytes are in
    // flight, so ceil(W / MTU) whole packets are in flight all the time: 1.5 packets carry
    // 2 packets per RTT, 2.5 carry 3 (paced on the smoothed RTT: exactly W / RTT).
    // Below one packet the gap RTT / cwnd is kept: W / RTT, as the smoothed-RTT pacing.
    const double rtt = OneSwitchRtt();
    for (uint64_t window : {1536, 2560})
    {
        const double packets = std::ceil(double(window) / MTU);
        const double clocked = packets * MTU * 8 / rtt;
        EXPECT_NEAR(PacedGoodput(window, "BelowOnePacket", Time(0)) / clocked, 1.0, 0.02) << window;
    }
    EXPECT_NEAR(PacedGoodput(256, "BelowOnePacket", Time(0)) / (256 * 8 / rtt), 1.0, 0.02);
}

TEST(RdmaCcInterface, EveryAckReachesTheCongestionControl)
{
    // Selective repeat with every 50th data frame lost: SACK-only ACKs, D-SACKs and advancing
    // ACKs alike reach OnAck, one call per ACK frame the responder sends.
    Flow f(2, "ns3::RdmaSackLossRecovery");
    RdmaLossHelper loss;
    loss.Install("every:50", NetDeviceContainer(f.star.HostDevice(0)));
    f.Connect();
    uint64_t acksSent = 0;
    f.star.HostDevice(0)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(
            +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
            &acksSent));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 1'000'000);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1U);
    const auto& acks = f.Cc()->acks;
    EXPECT_EQ(acks.size(), acksSent);
    uint64_t sackOnly = 0;
    uint64_t acked = 0;
    uint64_t withRtt = 0;
    for (std::size_t i = 0; i < acks.size(); ++i)
    {
        const RdmaAckFeedback& fb = acks[i];
        acked += fb.ackedBytes;
        sackOnly += (!fb.advanced && fb.sackedBytes > 0) ? 1 : 0;
        if (fb.rtt.IsStrictlyPositive())
        {
            ++withRtt;
            // Karn: never a sample of a sequence retransmitted before the ACK arrived.
            auto it = f.retransmitted.find(fb.ackedSeq);
            EXPECT_TRUE(it == f.retransmitted.end() || it->second > f.Cc()->ackTimes[i])
                << "seq " << fb.ackedSeq;
            EXPECT_GT(fb.rtt, 4 * DELAY); // propagation alone (short last packets are faster)
        }
    }
    EXPECT_EQ(acked, 1'000'000U); // cumulative bytes add up to the message, exactly
    EXPECT_GT(sackOnly, 0U);
    EXPECT_GT(withRtt, acks.size() / 2);
    EXPECT_FALSE(f.retransmitted.empty());
    // Every retransmission was preceded by a loss event the congestion control saw.
    uint64_t rack = 0;
    for (const auto& [event, seq] : f.Cc()->losses)
    {
        rack += event == RdmaLossEvent::RACK ? 1 : 0;
    }
    EXPECT_GT(rack, 0U);
    EXPECT_EQ(f.Cc()->acks.back().ackedUpToBytes, 1'000'000U);
    Simulator::Destroy();
}

TEST(RdmaCcInterface, NaksAndTimeoutsReachTheCongestionControl)
{
    // Go-back-N with every 100th data frame lost: each NAK the requester accepts is a NAK loss
    // event; a lost tail (the last packet's retransmission is never NAKed) ends in timeouts.
    Flow f;
    RdmaLossHelper loss;
    loss.Install("every:100", NetDeviceContainer(f.star.HostDevice(0)));
    f.star.rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(20)));
    f.Connect();
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 1'000'000);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1U);
    uint64_t naks = 0;
    uint64_t timeouts = 0;
    for (const auto& [event, seq] : f.Cc()->losses)
    {
        naks += event == RdmaLossEvent::NAK ? 1 : 0;
        timeouts += event == RdmaLossEvent::TIMEOUT ? 1 : 0;
    }
    EXPECT_GT(naks, 0U);
    EXPECT_EQ(naks, f.requester->GetNaksReceived());
    EXPECT_EQ(timeouts, f.requester->GetTimeouts());
    uint64_t nakFeedback = 0;
    for (const auto& fb : f.Cc()->acks)
    {
        nakFeedback += fb.nak ? 1 : 0;
        if (fb.nak)
        {
            EXPECT_TRUE(fb.rtt.IsZero()); // a NAK says nothing of which arrival triggered it
        }
    }
    EXPECT_EQ(nakFeedback, naks);
    Simulator::Destroy();
}

TEST(RdmaCcInterface, EcnEchoAndTimestamps)
{
    // Two senders at line rate into one port; RED marks every packet that finds a queue
    // (Kmin = Kmax = 0): nearly every ACK echoes CE in its BECN bit, and the responder sends
    // CNPs. Asked for timestamps, the responder reports t2 and t3 (equal: it acknowledges at
    // once) and the requester t1 and t4, with t4 - t1 the RTT sample.
    Flow f(3);
    f.star.rdma.SetSwitchAttribute("EcnKmin", UintegerValue(0));
    f.star.rdma.SetSwitchAttribute("EcnKmax", UintegerValue(0));
    f.star.rdma.SetCongestionControl("ns3::rdmatest::RecordingCongestionControl",
                                     "Timestamps",
                                     BooleanValue(true));
    f.Connect();
    auto [other, otherPeer] = f.star.rdma.Connect(f.star.hosts.Get(2), f.star.hosts.Get(0));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 200'000);
    PostWriteAt(other, f.star.hosts.Get(2), Seconds(0), 200'000);
    Simulator::Run();
    ASSERT_EQ(f.log.sends.size(), 1U);
    const auto& acks = f.Cc()->acks;
    ASSERT_FALSE(acks.empty());
    uint64_t echoes = 0;
    for (const auto& fb : acks)
    {
        echoes += fb.ecnEcho ? 1 : 0;
        ASSERT_TRUE(fb.hasTimestamps);
        EXPECT_EQ(fb.t4 - fb.t1, fb.rtt);
        EXPECT_EQ(fb.t3, fb.t2);
        EXPECT_EQ(fb.GetFabricDelay(), fb.rtt);
    }
    EXPECT_GT(echoes, acks.size() * 9 / 10);
    EXPECT_GT(f.Cc()->cnps, 0U);
    Simulator::Destroy();
}

TEST(RdmaCcInterface, TraceSourcesFollowTheState)
{
    Flow f;
    f.star.rdma.SetCongestionControl("ns3::RdmaFixedWindowCongestionControl",
                                     "Window",
                                     UintegerValue(5000));
    f.Connect();
    std::vector<uint64_t> windows;
    std::vector<Time> rtts;
    f.requester->TraceConnectWithoutContext(
        "Rtt",
        MakeBoundCallback(
            +[](std::vector<Time>* v, Time rtt) { v->push_back(rtt); },
            &rtts));
    // The window was set at Connect: the trace reports later changes only.
    EXPECT_EQ(f.requester->GetCcState().window, 5000U);
    f.requester->TraceConnectWithoutContext(
        "Window",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t, uint64_t w) { v->push_back(w); },
            &windows));
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 50'000);
    Simulator::Run();
    EXPECT_TRUE(windows.empty()); // a fixed window never changes
    ASSERT_FALSE(rtts.empty());
    EXPECT_EQ(rtts.size(), 49U); // one sample per ACK (49 packets; one ACK each)
    EXPECT_EQ(f.requester->GetCcState().srtt.IsStrictlyPositive(), true);
    Simulator::Destroy();
}

TEST(RdmaCcInterface, TelemetryAreaTravelsAndIsEchoed)
{
    // A congestion control that asks for telemetry: every data packet carries the 44-byte INT
    // area before its ICRC and every ACK echoes it, so both are 44 bytes longer on the wire
    // and the RTT grows by 2 x 2 x 44 B at 100 Gb/s (store and forward, two links each way).
    // The responder still delivers exactly the posted bytes. This switch writes no records
    // (no RdmaIntInserter): the echoed area has none, with the sender's multiplier.
    Flow f;
    f.star.rdma.SetCongestionControl("ns3::rdmatest::RecordingCongestionControl",
                                     "Telemetry",
                                     BooleanValue(true),
                                     "Window",
                                     UintegerValue(4 * MTU));
    f.Connect();
    PostWriteAt(f.requester, f.star.hosts.Get(1), Seconds(0), 100 * MTU);
    Simulator::Run();
    ASSERT_EQ(f.log.receives.size(), 1U);
    EXPECT_EQ(f.log.receives[0].length, 100U * MTU);
    const auto& cc = *f.Cc();
    ASSERT_EQ(cc.acks.size(), 100U);
    for (std::size_t i = 0; i < cc.acks.size(); ++i)
    {
        EXPECT_EQ(cc.telemetryHops[i], 0);
        EXPECT_EQ(cc.telemetryMultipliers[i], 4U);
    }
    const double rtt = 2 * (WireSeconds(MTU + 44 + RdmaIntHeader::SIZE) +
                            WireSeconds(48 + RdmaIntHeader::SIZE) + 2 * DELAY.GetSeconds());
    EXPECT_EQ(cc.acks.back().rtt.GetPicoSeconds(), std::llround(rtt * 1e12));
    Simulator::Destroy();
}
