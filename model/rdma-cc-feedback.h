/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_FEEDBACK_H
#define RDMA_CC_FEEDBACK_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

class RdmaIntHeader;

/**
 * \ingroup rdma
 * \brief What one acknowledgement tells the congestion control.
 *
 * The queue pair fills one record for every ACK and NAK that arrives (advancing, duplicate
 * or SACK-only alike) and hands it to RdmaCongestionControl::OnAck after the loss recovery
 * has seen the ACK. Fields a congestion control does not need cost nothing: the record is
 * on the stack and the telemetry is a pointer into the ACK just parsed.
 */
struct RdmaAckFeedback
{
    uint64_t ackedBytes{0};     //!< payload bytes newly acknowledged cumulatively
    uint64_t sackedBytes{0};    //!< payload bytes newly reported by the SACK bitmap
    uint64_t ackedUpToBytes{0}; //!< snd_una in payload bytes after this ACK
    uint64_t ackedSeq{0};       //!< the sequence this ACK is for (trigger, else cumulative - 1)
    bool advanced{false};       //!< the cumulative acknowledgement moved
    bool nak{false};            //!< an AETH NAK (PSN sequence error)
    bool duplicate{false};      //!< a D-SACK or a re-acknowledgement of old data
    bool ecnEcho{false};        //!< a packet acknowledged here arrived CE-marked (BTH BECN)
    /// Round-trip sample of ackedSeq (send to ACK arrival), Karn-filtered: zero when ackedSeq
    /// was retransmitted (ambiguous) or is too old to have a recorded send time.
    Time rtt;
    /// Falcon's four timestamps (OCP Falcon specification, delay measurement): t1 the
    /// requester sent ackedSeq, t2 it arrived at the responder, t3 the responder sent the
    /// ACK, t4 the ACK arrived. Valid when hasTimestamps (the data packet asked for them);
    /// the fabric delay is (t4 - t1) - (t3 - t2), the receiver's own delay t3 - t2.
    bool hasTimestamps{false};
    Time t1;         //!< requester transmit time of ackedSeq
    Time t2;         //!< responder receive time
    Time t3;         //!< responder ACK transmit time
    Time t4;         //!< requester ACK receive time
    uint8_t hops{0}; //!< switches on the data path (from the IPv4 TTL), 0 unknown
    const RdmaIntHeader* telemetry{nullptr}; //!< per-hop telemetry echoed by the ACK, or nullptr

    /// \return the fabric delay (t4 - t1) - (t3 - t2), or the RTT sample without timestamps
    Time GetFabricDelay() const
    {
        return hasTimestamps ? (t4 - t1) - (t3 - t2) : rtt;
    }
};

/**
 * \ingroup rdma
 * \brief A loss the loss recovery (or the retransmission timer) detected.
 */
enum class RdmaLossEvent : uint8_t
{
    NAK,     //!< the responder NAKed a sequence gap (go-back-N, go-back-0)
    RACK,    //!< selective repeat marked a packet lost (RACK, RFC 8985)
    PROBE,   //!< a tail-loss probe was sent (RFC 8985 section 7)
    TIMEOUT, //!< the retransmission timer expired
};

/**
 * \param event a loss event
 * \return its name
 */
inline const char*
RdmaLossEventName(RdmaLossEvent event)
{
    switch (event)
    {
    case RdmaLossEvent::NAK:
        return "NAK";
    case RdmaLossEvent::RACK:
        return "RACK";
    case RdmaLossEvent::PROBE:
        return "PROBE";
    case RdmaLossEvent::TIMEOUT:
        return "TIMEOUT";
    }
    return "?";
}

} // namespace ns3

#endif /* RDMA_CC_FEEDBACK_H */
