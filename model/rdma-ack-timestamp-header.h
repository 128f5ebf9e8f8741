/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ACK_TIMESTAMP_HEADER_H
#define RDMA_ACK_TIMESTAMP_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief ACK extension carrying the responder's timestamps and the path's hop count.
 *
 * Delay-based congestion controls need to split the round trip into the fabric's part and
 * the receiver's own: the OCP Falcon specification (delay measurement) has the ACK carry
 * t2, when the data packet arrived, and t3, when the ACK left, so the requester computes
 * fabric delay = (t4 - t1) - (t3 - t2) with its own t1 and t4. Swift (Kumar et al.,
 * SIGCOMM 2020, section 3.2) scales its target delay by the hop count, which the responder
 * reads from the data packet's IPv4 TTL (switches decrement it; senders start at 64).
 * RoCEv2 defines no such field; this extension follows the AETH (and the SACK extension,
 * if any) of an ACK whose BTH has the TS bit set (RdmaBthHeader::SetTimestampRequest).
 * Twelve bytes, big-endian; Wireshark shows them as the ACK's payload:
 *
 * \verbatim
   bytes 0-3   t2: responder receive time of the acknowledged packet, ns mod 2^32
   bytes 4-7   t3: responder transmit time of this ACK, ns mod 2^32
   byte 8      hops: switches the data packet crossed (64 - its TTL)
   bytes 9-11  reserved, zero
   \endverbatim
 *
 * Only differences of the two times are meaningful (they are the responder's clock); the
 * 32-bit nanosecond counters wrap after 4.29 s, far above any RTT.
 */
class RdmaAckTimestampHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 12;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaAckTimestampHeader();

    /// \param t the responder's receive time of the acknowledged packet
    void SetReceiveTime(Time t);
    /// \return t2 in ns mod 2^32
    uint32_t GetReceiveTimeNs() const;
    /// \param t the responder's transmit time of the ACK
    void SetTransmitTime(Time t);
    /// \return t3 in ns mod 2^32
    uint32_t GetTransmitTimeNs() const;
    /// \return t3 - t2 (the responder's own delay), modulo 2^32 ns
    Time GetResponderDelay() const;
    /// \param hops switches the data packet crossed
    void SetHops(uint8_t hops);
    /// \return the hop count
    uint8_t GetHops() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_t2Ns; //!< t2, ns mod 2^32
    uint32_t m_t3Ns; //!< t3, ns mod 2^32
    uint8_t m_hops;  //!< hop count
};

} // namespace ns3

#endif /* RDMA_ACK_TIMESTAMP_HEADER_H */
