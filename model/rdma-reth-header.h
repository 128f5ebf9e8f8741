/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RETH_HEADER_H
#define RDMA_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief InfiniBand RDMA Extended Transport Header (RETH).
 *
 * IBTA vol. 1 section 9.3.3. Sixteen bytes, big-endian: VirtualAddress (64 bit),
 * R_Key (32 bit), DMALength (32 bit). It follows the BTH of RDMA WRITE First/Only and
 * RDMA READ Request packets (see RdmaBthHeader::HasReth).
 */
class RdmaRethHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 16;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaRethHeader();

    /// \param va the remote virtual address of the first byte of the transfer
    void SetVirtualAddress(uint64_t va);
    /// \return the remote virtual address
    uint64_t GetVirtualAddress() const;

    /// \param rkey the remote key authorizing access to the remote memory region
    void SetRKey(uint32_t rkey);
    /// \return the remote key
    uint32_t GetRKey() const;

    /// \param length the length in bytes of the whole RDMA operation (message)
    void SetDmaLength(uint32_t length);
    /// \return the DMA length in bytes
    uint32_t GetDmaLength() const;

    void Print(std::ostream& os) const override;
    /**
     * Write the RETH in wire format (the same bytes Serialize writes), for code that
     * assembles headers as raw bytes (RdmaHeaderStack).
     * \param bytes at least SIZE bytes
     */
    void Write(uint8_t* bytes) const;
    /**
     * Read the RETH from wire format (as Deserialize does), for receivers that parse raw
     * bytes (RdmaNic).
     * \param bytes at least SIZE bytes
     */
    void Read(const uint8_t* bytes);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint64_t m_virtualAddress; //!< VirtualAddress
    uint32_t m_rkey;           //!< R_Key
    uint32_t m_dmaLength;      //!< DMALength
};

} // namespace ns3

#endif /* RDMA_RETH_HEADER_H */
