/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * A PFC pause storm in a fat-tree (C. Guo et al., "RDMA over Commodity Ethernet at Scale",
 * SIGCOMM 2016, section 4.3): the receive pipeline of one host's NIC is stuck, and the NIC
 * keeps sending IEEE 802.1Qbb pause frames for the lossless class to its ToR. The ToR stops
 * sending to that host; frames for the host pile up in the ToR's shared buffer, charged to
 * the ingress ports they came in on; once an ingress queue passes its XOFF threshold the ToR
 * pauses the aggregation switch behind it, which then stops sending *everything* of that
 * class to the ToR; its own buffer fills, it pauses the cores, the cores pause the other
 * pods' aggregation switches, those pause their ToRs and the ToRs their hosts. Flows that
 * never touch the broken host stall too: a pause stops a whole class on a link, and the one
 * lossless class is shared by every flow (head-of-line blocking).
 *
 * Fabric: a k-ary fat-tree (FatTreeHelper, default k = 4: 16 hosts, 20 switches), every link
 * --rate and --delay, shared-buffer switches of --buffer bytes (dynamic XOFF threshold,
 * alpha 1/8), PFC on the RoCE class. Traffic: every host h WRITEs --size bytes to host
 * (h + N/2) mod N, in the other half of the fabric, from t = 0, at --flowRate (24 Gb/s:
 * in a k = 4 fat-tree at most four flows share a link, so nothing is congested before the
 * storm, whatever paths ECMP picks; --cc chooses another congestion control). Storm: from
 * --stormStart for --stormDuration, host --stormHost sends a pause of 0xFFFF quanta every half
 * pause time (as a switch refreshes one), then one XON.
 *
 * The summary compares each flow's goodput in the --window before the storm with that in
 * the last --window of the storm: the flow to the broken host stops; a flow elsewhere that
 * falls below 10 % of its goodput before is a victim. It prints the PFC frames received
 * per tier and the drops (a lossless class must have none, storm or not), and whether every
 * flow completes once the storm is over.
 *
 * Output: per-flow CSV (--output); a time series (--seriesOutput) of whether the storm is on,
 * the aggregate goodput in each --sampleInterval and the number of paused (port, RoCE class)
 * transmit queues per tier: host ports, edge, aggregation and core switch ports.
 * examples/plot-pfc-storm.py turns it into a PNG.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <array>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfcStormExample");

