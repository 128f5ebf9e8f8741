/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FIXED_WINDOW_CONGESTION_CONTROL_H
#define RDMA_FIXED_WINDOW_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A fixed window: every queue pair keeps at most Window payload bytes in flight and
 * otherwise sends at the line rate, ignoring every congestion signal.
 *
 * The window-limited reference of the window-based congestion controls: by Little's law a
 * flow with W bytes in flight over a round trip T delivers min(C, W / T). The queue pair
 * enforces the window exactly in bytes (RdmaCcState), so W need not be a whole number of
 * packets and may be smaller than one. By default each packet is followed by a gap of
 * payload x srtt / window, so the bytes in flight average W over the measured RTT; the
 * Pacing attribute selects the pacing of the window-based algorithms instead
 * (RdmaWindowPacing), to study it alone.
 */
class RdmaFixedWindowCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// The Pacing attribute's values (RdmaWindowPacing, as an attribute enum).
    enum Pacing
    {
        SMOOTHED_RTT,     //!< RdmaWindowPacing::SMOOTHED_RTT
        BASE_RTT,         //!< RdmaWindowPacing::BASE_RTT
        BELOW_ONE_PACKET, //!< RdmaWindowPacing::BELOW_ONE_PACKET
    };

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;

  private:
    uint64_t m_window; //!< Window attribute, payload bytes
    Pacing m_pacing;   //!< Pacing attribute
};

} // namespace ns3

#endif /* RDMA_FIXED_WINDOW_CONGESTION_CONTROL_H */
