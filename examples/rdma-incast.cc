/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * N -> 1 incast through one switch: N senders each WRITE one message to the same
 * receiver at the same time. With PFC the switch pauses the senders instead of dropping;
 * without it the switch drops and go-back-N recovers.
 *
 *   sender 1 --\
 *   sender 2 ---+-- switch ---- receiver
 *   sender N --/
 *
 * Every link has the same rate and delay. The bottleneck is the switch port to the
 * receiver: all messages together should finish after about
 *   N x size / goodput + one round trip,
 * with goodput = rate x MTU / (MTU + 82) (Ethernet, IPv4, UDP, BTH, ICRC, FCS, preamble
 * and inter-frame gap per packet). The summary prints that bound beside the measurement.
 *
 * Output: a summary on stdout, one CSV line per flow in --output, and the bottleneck
 * queue (switch egress port to the receiver, class 3) and the number of paused senders
 * sampled every --sampleInterval in --queueOutput. examples/plot-rdma-incast.py turns the
 * two files into a PNG.
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <bitset>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RdmaIncastExample");

/// Periodic sample of the bottleneck queue and of the senders' pause state.
void
SampleQueue(std::ofstream* out,
            Ptr<RdmaNetDevice> bottleneck,
            std::vector<Ptr<RdmaNetDevice>> senderPorts,
            Time interval)
{
    uint32_t paused = 0;
    for (const auto& d : senderPorts)
    {
        paused += d->IsClassPaused(3);
    }
    *out << Simulator::Now().GetSeconds() * 1e6 << "," << bottleneck->GetQueueBytes(3) << ","
         << paused << "\n";
    Simulator::Schedule(interval, &SampleQueue, out, bottleneck, senderPorts, interval);
}

