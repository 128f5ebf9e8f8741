/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Link-level retry against end-to-end recovery in a scale-up pod (ScaleUpHelper) at bit
 * error rates from 1e-12 to 1e-5.
 *
 * <b>Schemes</b> (--schemes):
 *  - llr: link-level retry on every link (RdmaLinkRetry, PCIe-style ACK/NAK replay) and the
 *    end-to-end transport unreliable (RdmaNoRetransmitLossRecovery, as SUE-Lite);
 *  - gbn: no LLR, end-to-end go-back-N (RdmaGoBackNLossRecovery, IBTA);
 *  - sack: no LLR, end-to-end selective repeat with RACK-TLP (RdmaSackLossRecovery, IRN).
 *
 * <b>Errors.</b> Every direction of every link has an RdmaWireErrorModel at --bers: a frame
 * of w wire bytes is corrupted with probability 1 - (1 - BER)^(8 w) (a 1024-byte-MTU RoCEv2
 * data frame, 1106 wire bytes with LLR's 2-byte sequence number: 8.8e-8 at 1e-11, 8.8e-3 at
 * 1e-6, 8.5e-2 at 1e-5). Data frames and ACKs are both hit.
 *
 * <b>Replay buffer</b> sized from the link's ACK round trip: the sender must hold every
 * frame until its ACK returns, 2 d (d: cable plus half the switch latency, ScaleUpHelper) +
 * AckLatency + 2 T_max + T_ack, plus one maximum frame the transmitter reserves:
 *   ReplayBufferBytes = R (2 d + AckLatency + 2 T_max + T_ack) / 8 + F_max,
 * with F_max the device Mtu (1100 bytes here, room for a 1024-byte payload with IPv4, UDP,
 * BTH, RETH and ICRC) + 16. With the defaults (200 Gb/s, d = 10 + 75 ns, AckLatency 500 ns):
 * 764.6 ns, 19,115 + 1,116 bytes.
 *
 * <b>Workload.</b> Every accelerator writes --messages messages of --bytes to every other one
 * (one queue pair per ordered pair), message m of every queue pair posted at m x --interval:
 * an offered load of (N - 1) bytes x 8 / (interval x R) per port with one plane (0.47 with
 * the defaults). FCT: from the post to the responder's receive completion (the data has
 * arrived); goodput: bytes delivered over the time of the last completion. The end-to-end
 * timeout is --rto (100 us, about 100 pod round trips; the NIC's IBTA default, 67 ms, would
 * dominate the gbn/sack tails).
 *
 * <b>Output.</b> A summary line per (scheme, BER) on stdout; --output FILE gets the CSV (one
 * line each). examples/plot-llr-vs-e2e.py draws goodput and p99 FCT against BER.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("LlrVsE2eExample");

namespace
{

/// One queue pair's messages: post times, and receive completion times in order.
struct Flow
{
    std::vector<Time> posted;
    std::vector<Time> completed;

