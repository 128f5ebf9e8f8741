/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TEST_UTILS_H
#define RDMA_TEST_UTILS_H

#include "rdma-test-environment.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <string>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/// Bytes per data packet besides the payload on the wire: Ethernet 14 + IPv4 20 + UDP 8 +
/// BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 + inter-frame gap 12.
constexpr double PER_PACKET_OVERHEAD = 82.0;

/// \return analytical RoCEv2 WRITE goodput in bit/s at a line rate and path MTU
inline double
AnalyticalGoodput(double lineRateBps, uint32_t mtu)
{
    return lineRateBps * mtu / (mtu + PER_PACKET_OVERHEAD);
}

/**
 * A star: hosts[0] is the receiver, hosts[1..n] the senders, all on one switch.
 * Links are created, NICs and the switch installed and routes computed.
 */
struct Star
{
    NodeContainer hosts;
    Ptr<Node> switchNode;
    NetDeviceContainer devices; //!< pairs: (host i port, switch port i)
    RdmaHelper rdma;
    RdmaLinkHelper link;

    /**
     * \param nHosts number of hosts (receiver included)
     * \param rate link rate
     * \param delay link delay
     */
    Star(uint32_t nHosts, const std::string& rate, Time delay)
    {
        hosts.Create(nHosts);
        switchNode = CreateObject<Node>();
        link.SetDeviceAttribute("DataRate", StringValue(rate));
        link.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            devices.Add(link.Install(hosts.Get(i), switchNode));
        }
    }

    /// Install NICs, the switch and routes (after configuring rdma).
    void Install()
    {
        rdma.InstallHosts(hosts);
        rdma.InstallSwitch(switchNode);
        rdma.AssignStreams(NodeContainer(switchNode), 0);
        RdmaRoutingHelper::PopulateRoutingTables(NodeContainer(hosts, NodeContainer(switchNode)));
    }

    /// \return the switch
    Ptr<RdmaSwitch> Switch() const
    {
        return switchNode->GetObject<RdmaSwitch>();
    }

    /// \return the host-side device of host i
    Ptr<RdmaNetDevice> HostDevice(uint32_t i) const
    {
        return DynamicCast<RdmaNetDevice>(devices.Get(2 * i));
    }

    /// \return the switch port facing host i
    Ptr<RdmaNetDevice> SwitchDevice(uint32_t i) const
    {
        return DynamicCast<RdmaNetDevice>(devices.Get(2 * i + 1));
    }
};

/// Records completions of one queue pair.
struct CompletionLog
{
    std::vector<RdmaCompletion> sends;
    std::vector<RdmaCompletion> receives;

    void OnSend(const RdmaCompletion& c)
    {
        sends.push_back(c);
    }

    void OnReceive(const RdmaCompletion& c)
    {
        receives.push_back(c);
    }

    /// Attach to a connected pair (requester, responder).
    void Attach(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder)
    {
        requester->SetSendCompletionCallback(MakeCallback(&CompletionLog::OnSend, this));
        responder->SetReceiveCompletionCallback(MakeCallback(&CompletionLog::OnReceive, this));
    }
};

/// Post a WRITE of the given size at time t in the requester node's context.
inline void
PostWriteAt(Ptr<RdmaQueuePair> qp, Ptr<Node> node, Time t, uint64_t bytes, uint64_t wrId = 0)
{
    RdmaWorkRequest wr;
    wr.opcode = RdmaWorkRequest::WRITE;
    wr.wrId = wrId;
    wr.length = bytes;
    wr.remoteAddress = 0x1000;
    Simulator::ScheduleWithContext(node->GetId(), t, &RdmaQueuePair::PostSend, qp, wr);
}

/**
 * The binary of an example of this module, next to rdma-incast's (RDMA_INCAST_EXAMPLE, an
 * absolute path, in-tree or standalone; in-tree names carry ns-3's prefix and suffix).
 * \param name the example's name, e.g. "pfc-storm"
 * \return its path, or "" if the examples are not built
 */
inline std::string
ExamplePath(const std::string& name)
{
    std::string exe = RDMA_INCAST_EXAMPLE;
    const auto pos = exe.rfind("rdma-incast");
    if (exe.empty() || pos == std::string::npos)
    {
        return "";
    }
    return exe.replace(pos, std::string("rdma-incast").size(), name);
}

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_TEST_UTILS_H */
