/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_FLOW_H
#define HPCC_FLOW_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One flow of an HPCC-format flow file: a message of `size` bytes from host `src`
 * to host `dst`, starting at `start`.
 */
struct HpccFlow
{
    uint32_t src{0};          //!< sending host (node id)
    uint32_t dst{0};          //!< receiving host (node id)
    uint8_t priorityGroup{3}; //!< priority group = traffic class, 0 .. 7
    uint16_t dport{0};        //!< destination port of the HPCC simulator's flow
    uint64_t size{0};         //!< bytes
    Time start;               //!< start time
    uint32_t line{0};         //!< line of the file it was read from
};

} // namespace ns3

#endif /* HPCC_FLOW_H */
