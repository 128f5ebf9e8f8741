/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMORY_H
#define RDMA_MEMORY_H

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A host's memory as far as RDMA atomics see it: 64-bit words by virtual address.
 *
 * The responder executes Fetch & Add and Compare & Swap (IBTA vol. 1 §9.4.5) against it,
 * so that an atomic returns a real value and N requesters incrementing one counter leave
 * it at a real sum. Sparse (a hash map of the words ever written; unwritten words read as
 * zero), so a simulation pays only for the addresses it uses. Atomics work on 8-byte
 * aligned addresses only (IBTA vol. 1 §9.4.5: the VA of an atomic is 8-byte aligned), and so
 * does this class.
 *
 * The memory belongs to the host, not to one NIC or queue pair: it is aggregated to the
 * Node (as ns-3 aggregates Ipv4 or a MobilityModel), every queue pair of every RdmaNic on
 * that node executes against the same words, and a script or test reaches it with
 * node->GetObject<RdmaMemory>() (RdmaNic::GetMemory creates it on first use).
 * RDMA WRITE and READ payloads are not stored: they remain byte counts.
 */
class RdmaMemory : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaMemory();

    /**
     * \param address an 8-byte aligned virtual address (aborts otherwise)
     * \return the 64-bit word at address (0 if never written)
     */
    uint64_t Read64(uint64_t address) const;
    /**
     * \param address an 8-byte aligned virtual address (aborts otherwise)
     * \param value the 64-bit word to store there
     */
    void Write64(uint64_t address, uint64_t value);

    /**
     * Fetch & Add (IBTA vol. 1 §9.4.5): add to the word at address, modulo 2^64.
     * \param address an 8-byte aligned virtual address
     * \param add the value added
     * \return the word before the addition
     */
    uint64_t FetchAdd(uint64_t address, uint64_t add);
    /**
     * Compare & Swap (IBTA vol. 1 §9.4.5): replace the word at address by swap if it
     * equals compare.
     * \param address an 8-byte aligned virtual address
     * \param compare the value the word is compared with
     * \param swap the value written on a match
     * \return the word before the operation, whether it matched or not
     */
    uint64_t CompareSwap(uint64_t address, uint64_t compare, uint64_t swap);

    /// \return atomic operations executed (FetchAdd and CompareSwap calls)
    uint64_t GetAtomicsExecuted() const;

    /**
     * TracedCallback signature for an executed atomic.
     * \param address the word's address
     * \param original its value before
     * \param result its value after
     */
    typedef void (*AtomicTracedCallback)(uint64_t address, uint64_t original, uint64_t result);

  private:
    /// Abort unless address is 8-byte aligned, naming it and the operation.
    static void CheckAligned(uint64_t address, const char* operation);

    std::unordered_map<uint64_t, uint64_t> m_words;             //!< word by address; absent reads 0
    uint64_t m_atomicsExecuted{0};                              //!< FetchAdd and CompareSwap calls
    TracedCallback<uint64_t, uint64_t, uint64_t> m_atomicTrace; //!< Atomic trace source
};

} // namespace ns3

#endif /* RDMA_MEMORY_H */
