/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "rdma-cc-feedback.h"
#include "rdma-cc-state.h"

#include "ns3/callback.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Interface of a queue pair's congestion control (the reaction point).
 *
 * Shaped like ns-3's TcpCongestionOps: a small object that acts only on an RdmaCcState.
 * Each queue pair gets its own copy through Fork(), so per-flow algorithm state (DCQCN's
 * alpha, timers; a window algorithm's window) lives in the copy. Chosen by TypeId: RdmaNic's
 * CongestionControl attribute or RdmaHelper::SetCongestionControl.
 *
 * What it is told:
 *  - every data packet sent (OnPacketSent);
 *  - every acknowledgement, advancing or not, as an RdmaAckFeedback record: newly acknowledged
 *    and SACKed bytes, a Karn-filtered RTT sample, Falcon's timestamps and the hop count when
 *    asked for (NeedsTimestamps), ECN-echo, and the path's per-hop telemetry when asked for
 *    (NeedsTelemetry);
 *  - every loss the loss recovery or the retransmission timer detects (OnLoss);
 *  - every CNP (OnCnp).
 * Rate-based schemes set state.rate; window-based ones set state.window (and may set a rate
 * too: the queue pair enforces both). A change made outside these calls (from the algorithm's
 * own timers) is announced with NotifyRateChange().
 */
class RdmaCongestionControl : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// \return the algorithm's name, for logs and summaries
    virtual std::string GetName() const = 0;

    /**
     * A copy with the same configuration and fresh per-flow state.
     * \return the copy
     */
    virtual Ptr<RdmaCongestionControl> Fork() = 0;

    /**
     * The queue pair is connected: set the starting rate and window. state.baseRtt is known
     * here if the helper or the user gave it (RdmaQueuePair::BaseRtt).
     * \param state the queue pair's state
     */
    virtual void Init(RdmaCcState& state) = 0;

    /**
     * A data packet left the queue pair.
     * \param state the queue pair's state
     * \param wireBytes bytes the packet occupies on the wire
     */
    virtual void OnPacketSent(RdmaCcState& state, uint32_t wireBytes);

    /**
     * An acknowledgement (ACK or NAK, advancing or not) arrived; the queue pair has updated
     * bytesInFlight, bytesAcked and the RTT estimates in state already.
     * \param state the queue pair's state
     * \param feedback what the acknowledgement says
     */
    virtual void OnAck(RdmaCcState& state, const RdmaAckFeedback& feedback);

    /**
     * A loss was detected.
     * \param state the queue pair's state
     * \param event what detected it
     * \param seq the sequence concerned (the NAKed, lost, probed or oldest unacknowledged one)
     */
    virtual void OnLoss(RdmaCcState& state, RdmaLossEvent event, uint64_t seq);

    /**
     * A congestion notification packet (RoCEv2 CNP, BTH opcode 0x81) arrived.
     * \param state the queue pair's state
     */
    virtual void OnCnp(RdmaCcState& state);

    /**
     * \return true if data packets should carry an in-band telemetry area (RdmaIntHeader)
     *         that switches fill and the responder echoes (HPCC)
     */
    virtual bool NeedsTelemetry() const;

    /**
     * \return the units multiplier of the telemetry records (HPCC's INT_MULTI: the tx-bytes
     *         and queue fields count 128 and 80 bytes times it); the sender writes it into
     *         the area, so switches and the reader agree
     */
    virtual uint32_t GetTelemetryMultiplier() const;

    /**
     * \return true if data packets should ask the responder for its receive and ACK
     *         timestamps and the hop count (Swift, Falcon)
     */
    virtual bool NeedsTimestamps() const;

    /**
     * Set by the queue pair: called when the congestion control changes the rate or the
     * window outside OnPacketSent (from its own timers, or in OnCnp/OnAck/OnLoss). The queue
     * pair then re-paces the gap after its last packet at the new rate, as a NIC's rate
     * limiter does, fires its traces and wakes the NIC.
     * \param cb the hook
     */
    void SetRateChangeCallback(Callback<void> cb);

    /**
     * Set by the queue pair: called when the congestion control asks the flow to move to
     * another path (PLB, Qureshi et al., SIGCOMM 2022: new UDP source port entropy).
     * \param cb the hook
     */
    void SetRepathCallback(Callback<void> cb);

    /**
     * The window of one bandwidth-delay product scaled by a rate, as the HPCC simulator
     * computes it for every window-based mode (scratch/third.cc maxBdp, RdmaQueuePair::GetWin):
     * BDP = line rate x baseRtt / 8 bytes, then BDP x rate / line rate, in integers
     * (truncated), at least 1 byte.
     * \param state the queue pair's state (lineRate, baseRtt > 0)
     * \param rate the rate the window follows, bit/s (the line rate: the full BDP)
     * \return the window in payload bytes
     */
    static uint64_t BdpWindow(const RdmaCcState& state, uint64_t rate);

  protected:
    /// Call the rate change hook, if any. Never from OnPacketSent.
    void NotifyRateChange();
    /// Ask the queue pair to move the flow to a new path (new entropy), if it can.
    void RequestRepath();

  private:
    Callback<void> m_rateChange; //!< the queue pair's re-pacing hook
    Callback<void> m_repath;     //!< the queue pair's re-path hook
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
