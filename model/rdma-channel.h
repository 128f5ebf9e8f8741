/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CHANNEL_H
#define RDMA_CHANNEL_H

#include "rdma-net-device.h"
#include "rdma-watched-trace.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief A full-duplex point-to-point Ethernet cable between two RdmaNetDevices.
 *
 * Modelled on ns-3's PointToPointChannel: two devices, a Delay attribute (propagation)
 * and a virtual TransmitStart, so that a distributed (MPI) subclass can carry frames
 * between ranks. The peer receives the frame when its last bit arrives
 * (txTime + Delay), in the peer node's context.
 */
class RdmaChannel : public Channel
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /**
     * TracedCallback signature of TxRxRdma.
     * \param frame the frame, Ethernet header included
     * \param src the sending device
     * \param dst the receiving device
     * \param txTime serialization time
     * \param rxTime serialization time plus propagation delay
     */
    typedef void (*TxRxTracedCallback)(Ptr<const Packet> frame,
                                       Ptr<NetDevice> src,
                                       Ptr<NetDevice> dst,
                                       Time txTime,
                                       Time rxTime);

    RdmaChannel();
    ~RdmaChannel() override;

    /**
     * Attach a device; a channel holds exactly two.
     * \param device the device
     */
    void Attach(Ptr<RdmaNetDevice> device);

    /**
     * Start carrying a frame from src to the other device. The channel takes the frame
     * (the sender keeps no reference it reads later), so it is handed on without a copy.
     * \param frame the frame, Ethernet header included
     * \param src the sending device
     * \param txTime the frame's serialization time at the sender
     * \return true if the frame was handed to the peer
     */
    virtual bool TransmitStart(const Ptr<Packet>& frame,
                               const Ptr<RdmaNetDevice>& src,
                               Time txTime);

    /// Most bytes a frame's head beside its packet may hold (see TransmitStartWithHead):
    /// the Ethernet header and RdmaPortHandler::ROUTE_HEAD_BYTES.
    static constexpr uint32_t MAX_HEAD_BYTES = 14 + 24;

    /**
     * \return true if a frame may travel as a packet plus head bytes kept beside it
     *         (TransmitStartWithHead): this class's own TransmitStart (a subclass's
     *         carries only whole frames) and no TxRxRdma sink, which must see the frame
     */
    bool CarriesFrameHeads() const
    {
        return m_wholeFrames == 0;
    }

    /**
     * Start carrying a frame whose first bytes travel beside its packet: the frame is
     * \p head (the Ethernet header, and possibly the first 12 or 24 bytes of the IPv4
     * packet: the header's first 12, then its addresses and the transport ports) followed
     * by \p packet without its first head - 14 bytes. Nothing can observe the
     * frame on the wire (CarriesFrameHeads), so no byte of the packet is written per hop:
     * the receiver takes the head as read (RdmaNetDevice::ReceiveWithHead).
     * \param packet the IPv4 packet; the frame on the wire takes the reference it holds (no
     *        Ref: it is null afterwards, see RdmaTakeReference)
     * \param size its size in bytes, carried beside it: no hop reads the packet for it
     * \param side the receiving device's index, as SideOf returned it for the sender (a
     *        sender keeps it: no lookup per frame)
     * \param txTime the frame's serialization time at the sender
     * \param head the frame's first bytes
     * \param headBytes how many: 14, 26 with the IPv4 header's first 12, or MAX_HEAD_BYTES
     *        with the packet's first 24
     */
    void TransmitStartWithHead(Ptr<Packet>& packet,
                               uint32_t size,
                               uint32_t side,
                               Time txTime,
                               const uint8_t* head,
                               uint32_t headBytes);

    /**
     * The receiving side of a sender, checked, and the receiver's node looked up once (the
     * context of its arrival events).
     * \param src the sending device (attached)
     * \return the receiving device's index
     */
    uint32_t SideOf(const Ptr<RdmaNetDevice>& src);

    /// \return the propagation delay
    Time GetDelay() const;

    /**
     * \param device one end of the cable
     * \return the other end
     */
    Ptr<RdmaNetDevice> GetPeer(Ptr<const RdmaNetDevice> device) const;

    // Channel API
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /// The arrival event of one direction (see m_arrival).
    class ArrivalEvent;

    /**
     * The next frame of direction \p side has arrived: hand it to that side's device.
     * \param side the receiving device's index
     */
    void DeliverNext(uint32_t side);

    /**
     * Prefetch for the DeliverNext(side) that takes the frame frameIndex places after the
     * oldest on the wire (ArrivalEvent::Prefetch): stage 1 this channel's lines of that
     * direction; stage 2 loads the frame's slot (its packet pointer and head, one line:
     * RdmaSimulatorImpl::Touch) and prefetches the receiving device's per-frame lines;
     * stage 3 the frame's packet (every line of it); stages 3 to 5 the receiving device's
     * stages 1 to 3 of RdmaNetDevice::PrefetchReceive.
     * \param side the receiving device's index
     * \param stage 1 to 5
     * \param frameIndex the frame's position from the oldest (stages 2 to 5; nothing is
     * done past the last)
     */
    void PrefetchDelivery(uint32_t side, uint32_t stage, std::size_t frameIndex) const;

    /**
     * A frame on the wire: its packet, its size and the head kept beside it (bytes 0: the
     * packet is the whole frame). One cache line, aligned: the arrival reads one line per
     * frame (its packet and head had been kept in two rings, on two or three lines).
     */
    struct alignas(64) InFlightFrame
    {
        Packet* packet;                           //!< the packet; the slot holds one reference
        uint8_t bytes;                            //!< how many of data hold the head
        std::array<uint8_t, MAX_HEAD_BYTES> data; //!< the head
        uint32_t size;                            //!< the packet's size (GetSize), for the receiver
    };

    /**
     * Queue a frame towards the device of \p side and schedule its arrival.
     * \param frame the frame (or the packet, if its head travels beside it); the slot takes
     *        this reference of the caller's
     * \param size its size in bytes
     * \param side the receiving device's index
     * \param rxTime serialization time plus propagation delay
     * \param head the head kept beside the packet (null if none)
     * \param headBytes its bytes: 0, 14, 26 or MAX_HEAD_BYTES
     */
    void Launch(Packet* frame,
                uint32_t size,
                uint32_t side,
                const Time& rxTime,
                const uint8_t* head,
                uint32_t headBytes);

    /**
     * Fill a ring slot (or the record streamed into one) for Launch.
     * \param slot the slot
     * \param frame the frame (or the packet, if its head travels beside it): a reference
     *        the slot takes
     * \param size its size in bytes
     * \param head the head kept beside the packet (null if none)
     * \param headBytes its bytes: 0, 14, 26 or MAX_HEAD_BYTES
     */
    static inline void FillSlot(InFlightFrame& slot,
                                Packet* frame,
                                uint32_t size,
                                const uint8_t* head,
                                uint32_t headBytes);

    /// Release the references the frames on the wire hold, and the rings' storage.
    void ReleaseFramesInFlight();

    // Members in the order a frame's start and its arrival read them, together: in a large
    // fabric every channel is far from the caches when its next frame comes, and these had
    // lain on four of the object's lines (the trace's list last).
    /// Why frames may not travel as a packet with its head beside it, one bit each
    /// (CarriesFrameHeads: none).
    uint16_t m_wholeFrames{NOT_OWN_TRANSMIT};
    /// TransmitStart is a subclass's (or no device is attached yet).
    static constexpr uint16_t NOT_OWN_TRANSMIT = 1U << 0;
    /// TxRxRdma has a sink (RdmaWatchedTrace keeps the bit).
    static constexpr uint16_t WATCH_TXRX = 1U << 1;
    /// Marks a context not looked up yet.
    static constexpr uint32_t NO_CONTEXT = 0xffffffff;
    /// Node id (event context) of each device, looked up at its first frame.
    uint32_t m_context[2]{NO_CONTEXT, NO_CONTEXT};
    Time m_delay;
    Ptr<ArrivalEvent> m_arrival[2]; //!< the arrival event object of each direction
    /// Frames on the wire towards each device, oldest first. Frames of one direction arrive
    /// in the order they were sent (each starts after the previous one ended), so one event
    /// object per direction, scheduled once per frame, delivers them in turn: no event
    /// object is made or destroyed per frame.
    RdmaFifo<InFlightFrame> m_inFlight[2];
    Ptr<RdmaNetDevice> m_devices[2];
    std::size_t m_nDevices{0};
    /// Fired when a frame leaves the sender: packet, src, dst, txTime, txTime+delay.
    RdmaWatchedTrace<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time> m_txrxTrace;
};

} // namespace ns3

#endif /* RDMA_CHANNEL_H */
