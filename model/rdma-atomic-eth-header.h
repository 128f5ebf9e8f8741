/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ATOMIC_ETH_HEADER_H
#define RDMA_ATOMIC_ETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief InfiniBand Atomic Extended Transport Header (AtomicETH).
 *
 * IBTA vol. 1 section 9.3.4 (RoCEv2 carries it unchanged). Twenty-eight bytes,
 * big-endian: VirtualAddress (64 bit, 8-byte aligned), R_Key (32 bit), Swap (or Add) Data
 * (64 bit), Compare Data (64 bit). It follows the BTH of the RC Compare & Swap (opcode
 * 0x13) and Fetch & Add (0x14) requests; Fetch & Add ignores Compare Data.
 */
class RdmaAtomicEthHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 28;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaAtomicEthHeader();

    /// \param va the remote virtual address of the 8-byte operand
    void SetVirtualAddress(uint64_t va);
    /// \return the remote virtual address
    uint64_t GetVirtualAddress() const;

    /// \param rkey the remote key authorizing access to the remote memory region
    void SetRKey(uint32_t rkey);
    /// \return the remote key
    uint32_t GetRKey() const;

    /// \param data Fetch & Add: the value added; Compare & Swap: the value written on a match
    void SetSwapAddData(uint64_t data);
    /// \return the Swap (or Add) Data
    uint64_t GetSwapAddData() const;

    /// \param data Compare & Swap: the value the operand is compared with
    void SetCompareData(uint64_t data);
    /// \return the Compare Data
    uint64_t GetCompareData() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint64_t m_virtualAddress; //!< VirtualAddress
    uint32_t m_rkey;           //!< R_Key
    uint64_t m_swapAddData;    //!< Swap (or Add) Data
    uint64_t m_compareData;    //!< Compare Data
};

} // namespace ns3

#endif /* RDMA_ATOMIC_ETH_HEADER_H */
