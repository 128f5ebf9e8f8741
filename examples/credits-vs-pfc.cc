/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * A 16-to-1 incast inside a small pod, under PFC and under credit-based link flow control
 * (RdmaPfcFlowControl, RdmaCreditFlowControl): the buffer each needs, how long links stall
 * (paused by PFC, or out of credit), and what happens to a victim flow that shares the
 * trunk with the incast but not its congested port.
 *
 * Pod: switch A holds the --senders incast senders and the victim's sender, switch B the
 * incast receiver R and the victim's receiver W; one trunk joins A and B. Every link runs at
 * --rate with --delay, the trunk at --trunkRate. Each sender WRITEs --size bytes to R at
 * time 0; the victim WRITEs --victimSize bytes to W. Congestion control: fixed rate at line
 * rate, ECN off, so the link flow control alone decides (the comparison the issue asks
 * for). The R port is the bottleneck: B's trunk ingress fills, and then PFC pauses the trunk
 * (XOFF on class 3) or the trunk's sender runs out of credit; either way the victim, in the
 * same class on the trunk, waits behind the incast (head-of-line blocking). Without the
 * incast (--alone) the victim runs at its line-rate bound.
 *
 * Figures per flow control: incast completion, victim FCT (and alone), drops, PFC frames or
 * credit updates, peak buffer in use at each switch (RdmaSwitchMmu::GetTotalUsed, sampled
 * every --sample) and the peak of B's trunk ingress queue, the time the trunk port of A and
 * the sender hosts were blocked with work (sampled: the class blocked by the flow control
 * while the port had something to send).
 *
 *   credits-vs-pfc [--fcs=pfc,credits] [--senders=16] [--size=200000] [--victimSize=1000000]
 *                  [--rate=100Gbps] [--trunkRate=400Gbps] [--delay=1us] [--sample=100ns]
 *                  [--buffer=4194304] [--alone=true]
 *                  [--output=results/credits-vs-pfc.csv]
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CreditsVsPfc");

namespace
{

constexpr uint8_t CLS = 3; //!< RoCEv2's lossless class (DSCP 26)

/// The figures of one run.
struct Result
{
    std::string fc;
    double incastUs{0};
    double victimUs{0};
    uint64_t drops{0};
    uint64_t pfcFrames{0};
    uint64_t creditUpdates{0};
    uint64_t peakBufferA{0};
    uint64_t peakBufferB{0};
    uint64_t peakTrunkIngressB{0};
    uint64_t trunkPartitionB{0}; //!< credits: what B advertises for the trunk ingress
    double trunkStallUs{0};
    double senderStallUs{0}; //!< summed over the incast senders
    uint32_t completed{0};
};

/// Samples what the run needs every interval.
struct Sampler
{
    Time interval;
    Ptr<RdmaSwitchMmu> mmuA;
    Ptr<RdmaSwitchMmu> mmuB;
    Ptr<RdmaNetDevice> trunkA;
    std::vector<Ptr<RdmaNetDevice>> senders;
    std::vector<bool>* done{nullptr};
    uint64_t peakA{0};
    uint64_t peakB{0};
    uint64_t trunkBlocked{0};  //!< samples
    uint64_t senderBlocked{0}; //!< samples, summed over senders