    void OnReceive(const RdmaCompletion& c)
    {
        completed.push_back(c.completionTime);
    }
};

/// What one run measured.
struct Result
{
    double goodputGbps{0};
    double meanFctUs{0};
    double p99FctUs{0};
    double maxFctUs{0};
    uint64_t messages{0};
    uint64_t completed{0};
    uint64_t framesCorrupted{0};
    uint64_t framesReplayed{0};
    uint64_t retransmissions{0};
    uint64_t packetsLost{0};
};

/// The configuration of the runs.
struct RunConfig
{
    uint32_t accelerators{4};
    uint32_t planes{1};
    uint64_t bytes{65536};
    uint32_t messages{20};
    Time interval{MicroSeconds(16)};
    Time rto{MicroSeconds(100)};
    Time stopTime{MilliSeconds(100)};
    uint16_t deviceMtu{1100};
};

/**
 * \param values a comma-separated list
 * \return its items
 */
std::vector<std::string>
Split(const std::string& values)
{
    std::vector<std::string> out;
    std::stringstream ss(values);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

/**
 * Run one scheme at one bit error rate.
 * \param cfg the configuration
 * \param scheme llr, gbn or sack
 * \param ber the bit error rate
 * \param replayBytes ReplayBufferBytes for llr
 * \return the measurements
 */
Result
Run(const RunConfig& cfg, const std::string& scheme, double ber, uint32_t replayBytes)
{
    RdmaHelper rdma;
    rdma.SetNicAttribute("RetransmitTimeout", TimeValue(cfg.rto));
    if (scheme == "llr")
    {
        rdma.SetLossRecovery("ns3::RdmaNoRetransmitLossRecovery");
    }
    else if (scheme == "sack")
    {
        rdma.SetLossRecovery("ns3::RdmaSackLossRecovery");
    }
    else
    {
        rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    }
    ScaleUpHelper pod;
    pod.SetAccelerators(cfg.accelerators);
    pod.SetPlanes(cfg.planes);
    pod.SetDeviceAttribute("Mtu", UintegerValue(cfg.deviceMtu));
    RdmaLinkHelper& link = pod.GetLinkHelper();
    if (scheme == "llr")
    {
        link.EnableLinkRetry();
        link.SetLinkRetryAttribute("ReplayBufferBytes", UintegerValue(replayBytes));
    }
    link.SetReceiveErrorModel("ns3::RdmaWireErrorModel");
    link.SetReceiveErrorModelAttribute("BitErrorRate", DoubleValue(ber));
    pod.Install(rdma);

    const uint32_t n = cfg.accelerators;
    std::vector<Flow> flows(n * (n - 1));
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::vector<Ptr<RdmaQueuePair>> responders;
    uint32_t f = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i == j)
            {
                continue;
            }
            auto [qp, peer] = rdma.Connect(pod.GetAccelerator(i), pod.GetAccelerator(j));
            peer->SetReceiveCompletionCallback(MakeCallback(&Flow::OnReceive, &flows[f]));
            for (uint32_t m = 0; m < cfg.messages; ++m)
            {
                RdmaWorkRequest wr;
                wr.opcode = RdmaWorkRequest::WRITE;
                wr.wrId = m;
                wr.length = cfg.bytes;
                wr.remoteAddress = 0x1000;
                const Time t = cfg.interval * m;
                flows[f].posted.push_back(t);
                Simulator::ScheduleWithContext(pod.GetAccelerator(i)->GetId(),
                                               t,
                                               &RdmaQueuePair::PostSend,
                                               qp,
                                               wr);
            }
            requesters.push_back(qp);
            responders.push_back(peer);
            ++f;
        }
    }
    Simulator::Stop(cfg.stopTime);
    Simulator::Run();

    Result r;
    std::vector<double> fcts;
    Time last;
    uint64_t delivered = 0;
    for (const Flow& flow : flows)
    {
        r.messages += flow.posted.size();
        // Messages complete in order at a responder (nothing is lost for good under llr,
        // gbn and sack): the k-th completion is the k-th message.
        for (std::size_t k = 0; k < flow.completed.size() && k < flow.posted.size(); ++k)
        {
            fcts.push_back((flow.completed[k] - flow.posted[k]).GetSeconds() * 1e6);
            last = std::max(last, flow.completed[k]);
        }
        r.completed += flow.completed.size();
    }
    for (std::size_t q = 0; q < requesters.size(); ++q)
    {
        r.retransmissions += requesters[q]->GetRetransmissions();
        r.packetsLost += responders[q]->GetPacketsLost();
        delivered += responders[q]->GetBytesReceived();
    }
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<Node> nd = *it;
        for (uint32_t d = 0; d < nd->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(nd->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            r.framesCorrupted += dev->GetRxDropCount();
            if (dev->GetLinkRetry())
            {
                r.framesReplayed += dev->GetLinkRetry()->GetFramesReplayed();
            }
        }
    }
    std::sort(fcts.begin(), fcts.end());
    if (!fcts.empty())
    {
        double sum = 0;
        for (double x : fcts)
        {
            sum += x;
        }
        r.meanFctUs = sum / fcts.size();
        r.p99FctUs = fcts[std::min(fcts.size() - 1, static_cast<std::size_t>(0.99 * fcts.size()))];
        r.maxFctUs = fcts.back();
    }
    if (last.IsStrictlyPositive())
    {
        r.goodputGbps = delivered * 8.0 / last.GetSeconds() / 1e9;
    }
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    RunConfig cfg;
    std::string schemes = "llr,gbn,sack";
    std::string bers = "1e-12,1e-10,1e-8,1e-7,1e-6,3e-6,1e-5";
    std::string output;
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("accelerators", "Accelerators in the pod", cfg.accelerators);
    cmd.AddValue("planes", "Planes (ports per accelerator)", cfg.planes);
    cmd.AddValue("bytes", "Bytes per message", cfg.bytes);
    cmd.AddValue("messages", "Messages per queue pair", cfg.messages);
    cmd.AddValue("interval", "Time between a queue pair's messages", cfg.interval);
    cmd.AddValue("rto", "End-to-end retransmission timeout (gbn, sack)", cfg.rto);
    cmd.AddValue("stopTime", "Simulated time limit per run", cfg.stopTime);
    cmd.AddValue("schemes", "Comma-separated: llr, gbn, sack", schemes);
    cmd.AddValue("bers", "Comma-separated bit error rates, each in [0, 1)", bers);
    cmd.AddValue("seed", "RngRun", seed);
    cmd.AddValue("output", "CSV file (one line per scheme and BER)", output);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(seed);

    std::vector<double> berList;
    for (const std::string& b : Split(bers))
    {
        char* end = nullptr;
        const double v = std::strtod(b.c_str(), &end);
        NS_ABORT_MSG_IF(end == b.c_str() || *end != '\0' || !(v >= 0 && v < 1),
                        "--bers: '" << b << "' is not valid; valid: numbers in [0, 1)");
        berList.push_back(v);
    }
    const std::vector<std::string> schemeList = Split(schemes);
    for (const std::string& s : schemeList)
    {
        NS_ABORT_MSG_IF(s != "llr" && s != "gbn" && s != "sack",
                        "--schemes: '" << s << "' is not valid; valid: llr, gbn, sack");
    }
    NS_ABORT_MSG_IF(cfg.accelerators < 2,
                    "--accelerators " << cfg.accelerators << " is not valid; valid: >= 2");

    // The replay buffer from the link's ACK round trip (see the file comment).
    ScaleUpHelper defaults;
    const double rate = defaults.GetLinkRate().GetBitRate();
    const double d = (defaults.GetLinkLatency() + defaults.GetSwitchLatency() / 2).GetSeconds();
    const uint32_t maxFrame = cfg.deviceMtu + 14 + 2;
    const double tMax = (maxFrame + 24) * 8 / rate;
    const double tAck = 84 * 8 / rate;
    const double ackLatency = 500e-9;
    const double roundTrip = 2 * d + ackLatency + 2 * tMax + tAck;
    const uint32_t replayBytes = static_cast<uint32_t>(std::ceil(rate * roundTrip / 8)) + maxFrame;
    std::cout << "llr-vs-e2e: " << cfg.accelerators << " accelerators, " << cfg.planes
              << " plane(s), " << rate / 1e9 << " Gb/s, ACK round trip " << roundTrip * 1e9
              << " ns, replay buffer " << replayBytes << " B; " << cfg.messages << " x "
              << cfg.bytes << " B per queue pair every " << cfg.interval.As(Time::US) << "\n";

    std::ofstream csv;
    if (!output.empty())
    {
        csv.open(output);
        NS_ABORT_MSG_IF(!csv, "--output: cannot write '" << output << "'");
        csv << "scheme,ber,goodput_gbps,mean_fct_us,p99_fct_us,max_fct_us,messages,completed,"
               "frames_corrupted,frames_replayed,e2e_retransmissions,packets_lost\n";
    }
    for (const std::string& s : schemeList)
    {
        for (double ber : berList)
        {
            const Result r = Run(cfg, s, ber, replayBytes);
            std::cout << std::setw(5) << s << " BER " << std::setw(7) << ber << ": goodput "
                      << std::fixed << std::setprecision(2) << r.goodputGbps << " Gb/s, FCT mean "
                      << r.meanFctUs << " us, p99 " << r.p99FctUs << " us, max " << r.maxFctUs
                      << " us, " << r.completed << "/" << r.messages << " messages, "
                      << r.framesCorrupted << " frames corrupted, " << r.framesReplayed
                      << " replayed, " << r.retransmissions << " e2e retransmissions, "
                      << r.packetsLost << " packets lost\n"
                      << std::defaultfloat;
            if (csv.is_open())
            {
                csv << s << "," << ber << "," << r.goodputGbps << "," << r.meanFctUs << ","
                    << r.p99FctUs << "," << r.maxFctUs << "," << r.messages << "," << r.completed
                    << "," << r.framesCorrupted << "," << r.framesReplayed << ","
                    << r.retransmissions << "," << r.packetsLost << "\n";
            }
        }
    }
    return 0;
}
