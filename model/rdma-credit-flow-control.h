/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CREDIT_FLOW_CONTROL_H
#define RDMA_CREDIT_FLOW_CONTROL_H

#include "ns3/event-id.h"
#include "ns3/rdma-link-flow-control.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Credit-based link flow control per traffic class (virtual channel), modelled on
 * InfiniBand's absolute-counter scheme (IBTA, InfiniBand Architecture Specification vol. 1,
 * section 7.9 "Flow control"): nothing is dropped for want of buffer and no pause frame is
 * sent.
 *
 * Each end keeps, per class in the Classes mask:
 *  - as a transmitter, FCTBS (total blocks sent, a 12-bit counter of BlockBytes blocks,
 *    IB's 64-byte blocks by default) and FCCL (the last credit limit the peer advertised);
 *    a frame may start only if the available credit (FCCL - FCTBS) mod 4096 (IB's test: at
 *    most 2048) covers one maximum frame: ceil(Mtu / BlockBytes) blocks. The transmitter
 *    does not know the size of the next frame of its pull source (the host NIC) before it
 *    asks, so it reserves a maximum frame; with frames of Mtu bytes this is IB's exact rule;
 *  - as a receiver, ABR (adjusted blocks received) and the free space of its receive
 *    buffer; it advertises FCCL = (ABR + free blocks) mod 4096.
 *
 * Flow-control packets carry real bytes on the wire: IB's 6-byte FCP (Op 4 bits, FCTBS 12,
 * VL 4, FCCL 12, LPCRC 16; the CRC is written as zero: frames are corrupted whole by the
 * receive error model), in an Ethernet frame of the IEEE 802 local experimental EtherType
 * 0x88B5, padded to the 64-byte minimum: 84 bytes on the wire with preamble and gap. They are
 * sent before any data frame (the device's control queue). One carries both directions' state
 * of one class: on receipt, FCCL becomes the transmitter's credit limit and ABR is set to the
 * peer's FCTBS (IB's resynchronisation: blocks lost to corruption stop being owed). An FCP
 * for a class is sent when its advertised limit has advanced by UpdateBlocks blocks (the
 * credit return), and for every class every RefreshInterval for as long as the simulation
 * runs, so that lost updates heal at the next refresh (a run over credit links ends with
 * Simulator::Stop).
 *
 * Blocks count the IPv4 packet (what a switch's MMU buffers), rounded up per packet.
 * Receive buffers: a host (a device that is not a switch port) consumes what it receives at
 * once and advertises HostBufferBytes per class; a switch port advertises its ingress
 * (port, class) partition in its RdmaSwitchMmu: ReservedPerQueue plus the class's PFC
 * headroom if the class is lossless (what the MMU admits without ever dropping a lossless
 * packet), less what the partition holds. Credits count at most 2048 blocks (IB's 12-bit
 * counters); a larger partition is advertised as 2048 blocks. Credit granularity and return
 * are configurable (BlockBytes, UpdateBlocks); UALink and SUE values are not built in.
 */
class RdmaCreditFlowControl : public RdmaLinkFlowControl
{
  public:
    /// Number of classes.
    static constexpr uint32_t NUM_CLASSES = 8;
    /// EtherType of the frames carrying flow-control packets (IEEE 802 local experimental).
    static constexpr uint16_t ETHERTYPE_CREDIT = 0x88B5;
    /// Bytes of an FCP (IBTA vol. 1, 7.9.4).
    static constexpr uint32_t FCP_BYTES = 6;
    /// Modulus of FCTBS, FCCL and ABR (12-bit counters).
    static constexpr uint32_t COUNTER_MODULUS = 4096;
    /// The most credit a transmitter may hold (IB: a difference above 2048 is no credit).
    static constexpr uint32_t MAX_CREDIT_BLOCKS = 2048;

    /**
     * TracedCallback signature for flow-control packets.
     * \param cls the class (virtual channel)
     * \param fctbs the FCTBS field
     * \param fccl the FCCL field
     */
    typedef void (*CreditTracedCallback)(uint8_t cls, uint16_t fctbs, uint16_t fccl);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaCreditFlowControl();
    ~RdmaCreditFlowControl() override;

    /**
     * \param cls traffic class
     * \return blocks the transmitter may still send in the class
     */
    uint32_t GetAvailableCredits(uint8_t cls) const;
    /**
     * \param cls traffic class
     * \return the receive buffer the class advertises, blocks (0 before the first update)
     */
    uint32_t GetBufferBlocks(uint8_t cls) const;
    /// \return blocks of one maximum frame (ceil(Mtu / BlockBytes))
    uint32_t GetMaxFrameBlocks() const;
    /// \return flow-control packets sent
    uint64_t GetUpdatesSent() const;
    /// \return flow-control packets received
    uint64_t GetUpdatesReceived() const;
    /**
     * \param bytes an IPv4 packet's bytes
     * \return the blocks it takes
     */
    uint32_t BlocksOf(uint32_t bytes) const;

    bool HandleControlFrame(Ptr<Packet> frame, uint16_t etherType) override;
    void NotifyTransmit(uint8_t cls, uint32_t ipv4Bytes) override;
    void NotifyReceive(uint8_t cls, uint32_t ipv4Bytes) override;
    void NotifyIngressAdmitted(uint8_t cls, uint32_t bytes) override;
    void NotifyIngressReleased(uint8_t cls, uint32_t bytes) override;

  protected:
    void DoDispose() override;
    uint8_t DoGetBlockedMask(Time now) const override;
    void DoSetDevice() override;

  private:
    /// At the start: check the configuration, size the buffers, send the first updates.
    void Start();
    /// Send an update for every class, and schedule the next refresh.
    void Refresh();
    /**
     * \param cls traffic class
     * \return the credit limit to advertise
     */
    uint32_t CreditLimit(uint8_t cls) const;
    /**
     * Send an update for the class if its limit advanced by UpdateBlocks since the last.
     * \param cls traffic class
     */
    void MaybeSendUpdate(uint8_t cls);
    /**
     * Send a flow-control packet for the class.
     * \param cls traffic class
     */
    void SendUpdate(uint8_t cls);
    /**
     * Recompute whether the class may start a maximum frame.
     * \param cls traffic class
     */
    void UpdateBlocked(uint8_t cls);

    /// \return true if the class is credit-controlled
    bool Controls(uint8_t cls) const
    {
        return (m_classes >> cls) & 1U;
    }

    // attributes
    uint32_t m_blockBytes;
    uint32_t m_updateBlocks;
    Time m_refreshInterval;
    uint64_t m_hostBufferBytes;
    uint8_t m_classes;

    bool m_started{false};
    uint32_t m_maxFrameBlocks{0};
    std::array<uint32_t, NUM_CLASSES> m_fctbs{};      //!< transmitter: blocks sent mod 4096
    std::array<uint32_t, NUM_CLASSES> m_fccl{};       //!< transmitter: the peer's limit
    std::array<uint32_t, NUM_CLASSES> m_abr{};        //!< receiver: blocks received mod 4096
    std::array<uint32_t, NUM_CLASSES> m_held{};       //!< receiver: blocks in the buffer
    std::array<uint32_t, NUM_CLASSES> m_capacity{};   //!< receiver: buffer blocks
    std::array<uint32_t, NUM_CLASSES> m_advertised{}; //!< receiver: last FCCL sent
    uint8_t m_blocked{0};                             //!< classes without a frame's credit
    EventId m_refreshEvent;
    uint64_t m_updatesSent{0};
    uint64_t m_updatesReceived{0};
    TracedCallback<uint8_t, uint16_t, uint16_t> m_updateTxTrace;
    TracedCallback<uint8_t, uint16_t, uint16_t> m_updateRxTrace;
};

} // namespace ns3

#endif /* RDMA_CREDIT_FLOW_CONTROL_H */