namespace
{

/// The tiers whose ports the time series counts.
enum Tier
{
    HOSTS = 0,
    EDGE,
    AGGREGATION,
    CORE,
    NUM_TIERS
};

/// Tier names, in Tier order.
const std::array<const char*, NUM_TIERS> TIER_NAMES = {"hosts", "edge", "aggregation", "core"};

/// One flow of the permutation.
struct Flow
{
    uint32_t src{0};       //!< sending host
    uint32_t dst{0};       //!< receiving host
    Ptr<RdmaQueuePair> qp; //!< the sender's queue pair
    Ptr<RdmaQueuePair> rx; //!< the receiver's queue pair
    uint64_t rxBefore0{0}; //!< bytes received in order at the start of the window before
    uint64_t rxBefore1{0}; //!< ... at the storm's start
    uint64_t rxDuring0{0}; //!< ... at the start of the storm's last window
    uint64_t rxDuring1{0}; //!< ... at the storm's end
    Time finish;           //!< completion time
    bool done{false};      //!< completed
};

/// The broken NIC: a pause for the class every half pause time until `end`, then XON.
void
SendStormPause(Ptr<RdmaNetDevice> port, uint8_t cls, Time period, Time end)
{
    std::array<uint16_t, RdmaNetDevice::NUM_CLASSES> quanta{};
    if (Simulator::Now() >= end)
    {
        port->SendPfc(static_cast<uint8_t>(1U << cls), quanta); // quanta 0: XON
        return;
    }
    quanta[cls] = 0xFFFF;
    port->SendPfc(static_cast<uint8_t>(1U << cls), quanta);
    Simulator::Schedule(std::min(period, end - Simulator::Now()),
                        &SendStormPause,
                        port,
                        cls,
                        period,
                        end);
}

/// Record the bytes every flow's receiver has received in order into the field `member`.
void
Snapshot(std::vector<Flow>* flows, uint64_t Flow::*member)
{
    for (Flow& f : *flows)
    {
        f.*member = f.rx->GetBytesReceived();
    }
}

/// What the periodic sampler needs.
struct Sampler
{
    std::ofstream* out{nullptr};
    std::vector<Flow>* flows{nullptr};
    std::array<std::vector<Ptr<RdmaNetDevice>>, NUM_TIERS> ports; //!< transmit ports per tier
    uint8_t cls{3};
    Time interval;
    Time stormStart; //!< the storm, for the storm_active column
    Time stormEnd;
    uint64_t lastReceived{0};
    std::array<Time, NUM_TIERS> firstPaused; //!< first sample with a paused port, per tier
    std::array<bool, NUM_TIERS> seenPaused{};
    std::array<uint32_t, NUM_TIERS> maxPaused{};
};

/// Write one sample and schedule the next.
void
Sample(Sampler* s)
{
    uint64_t received = 0;
    for (const Flow& f : *s->flows)
    {
        received += f.rx->GetBytesReceived();
    }
    const double gbps = (received - s->lastReceived) * 8.0 / s->interval.GetSeconds() / 1e9;
    s->lastReceived = received;
    const Time now = Simulator::Now();
    *s->out << now.GetSeconds() * 1e6 << "," << (now >= s->stormStart && now < s->stormEnd) << ","
            << gbps;
    for (uint32_t t = 0; t < NUM_TIERS; ++t)
    {
        uint32_t paused = 0;
        for (const auto& d : s->ports[t])
        {
            paused += d->IsClassPaused(s->cls);
        }
        if (paused > 0 && !s->seenPaused[t])
        {
            s->seenPaused[t] = true;
            s->firstPaused[t] = Simulator::Now();
        }
        s->maxPaused[t] = std::max(s->maxPaused[t], paused);
        *s->out << "," << paused;
    }
    *s->out << "\n";
    Simulator::Schedule(s->interval, &Sample, s);
}

/// The flow monitor's record of a completed WRITE (wrId = the flow's index).
void
OnFlowComplete(std::vector<Flow>* flows, const RdmaFlowMonitor::FlowRecord& r)
{
    Flow& f = (*flows)[r.wrId];
    f.finish = r.finish;
    f.done = true;
}

/// \return the RdmaNetDevices of the nodes
std::vector<Ptr<RdmaNetDevice>>
PortsOf(const NodeContainer& nodes)
{
    std::vector<Ptr<RdmaNetDevice>> ports;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        for (uint32_t d = 0; d < nodes.Get(i)->GetNDevices(); ++d)
        {
            if (Ptr<RdmaNetDevice> p = DynamicCast<RdmaNetDevice>(nodes.Get(i)->GetDevice(d)))
            {
                ports.push_back(p);
            }
        }
    }
    return ports;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it

    uint32_t k = 4;
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    uint64_t bufferBytes = 4 * 1024 * 1024;
    uint64_t size = 1000000;
    uint32_t mtu = 1024;
    std::string congestionControl = "ns3::RdmaFixedRateCongestionControl";
    std::string flowRate = "4Gbps";
    std::string traffic = "all-to-all";
    uint32_t stormHost = 0;
    Time stormStart = MicroSeconds(100);
    Time stormDuration = MilliSeconds(1);
    Time window = MicroSeconds(50);
    Time watchdog = Seconds(0);
    Time sampleInterval = MicroSeconds(5);
    Time stopTime = MilliSeconds(50);
    std::string output = "results/pfc-storm.csv";
    std::string seriesOutput = "results/pfc-storm-series.csv";

    CommandLine cmd(__FILE__);
    cmd.Usage("A PFC pause storm from one broken NIC spreading through a fat-tree.");
    cmd.AddValue("k", "fat-tree arity (k^3/4 hosts)", k);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("buffer", "shared buffer of every switch, bytes", bufferBytes);
    cmd.AddValue("traffic",
                 "all-to-all (every host to every other) or permutation (host h to host "
                 "(h + N/2) mod N)",
                 traffic);
    cmd.AddValue("size", "bytes of every flow", size);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("cc", "congestion control TypeId", congestionControl);
    cmd.AddValue("flowRate",
                 "sending rate of every flow with the fixed-rate congestion control (wire "
                 "bytes; 0: line rate)",
                 flowRate);
    cmd.AddValue("stormHost", "host whose NIC sends the pause storm", stormHost);
    cmd.AddValue("stormStart", "when the storm starts", stormStart);
    cmd.AddValue("stormDuration", "how long it lasts (0: no storm)", stormDuration);
    cmd.AddValue("window", "goodput window before the storm and at its end", window);
    cmd.AddValue("watchdog",
                 "PFC watchdog detection (and restoration) time of the switches (0: off)",
                 watchdog);
    cmd.AddValue("sampleInterval", "time-series sampling interval", sampleInterval);
    cmd.AddValue("stopTime", "simulation stop time, if flows have not completed", stopTime);
    cmd.AddValue("output", "CSV file of per-flow results", output);
    cmd.AddValue("seriesOutput", "CSV time series (none: off)", seriesOutput);
    cmd.Parse(argc, argv);

