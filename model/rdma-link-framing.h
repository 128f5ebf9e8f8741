/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_FRAMING_H
#define RDMA_LINK_FRAMING_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief What a frame costs on a scale-up link's wire when the link does not carry plain
 * Ethernet frames: the pluggable framing of an RdmaNetDevice (attribute LinkFraming).
 *
 * Without one (the default) a device charges the real Ethernet cost (RdmaNetDevice::WireBytes).
 * A framing replaces only that charge: the frames themselves (and pcaps) stay Ethernet
 * frames carrying IPv4/UDP/BTH packets, and what the framing charges is the bytes the same
 * transaction costs in its own format (RdmaUalinkFlitFraming: 640-byte data-link FLITs
 * carrying 64-byte transaction-layer flits; RdmaCompressedHeaderFraming: Ethernet with a
 * short scale-up header in place of Ethernet, IPv4 and UDP).
 *
 * Both ends of a link must use the same framing with the same parameters (checked at time 0,
 * an error naming both devices otherwise).
 */
class RdmaLinkFraming : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaLinkFraming();
    ~RdmaLinkFraming() override;

    /// What a transmitted frame carries, read from its first bytes.
    struct FrameInfo
    {
        bool isIpv4{false};         //!< EtherType IPv4
        bool isRoce{false};         //!< IPv4/UDP to port 4791 with a BTH
        uint32_t ipv4Bytes{0};      //!< the IPv4 packet (frame less its Ethernet header)
        uint32_t l4HeadBytes{0};    //!< IPv4 + UDP headers (0 if not IPv4/UDP)
        uint32_t rdmaPayload{0};    //!< RoCE: payload bytes (no BTH, RETH, AETH, pad, ICRC)
        uint32_t transportBytes{0}; //!< RoCE: BTH + extension headers + pad + ICRC
    };

    /**
     * Read what a packet carries.
     * \param packet an Ethernet frame (withEthernet) or an IPv4 packet
     * \param withEthernet true if packet starts with a 14-byte Ethernet II header
     * \return the frame's contents
     */
    static FrameInfo Parse(const Ptr<const Packet>& packet, bool withEthernet);

    /**
     * Serve a device (RdmaNetDevice::SetLinkFraming calls it); schedules the check of the
     * peer's framing at time 0.
     * \param device the device
     */
    void SetDevice(RdmaNetDevice* device);

    /// What a frame costs the link (StartFrame).
    struct FrameCost
    {
        uint32_t wireBytes{0}; //!< bytes it adds to the wire (RdmaNetDevice::GetTxWireBytes)
        bool timed{false};     //!< true: busy and delivery are set; false: the device times
                               //!< wireBytes at its rate (busy = delivery)
        Time busy;             //!< from now until the link may start the next frame
        Time delivery;         //!< from now until the peer has the frame whole (propagation
                               //!< delay excluded): its last bit, or the end of the FLIT
                               //!< whose CRC covers it
    };

    /**
     * A frame starts transmission now (the link is free: the previous frame's busy time is
     * over).
     * \param frame the Ethernet frame as transmitted (header included, no FCS)
     * \param now the current time
     * \return what it costs the link
     */
    virtual FrameCost StartFrame(const Ptr<const Packet>& frame, Time now) = 0;

    /**
     * The wire bytes a frame's bits occupy, for bit errors (RdmaWireErrorModel): its share
     * of the stream, as GetPacketWireBytes charges it.
     * \param frame an Ethernet frame (header included, no FCS), as received
     * \return wire bytes
     */
    virtual uint32_t GetFrameWireBytes(const Ptr<const Packet>& frame) const = 0;

    /**
     * The average wire bytes an IPv4 packet costs: what a sender's pacer charges for it.
     * \param ipv4Packet an IPv4 packet (no Ethernet header)
     * \return wire bytes
     */
    virtual uint32_t GetPacketWireBytes(const Ptr<const Packet>& ipv4Packet) const = 0;

    /**
     * \param other the peer's framing (same TypeId)
     * \return an empty string if the two agree, else what differs (for the error)
     */
    virtual std::string Mismatch(const RdmaLinkFraming& other) const;

  protected:
    void DoDispose() override;

    /// \return the device served (null before SetDevice)
    RdmaNetDevice* GetDevice() const;

  private:
    /// Time 0: check the parameters (DoCheck) and that the peer uses the same framing.
    void Check() const;
    /// Abort with a message naming the attribute and the value if the parameters are invalid.
    virtual void DoCheck() const;

    RdmaNetDevice* m_device{nullptr}; //!< the device served
};

} // namespace ns3

#endif /* RDMA_LINK_FRAMING_H */
