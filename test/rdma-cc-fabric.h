/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_FABRIC_H
#define RDMA_CC_FABRIC_H

#include "rdma-test-utils.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace rdmatest
{

/// Payload bytes per packet of the congestion-control dynamics fabric.
constexpr uint32_t FABRIC_MTU = 1024;
/// Line rate of every link of that fabric, bit/s.
constexpr double FABRIC_LINE_RATE = 100e9;

/// Congestion-control attributes: name and value.
using CcAttrs = std::vector<std::pair<std::string, Ptr<AttributeValue>>>;

/// Round trip through one switch of 1 us links at 100 Gb/s for a full packet and its ACK
/// (store and forward: two serializations of each frame, four propagation delays).
inline double
OneSwitchRtt()
{
    auto wire = [](uint32_t ipBytes) {
        return RdmaNetDevice::WireBytes(ipBytes + 14) * 8.0 / FABRIC_LINE_RATE;
    };
    // Data: IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + the timestamp request; ACK likewise.
    return 2 * (wire(FABRIC_MTU + 44) + wire(48)) + 4e-6;
}

/// n senders (hosts 1..n) to host 0 through one switch, each flow one queue pair with the
/// given congestion control; the egress queue toward host 0 and the delays are recorded.
struct Fabric
{
    Star star;
    std::vector<Ptr<RdmaQueuePair>> requesters;
    std::vector<Ptr<RdmaQueuePair>> responders;
    std::vector<CompletionLog> logs;
    uint64_t peakQueue{0};
    uint64_t measuredMin{UINT64_MAX}; //!< smallest queue from measureFrom on
    uint64_t measuredMax{0};          //!< largest queue from measureFrom on
    double queueIntegral{0};          //!< byte-seconds since measureFrom
    uint64_t lastQueue{0};
    Time lastChange;
    Time measureFrom;
    std::vector<double> rttSamples; //!< flow 0's RTT samples after measureFrom, seconds

    Fabric(uint32_t n,
           const std::string& cc,
           const CcAttrs& attrs,
           bool pfc = true,
           const std::function<void(RdmaHelper&)>& configure = {})
        : star(n + 1, "100Gbps", MicroSeconds(1)),
          logs(n)
    {
        star.rdma.SetNicAttribute("Mtu", UintegerValue(FABRIC_MTU));
        star.rdma.SetLossRecovery("ns3::RdmaSackLossRecovery");
        star.rdma.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
        star.rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
        star.rdma.SetCongestionControl(cc);
        for (const auto& [name, value] : attrs)
        {
            star.rdma.SetCongestionControl(cc, name, *value);
        }
        if (configure)
        {
            configure(star.rdma);
        }
        star.Install();
        for (uint32_t i = 0; i < n; ++i)
        {
            auto [a, b] = star.rdma.Connect(star.hosts.Get(i + 1), star.hosts.Get(0));
            requesters.push_back(a);
            responders.push_back(b);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            logs[i].Attach(requesters[i], responders[i]);
        }
        star.Switch()->TraceConnectWithoutContext("EgressQueue",
                                                  MakeCallback(&Fabric::OnQueue, this));
        requesters[0]->TraceConnectWithoutContext("Rtt", MakeCallback(&Fabric::OnRtt, this));
    }

    void OnQueue(uint32_t port, uint8_t, uint32_t bytes)
    {
        if (port != 0)
        {
            return;
        }
        const Time now = Simulator::Now();
        if (now > measureFrom)
        {
            queueIntegral += lastQueue * (now - std::max(lastChange, measureFrom)).GetSeconds();
        }
        if (now >= measureFrom)
        {
            measuredMin = std::min<uint64_t>(measuredMin, bytes);
            measuredMax = std::max<uint64_t>(measuredMax, bytes);
        }
        lastQueue = bytes;
        lastChange = now;
        peakQueue = std::max<uint64_t>(peakQueue, bytes);
    }

    /// Time-average of the queue (bytes) from measureFrom to `end` (call at `end`).
    double MeanQueue(Time end) const
    {
        const double tail = lastQueue * (end - std::max(lastChange, measureFrom)).GetSeconds();
        return (queueIntegral + tail) / (end - measureFrom).GetSeconds();
    }

    void OnRtt(Time rtt)
    {
        if (Simulator::Now() >= measureFrom)
        {
            rttSamples.push_back(rtt.GetSeconds());
        }
    }

    /// Rates (bit/s) at which each responder received between t1 and t2, filled at t2.
    std::shared_ptr<std::vector<double>> RatesBetween(Time t1, Time t2)
    {
        auto before = std::make_shared<std::vector<uint64_t>>();
        auto result = std::make_shared<std::vector<double>>();
        Simulator::Schedule(t1, [this, before] {
            for (auto& r : responders)
            {
                before->push_back(r->GetBytesReceived());
            }
        });
        Simulator::Schedule(t2, [this, before, result, t1, t2] {
            for (std::size_t i = 0; i < responders.size(); ++i)
            {
                result->push_back((responders[i]->GetBytesReceived() - (*before)[i]) * 8.0 /
                                  (t2 - t1).GetSeconds());
            }
        });
        return result;
    }
};

/// Jain's fairness index of the rates.
inline double
Jain(const std::vector<double>& x)
{
    const double s = std::accumulate(x.begin(), x.end(), 0.0);
    double s2 = 0;
    for (double v : x)
    {
        s2 += v * v;
    }
    return s * s / (x.size() * s2);
}

} // namespace rdmatest
} // namespace ns3

#endif /* RDMA_CC_FABRIC_H */
