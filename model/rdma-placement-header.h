/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PLACEMENT_HEADER_H
#define RDMA_PLACEMENT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Placement information of a SEND packet for out-of-order placement (this module's
 * own format, after the untagged buffer model header of iWARP's DDP, RFC 5041).
 *
 * A SEND is placed into the buffer of a receive work request. To place a SEND packet that
 * arrives before its predecessors, the responder needs to know which receive work request
 * (the SEND message sequence number, counting the SENDs of the queue pair) and where in it
 * (the byte offset within the message). IRN (Mittal et al., SIGCOMM 2018) adds the same
 * two fields. Eight bytes after the BTH of every SEND packet of a queue pair
 * using RdmaSackLossRecovery:
 *
 * \verbatim
   byte 0      reserved (0)
   bytes 1-3   SEND message sequence number (24 bit)
   bytes 4-7   message offset, bytes (32 bit)
   \endverbatim
 *
 * WRITE packets need no new header: they carry a RETH (IBTA vol. 1 section 9.3.3) in every
 * packet, whose virtual address is that of the packet's first byte.
 */
class RdmaPlacementHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 8;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaPlacementHeader();

    /// \param msn the SEND message sequence number (24 bit)
    void SetMessageSequence(uint32_t msn);
    /// \return the SEND message sequence number
    uint32_t GetMessageSequence() const;

    /// \param offset byte offset of the packet's payload within the message
    void SetOffset(uint32_t offset);
    /// \return the byte offset
    uint32_t GetOffset() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint32_t m_msn;    //!< SEND message sequence number (24 bit)
    uint32_t m_offset; //!< message offset
};

} // namespace ns3

#endif /* RDMA_PLACEMENT_HEADER_H */