    // Option errors exit with status 1 and a message naming the option (RdmaOptionChecker).
    const auto us = [](Time t) {
        std::ostringstream text;
        text << t.As(Time::US);
        const std::string s = text.str();
        return s.front() == '+' ? s.substr(1) : s;
    };
    RdmaOptionChecker::Require(window <= stormStart,
                               "window",
                               us(window),
                               "at most --stormStart (" + us(stormStart) +
                                   "): the window before the storm must fit before it");
    RdmaOptionChecker::Require(!stormDuration.IsStrictlyPositive() || window <= stormDuration,
                               "window",
                               us(window),
                               "at most --stormDuration (" + us(stormDuration) +
                                   "): the window at the end of the storm must fit in it");
    RdmaOptionChecker::Require(traffic == "all-to-all" || traffic == "permutation",
                               "traffic",
                               traffic,
                               "all-to-all, permutation");
    RdmaOptionChecker::Require(!watchdog.IsStrictlyNegative(),
                               "watchdog",
                               us(watchdog),
                               "0 (off) or a positive time");
    RdmaOptionChecker::Positive("sampleInterval", sampleInterval);

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    if (congestionControl == "ns3::RdmaFixedRateCongestionControl")
    {
        rdma.SetCongestionControl(congestionControl, "Rate", DataRateValue(DataRate(flowRate)));
    }
    else
    {
        rdma.SetCongestionControl(congestionControl);
    }
    rdma.SetSwitchAttribute("EcnEnabled",
                            BooleanValue(congestionControl == "ns3::DcqcnCongestionControl"));
    rdma.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
    rdma.SetSwitchAttribute("PfcWatchdogDetectionTime", TimeValue(watchdog));
    FatTreeHelper tree;
    tree.SetThreeTier(k); // validates k
    for (auto tier : {FatTreeHelper::HOST_EDGE,
                      FatTreeHelper::EDGE_AGGREGATION,
                      FatTreeHelper::AGGREGATION_CORE})
    {
        tree.SetLinkRate(tier, DataRate(rate));
        tree.SetLinkDelay(tier, delay);
    }
    tree.Install(rdma);
    const uint32_t n = tree.GetNHosts();
    RdmaOptionChecker::Require(stormHost < n,
                               "stormHost",
                               stormHost,
                               "0.." + std::to_string(n - 1));

