/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ADDRESS_INTERLEAVE_PATH_SELECTOR_H
#define RDMA_ADDRESS_INTERLEAVE_PATH_SELECTOR_H

#include "rdma-path-selector.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Address-interleaved plane selection for scale-up pods: the port of a packet is
 * taken from the bits of the remote memory address it writes, at a configurable
 * granularity G: port = (address / G) mod P.
 *
 * Scale-up fabrics (NVLink with NVSwitch planes, UALink) stripe an accelerator's memory
 * traffic over its P links by address, like DRAM channel interleaving: consecutive
 * G-byte blocks go to consecutive planes, a uniform address stream loads every plane
 * equally, and the same address always takes the same plane, so two writes to one
 * address cannot overtake each other on different planes (per-address ordering without
 * per-flow state).
 *
 * The address of a WRITE packet is the remote virtual address of its first byte (the
 * address its RETH would carry); a SEND packet uses its byte offset in the message. A
 * packet must not span two blocks, so G must be at least the path MTU (checked: the
 * NIC stops with an error otherwise) and buffers should be MTU-aligned; G must be a power
 * of two, as address bits are.
 */
class RdmaAddressInterleavePathSelector : public RdmaPathSelector
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaAddressInterleavePathSelector();
    ~RdmaAddressInterleavePathSelector() override;

    bool SpreadsQueuePairs() const override;
    bool NeedsAddress() const override;
    uint32_t SelectPort(const RdmaPathRequest& request, uint32_t nPorts) override;

    /**
     * The plane of an address.
     * \param address a remote memory address
     * \param granularity the interleaving block, a power of two
     * \param nPorts number of ports, at least 1
     * \return the port index
     */
    static uint32_t PortOf(uint64_t address, uint64_t granularity, uint32_t nPorts);

  private:
    /// Abort unless the granularity is a power of two and at least the path MTU.
    void CheckGranularity(uint32_t mtu);

    uint64_t m_granularity;
    uint32_t m_shift{0};              //!< log2(m_granularity), once checked
    uint32_t m_checkedMtu{0};         //!< the path MTU the granularity was checked against
    uint64_t m_checkedGranularity{0}; //!< the granularity m_shift was computed for
};

} // namespace ns3

#endif /* RDMA_ADDRESS_INTERLEAVE_PATH_SELECTOR_H */
