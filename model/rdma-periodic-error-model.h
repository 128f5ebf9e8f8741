/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PERIODIC_ERROR_MODEL_H
#define RDMA_PERIODIC_ERROR_MODEL_H

#include "ns3/error-model.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Deterministic loss: every Period-th packet the model examines is corrupt.
 *
 * Packets FirstDrop, FirstDrop + Period, FirstDrop + 2 Period, ... (counting from 1) are
 * dropped; FirstDrop 0 means Period. Guo et al. (SIGCOMM 2016, section 4.1) reproduced the
 * go-back-0 livelock with such a deterministic 1/256 drop. Installed as a device's
 * ReceiveErrorModel (ns-3's RateErrorModel and BurstErrorModel are the random
 * counterparts; RdmaLossHelper builds all three from a text spec).
 */
class RdmaPeriodicErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaPeriodicErrorModel();

    /// \return packets examined so far
    uint64_t GetPacketsExamined() const;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    uint32_t m_period;    //!< Period attribute
    uint32_t m_firstDrop; //!< FirstDrop attribute
    uint64_t m_count{0};  //!< packets examined
};

} // namespace ns3

#endif /* RDMA_PERIODIC_ERROR_MODEL_H */