    // The flows: all-to-all, or the permutation h -> (h + N/2) mod N (the other half of the
    // pods).
    std::vector<Flow> flows;
    for (uint32_t src = 0; src < n; ++src)
    {
        for (uint32_t dst = 0; dst < n; ++dst)
        {
            if (traffic == "all-to-all" ? dst != src : dst == (src + n / 2) % n)
            {
                Flow f;
                f.src = src;
                f.dst = dst;
                flows.push_back(f);
            }
        }
    }
    // The flow monitor times every WRITE and stops the run at the last completion (the
    // sampler never ends by itself).
    RdmaFlowMonitor monitor;
    monitor.ConnectFlowComplete(MakeBoundCallback(&OnFlowComplete, &flows));
    monitor.SetStopAfterFlows(flows.size());
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        Flow& f = flows[i];
        std::tie(f.qp, f.rx) = rdma.Connect(tree.GetHost(f.src), tree.GetHost(f.dst));
        monitor.Watch(f.qp, f.rx);
        RdmaWorkRequest wr;
        wr.opcode = RdmaWorkRequest::WRITE;
        wr.wrId = i;
        wr.length = size;
        wr.remoteAddress = 0x10000000ULL;
        Simulator::ScheduleWithContext(tree.GetHost(f.src)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       f.qp,
                                       wr);
    }
    const uint8_t cls = flows[0].qp->GetTrafficClass();

    // The storm and the goodput windows.
    const Time stormEnd = stormStart + stormDuration;
    Ptr<RdmaNetDevice> brokenPort = PortsOf(NodeContainer(tree.GetHost(stormHost)))[0];
    const Time pauseTime = DataRate(rate).CalculateBytesTxTime(0xFFFF * 512 / 8);
    if (stormDuration.IsStrictlyPositive())
    {
        Simulator::ScheduleWithContext(tree.GetHost(stormHost)->GetId(),
                                       stormStart,
                                       &SendStormPause,
                                       brokenPort,
                                       cls,
                                       pauseTime / 2,
                                       stormEnd);
    }
    Simulator::Schedule(stormStart - window, &Snapshot, &flows, &Flow::rxBefore0);
    Simulator::Schedule(stormStart, &Snapshot, &flows, &Flow::rxBefore1);
    if (stormDuration.IsStrictlyPositive())
    {
        Simulator::Schedule(stormEnd - window, &Snapshot, &flows, &Flow::rxDuring0);
        Simulator::Schedule(stormEnd, &Snapshot, &flows, &Flow::rxDuring1);
    }

    Sampler sampler;
    sampler.flows = &flows;
    sampler.cls = cls;
    sampler.interval = sampleInterval;
    sampler.stormStart = stormStart;
    sampler.stormEnd = stormEnd;
    sampler.ports[HOSTS] = PortsOf(tree.GetHosts());
    sampler.ports[EDGE] = PortsOf(tree.GetEdgeSwitches());
    sampler.ports[AGGREGATION] = PortsOf(tree.GetAggregationSwitches());
    sampler.ports[CORE] = PortsOf(tree.GetCoreSwitches());
    std::ofstream series;
    if (seriesOutput != "none")
    {
        RdmaOutputHelper::CreateParentDirectories(seriesOutput);
        series.open(seriesOutput);
        NS_ABORT_MSG_IF(!series, "cannot write --seriesOutput " << seriesOutput);
        series << "time_us,storm_active,goodput_gbps,paused_host_ports,paused_edge_ports,"
                  "paused_agg_ports,paused_core_ports\n";
        sampler.out = &series;
        Simulator::Schedule(sampleInterval, &Sample, &sampler);
    }

    RdmaConservationMonitor conservation; // sent = delivered + dropped + in flight
    conservation.Install(NodeContainer::GetGlobal());
    Simulator::Stop(stopTime);
    Simulator::Run();

    // Summary.
    // Ethernet, IPv4, UDP, BTH, ICRC, FCS, preamble, IFG: 82 bytes.
    const double payloadShare = RdmaWireSize::PayloadRate(1, mtu);
    const bool fixedRate = congestionControl == "ns3::RdmaFixedRateCongestionControl";
    const double offeredGbps =
        (fixedRate && DataRate(flowRate).GetBitRate() > 0 ? DataRate(flowRate) : DataRate(rate))
            .GetBitRate() /
        1e9;
    std::cout << std::fixed << std::setprecision(2);
    std::cout << "pfc-storm: k = " << k << " fat-tree (" << n << " hosts), " << rate << ", delay "
              << delay.As(Time::US) << ", buffer " << bufferBytes << " B; " << traffic << ", "
              << flows.size() << " flows of " << size << " B; " << congestionControl
              << (fixedRate ? " at " + flowRate : std::string()) << "\n";
    if (stormDuration.IsStrictlyPositive())
    {
        std::cout << "storm: host " << stormHost << " pauses its ToR from "
                  << stormStart.As(Time::US) << " to " << stormEnd.As(Time::US)
                  << " (0xFFFF quanta = " << pauseTime.As(Time::US) << ", refreshed every "
                  << (pauseTime / 2).As(Time::US) << ")\n";
    }
    else
    {
        std::cout << "storm: none (--stormDuration 0)\n";
    }

    RdmaOutputHelper::CreateParentDirectories(output);
    std::ofstream csv(output);
    NS_ABORT_MSG_IF(!csv, "cannot write --output " << output);
    csv << "flow,src,dst,to_storm_host,goodput_before_gbps,goodput_storm_gbps,fct_us,completed\n";
    const bool perFlowLines = flows.size() <= 32;
    if (perFlowLines)
    {
        std::cout << "flow  src  dst  before(Gb/s)  storm end(Gb/s)  FCT(us)\n";
    }
    uint32_t victims = 0;
    uint32_t others = 0;
    uint32_t toBroken = 0;
    uint32_t completed = 0;
    uint64_t retransmissions = 0;
    double sumBefore = 0;
    double sumDuringOthers = 0;
    double sumDuringBroken = 0;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const Flow& f = flows[i];
        const double before = (f.rxBefore1 - f.rxBefore0) * 8.0 / window.GetSeconds() / 1e9;
        const double during = stormDuration.IsStrictlyPositive()
                                  ? (f.rxDuring1 - f.rxDuring0) * 8.0 / window.GetSeconds() / 1e9
                                  : before;
        const bool toStormHost = f.dst == stormHost;
        const bool victim =
            !toStormHost && stormDuration.IsStrictlyPositive() && during < 0.1 * before;
        victims += victim;
        others += !toStormHost;
        toBroken += toStormHost;
        sumBefore += before;
        (toStormHost ? sumDuringBroken : sumDuringOthers) += during;
        completed += f.done;
        retransmissions += f.qp->GetRetransmissions();
        const double fctUs = f.done ? f.finish.GetSeconds() * 1e6 : -1;
        if (perFlowLines)
        {
            std::cout << std::setw(4) << i << std::setw(5) << f.src << std::setw(5) << f.dst
                      << std::setw(14) << before << std::setw(17) << during << std::setw(9) << fctUs
                      << (toStormHost ? "  to the broken host" : (victim ? "  victim" : ""))
                      << "\n";
        }
        csv << i << "," << f.src << "," << f.dst << "," << toStormHost << "," << before << ","
            << during << "," << fctUs << "," << f.done << "\n";
    }
    std::cout << "goodput before the storm: " << sumBefore / flows.size() << " Gb/s per flow";
    if (fixedRate)
    {
        std::cout << " (offered " << offeredGbps << " Gb/s x MTU / (MTU + "
                  << RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES
                  << ") = " << offeredGbps * payloadShare << ")";
    }
    std::cout << ", aggregate " << sumBefore << " Gb/s\n";
    if (stormDuration.IsStrictlyPositive())
    {
        std::cout << "goodput at the storm's end: flows to host " << stormHost << " "
                  << (toBroken ? sumDuringBroken / toBroken : 0.0) << " Gb/s per flow, other flows "
                  << (others ? sumDuringOthers / others : 0.0) << " Gb/s per flow, aggregate "
                  << sumDuringBroken + sumDuringOthers << " Gb/s\n";
    }

    uint64_t switchDrops = 0;
    uint64_t watchdogDrops = 0;
    uint64_t storms = 0;
    for (uint32_t i = 0; i < tree.GetSwitches().GetN(); ++i)
    {
        Ptr<RdmaSwitch> sw = tree.GetSwitches().Get(i)->GetObject<RdmaSwitch>();
        switchDrops += sw->GetTotalDrops();
        watchdogDrops += sw->GetDropCount(RdmaSwitch::PFC_WATCHDOG);
        storms += sw->GetPfcWatchdogStorms();
    }
    if (watchdog.IsStrictlyPositive())
    {
        std::cout << "PFC watchdog (detection and restoration " << watchdog.As(Time::US)
                  << "): " << storms << " storms detected, " << watchdogDrops
                  << " packets dropped by it\n";
    }
    uint64_t linkDrops = 0;
    std::cout << "PFC frames received:";
    for (uint32_t t = 0; t < NUM_TIERS; ++t)
    {
        uint64_t received = 0;
        for (const auto& d : sampler.ports[t])
        {
            received += d->GetPfcFramesReceived();
            linkDrops += d->GetRxDropCount();
        }
        std::cout << " " << TIER_NAMES[t] << " " << received;
    }
    std::cout << "\n";
    if (sampler.out)
    {
        std::cout << "paused ports (RoCE class), most at once / first seen:";
        for (uint32_t t = 0; t < NUM_TIERS; ++t)
        {
            std::cout << " " << TIER_NAMES[t] << " " << sampler.maxPaused[t] << "/"
                      << sampler.ports[t].size();
            if (sampler.seenPaused[t])
            {
                std::cout << " at " << sampler.firstPaused[t].As(Time::US);
            }
            std::cout << (t + 1 < NUM_TIERS ? ";" : "\n");
        }
    }
    std::cout << "victims (flows not to host " << stormHost
              << " below 10 % of their goodput before the storm): " << victims << " of " << others
              << "\n";
    std::cout << "completed " << completed << "/" << flows.size() << " flows; drops: switch "
              << switchDrops << ", links " << linkDrops << "; retransmissions " << retransmissions
              << "\n";
    conservation.Print(std::cout, flows.size() * size, completed * size);
    std::cout << "events " << Simulator::GetEventCount() << "; CSV " << output << "\n";
    Simulator::Destroy();
    // Lossless: every drop must be the watchdog's.
    return completed == flows.size() && switchDrops == watchdogDrops && linkDrops == 0 ? 0 : 1;
}
