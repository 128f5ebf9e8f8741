/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_MONITOR_H
#define RDMA_FLOW_MONITOR_H

#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-work-request.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaNic;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief Per-flow completion times and slowdowns of RDMA WRITEs, in the spirit of ns-3's
 * FlowMonitor: turned on in one line, records streamed to CSV, summaries by flow size.
 *
 * \code
 *   RdmaFlowMonitor monitor("results/flows.csv");
 *   monitor.Watch(generators);            // every queue pair the generators connect
 *   ...Simulator::Run()...
 *   monitor.PrintSummary(std::cout);      // slowdown p50/p95/p99 by size bucket
 * \endcode
 * It hooks the requester's SendComplete trace (RdmaCompletion: postTime, completionTime)
 * and the responder's ReceiveComplete trace (delivered bytes). Each completed flow is one CSV
 * line (src, dst, size, start, finish, FCT, ideal FCT, slowdown) written as it completes,
 * never held in memory; the summaries come from a fixed histogram per size bucket
 * (logarithmic bins 0.1 % wide from slowdown 1 to 10^5), so memory does not grow with the
 * number of flows. Percentiles are therefore exact to 0.1 %; the minimum and maximum are
 * exact.
 *
 * The ideal FCT (GetIdealFct) is the model's completion time of the flow alone in the
 * fabric: the path is followed from the source's first port through the switches' first
 * equal-cost route to the destination; every data packet carries Ethernet 14, IPv4 20, UDP
 * 8, BTH 12, ICRC 4, FCS 4, preamble/SFD 8 and inter-frame gap 12 bytes
 * (RdmaNetDevice::ROCE_PACKET_OVERHEAD_BYTES), the first a 16-byte RETH, the payload
 * padded to a multiple of 4 bytes (BTH PadCnt); store-and-forward
 * at every switch; the ACK of the last packet (86 wire bytes) returns over the same links.
 * It assumes Ethernet framing, no telemetry (HPCC's INT adds bytes to every packet) and
 * go-back-N ACKs (no SACK block), and a sender at line rate from the first packet (a
 * congestion control that starts slower has slowdown > 1 alone).
 */
class RdmaFlowMonitor
{
  public:
    /// One link of a path: its rate and propagation delay.
    struct Hop
    {
        DataRate rate;
        Time delay;
    };

    /// Slowdown summary of one flow-size bucket.
    struct Bucket
    {
        uint64_t upTo{0};      //!< largest size in the bucket, bytes (UINT64_MAX: no limit)
        uint64_t flows{0};     //!< completed flows
        double p50{0};         //!< median slowdown
        double p95{0};         //!< 95th percentile
        double p99{0};         //!< 99th percentile
        double min{0};         //!< smallest slowdown
        double max{0};         //!< largest slowdown
        double meanFctUs{0};   //!< mean FCT, microseconds
        double meanIdealUs{0}; //!< mean ideal FCT, microseconds
    };

    /**
     * One completed flow: what its CSV line holds, for a program that prints its own table
     * or adds counters of its own (ConnectFlowComplete). Valid during the callback only.
     */
    struct FlowRecord
    {
        Ptr<RdmaQueuePair> requester; //!< the queue pair that posted the WRITE
        uint64_t wrId{0};             //!< the work request's wrId
        uint64_t bytes{0};            //!< message length
        Time start;                   //!< when posted
        Time finish;                  //!< when the requester completed (last byte acknowledged)
        Time idealFct;                //!< GetIdealFct of the flow's path and size
        double slowdown{0};           //!< (finish - start) / idealFct

        /// \return the flow completion time, finish - start
        Time GetFct() const
        {
            return finish - start;
        }
    };

    /**
     * \param csvPath file of per-flow records ("" for none); its folders are created
     */
    explicit RdmaFlowMonitor(const std::string& csvPath = "");
    ~RdmaFlowMonitor();
    RdmaFlowMonitor(const RdmaFlowMonitor&) = delete;
    RdmaFlowMonitor& operator=(const RdmaFlowMonitor&) = delete;

    /**
     * Size buckets of the summaries: flows of size <= bounds[0], <= bounds[1], ..., and one
     * bucket above the last. Default 10 KB, 100 KB, 1 MB, 10 MB. Call before the run.
     * \param bounds upper bounds in bytes, increasing
     */
    void SetSizeBuckets(const std::vector<uint64_t>& bounds);

    /**
     * Watch every queue pair the applications connect (their QueuePairCreated trace).
     * \param generators RdmaFlowGenerator, RdmaFlowReplayer or RdmaBulkSendApplication
     * applications (another application stops the program naming its TypeId)
     */
    void Watch(ApplicationContainer generators);
    /**
     * Watch one connection.
     * \param requester the queue pair that posts WRITEs
     * \param responder its peer
     */
    void Watch(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder);

    /**
     * Call back with every flow's record as it completes, after the monitor has counted it
     * (ns-3's FlowMonitor leaves this to the program after the run; here a program that
     * needs per-flow lines gets them without holding them).
     * \param callback called once per completed flow
     */
    void ConnectFlowComplete(Callback<void, const FlowRecord&> callback);

    /**
     * Stop the simulation when this many flows have completed: for a scenario whose
     * samplers and timers would otherwise run to the stop time. 0 (the default) never stops.
     * \param flows completed flows to stop after
     */
    void SetStopAfterFlows(uint64_t flows);

    /**
     * \param src source host address
     * \param dst destination host address
     * \return the links from src to dst (first equal-cost route at every switch)
     */
    std::vector<Hop> GetPath(Ipv4Address src, Ipv4Address dst);

    /**
     * The completion time of a WRITE alone on a path (see the class description).
     * \param path the links, source first
     * \param bytes message length
     * \param mtu payload bytes per packet
     * \return the FCT from post to the requester's completion
     */
    static Time GetIdealFct(const std::vector<Hop>& path, uint64_t bytes, uint32_t mtu);

    /// \return flows completed
    uint64_t GetFlows() const;
    /// \return bytes of the completed flows (requester side)
    uint64_t GetBytesCompleted() const;
    /// \return bytes of the messages received completely: WRITE and SEND at the responder,
    /// READ at the requester (its responses all landed)
    uint64_t GetBytesReceived() const;
    /// \return the smallest slowdown seen (0 if no flow)
    double GetMinSlowdown() const;
    /// \return when the last flow completed (0 if none)
    Time GetLastCompletion() const;
    /// \return the slowdown summaries, one per size bucket (empty buckets included)
    std::vector<Bucket> GetSummary() const;
    /**
     * Print the summary table: bucket, flows, p50, p95, p99, max slowdown.
     * \param os the stream
     */
    void PrintSummary(std::ostream& os) const;
    /**
     * Write the summary as CSV (bucket_bytes,flows,p50,p95,p99,min,max,mean_fct_us,
     * mean_ideal_us).
     * \param path the file
     */
    void WriteSummary(const std::string& path) const;
    /// Flush the per-flow CSV.
    void Flush();

  private:
    /// What the monitor knows of one watched requester.
    struct Watched
    {
        RdmaFlowMonitor* monitor;
        RdmaQueuePair* qp;
        uint32_t pathIndex;
    };

    /// Histogram bins: ratio 1.001 from 1 to 10^5.
    static constexpr double BIN_RATIO = 1.001;
    static constexpr uint32_t N_BINS = 11519; // ceil(ln 1e5 / ln 1.001) + 1

    /// Per-bucket statistics.
    struct Stats
    {
        std::vector<uint64_t> bins; //!< allocated on first use
        uint64_t below{0};          //!< slowdowns < 1
        uint64_t flows{0};
        double min{0};
        double max{0};
        double fctSum{0};
        double idealSum{0};
    };

    /// A WRITE completed at a watched requester.
    static void SendComplete(Watched* w, const RdmaCompletion& c);
    /// A message arrived completely at a watched responder.
    static void ReceiveComplete(RdmaFlowMonitor* m, const RdmaCompletion& c);
    /// The QueuePairCreated trace of a generator.
    void QueuePairCreated(Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair> responder);
    /// Record one flow.
    void Record(const Watched& w, const RdmaCompletion& c);
    /// \return the index in m_paths of the path src -> dst (computed once per distinct path)
    uint32_t PathIndex(Ipv4Address src, Ipv4Address dst);
    /// \return the percentile q of a bucket's histogram
    static double Percentile(const Stats& s, double q);
    /// \return the NIC of an address
    Ptr<RdmaNic> NicOf(Ipv4Address address);

    std::unique_ptr<std::ofstream> m_csv;
    TracedCallback<const FlowRecord&> m_flowComplete; //!< ConnectFlowComplete's callbacks
    uint64_t m_stopAfter{0};                          //!< SetStopAfterFlows
    std::vector<uint64_t> m_bounds{10'000, 100'000, 1'000'000, 10'000'000};
    std::vector<Stats> m_stats;
    std::vector<std::unique_ptr<Watched>> m_watched;
    std::vector<std::vector<Hop>> m_paths;             //!< distinct paths
    std::unordered_map<uint64_t, uint32_t> m_pathOf;   //!< (src, dst) -> m_paths
    std::unordered_map<uint32_t, Ptr<RdmaNic>> m_nics; //!< by address
    uint64_t m_flows{0};
    uint64_t m_bytesCompleted{0};
    uint64_t m_bytesReceived{0};
    double m_minSlowdown{0};
    Time m_lastCompletion{0};
};

} // namespace ns3

#endif /* RDMA_FLOW_MONITOR_H */
