/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_FLOW_CONTROL_H
#define RDMA_LINK_FLOW_CONTROL_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class RdmaNetDevice;
class RdmaSwitchMmu;

/**
 * \ingroup rdma
 * \brief The link-level flow control of one RdmaNetDevice (one end of a link): which traffic
 * classes may transmit now, and what it does when a frame is sent, when a data frame or a
 * control frame is received, and (on a switch port) when bytes are admitted into and
 * released from the port's ingress (port, class) buffer.
 *
 * Pluggable like ns-3's TcpCongestionOps and QueueDisc: a device holds one instance, chosen
 * by TypeId (RdmaNetDevice attribute LinkFlowControl, RdmaLinkHelper::SetLinkFlowControl).
 * RdmaPfcFlowControl (IEEE 802.1Qbb, the default) and RdmaCreditFlowControl (InfiniBand's
 * credit scheme) are the implementations. Both ends of a link must use the same kind: a
 * frame the local kind does not know is dropped by the device (PhyRxDrop).
 *
 * Speed: the device asks GetBlockedMask for every frame it may send. It is inline and
 * reads a cached horizon: a flow control that blocks nothing after some time (PFC once
 * every pause has expired) costs one comparison per frame, no virtual call. The per-frame
 * hooks NotifyTransmit and NotifyReceive are called only by implementations that ask for
 * them (a flag read per frame); PFC does not.
 */
class RdmaLinkFlowControl : public Object
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaLinkFlowControl();
    ~RdmaLinkFlowControl() override;

    /**
     * Bind to the device (RdmaNetDevice::SetLinkFlowControl calls it). One device per
     * instance.
     * \param device the device (not owned: the device owns this object)
     */
    void SetDevice(RdmaNetDevice* device);
    /// \return the device (null before SetDevice)
    RdmaNetDevice* GetDevice() const;

    /**
     * Make this device a switch's ingress port: the switch calls NotifyIngressAdmitted and
     * NotifyIngressReleased for its (port, class) queues (RdmaSwitch::AddPort).
     * \param mmu the switch's MMU (its thresholds and partitions)
     * \param port the port index at the switch and its MMU
     */
    void SetSwitchPort(Ptr<RdmaSwitchMmu> mmu, uint32_t port);
    /// \return true once SetSwitchPort was called
    bool IsSwitchPort() const;

    /**
     * The classes that may not start a frame now (bit c set: class c is blocked).
     * \param now the current time
     * \return the blocked mask
     */
    uint8_t GetBlockedMask(Time now) const
    {
        return now >= m_blockHorizon ? 0 : DoGetBlockedMask(now);
    }

    /**
     * When a blocked class with work becomes free on its own (a pause that expires), for the
     * device's wake-up; Time::Max() if none does (credits come back with a frame, which
     * triggers a transmit attempt itself).
     * \param now the current time
     * \param classesWithWork bit c set: class c has something to send
     * \return the earliest such time
     */
    virtual Time GetNextUnblockTime(Time now, uint8_t classesWithWork) const;

    /// \return the time from which nothing is blocked (until the next control frame)
    Time GetBlockHorizon() const
    {
        return m_blockHorizon;
    }

    /// \return true if NotifyTransmit is to be called for every data frame sent
    bool WantsTransmitNotifications() const
    {
        return m_wantsTransmit;
    }

    /// \return true if NotifyReceive is to be called for every data frame received intact
    bool WantsReceiveNotifications() const
    {
        return m_wantsReceive;
    }

    /**
     * A data frame of the class starts transmission (called only if
     * WantsTransmitNotifications).
     * \param cls the traffic class
     * \param ipv4Bytes the IPv4 packet's bytes (what the receiver buffers)
     */
    virtual void NotifyTransmit(uint8_t cls, uint32_t ipv4Bytes);
    /**
     * A data frame of the class was received intact (called only if
     * WantsReceiveNotifications), before it is delivered.
     * \param cls the traffic class (DSCP >> 3)
     * \param ipv4Bytes the IPv4 packet's bytes
     */
    virtual void NotifyReceive(uint8_t cls, uint32_t ipv4Bytes);
    /**
     * A frame that is not IPv4 arrived intact.
     * \param frame the frame, Ethernet header included
     * \param etherType its EtherType
     * \return true if it was this flow control's frame and was consumed; false and the
     *         device drops it (PhyRxDrop)
     */
    virtual bool HandleControlFrame(Ptr<Packet> frame, uint16_t etherType) = 0;

    /**
     * Switch side: bytes of the class were admitted into this port's ingress (port, class)
     * buffer (after MMU admission, before the packet is queued at its egress).
     * \param cls the traffic class
     * \param bytes the IPv4 packet's bytes
     */
    virtual void NotifyIngressAdmitted(uint8_t cls, uint32_t bytes);

    /**
     * \param cls traffic class
     * \return true if the switch is to call NotifyIngressReleased for the class (a cached
     *         mask: PFC wants it only for the classes it paused)
     */
    bool WantsIngressReleased(uint8_t cls) const
    {
        return (m_releaseMask >> cls) & 1U;
    }

    /**
     * Switch side: bytes of the class left this port's ingress buffer (the packet started
     * transmission at its egress, or was discarded there).
     * \param cls the traffic class
     * \param bytes the IPv4 packet's bytes
     */
    virtual void NotifyIngressReleased(uint8_t cls, uint32_t bytes);

  protected:
    void DoDispose() override;

    /**
     * The blocked mask when now is before the horizon (see GetBlockedMask).
     * \param now the current time
     * \return the blocked mask
     */
    virtual uint8_t DoGetBlockedMask(Time now) const = 0;
    /// Called once the device is set (SetDevice).
    virtual void DoSetDevice();
    /// Called once the switch port is set (SetSwitchPort).
    virtual void DoSetSwitchPort();

    /**
     * \param horizon from this time on nothing is blocked (Time::Max(): ask
     *        DoGetBlockedMask for every frame)
     */
    void SetBlockHorizon(Time horizon)
    {
        m_blockHorizon = horizon;
    }

    /**
     * \param transmit ask for NotifyTransmit
     * \param receive ask for NotifyReceive
     */
    void SetNotifications(bool transmit, bool receive);

    /// \return the switch's MMU (null unless a switch port)
    RdmaSwitchMmu* GetMmu() const
    {
        return m_mmuRaw;
    }

    /// \return the port index at the switch (valid if a switch port)
    uint32_t GetSwitchPort() const
    {
        return m_port;
    }

    /// \param mask the classes NotifyIngressReleased is called for
    void SetReleaseMask(uint8_t mask)
    {
        m_releaseMask = mask;
    }

    /// \return the classes NotifyIngressReleased is called for
    uint8_t GetReleaseMask() const
    {
        return m_releaseMask;
    }

    /// Something may have become eligible: let the device try to transmit.
    void TriggerDeviceTransmit() const;

  private:
    RdmaNetDevice* m_device{nullptr};
    Ptr<RdmaSwitchMmu> m_mmu;
    RdmaSwitchMmu* m_mmuRaw{nullptr}; //!< m_mmu, read per packet
    uint32_t m_port{0};
    uint8_t m_releaseMask{0}; //!< classes NotifyIngressReleased is called for
    Time m_blockHorizon;
    bool m_wantsTransmit{false};
    bool m_wantsReceive{false};
};

} // namespace ns3

#endif /* RDMA_LINK_FLOW_CONTROL_H */
