/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INT_INSERTER_H
#define RDMA_INT_INSERTER_H

#include "ns3/rdma-egress-processor.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Switch egress stage that writes an in-band telemetry hop record into every packet
 * that carries a telemetry area (BTH telemetry bit set; RdmaIntHeader), as HPCC's switches
 * do (Li et al., SIGCOMM 2019, section 4.1; the HPCC simulator's SwitchNode pushes the
 * record when the packet is dequeued for transmission).
 *
 * The record holds the egress port's line rate, the time, the wire bytes the port has sent
 * including this packet's frame (RdmaNetDevice::WireBytes: preamble, header, FCS, gap, so
 * that a port sending back to back reports exactly its line rate), and the bytes queued at
 * the port in all classes behind the packet (as the HPCC simulator reports the whole port
 * queue). It is written in place into the area, which sits just before the 4-byte ICRC at
 * the end of the packet: the packet is not resized and nothing is allocated per hop (ns-3's
 * Buffer rewrites its own bytes when no copy of the packet shares them). A full area (five
 * records) takes no more; such packets are counted. Enabled with RdmaSwitch's Telemetry
 * attribute or RdmaHelper::EnableTelemetry.
 */
class RdmaIntInserter : public RdmaEgressProcessor
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaIntInserter();
    ~RdmaIntInserter() override;

    /// \return hop records written
    uint64_t GetRecordsWritten() const;
    /// \return packets whose area was already full (no record written)
    uint64_t GetFullAreas() const;
    /// \return packets with the telemetry bit but too short to hold an area (no record)
    uint64_t GetTooShort() const;

    uint8_t GetHooks() const override;
    uint8_t GetPacketFilter() const override;
    void CheckPort(uint32_t port, uint64_t lineRateBps) const override;

    /**
     * TracedCallback signature for hop records.
     * \param packet the packet, after the record was written
     * \param port the egress port
     * \param hops the number of records the area now holds
     */
    typedef void (*RecordTracedCallback)(Ptr<const Packet> packet, uint32_t port, uint8_t hops);

  private:
    Verdict DoDequeue(const Ptr<Packet>& packet, const RdmaEgressContext& context) override;

    uint64_t m_records{0};
    uint64_t m_full{0};
    uint64_t m_tooShort{0};
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_recordTrace;
};

} // namespace ns3

#endif /* RDMA_INT_INSERTER_H */
