/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PORT_MONITOR_H
#define RDMA_PORT_MONITOR_H

#include "ns3/event-id.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class RdmaNetDevice;

/**
 * \ingroup rdma
 * \brief Per-port time series of a fabric, the port side of RdmaFlowMonitor: every Period it
 * writes one CSV line per port (RdmaNetDevice) of the watched nodes:
 * \verbatim
   time_us,node,port,utilisation,queue_bytes,paused_us
   \endverbatim
 *  - utilisation: wire bytes the port sent in the period (RdmaNetDevice::GetTxWireBytes:
 *    every frame with its preamble, SFD and inter-frame gap) x 8 / (rate x period); a frame
 *    counts in the period its transmission started, so a period can read up to one frame
 *    above 1 and the next one as much below;
 *  - queue_bytes: bytes waiting in the port's class queues at the sample (IPv4 packets);
 *  - paused_us: the longest time, among the port's traffic classes, that a PFC pause from
 *    the peer held the class during the period (pauses last quanta x 512 bit times or until
 *    a resume frame; from the PfcRx trace), so 0 .. period.
 * The lines are streamed, never held in memory; the state is a few counters per port.
 * \code
 *   RdmaPortMonitor ports("results/ports.csv", MicroSeconds(10), MilliSeconds(5));
 *   ports.Install(switches);
 * \endcode
 */
class RdmaPortMonitor
{
  public:
    /**
     * \param csvPath the file of the samples (its folders are created)
     * \param period the sampling period, > 0
     * \param stop the last sample's time (samples are events: without an end they would keep
     * Simulator::Run from returning when the traffic is done)
     */
    RdmaPortMonitor(const std::string& csvPath, Time period, Time stop);
    ~RdmaPortMonitor();
    RdmaPortMonitor(const RdmaPortMonitor&) = delete;
    RdmaPortMonitor& operator=(const RdmaPortMonitor&) = delete;

    /**
     * Watch every RdmaNetDevice of the nodes; the first sample is one period after the
     * first Install (call before Simulator::Run).
     * \param nodes hosts or switches
     */
    void Install(const NodeContainer& nodes);

    /// Stop sampling (the samples so far stay in the file).
    void Stop();
    /// \return the samples written (lines without the header)
    uint64_t GetSamples() const;

  private:
    /// One watched port.
    struct Port
    {
        Ptr<RdmaNetDevice> device;
        uint32_t node{0};
        uint32_t index{0};
        uint64_t txWireBytes{0};              //!< at the previous sample
        std::array<Time, 8> pausedUntil{};    //!< end of the current pause, per class
        std::array<Time, 8> pausedInPeriod{}; //!< paused time counted so far this period
        std::array<Time, 8> countedFrom{};    //!< start of the uncounted pause time
    };

    /// A PFC frame arrived at port `p`.
    static void PfcReceived(Port* p, uint8_t cls, uint16_t quanta);
    /// Write one line per port and schedule the next sample.
    void Sample();

    std::unique_ptr<std::ofstream> m_csv;
    Time m_period;
    Time m_stop;
    std::vector<std::unique_ptr<Port>> m_ports;
    EventId m_next;
    uint64_t m_samples{0};
};

} // namespace ns3

#endif /* RDMA_PORT_MONITOR_H */
