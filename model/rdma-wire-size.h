/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_WIRE_SIZE_H
#define RDMA_WIRE_SIZE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Bytes a RoCEv2 message costs on an Ethernet wire: the one place of this
 * arithmetic the examples, benchmarks and helpers share.
 *
 * A WRITE of n bytes with MTU m is ceil(n / m) packets, each with
 * RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES (82: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC
 * 4, FCS 4, preamble and SFD 8, inter-frame gap 12; IBTA Annex A17 RoCEv2, IEEE 802.3)
 * besides its payload, and the first packet carries the 16-byte RETH (IBTA 9.3.5.1).
 * Payloads are counted as they are: a payload that is not a multiple of 4 bytes is padded
 * on the wire (the BTH's PadCnt, IBTA 9.2) by up to 3 bytes more, which RdmaFlowMonitor's
 * ideal FCT counts and these figures do not (they are exact for MTUs and messages that are
 * multiples of 4).
 */
class RdmaWireSize
{
  public:
    /// The RETH of a WRITE's first packet, bytes.
    static constexpr uint64_t RETH_BYTES = 16;

    /**
     * \param bytes message bytes
     * \param mtu payload bytes per packet (RdmaNic::Mtu), > 0
     * \return packets of the message (at least 1: a zero-byte message is one packet)
     */
    static uint64_t Packets(uint64_t bytes, uint32_t mtu);

    /**
     * \param bytes message bytes
     * \param mtu payload bytes per packet (RdmaNic::Mtu), > 0
     * \return wire bytes of a WRITE of `bytes`: bytes + packets x 82 + 16
     */
    static uint64_t WriteMessage(uint64_t bytes, uint32_t mtu);

    /**
     * \param mtu payload bytes per packet (RdmaNic::Mtu), > 0
     * \return wire bytes of an MTU-sized packet: mtu + 82
     */
    static uint64_t FullPacket(uint32_t mtu);

    /**
     * The payload rate of a link at `lineBitRate` carrying MTU-sized packets back to back:
     * lineBitRate x mtu / (mtu + 82) (the RETH of a message's first packet is not counted).
     * \param lineBitRate the link's rate, bit/s
     * \param mtu payload bytes per packet, > 0
     * \return payload bit/s
     */
    static double PayloadRate(double lineBitRate, uint32_t mtu);
};

} // namespace ns3

#endif /* RDMA_WIRE_SIZE_H */
