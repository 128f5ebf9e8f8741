/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONSERVATION_MONITOR_H
#define RDMA_CONSERVATION_MONITOR_H

#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class RdmaNetDevice;
class RdmaSwitch;

/**
 * \ingroup rdma
 * \brief Byte conservation of the IPv4 (RoCEv2) traffic of a simulation, so that a lost
 * packet can never hide: every byte a host hands to its ports is delivered to a host,
 * dropped with a reason, or still in flight at the end.
 *
 * It measures each term at its own place, from the devices' counters (read when asked, so
 * watching costs the simulation nothing per packet) and the switches' Drop trace:
 *  - sent: IPv4 bytes handed to the hosts' RdmaNetDevices (RdmaNetDevice::GetMacTxBytes,
 *    what MacTx reports);
 *  - delivered: IPv4 bytes the hosts' ports receive (GetIpv4RxBytes, what MacRx reports);
 *  - dropped by reason: the switches' Drop trace (one count per RdmaSwitch::DropReason)
 *    and the IPv4 frames the ports' receive error models corrupt (GetIpv4CorruptedBytes,
 *    "link");
 *  - in flight at the end: bytes held in the switches' buffers (RdmaSwitchMmu::
 *    GetTotalUsed, which includes the switch ports' queues), in the hosts' ports' own
 *    queues (RdmaNetDevice::GetQueueBytes) and on the wires (IPv4 bytes whose
 *    transmission began, GetIpv4TxBytes, minus those received or corrupted).
 * Counts start at Install.
 * Since every switch forwards (MacTx) or drops what it receives (MacRx) or still holds it,
 * and every link delivers what it carries, sent = delivered + dropped + in flight holds
 * exactly when no byte disappears or appears anywhere; GetImbalance() is the difference.
 * PFC frames (MAC control) are link-local and not counted. Bytes are IPv4 packet bytes
 * (no Ethernet header), retransmissions included.
 */
class RdmaConservationMonitor
{
  public:
    RdmaConservationMonitor();

    /**
     * Watch every RdmaNetDevice of the nodes and every RdmaSwitch among them. Call before
     * the simulation runs, after the NICs and switches are installed.
     * \param nodes hosts and switches (all of them, for the balance to hold)
     */
    void Install(const NodeContainer& nodes);

    /// \return IPv4 bytes the hosts sent
    uint64_t GetSent() const;
    /// \return IPv4 bytes the hosts received
    uint64_t GetDelivered() const;
    /// \return bytes the switches dropped, by RdmaSwitch::DropReasonName
    std::map<std::string, uint64_t> GetSwitchDrops() const;
    /// \return IPv4 bytes dropped by the ports' receive error models
    uint64_t GetLinkDrops() const;
    /// \return all dropped bytes
    uint64_t GetDropped() const;
    /// \return bytes in switch buffers, device queues and on wires now
    uint64_t GetInFlight() const;
    /// \return sent - (delivered + dropped + in flight): 0 when the bytes balance
    int64_t GetImbalance() const;

    /**
     * Print one line: "conservation: posted P B; sent S B = delivered D + dropped X (...)
     * + in flight F (...): balanced" (or "IMBALANCE n B").
     * \param os the stream
     * \param postedBytes bytes of the work requests the program posted (message level)
     * \param completedBytes bytes of those that completed
     */
    void Print(std::ostream& os, uint64_t postedBytes, uint64_t completedBytes) const;
    /**
     * Print the line without the message-level figures (for programs whose flows post
     * unbounded or step-wise work).
     * \param os the stream
     */
    void Print(std::ostream& os) const;

  private:
    /// A device's counters, as read at Install or now.
    struct DeviceCounters
    {
        uint64_t macTx{0};     //!< RdmaNetDevice::GetMacTxBytes
        uint64_t ipv4Tx{0};    //!< RdmaNetDevice::GetIpv4TxBytes
        uint64_t ipv4Rx{0};    //!< RdmaNetDevice::GetIpv4RxBytes
        uint64_t corrupted{0}; //!< RdmaNetDevice::GetIpv4CorruptedBytes
    };

    /// \return the device's counters now
    static DeviceCounters Read(const Ptr<RdmaNetDevice>& device);
    /**
     * \param hostsOnly sum the hosts' devices only
     * \return the sum of the counters of the devices since Install
     */
    DeviceCounters Sum(bool hostsOnly) const;

    void SwitchDrop(Ptr<const Packet> packet, const char* reason, uint32_t port, uint8_t cls);

    uint64_t SwitchHeld() const;
    uint64_t DeviceQueued() const;

    std::vector<Ptr<RdmaNetDevice>> m_devices; //!< every watched device
    std::vector<DeviceCounters> m_baseline;    //!< their counters at Install
    std::vector<bool> m_isHost;                //!< the device is a host's port
    std::vector<Ptr<RdmaSwitch>> m_switches;   //!< every watched switch
    std::map<std::string, uint64_t> m_switchDrops;
};

} // namespace ns3

#endif /* RDMA_CONSERVATION_MONITOR_H */
