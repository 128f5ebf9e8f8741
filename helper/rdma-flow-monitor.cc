/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-monitor.h"

#include "rdma-output-helper.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowMonitor");

RdmaFlowMonitor::RdmaFlowMonitor(const std::string& csvPath)
{
    m_stats.resize(m_bounds.size() + 1);
    if (!csvPath.empty())
    {
        RdmaOutputHelper::CreateParentDirectories(csvPath);
        m_csv = std::make_unique<std::ofstream>(csvPath);
        NS_ABORT_MSG_IF(!*m_csv, "RdmaFlowMonitor: cannot write '" << csvPath << "'");
        *m_csv << "src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown\n";
        *m_csv << std::setprecision(12);
    }
}

RdmaFlowMonitor::~RdmaFlowMonitor()
{
    Flush();
}

void
RdmaFlowMonitor::SetSizeBuckets(const std::vector<uint64_t>& bounds)
{
    for (std::size_t i = 1; i < bounds.size(); ++i)
    {
        NS_ABORT_MSG_IF(bounds[i] <= bounds[i - 1],
                        "RdmaFlowMonitor: size bucket bound " << bounds[i] << " after "
                                                              << bounds[i - 1]
                                                              << "; valid: increasing bounds");
    }
    NS_ABORT_MSG_IF(m_flows != 0, "RdmaFlowMonitor: SetSizeBuckets after flows were recorded");
    m_bounds = bounds;
    m_stats.assign(m_bounds.size() + 1, Stats{});
}

void
RdmaFlowMonitor::ConnectFlowComplete(Callback<void, const FlowRecord&> callback)
{
    m_flowComplete.ConnectWithoutContext(callback);
}

void
RdmaFlowMonitor::SetStopAfterFlows(uint64_t flows)
{
    m_stopAfter = flows;
}

void
RdmaFlowMonitor::Watch(ApplicationContainer generators)
{
    // Any traffic application with a QueuePairCreated trace: RdmaFlowGenerator,
    // RdmaFlowReplayer, RdmaBulkSendApplication.
    for (auto it = generators.Begin(); it != generators.End(); ++it)
    {
        const bool connected = (*it)->TraceConnectWithoutContext(
            "QueuePairCreated",
            MakeCallback(&RdmaFlowMonitor::QueuePairCreated, this));
        NS_ABORT_MSG_IF(!connected,
                        "RdmaFlowMonitor::Watch: application "
                            << (*it)->GetInstanceTypeId().GetName()
                            << " has no QueuePairCreated trace; valid: ns3::RdmaFlowGenerator, "
                               "ns3::RdmaFlowReplayer, ns3::RdmaBulkSendApplication");
    }
}

void
RdmaFlowMonitor::QueuePairCreated(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder)
{
    Watch(requester, responder);
}

void
RdmaFlowMonitor::Watch(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder)
{
    m_watched.push_back(std::make_unique<Watched>(
        Watched{this,
                PeekPointer(requester),
                PathIndex(requester->GetLocalAddress(), requester->GetRemoteAddress())}));
    // Raw pointers in the callbacks: a Ptr to the queue pair in its own trace would keep it
    // alive forever.
    requester->TraceConnectWithoutContext(
        "SendComplete",
        MakeBoundCallback(&RdmaFlowMonitor::SendComplete, m_watched.back().get()));
    if (responder)
    {
        responder->TraceConnectWithoutContext(
            "ReceiveComplete",
            MakeBoundCallback(&RdmaFlowMonitor::ReceiveComplete, this));
    }
}

void
RdmaFlowMonitor::SendComplete(Watched* w, const RdmaCompletion& c)
{
    if (c.opcode == RdmaWorkRequest::READ && c.status == RdmaCompletion::SUCCESS)
    {
        // A READ's data is received by its requester: the responder completes nothing.
        w->monitor->m_bytesReceived += c.length;
    }
    w->monitor->Record(*w, c);
}

void
RdmaFlowMonitor::ReceiveComplete(RdmaFlowMonitor* m, const RdmaCompletion& c)
{
    m->m_bytesReceived += c.length;
}

