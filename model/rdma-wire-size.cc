/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-wire-size.h"

#include "rdma-net-device.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

uint64_t
RdmaWireSize::Packets(uint64_t bytes, uint32_t mtu)
{
    NS_ABORT_MSG_IF(mtu == 0, "RdmaWireSize: MTU 0 is invalid; valid: payload bytes > 0");
    return std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
}

uint64_t
RdmaWireSize::WriteMessage(uint64_t bytes, uint32_t mtu)
{
    return bytes + Packets(bytes, mtu) * RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES + RETH_BYTES;
}

uint64_t
RdmaWireSize::FullPacket(uint32_t mtu)
{
    return mtu + RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES;
}

double
RdmaWireSize::PayloadRate(double lineBitRate, uint32_t mtu)
{
    return lineBitRate * mtu / (mtu + double(RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES));
}

} // namespace ns3
