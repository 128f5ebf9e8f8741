/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ATOMIC_ACK_ETH_HEADER_H
#define RDMA_ATOMIC_ACK_ETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief InfiniBand Atomic Acknowledge Extended Transport Header (AtomicAckETH).
 *
 * IBTA vol. 1 section 9.3.6 (RoCEv2 carries it unchanged). Eight bytes, big-endian:
 * the Original Remote Data, the operand's value before the atomic operation. It follows
 * the AETH of an RC Atomic Acknowledge (opcode 0x12).
 */
class RdmaAtomicAckEthHeader : public Header
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

    RdmaAtomicAckEthHeader();

    /// \param data the remote operand's value before the atomic operation
    void SetOriginalRemoteData(uint64_t data);
    /// \return the Original Remote Data
    uint64_t GetOriginalRemoteData() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint64_t m_originalRemoteData; //!< Original Remote Data
};

} // namespace ns3

#endif /* RDMA_ATOMIC_ACK_ETH_HEADER_H */