Ptr<RdmaNic>
RdmaFlowMonitor::NicOf(Ipv4Address address)
{
    if (m_nics.empty())
    {
        for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
        {
            Ptr<RdmaNic> nic = (*it)->GetObject<RdmaNic>();
            if (nic)
            {
                m_nics[nic->GetAddress().Get()] = nic;
            }
        }
    }
    auto it = m_nics.find(address.Get());
    NS_ABORT_MSG_IF(it == m_nics.end(), "RdmaFlowMonitor: no host has address " << address);
    return it->second;
}

std::vector<RdmaFlowMonitor::Hop>
RdmaFlowMonitor::GetPath(Ipv4Address src, Ipv4Address dst)
{
    std::vector<Hop> path;
    Ptr<RdmaNetDevice> device = NicOf(src)->GetDevice(0);
    for (uint32_t guard = 0; guard < 256; ++guard)
    {
        Ptr<RdmaChannel> channel = DynamicCast<RdmaChannel>(device->GetChannel());
        NS_ABORT_MSG_IF(!channel,
                        "RdmaFlowMonitor: a port on the path " << src << " -> " << dst
                                                               << " has no RdmaChannel");
        path.push_back(Hop{device->GetDataRate(), channel->GetDelay()});
        Ptr<Node> node = channel->GetPeer(device)->GetNode();
        Ptr<RdmaNic> nic = node->GetObject<RdmaNic>();
        if (nic)
        {
            NS_ABORT_MSG_IF(nic->GetAddress() != dst,
                            "RdmaFlowMonitor: the path " << src << " -> " << dst << " reaches host "
                                                         << nic->GetAddress());
            return path;
        }
        Ptr<RdmaSwitch> sw = node->GetObject<RdmaSwitch>();
        NS_ABORT_MSG_IF(!sw,
                        "RdmaFlowMonitor: node " << node->GetId() << " on the path " << src
                                                 << " -> " << dst
                                                 << " is neither a host nor a switch");
        const std::vector<uint32_t>& routes = sw->GetRoutes(dst);
        NS_ABORT_MSG_IF(routes.empty(),
                        "RdmaFlowMonitor: switch node " << node->GetId() << " has no route to "
                                                        << dst);
        device = sw->GetPort(routes[0]);
    }
    NS_ABORT_MSG("RdmaFlowMonitor: the path " << src << " -> " << dst << " loops");
}

uint32_t
RdmaFlowMonitor::PathIndex(Ipv4Address src, Ipv4Address dst)
{
    const uint64_t key = (static_cast<uint64_t>(src.Get()) << 32) | dst.Get();
    auto it = m_pathOf.find(key);
    if (it != m_pathOf.end())
    {
        return it->second;
    }
    std::vector<Hop> path = GetPath(src, dst);
    auto same = [&path](const std::vector<Hop>& other) {
        return std::equal(
            path.begin(),
            path.end(),
            other.begin(),
            other.end(),
            [](const Hop& a, const Hop& b) { return a.rate == b.rate && a.delay == b.delay; });
    };
    auto found = std::find_if(m_paths.begin(), m_paths.end(), same);
    uint32_t index = found - m_paths.begin();
    if (found == m_paths.end())
    {
        m_paths.push_back(std::move(path));
    }
    m_pathOf[key] = index;
    return index;
}