    void Sample()
    {
        peakA = std::max(peakA, mmuA->GetTotalUsed());
        peakB = std::max(peakB, mmuB->GetTotalUsed());
        if (trunkA->IsClassPaused(CLS) && trunkA->GetQueueBytes(CLS) > 0)
        {
            ++trunkBlocked;
        }
        for (std::size_t i = 0; i < senders.size(); ++i)
        {
            if (!(*done)[i] && senders[i]->IsClassPaused(CLS))
            {
                ++senderBlocked;
            }
        }
        Simulator::Schedule(interval, &Sampler::Sample, this);
    }
};

Result
RunOnce(const std::string& fc,
        bool withIncast,
        uint32_t nSenders,
        uint64_t size,
        uint64_t victimSize,
        const std::string& rate,
        const std::string& trunkRate,
        Time delay,
        Time sample,
        uint64_t buffer)
{
    Result r;
    r.fc = fc;
    const std::string fcType =
        fc == "credits" ? "ns3::RdmaCreditFlowControl" : "ns3::RdmaPfcFlowControl";
    NodeContainer senders(nSenders);
    NodeContainer ends(3); // 0: victim sender V, 1: incast receiver R, 2: victim receiver W
    NodeContainer switches(2);
    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    link.SetLinkFlowControl(fcType);
    NetDeviceContainer senderDevs;
    for (uint32_t i = 0; i < nSenders; ++i)
    {
        senderDevs.Add(link.Install(senders.Get(i), switches.Get(0)).Get(0));
    }
    link.Install(ends.Get(0), switches.Get(0));
    link.Install(ends.Get(1), switches.Get(1));
    link.Install(ends.Get(2), switches.Get(1));
    RdmaLinkHelper trunk;
    trunk.SetDeviceAttribute("DataRate", StringValue(trunkRate));
    trunk.SetChannelAttribute("Delay", TimeValue(delay));
    trunk.SetLinkFlowControl(fcType);
    NetDeviceContainer t = trunk.Install(switches.Get(0), switches.Get(1));

    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MilliSeconds(10)));
    NodeContainer hosts(senders, ends);
    rdma.InstallHosts(hosts);
    rdma.InstallSwitches(switches);
    rdma.AssignStreams(switches, 0);
    RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, switches));

    std::vector<bool> done(nSenders, false);
    Time incastEnd;
    Time victimEnd;
    uint32_t completed = 0;

    struct Ctx
    {
        std::vector<bool>* done;
        Time* end;
        uint32_t* completed;
        uint32_t index;
    };

    std::vector<Ctx> ctx(nSenders + 1);
    for (uint32_t i = 0; withIncast && i < nSenders; ++i)
    {
        auto [qp, peer] = rdma.Connect(senders.Get(i), ends.Get(1));
        ctx[i] = {&done, &incastEnd, &completed, i};
        qp->SetSendCompletionCallback(MakeBoundCallback(
            +[](Ctx* c, const RdmaCompletion& comp) {
                (*c->done)[c->index] = true;
                *c->end = std::max(*c->end, comp.completionTime);
                ++*c->completed;
            },
            &ctx[i]));
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = i;
        wr.length = size;
        wr.remoteAddress = 0x1000;
        Simulator::ScheduleWithContext(senders.Get(i)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       qp,
                                       wr);
    }
    {
        auto [qp, peer] = rdma.Connect(ends.Get(0), ends.Get(2));
        qp->SetSendCompletionCallback(MakeBoundCallback(
            +[](Time* end, const RdmaCompletion& comp) { *end = comp.completionTime; },
            &victimEnd));
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = 1000;
        wr.length = victimSize;
        wr.remoteAddress = 0x1000;
        Simulator::ScheduleWithContext(ends.Get(0)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       qp,
                                       wr);
    }

    Ptr<RdmaSwitch> swA = switches.Get(0)->GetObject<RdmaSwitch>();
    Ptr<RdmaSwitch> swB = switches.Get(1)->GetObject<RdmaSwitch>();
    Sampler sampler;
    sampler.interval = sample;
    sampler.mmuA = swA->GetMmu();
    sampler.mmuB = swB->GetMmu();
    sampler.trunkA = DynamicCast<RdmaNetDevice>(t.Get(0));
    for (uint32_t i = 0; i < nSenders; ++i)
    {
        sampler.senders.push_back(DynamicCast<RdmaNetDevice>(senderDevs.Get(i)));
    }
    sampler.done = &done;
    Simulator::Schedule(Seconds(0), &Sampler::Sample, &sampler);
    // Credit links refresh for as long as the simulation runs: stop once everything is done.
    const double wire = (nSenders * double(size) + victimSize) * 8 / DataRate(rate).GetBitRate();
    Simulator::Stop(Seconds(10 * wire) + MilliSeconds(1));
    Simulator::Run();

    r.completed = completed;
    r.incastUs = incastEnd.GetSeconds() * 1e6;
    r.victimUs = victimEnd.GetSeconds() * 1e6;
    r.drops = swA->GetTotalDrops() + swB->GetTotalDrops();
    r.pfcFrames = swA->GetPfcPausesSent() + swB->GetPfcPausesSent();
    for (Ptr<Node> n : {switches.Get(0), switches.Get(1)})
    {
        for (uint32_t d = 0; d < n->GetNDevices(); ++d)
        {
            Ptr<RdmaNetDevice> dev = DynamicCast<RdmaNetDevice>(n->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            r.drops += dev->GetRxDropCount();
            if (auto c = DynamicCast<RdmaCreditFlowControl>(dev->GetLinkFlowControl()))
            {
                r.creditUpdates += c->GetUpdatesSent();
            }
        }
    }
    r.peakBufferA = sampler.peakA;
    r.peakBufferB = sampler.peakB;
    const uint32_t trunkPortB = swB->GetNPorts() - 1; // the trunk was installed last
    r.peakTrunkIngressB = swB->GetMmu()->GetPeakIngressBytes(trunkPortB, CLS);
    if (auto c = DynamicCast<RdmaCreditFlowControl>(
            DynamicCast<RdmaNetDevice>(t.Get(1))->GetLinkFlowControl()))
    {
        UintegerValue block;
        c->GetAttribute("BlockBytes", block);
        r.trunkPartitionB = uint64_t(c->GetBufferBlocks(CLS)) * block.Get();
    }
    r.trunkStallUs = sampler.trunkBlocked * sample.GetSeconds() * 1e6;
    r.senderStallUs = sampler.senderBlocked * sample.GetSeconds() * 1e6;
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string fcs = "pfc,credits";
    uint32_t senders = 16;
    uint64_t size = 200000;
    uint64_t victimSize = 1000000;
    std::string rate = "100Gbps";
    std::string trunkRate = "400Gbps";
    Time delay = MicroSeconds(1);
    Time sample = NanoSeconds(100);
    bool alone = true;
    uint64_t buffer = 4 << 20;
    std::string output = "results/credits-vs-pfc.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("fcs", "link flow controls to compare: pfc, credits", fcs);
    cmd.AddValue("senders", "incast senders", senders);
    cmd.AddValue("size", "bytes each incast sender WRITEs", size);
    cmd.AddValue("victimSize", "bytes of the victim's WRITE", victimSize);
    cmd.AddValue("rate", "rate of the host links", rate);
    cmd.AddValue("trunkRate", "rate of the trunk between the two switches", trunkRate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("sample", "sampling interval of buffers and stalls", sample);
    cmd.AddValue("buffer",
                 "packet buffer of each switch, bytes (RdmaSwitchMmu BufferSize)",
                 buffer);
    cmd.AddValue("alone", "also run the victim without the incast", alone);
    cmd.AddValue("output", "CSV file", output);
    cmd.Parse(argc, argv);
    RdmaOptionChecker::Rate("rate", rate);
    RdmaOptionChecker::Rate("trunkRate", trunkRate);
    RdmaOptionChecker::Range<uint32_t>("senders", senders, 1, 256);
    RdmaOptionChecker::Range<uint64_t>("size", size, 1, uint64_t(1) << 32, "bytes");
    RdmaOptionChecker::Range<uint64_t>("victimSize", victimSize, 1, uint64_t(1) << 32, "bytes");
    RdmaOptionChecker::NonNegative("delay", delay);
    RdmaOptionChecker::Range<uint64_t>("buffer", buffer, 1 << 16, uint64_t(1) << 34, "bytes");
    RdmaOptionChecker::Positive("sample", sample);
    std::vector<std::string> fcList = RdmaOptionChecker::SplitList(fcs);
    for (const std::string& f : fcList)
    {
        RdmaOptionChecker::Require(f == "pfc" || f == "credits", "fcs", f, "pfc, credits");
    }
    RdmaOptionChecker::OutputFile("output", output);

    std::ofstream csv(output);
    csv << "fc,incast_completed,incast_us,victim_fct_us,victim_alone_us,drops,pfc_frames,"
           "credit_updates,peak_buffer_a_bytes,peak_buffer_b_bytes,peak_trunk_ingress_b_bytes,"
           "trunk_partition_b_bytes,trunk_stall_us,sender_stall_us\n";
    std::cout << "credits-vs-pfc: " << senders << " x " << size << " B into one " << rate
              << " port, victim " << victimSize << " B over the same " << trunkRate << " trunk\n"
              << std::setw(8) << "fc" << std::setw(11) << "incast us" << std::setw(11)
              << "victim us" << std::setw(10) << "alone us" << std::setw(7) << "drops"
              << std::setw(8) << "PFC" << std::setw(9) << "updates" << std::setw(11) << "peak A B"
              << std::setw(11) << "peak B B" << std::setw(11) << "trunk in B" << std::setw(12)
              << "trunk stall" << std::setw(13) << "sender stall"
              << "\n";
    for (const std::string& f : fcList)
    {
        const Result r =
            RunOnce(f, true, senders, size, victimSize, rate, trunkRate, delay, sample, buffer);
        double aloneUs = std::nan("");
        if (alone)
        {
            aloneUs =
                RunOnce(f, false, senders, size, victimSize, rate, trunkRate, delay, sample, buffer)
                    .victimUs;
        }
        NS_ABORT_MSG_IF(r.completed != senders,
                        "credits-vs-pfc: " << f << ": " << r.completed << " of " << senders
                                           << " incast WRITEs completed");
        csv << r.fc << "," << r.completed << "," << r.incastUs << "," << r.victimUs << ","
            << aloneUs << "," << r.drops << "," << r.pfcFrames << "," << r.creditUpdates << ","
            << r.peakBufferA << "," << r.peakBufferB << "," << r.peakTrunkIngressB << ","
            << r.trunkPartitionB << "," << r.trunkStallUs << "," << r.senderStallUs << "\n";
        std::cout << std::fixed << std::setprecision(1) << std::setw(8) << r.fc << std::setw(11)
                  << r.incastUs << std::setw(11) << r.victimUs << std::setw(10) << aloneUs
                  << std::setw(7) << r.drops << std::setw(8) << r.pfcFrames << std::setw(9)
                  << r.creditUpdates << std::setw(11) << r.peakBufferA << std::setw(11)
                  << r.peakBufferB << std::setw(11) << r.peakTrunkIngressB << std::setw(12)
                  << r.trunkStallUs << std::setw(13) << r.senderStallUs << "\n";
    }
    std::cout << "credits-vs-pfc: wrote " << output << "\n";
    return 0;
}
