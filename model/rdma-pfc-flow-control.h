/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PFC_FLOW_CONTROL_H
#define RDMA_PFC_FLOW_CONTROL_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/rdma-link-flow-control.h"

#include <array>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief IEEE 802.1Qbb priority-based flow control (PFC) as an RdmaLinkFlowControl: the
 * default of every RdmaNetDevice.
 *
 * Device side: a received PFC frame (MAC control, opcode 0x0101) pauses exactly the
 * classes whose enable bit is set for quanta x 512 bit times at the port's rate (0 resumes
 * at once); a later frame re-arms or cancels the pause. A frame already being serialized is
 * completed (802.1Qbb clause 36). The pauses are what GetBlockedMask reports; the latest
 * pause end is the block horizon, so an unpaused port pays one comparison per frame.
 *
 * Switch side (a port of an RdmaSwitch): after a packet is admitted into the ingress
 * (port, class) buffer, if the MMU's XOFF threshold is crossed (RdmaSwitchMmu::
 * CheckShouldPause) an XOFF frame (quanta 0xFFFF for the class) is sent on this port;
 * while XOFF is asserted for any class of the port an XOFF frame for all its paused classes
 * is sent again every half pause time (0xFFFF x 512 bit times / 2, 168 us at 100 Gb/s), so
 * the upstream's pause never expires while the queue is congested. When bytes are released
 * and the queue falls below its resume threshold (CheckShouldResume), an XON frame
 * (quanta 0) is sent. Every frame sent is reported to the switch (SetPfcSentCallback), which
 * counts it and fires its Pfc trace.
 *
 * This is the behaviour RdmaNetDevice and RdmaSwitch had before the link flow control was
 * made pluggable, moved here unchanged (same frames, same times, same events). The PFC
 * watchdog, which discards a queue stuck in a pause storm, stays with the switch (it drops
 * packets, which only the switch may do) and reads the pause state through the device.
 */
class RdmaPfcFlowControl : public RdmaLinkFlowControl
{
  public:
    /// Number of classes.
    static constexpr uint32_t NUM_CLASSES = 8;
    /// Quanta of an XOFF frame (the largest pause, 0xFFFF x 512 bit times).
    static constexpr uint16_t XOFF_QUANTA = 0xFFFF;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaPfcFlowControl();
    ~RdmaPfcFlowControl() override;

    /**
     * Callback for every PFC frame the switch side sends.
     * port: the switch port; classMask: the classes in the frame; xoff: true for XOFF;
     * refresh: true for the periodic re-sending of an asserted XOFF.
     */
    typedef Callback<void, uint32_t, uint8_t, bool, bool> PfcSentCallback;
    /// \param cb called for every PFC frame the switch side sends
    void SetPfcSentCallback(PfcSentCallback cb);

    /**
     * \param cls traffic class
     * \param now the current time
     * \return true if a received PFC frame pauses the class at now
     */
    bool IsPaused(uint8_t cls, Time now) const;
    /**
     * \param cls traffic class
     * \return when the last PFC frame that paused the class (quanta > 0) arrived;
     *         Time::Min() if none has
     */
    Time GetLastPauseReceived(uint8_t cls) const;
    /// \return the interval between XOFF refreshes (half the longest pause)
    Time GetRefreshInterval() const;

    Time GetNextUnblockTime(Time now, uint8_t classesWithWork) const override;
    bool HandleControlFrame(Ptr<Packet> frame, uint16_t etherType) override;
    void NotifyIngressAdmitted(uint8_t cls, uint32_t bytes) override;
    void NotifyIngressReleased(uint8_t cls, uint32_t bytes) override;

  protected:
    void DoDispose() override;
    uint8_t DoGetBlockedMask(Time now) const override;

  private:
    /**
     * Send a PFC frame on this (switch) port, schedule or cancel the refresh, report it.
     * \param classMask the classes
     * \param xoff XOFF (quanta 0xFFFF) or XON (0)
     * \param refresh a refresh of an asserted XOFF
     */
    void SendPfcFrame(uint8_t classMask, bool xoff, bool refresh);
    /// Send XOFF again for every class still paused.
    void RefreshPause();

    std::array<Time, NUM_CLASSES> m_pausedUntil{};
    std::array<Time, NUM_CLASSES> m_lastPauseReceived; //!< last pausing PFC frame per class
    EventId m_refreshEvent;                            //!< switch side: the next refresh
    PfcSentCallback m_pfcSent;
};

} // namespace ns3

#endif /* RDMA_PFC_FLOW_CONTROL_H */