Time
RdmaFlowMonitor::GetIdealFct(const std::vector<Hop>& path, uint64_t bytes, uint32_t mtu)
{
    NS_ABORT_MSG_IF(path.empty() || mtu == 0 || bytes == 0,
                    "RdmaFlowMonitor::GetIdealFct: empty path, MTU 0 or 0 bytes");
    using Real = long double;
    // Wire bytes of a data packet: Ethernet, IPv4 20, UDP 8, BTH 12, (RETH 16,) payload
    // padded to a multiple of 4 (the BTH's PadCnt, IBTA 9.2), ICRC 4 (+ FCS, preamble/SFD,
    // gap: WireBytes); of the ACK: IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4.
    auto wire = [](uint64_t payload, uint32_t reth) -> Real {
        const uint64_t padded = (payload + 3) / 4 * 4;
        return RdmaNetDevice::WireBytes(RdmaNetDevice::ETHERNET_HEADER_BYTES + 20 + 8 + 12 + reth +
                                        padded + 4);
    };
    const uint64_t n = (bytes + mtu - 1) / mtu;
    const Real first = wire(std::min<uint64_t>(bytes, mtu), 16);
    const Real middle = wire(mtu, 0);
    const Real last = wire(bytes - (n - 1) * mtu, 0);
    const Real ack = RdmaNetDevice::WireBytes(RdmaNetDevice::ETHERNET_HEADER_BYTES + 48);

    const std::size_t k = path.size();
    std::vector<Real> u(k);          // seconds per byte of each link
    std::vector<Real> sum(k + 1, 0); // prefix sums of u
    Real delays = 0;
    for (std::size_t i = 0; i < k; ++i)
    {
        u[i] = 8.0L / static_cast<Real>(path[i].rate.GetBitRate());
        sum[i + 1] = sum[i] + u[i];
        delays += static_cast<Real>(path[i].delay.GetPicoSeconds()) * 1e-12L;
    }
    auto s = [&sum](std::size_t a, std::size_t b) { return sum[b + 1] - sum[a]; };

    // Store-and-forward tandem without other traffic: packet p leaves link j at
    // D(p, j) = max(D(p, j - 1) + delay, D(p - 1, j)) + size_p x u_j, so the last packet
    // arrives after the delays plus the heaviest monotone path through the (packet, link)
    // grid. With the first packet the largest and the middle ones equal, that path takes the
    // first packet over links 0..j1, the middle ones from j1 to j2 with every extra packet
    // on the slowest link between them, and the last packet over links j2..k-1.
    Real forward = 0;
    if (n == 1)
    {
        forward = first * s(0, k - 1);
    }
    else
    {
        for (std::size_t j1 = 0; j1 < k; ++j1)
        {
            if (n == 2)
            {
                forward = std::max(forward, first * s(0, j1) + last * s(j1, k - 1));
                continue;
            }
            Real slowest = 0;
            for (std::size_t j2 = j1; j2 < k; ++j2)
            {
                slowest = std::max(slowest, u[j2]);
                const Real t = first * s(0, j1) +
                               middle * (s(j1, j2) + static_cast<Real>(n - 3) * slowest) +
                               last * s(j2, k - 1);
                forward = std::max(forward, t);
            }
        }
    }
    // The ACK of the last packet returns over the same links.
    const Real total = forward + delays + ack * s(0, k - 1) + delays;
    return PicoSeconds(static_cast<int64_t>(std::llround(total * 1e12L)));
}

void
RdmaFlowMonitor::Record(const Watched& w, const RdmaCompletion& c)
{
    const Time fct = c.completionTime - c.postTime;
    const Time ideal = GetIdealFct(m_paths[w.pathIndex], c.length, w.qp->GetMtu());
    const double slowdown = fct.GetSeconds() / ideal.GetSeconds();
    ++m_flows;
    m_bytesCompleted += c.length;
    m_minSlowdown = m_flows == 1 ? slowdown : std::min(m_minSlowdown, slowdown);
    m_lastCompletion = std::max(m_lastCompletion, c.completionTime);
    const std::size_t b =
        std::lower_bound(m_bounds.begin(), m_bounds.end(), c.length) - m_bounds.begin();
    Stats& st = m_stats[b];
    if (st.bins.empty())
    {
        st.bins.assign(N_BINS, 0);
    }
    st.min = st.flows == 0 ? slowdown : std::min(st.min, slowdown);
    st.max = st.flows == 0 ? slowdown : std::max(st.max, slowdown);
    ++st.flows;
    st.fctSum += fct.GetSeconds();
    st.idealSum += ideal.GetSeconds();
    if (slowdown < 1)
    {
        ++st.below;
    }
    else
    {
        const auto bin = static_cast<std::size_t>(std::log(slowdown) / std::log(BIN_RATIO));
        ++st.bins[std::min<std::size_t>(bin, N_BINS - 1)];
    }
    if (m_csv)
    {
        *m_csv << w.qp->GetLocalAddress() << "," << w.qp->GetRemoteAddress() << "," << c.length
               << "," << c.postTime.GetSeconds() * 1e6 << "," << c.completionTime.GetSeconds() * 1e6
               << "," << fct.GetSeconds() * 1e6 << "," << ideal.GetSeconds() * 1e6 << ","
               << slowdown << "\n";
    }
    if (!m_flowComplete.IsEmpty())
    {
        FlowRecord r;
        r.requester = w.qp;
        r.wrId = c.wrId;
        r.bytes = c.length;
        r.start = c.postTime;
        r.finish = c.completionTime;
        r.idealFct = ideal;
        r.slowdown = slowdown;
        m_flowComplete(r);
    }
    if (m_flows == m_stopAfter)
    {
        Simulator::Stop();
    }
}