int
main(int argc, char* argv[])
{
    // 100 Gb/s: one bit lasts 10 ps, frames last fractions of nanoseconds more than an
    // integer: simulate in picoseconds.
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    uint32_t senders = 8;
    uint64_t messageBytes = 1000000;
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    uint64_t bufferBytes = 2 * 1024 * 1024;
    bool pfc = true;
    bool ecn = false;
    uint32_t mtu = 1024;
    uint32_t seed = 0; // 0: ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t run = 0;  // 0: ns-3's RngRun (default 1, or --RngRun)
    uint64_t headroom = 0;
    bool pcap = false;
    std::string congestionControl = "ns3::RdmaFixedRateCongestionControl";
    std::string output = "results/rdma-incast.csv";
    std::string pcapPrefix = "results/rdma-incast";
    std::string queueOutput = "results/rdma-incast-queue.csv";
    Time sampleInterval = MicroSeconds(1);
    Time stopTime = Seconds(1);

    CommandLine cmd(__FILE__);
    cmd.Usage("N -> 1 RoCEv2 incast through one shared-buffer switch with PFC.");
    cmd.AddValue("senders", "number of senders N", senders);
    cmd.AddValue("size", "bytes each sender WRITEs", messageBytes);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("buffer", "switch shared buffer, bytes", bufferBytes);
    cmd.AddValue("pfc", "enable PFC (lossless class 3)", pfc);
    cmd.AddValue("ecn", "enable ECN marking at the switch", ecn);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("cc", "congestion control TypeId", congestionControl);
    cmd.AddValue("headroom",
                 "PFC headroom per lossless (port, class), bytes (ns3::RdmaSwitchMmu::Headroom; "
                 "0: computed from rate and delay)",
                 headroom);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("pcap", "write a pcap per port", pcap);
    cmd.AddValue("pcapPrefix", "pcap file prefix", pcapPrefix);
    cmd.AddValue("output", "CSV file of per-flow results", output);
    cmd.AddValue("queueOutput", "CSV time series of the bottleneck queue (none: off)", queueOutput);
    cmd.AddValue("sampleInterval", "queue sampling interval", sampleInterval);
    cmd.AddValue("stopTime", "simulation stop time", stopTime);
    cmd.Parse(argc, argv);

    // Every option checked before anything is built (helper/rdma-option-checker.h).
    RdmaOptionChecker::Range<uint32_t>("senders", senders, 1, 100000);
    RdmaOptionChecker::Range<uint64_t>("size", messageBytes, 1, 1ULL << 31, "bytes");
    RdmaOptionChecker::Rate("rate", rate);
    RdmaOptionChecker::NonNegative("delay", delay);
    RdmaOptionChecker::Range<uint64_t>("buffer", bufferBytes, 1, 1ULL << 40, "bytes");
    RdmaOptionChecker::Range<uint64_t>("headroom",
                                       headroom,
                                       0,
                                       bufferBytes,
                                       "bytes (0: automatic)");
    RdmaOptionChecker::Attribute("mtu", std::to_string(mtu), "ns3::RdmaNic", "Mtu");
    RdmaOptionChecker::Positive("sampleInterval", sampleInterval);
    RdmaOptionChecker::Positive("stopTime", stopTime);
    RdmaOptionChecker::OutputFile("output", output);
    RdmaOptionChecker::OutputFile("queueOutput", queueOutput);
    RdmaOptionChecker::Seed(seed, run);

    NodeContainer receiver(1);
    NodeContainer sendersNodes(senders);
    NodeContainer switchNode(1);
    NodeContainer hosts(receiver, sendersNodes);

    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devices;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        devices.Add(link.Install(hosts.Get(i), switchNode.Get(0)));
    }

    // The switch's buffer must hold every queue's reserve and every lossless port's PFC
    // headroom (RdmaSwitchMmu stops the program otherwise): an option error, before the run.
    {
        Ptr<RdmaSwitchMmu> mmu = CreateObject<RdmaSwitchMmu>();
        mmu->SetAttribute("PfcEnabled", BooleanValue(pfc));
        UintegerValue reserved;
        mmu->GetAttribute("ReservedPerQueue", reserved);
        UintegerValue lossless;
        mmu->GetAttribute("LosslessClasses", lossless);
        const uint64_t nLossless = pfc ? std::bitset<8>(lossless.Get()).count() : 0;
        Ptr<RdmaNetDevice> port = DynamicCast<RdmaNetDevice>(devices.Get(1)); // switch side
        const uint64_t perPortHeadroom =
            headroom != 0
                ? headroom
                : mmu->ComputeHeadroom(DataRate(rate),
                                       delay,
                                       RdmaNetDevice::WireBytes(
                                           port->GetMtu() + RdmaNetDevice::ETHERNET_HEADER_BYTES));
        const uint64_t ports = hosts.GetN();
        const long double need =
            static_cast<long double>(ports) *
            (RdmaNetDevice::NUM_CLASSES * reserved.Get() + nLossless * perPortHeadroom);
        std::ostringstream valid;
        valid << "at least " << static_cast<uint64_t>(std::min<long double>(need, 1e19))
              << " bytes for " << ports << " switch ports (" << +RdmaNetDevice::NUM_CLASSES
              << " classes x ReservedPerQueue " << reserved.Get() << " B + " << nLossless
              << " lossless x headroom " << perPortHeadroom << " B each)";
        RdmaOptionChecker::Require(need <= static_cast<long double>(bufferBytes),
                                   "buffer",
                                   bufferBytes,
                                   valid.str());
        mmu->Dispose();
    }

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetCongestionControl(congestionControl);
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
    rdma.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
    rdma.SetMmuAttribute("Headroom", UintegerValue(headroom));
    rdma.InstallHosts(hosts);
    rdma.InstallSwitches(switchNode);
    rdma.AssignStreams(switchNode, 0);
    RdmaRoutingHelper::PopulateRoutingTables();

    // The flow monitor measures every WRITE (FCT, ideal FCT, slowdown) and stops the run at
    // the last completion (the queue sampler never ends by itself).
    RdmaFlowMonitor monitor;
    monitor.SetStopAfterFlows(senders);
    std::vector<Ptr<RdmaQueuePair>> qps(senders);
    std::vector<RdmaFlowMonitor::FlowRecord> records(senders); // by wrId = flow index
    std::vector<bool> done(senders, false);
    monitor.ConnectFlowComplete(Callback<void, const RdmaFlowMonitor::FlowRecord&>(
        [&records, &done](const RdmaFlowMonitor::FlowRecord& r) {
            records[r.wrId] = r;
            done[r.wrId] = true;
        }));
    for (uint32_t i = 0; i < senders; ++i)
    {
        Ptr<RdmaQueuePair> peer;
        std::tie(qps[i], peer) = rdma.Connect(sendersNodes.Get(i), receiver.Get(0));
        monitor.Watch(qps[i], peer);
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = i;
        wr.length = messageBytes;
        wr.remoteAddress = 0x10000000ULL * (i + 1);
        Simulator::ScheduleWithContext(sendersNodes.Get(i)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       qps[i],
                                       wr);
    }

    if (pcap)
    {
        RdmaOutputHelper::CreateParentDirectories(pcapPrefix);
        link.EnablePcapAll(pcapPrefix);
    }

    std::ofstream queueCsv;
    if (queueOutput != "none")
    {
        RdmaOutputHelper::CreateParentDirectories(queueOutput);
        queueCsv.open(queueOutput);
        NS_ABORT_MSG_IF(!queueCsv, "cannot write --queueOutput " << queueOutput);
        queueCsv << "time_us,bottleneck_queue_bytes,paused_senders\n";
        std::vector<Ptr<RdmaNetDevice>> senderPorts;
        for (uint32_t i = 1; i <= senders; ++i)
        {
            senderPorts.push_back(DynamicCast<RdmaNetDevice>(devices.Get(2 * i)));
        }
        // devices: (host i, switch port i) pairs; host 0 is the receiver.
        Simulator::ScheduleWithContext(switchNode.Get(0)->GetId(),
                                       Seconds(0),
                                       &SampleQueue,
                                       &queueCsv,
                                       DynamicCast<RdmaNetDevice>(devices.Get(1)),
                                       senderPorts,
                                       sampleInterval);
    }

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer(hosts, switchNode));

    Simulator::Stop(stopTime); // in case a message never completes
    Simulator::Run();

    Ptr<RdmaSwitch> sw = switchNode.Get(0)->GetObject<RdmaSwitch>();
    uint64_t pfcSent = 0;
    uint64_t pfcReceived = 0;
    uint64_t linkDrops = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(devices.Get(i));
        pfcSent += d->GetPfcFramesSent();
        pfcReceived += d->GetPfcFramesReceived();
        linkDrops += d->GetRxDropCount();
    }

    RdmaOutputHelper::CreateParentDirectories(output);
    std::ofstream csv(output);
    NS_ABORT_MSG_IF(!csv, "cannot write --output " << output);
    csv << "flow,sender,bytes,start_us,fct_us,ideal_fct_us,slowdown,goodput_gbps,packets_sent,"
           "retransmissions,timeouts,completed\n";

    // Bytes per packet besides payload (82), see the file comment.
    const double lineRate = DataRate(rate).GetBitRate();
    const double goodputBps = RdmaWireSize::PayloadRate(lineRate, mtu);
    uint64_t retransmissions = 0;
    uint64_t timeouts = 0;
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "rdma-incast: " << senders << " -> 1, " << messageBytes << " B each, " << rate
              << ", delay " << delay.As(Time::US) << ", MTU " << mtu << ", buffer " << bufferBytes
              << " B, headroom "
              << (headroom == 0 ? std::string("auto") : std::to_string(headroom) + " B") << ", PFC "
              << (pfc ? "on" : "off") << ", ECN " << (ecn ? "on" : "off") << ", "
              << congestionControl << "\n";
    std::cout << "flow  sender      FCT(us)  slowdown  goodput(Gb/s)  retx  timeouts\n";
    for (uint32_t i = 0; i < senders; ++i)
    {
        const RdmaFlowMonitor::FlowRecord& r = records[i];
        const double fctUs = done[i] ? r.GetFct().GetSeconds() * 1e6 : -1;
        const double gbps = done[i] ? messageBytes * 8.0 / (fctUs * 1e-6) / 1e9 : 0;
        const Ptr<RdmaQueuePair>& qp = qps[i];
        retransmissions += qp->GetRetransmissions();
        timeouts += qp->GetTimeouts();
        std::cout << std::setw(4) << i << std::setw(8) << i + 1 << std::setw(13) << fctUs
                  << std::setw(10) << r.slowdown << std::setw(15) << gbps << std::setw(6)
                  << qp->GetRetransmissions() << std::setw(10) << qp->GetTimeouts() << "\n";
        csv << i << "," << i + 1 << "," << messageBytes << "," << r.start.GetMicroSeconds() << ","
            << fctUs << "," << (done[i] ? r.idealFct.GetSeconds() * 1e6 : -1) << "," << r.slowdown
            << "," << gbps << "," << qp->GetPacketsSent() << "," << qp->GetRetransmissions() << ","
            << qp->GetTimeouts() << "," << done[i] << "\n";
    }
    const uint64_t completed = monitor.GetFlows();
    const Time last = monitor.GetLastCompletion();
    const double idealUs = senders * messageBytes * 8.0 / goodputBps * 1e6;
    std::cout << "completed " << completed << "/" << senders << " messages; last at "
              << last.GetSeconds() * 1e6 << " us; bottleneck bound N*size/goodput = " << idealUs
              << " us (goodput " << goodputBps / 1e9 << " Gb/s)\n";
    std::cout << "PFC frames sent " << pfcSent << ", received " << pfcReceived << "; switch XOFF "
              << sw->GetPfcPausesSent() << ", XON " << sw->GetPfcResumesSent() << "\n";
    std::cout << "drops: switch " << sw->GetTotalDrops() << ", links " << linkDrops
              << "; ECN marks " << sw->GetEcnMarks() << "; retransmissions " << retransmissions
              << ", timeouts " << timeouts << "\n";
    conservation.Print(std::cout, senders * messageBytes, completed * messageBytes);
    std::cout << "events " << Simulator::GetEventCount() << "; CSV " << output << "\n";

    Simulator::Destroy();
    return completed == senders ? 0 : 1;
}
