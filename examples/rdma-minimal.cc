/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * The README's scenario, runnable: two hosts on one switch, one RDMA WRITE of --size bytes.
 * It prints the completion time beside its analytical value: the sender serializes the
 * message at line rate (RdmaWireSize::WriteMessage: 82 bytes per packet and the RETH once),
 * the switch forwards after the first packet (payload + 98 bytes) is in, the ACK (86 wire
 * bytes) returns over both links, and each of the four link crossings takes --delay
 * (exact for sizes that are multiples of 4 bytes: other payloads are padded to 4 on the wire).
 *
 *   rdma-minimal [--size=1048576] [--rate=100Gbps] [--delay=1us] [--pcap=false]
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

using namespace ns3;

/// The WRITE completed: its time from posting to the last acknowledgement.
void
OnDone(Time* fct, const RdmaCompletion& c)
{
    *fct = c.completionTime - c.postTime;
}

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);     // 100 Gb/s: 10 ps per bit
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it
    uint64_t size = 1 << 20;
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    bool pcap = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "bytes of the WRITE", size);
    cmd.AddValue("rate", "rate of both links", rate);
    cmd.AddValue("delay", "propagation delay of each link", delay);
    cmd.AddValue("pcap", "write rdma-minimal-*.pcap (Wireshark-readable)", pcap);
    cmd.Parse(argc, argv);
    RdmaOptionChecker::Rate("rate", rate);
    RdmaOptionChecker::Require(size > 0, "size", size, "bytes > 0");

    NodeContainer hosts(2);
    NodeContainer sw(1);
    RdmaLinkHelper link; // Ethernet links with PFC
    link.SetDeviceAttribute("DataRate", StringValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    link.Install(hosts.Get(0), sw.Get(0));
    link.Install(hosts.Get(1), sw.Get(0));

    RdmaHelper rdma; // NICs, switches, queue pairs
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    rdma.SetLossRecovery("ns3::RdmaGoBackNLossRecovery");
    rdma.SetMmuAttribute("BufferSize", UintegerValue(4 << 20));
    rdma.InstallHosts(hosts);
    rdma.InstallSwitches(sw);
    RdmaRoutingHelper::PopulateRoutingTables(); // all shortest paths, ECMP

    auto [qp, peer] = rdma.Connect(hosts.Get(0), hosts.Get(1));
    Time fct;
    qp->SetSendCompletionCallback(MakeBoundCallback(&OnDone, &fct));
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.length = size;
    Simulator::ScheduleWithContext(hosts.Get(0)->GetId(),
                                   Seconds(0),
                                   &RdmaQueuePair::PostSend,
                                   qp,
                                   wr);
    if (pcap)
    {
        link.EnablePcapAll("rdma-minimal");
    }
    Simulator::Run();

    UintegerValue mtuValue;
    RdmaHelper::GetNic(hosts.Get(0))->GetAttribute("Mtu", mtuValue);
    const auto mtu = static_cast<uint32_t>(mtuValue.Get());
    const DataRate r(rate);
    const Time analytical = r.CalculateBytesTxTime(RdmaWireSize::WriteMessage(size, mtu)) +
                            r.CalculateBytesTxTime(std::min<uint64_t>(size, mtu) + 98) +
                            r.CalculateBytesTxTime(86) * 2 + delay * 4;
    std::cout << "rdma-minimal: WRITE of " << size << " bytes over " << rate << ", MTU " << mtu
              << ": done after " << fct.As(Time::US) << " (analytical " << analytical.As(Time::US)
              << ")\n";
    Simulator::Destroy();
    return 0;
}