double
RdmaFlowMonitor::Percentile(const Stats& s, double q)
{
    if (s.flows == 0)
    {
        return 0;
    }
    // The smallest slowdown with at least q of the flows at or below it (nearest rank).
    const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(s.flows)));
    uint64_t seen = s.below;
    if (seen >= rank)
    {
        return s.min;
    }
    for (std::size_t i = 0; i < s.bins.size(); ++i)
    {
        seen += s.bins[i];
        if (seen >= rank)
        {
            // The bin's geometric middle, clamped to the exact extremes.
            const double mid = std::pow(BIN_RATIO, static_cast<double>(i) + 0.5);
            return std::min(std::max(mid, s.min), s.max);
        }
    }
    return s.max;
}

std::vector<RdmaFlowMonitor::Bucket>
RdmaFlowMonitor::GetSummary() const
{
    std::vector<Bucket> out;
    for (std::size_t i = 0; i < m_stats.size(); ++i)
    {
        const Stats& s = m_stats[i];
        Bucket b;
        b.upTo = i < m_bounds.size() ? m_bounds[i] : std::numeric_limits<uint64_t>::max();
        b.flows = s.flows;
        b.p50 = Percentile(s, 0.50);
        b.p95 = Percentile(s, 0.95);
        b.p99 = Percentile(s, 0.99);
        b.min = s.min;
        b.max = s.max;
        b.meanFctUs = s.flows ? s.fctSum / s.flows * 1e6 : 0;
        b.meanIdealUs = s.flows ? s.idealSum / s.flows * 1e6 : 0;
        out.push_back(b);
    }
    return out;
}

void
RdmaFlowMonitor::PrintSummary(std::ostream& os) const
{
    os << "slowdown by flow size (" << m_flows << " flows; percentiles to 0.1 %):\n"
       << "  size up to      flows      p50      p95      p99      max\n";
    for (const Bucket& b : GetSummary())
    {
        os << "  " << std::setw(10)
           << (b.upTo == std::numeric_limits<uint64_t>::max() ? std::string("larger")
                                                              : std::to_string(b.upTo))
           << std::setw(11) << b.flows << std::fixed << std::setprecision(3) << std::setw(9)
           << b.p50 << std::setw(9) << b.p95 << std::setw(9) << b.p99 << std::setw(9) << b.max
           << std::defaultfloat << "\n";
    }
}

void
RdmaFlowMonitor::WriteSummary(const std::string& path) const
{
    RdmaOutputHelper::CreateParentDirectories(path);
    std::ofstream out(path);
    NS_ABORT_MSG_IF(!out, "RdmaFlowMonitor: cannot write '" << path << "'");
    out << "bucket_bytes,flows,p50,p95,p99,min,max,mean_fct_us,mean_ideal_us\n";
    for (const Bucket& b : GetSummary())
    {
        out << (b.upTo == std::numeric_limits<uint64_t>::max() ? std::string("inf")
                                                               : std::to_string(b.upTo))
            << "," << b.flows << "," << b.p50 << "," << b.p95 << "," << b.p99 << "," << b.min << ","
            << b.max << "," << b.meanFctUs << "," << b.meanIdealUs << "\n";
    }
}

void
RdmaFlowMonitor::Flush()
{
    if (m_csv)
    {
        m_csv->flush();
    }
}

uint64_t
RdmaFlowMonitor::GetFlows() const
{
    return m_flows;
}

uint64_t
RdmaFlowMonitor::GetBytesCompleted() const
{
    return m_bytesCompleted;
}

uint64_t
RdmaFlowMonitor::GetBytesReceived() const
{
    return m_bytesReceived;
}

double
RdmaFlowMonitor::GetMinSlowdown() const
{
    return m_minSlowdown;
}

Time
RdmaFlowMonitor::GetLastCompletion() const
{
    return m_lastCompletion;
}

} // namespace ns3
