/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_INCAST_H
#define RDMA_LINK_INCAST_H

#include "rdma-test-utils.h"

#include <vector>

namespace ns3
{
namespace rdmatest
{

/**
 * An N-to-1 incast of WRITEs through one switch, 100 Gb/s and 1 us links: the shared set-up
 * of the link-layer tests (credits, link-level retry), which configure `link` (flow control,
 * retry, error model) and `rdma` (NIC, loss recovery) before Run.
 */
struct LinkIncast
{
    NodeContainer hosts; //!< host 0 receives; hosts 1..N send
    Ptr<Node> sw;
    NetDeviceContainer devices; //!< pairs: (host i port, switch port i)
    RdmaLinkHelper link;
    RdmaHelper rdma;
    std::vector<CompletionLog> logs; //!< per sender
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::vector<Ptr<RdmaQueuePair>> responders;

    LinkIncast()
    {
        link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MilliSeconds(10)));
    }

    /**
     * Build the star, post one WRITE of `bytes` from every sender at time 0 and run.
     * \param senders N
     * \param bytes bytes each sender WRITEs
     * \param stop when the run stops (credit refreshes never end by themselves)
     */
    void Run(uint32_t senders, uint64_t bytes, Time stop)
    {
        hosts.Create(senders + 1);
        sw = CreateObject<Node>();
        for (uint32_t i = 0; i <= senders; ++i)
        {
            devices.Add(link.Install(hosts.Get(i), sw));
        }
        rdma.InstallHosts(hosts);
        rdma.InstallSwitch(sw);
        rdma.AssignStreams(NodeContainer(sw), 0);
        RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, NodeContainer(sw)));
        logs.resize(senders); // sized before Attach keeps pointers to its elements
        for (uint32_t i = 0; i < senders; ++i)
        {
            auto [a, b] = rdma.Connect(hosts.Get(i + 1), hosts.Get(0));
            logs[i].Attach(a, b);
            requesters.push_back(a);
            responders.push_back(b);
            PostWriteAt(a, hosts.Get(i + 1), Seconds(0), bytes, i);
        }
        Simulator::Stop(stop);
        Simulator::Run();
    }

    /// \return the switch
    Ptr<RdmaSwitch> Switch() const
    {
        return sw->GetObject<RdmaSwitch>();
    }
};

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_LINK_INCAST_H */
