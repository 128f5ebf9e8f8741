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
 * the queue pair, so they stay small and interchangeable. The queue pair paces its
 * packets at `rate` (wire bytes, Ethernet overhead included) and, when `window` is not
 * zero, keeps at most `window` payload bytes in flight.
 */
struct RdmaCcState
{
    DataRate lineRate;         //!< rate of the NIC port
    DataRate rate;             //!< current sending rate (pacing)
    DataRate targetRate;       //!< target rate (rate-based schemes such as DCQCN)
    uint64_t window{0};        //!< in-flight cap in payload bytes, 0 = none
    uint64_t bytesInFlight{0}; //!< payload bytes sent and not yet acknowledged
    uint32_t mtu{1024};        //!< payload bytes per packet
    Time baseRtt;              //!< propagation round trip, when known (0 otherwise)
};

} // namespace ns3

#endif /* RDMA_CC_STATE_H */
