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
 * \brief The per-queue-pair state a congestion control acts on.
 *
 * Like ns-3's TcpSocketState: congestion controls read and write this object only, never
 * the queue pair, so they stay small and interchangeable. The queue pair keeps the
 * measurements (in flight, RTTs, bytes sent and acknowledged) up to date; the congestion
 * control sets `rate` and `window`, and the queue pair enforces both:
 *  - `rate` paces packets (wire bytes, Ethernet overhead included), as a NIC rate limiter;
 *  - `window`, when not zero, caps the payload bytes in flight, exactly: a packet may leave
 *    while fewer than `window` bytes are in flight, and each packet is followed by a gap of
 *    at least payload x RTT / window (RTT: srtt, else baseRtt), so the bytes in flight
 *    average `window` even when it is not a whole number of packets; a window below one
 *    packet becomes one packet in flight with a gap of RTT x packet / window.
 * The queue pair fires its Rate, Window and Rtt trace sources when these change.
 */
struct RdmaCcState
{
    DataRate lineRate;         //!< rate of the NIC port
    DataRate rate;             //!< current sending rate (pacing)
    uint64_t window{0};        //!< in-flight cap in payload bytes, 0 = none
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
