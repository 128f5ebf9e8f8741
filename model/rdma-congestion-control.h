/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

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
 * alpha, timers) lives in the copy. Chosen by TypeId: RdmaNic's CongestionControl
 * attribute or RdmaHelper::SetCongestionControl.
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
     * The queue pair is connected: set the starting rate and window.
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
     * An acknowledgement advanced the acknowledged sequence.
     * \param state the queue pair's state
     * \param ackedBytes payload bytes newly acknowledged
     * \param rtt round-trip sample of the newest acknowledged packet (0 if none)
     */
    virtual void OnAck(RdmaCcState& state, uint64_t ackedBytes, Time rtt);

    /**
     * A congestion notification packet (RoCEv2 CNP, BTH opcode 0x81) arrived.
     * \param state the queue pair's state
     */
    virtual void OnCnp(RdmaCcState& state);

    /**
     * Set by the queue pair: called when the congestion control changes the rate outside
     * OnPacketSent (from its own timers, or in OnCnp). The queue pair then re-paces the gap
     * after its last packet at the new rate, as a NIC's rate limiter does, and wakes the NIC.
     * \param cb the hook
     */
    void SetRateChangeCallback(Callback<void> cb);

  protected:
    /// Call the rate change hook, if any. Never from OnPacketSent.
    void NotifyRateChange();

  private:
    Callback<void> m_rateChange; //!< the queue pair's re-pacing hook
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
