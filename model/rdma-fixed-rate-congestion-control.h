/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FIXED_RATE_CONGESTION_CONTROL_H
#define RDMA_FIXED_RATE_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief No congestion control: every queue pair sends at a fixed rate (by default the
 * line rate) and ignores CNPs, as a RoCE NIC with DCQCN disabled does. Losslessness is
 * then PFC's job alone.
 */
class RdmaFixedRateCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() override;
    void Init(RdmaCcState& state) override;

  private:
    DataRate m_rate; //!< fixed rate; 0 means the line rate
};

} // namespace ns3

#endif /* RDMA_FIXED_RATE_CONGESTION_CONTROL_H */
