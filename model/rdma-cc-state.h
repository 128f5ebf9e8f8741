/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_STATE_H
#define RDMA_CC_STATE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief How the queue pair paces a window (RdmaCcState::windowPacing): each congestion
 * control states the RTT its window is measured against, and whether a window of one
 * packet or more is paced at all. The rate (RdmaCcState::rate) always paces as well; the
 * larger gap wins.
 */
enum class RdmaWindowPacing : uint8_t
{
    /// Each packet is followed by a gap of payload x srtt / window (baseRtt before the first
    /// sample): the bytes in flight average the window over the measured round trip, so a
    /// window that is not a whole number of packets, or is below one, is exact by Little's
    /// law (min(C, W / RTT)). The default, for a window with no paper of its own
    /// (RdmaFixedWindowCongestionControl), and Swift's and Falcon's default (their Pacing
    /// attribute: SwiftCongestionControl says why).
    SMOOTHED_RTT,
    /// Each packet is followed by a gap of payload x baseRtt / window: the window is
    /// measured against the constant base RTT T, the pacing rate is W / T whatever the
    /// queue. HPCC (Li et al., SIGCOMM 2019, section 3.2 and Algorithm 1: "R = W / T", T
    /// the base RTT; its authors' simulator sets m_rate from the window with m_baseRtt) and
    /// the window variants of its simulator (DCTCP: the window, BDP x rate / line rate,
    /// caps the bytes in flight, the rate paces), where the congestion control also sets
    /// `rate` = W / T, so this gap only restates it. A gap on the smoothed RTT would instead
    /// slow the flow by srtt / T, and srtt keeps the samples of a drained queue for many
    /// round trips.
    BASE_RTT,
    /// ACK-clocked: a window of one packet or more is not paced (a packet leaves whenever
    /// fewer than `window` bytes are in flight, so ceil(window / packet) packets fill it);
    /// a window below one packet is one packet in flight followed by a gap of packet x srtt
    /// / window. Swift (Kumar et al., SIGCOMM 2020, Algorithm 1: pacing_delay = rtt / cwnd
    /// when cwnd < 1, else 0; section 3.5: a window below one packet is enforced by pacing,
    /// larger ones by ACKs, as pacing costs CPU)
    /// and Falcon (OCP Falcon specification, section 10.3.5; the Falcon simulator's inter-
    /// packet gap is 0 from cwnd = 1 on): their Pacing attribute BelowOnePacket.
    BELOW_ONE_PACKET,
};

/**
 * \ingroup rdma
 * \brief The per-queue-pair state a congestion control acts on.
 *
 * Like ns-3's TcpSocketState: congestion controls read and write this object only, never
 * the queue pair, so they stay small and interchangeable. The queue pair keeps the
 * measurements (in flight, RTTs, bytes sent and acknowledged) up to date; the congestion
 * control sets `rate` and `window`, and the queue pair enforces both:
 *  - `rate` paces packets (wire bytes, Ethernet overhead included), as a NIC rate limiter;
 *  - `window`, when not zero, caps the payload bytes in flight, exactly: a packet may leave
 *    while fewer than `window` bytes are in flight; `windowPacing` (RdmaWindowPacing) says
 *    whether packets are also spaced by the window, and against which RTT the window is
 *    measured.
 * The queue pair fires its Rate, Window and Rtt trace sources when these change.
 */
struct RdmaCcState
{
    DataRate lineRate;  //!< rate of the NIC port
    DataRate rate;      //!< current sending rate (pacing)
    uint64_t window{0}; //!< in-flight cap in payload bytes, 0 = none
    /// How `window` paces packets (set by the congestion control in Init)
    RdmaWindowPacing windowPacing{RdmaWindowPacing::SMOOTHED_RTT};
    uint64_t bytesInFlight{0}; //!< payload bytes sent and not yet acknowledged
    uint32_t mtu{1024};        //!< payload bytes per packet
    /// Base (unloaded) round trip of the path: set by the helper or the user (RdmaQueuePair
    /// attribute BaseRtt); 0 when unknown, then the queue pair sets it to the first RTT sample.
    Time baseRtt;
    Time minRtt{Time::Max()}; //!< smallest RTT sample so far (Time::Max() before the first)
    Time srtt;                //!< smoothed RTT (RFC 6298, gain 1/8); 0 before the first sample
    Time latestRtt;           //!< the last RTT sample
    uint64_t bytesSent{0};    //!< payload bytes of the highest sequence sent (snd_nxt in bytes)
    uint64_t bytesAcked{0};   //!< payload bytes cumulatively acknowledged (snd_una in bytes)
};

} // namespace ns3

#endif /* RDMA_CC_STATE_H */
