/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_GENERATOR_H
#define RDMA_FLOW_GENERATOR_H

#include "rdma-flow-size-distribution.h"
#include "rdma-work-request.h"

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaNic;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief An open-loop flow generator: flows start at Poisson times at a target load of the
 * host's link, with sizes from an empirical CDF (RdmaFlowSizeDistribution) and destinations
 * from a pattern, each flow one RDMA WRITE on a queue pair of its own.
 *
 * This is the workload model of the HPCC simulator's traffic generator (traffic_gen.py,
 * used by HPCC, SIGCOMM 2019, and the papers that compare against it): each host starts
 * flows with exponential inter-arrival times of mean 1 / lambda, where
 *   lambda = Load x LinkRate / (8 x mean flow size)  flows per second,
 * so the *payload* bytes offered per second are Load x LinkRate. Load counts message
 * (payload) bytes, as that generator and the published load figures do; the headers come on
 * top (82 bytes per MTU-sized packet, 7.4 % at MTU 1024 and 100 Gb/s), so Load 1 is more
 * than the wire can carry.
 *
 * Destinations (Pattern): UNIFORM among the other hosts; PERMUTATION to one fixed host
 * (Destination); INCAST to host Target; RACK_LOCAL to a host of the own rack (RackSize
 * consecutive hosts) with probability Fraction, else uniform outside the rack; HOT_SPOT to
 * host Target with probability Fraction, else uniform.
 *
 * A flow takes an idle queue pair to its destination, or connects a new one, posts one WRITE
 * and gives the queue pair back when it completes: the generator holds no per-flow state
 * beyond the queue pairs that are busy, and does no per-packet work (one event per flow
 * arrival). The QueuePairCreated trace lets RdmaFlowMonitor watch every queue pair.
 */
class RdmaFlowGenerator : public Application
{
  public:
    /// Destination patterns.
    enum Pattern
    {
        UNIFORM,     //!< uniform among the other hosts
        PERMUTATION, //!< always the host Destination
        INCAST,      //!< always the host Target
        RACK_LOCAL,  //!< own rack with probability Fraction, else outside it
        HOT_SPOT     //!< host Target with probability Fraction, else uniform
    };

    /// TracedCallback signature for a new connection (requester and responder queue pairs).
    typedef void (*QueuePairTracedCallback)(Ptr<RdmaQueuePair> requester,
                                            Ptr<RdmaQueuePair> responder);
    /// TracedCallback signature for a flow start: the queue pair and the flow's bytes.
    typedef void (*FlowTracedCallback)(Ptr<RdmaQueuePair> qp, uint64_t bytes);

    /**
     * \brief Get the type ID.
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaFlowGenerator();

    /// \param distribution the flow sizes
    void SetDistribution(const RdmaFlowSizeDistribution& distribution);
    /**
     * \param hosts every host of the workload (the destinations' index space), each with an
     * RdmaNic
     * \param self this generator's host's index among them
     */
    void SetHosts(const std::vector<Ptr<Node>>& hosts, uint32_t self);

    /**
     * Check the configuration: stops with a message naming the attribute, its value and what
     * is valid (Load not in (0, 1], a pattern that needs more hosts than there are, a Target
     * or Destination out of range, no distribution). RdmaFlowGeneratorHelper::Install calls
     * it before the run; StartApplication calls it again.
     */
    void Validate() const;

    /// \return the distribution's mean flow size, bytes
    double GetMeanFlowSize() const;
    /// \return the flow arrival rate lambda derived from Load, flows per second
    double GetArrivalRate() const;
    /// \return the rate Load refers to (LinkRate, or the host's port rate if 0)
    DataRate GetLinkRate() const;
    /// \return flows started
    uint64_t GetFlowsStarted() const;
    /// \return flows completed (their WRITE acknowledged)
    uint64_t GetFlowsCompleted() const;
    /// \return bytes of the flows started
    uint64_t GetBytesOffered() const;
    /// \return bytes of the flows completed
    uint64_t GetBytesCompleted() const;
    /// \return queue pairs this generator connected (the peak number of concurrent flows)
    uint32_t GetQueuePairsCreated() const;

    /**
     * \param stream first stream number
     * \return streams used (3)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Schedule the next arrival.
    void ScheduleNext();
    /// Start one flow and schedule the next.
    void StartFlow();
    /// \return the destination index of a new flow
    uint32_t PickDestination();
    /// \return a uniform index in [0, n) other than `skip` (n >= 2, or skip >= n)
    uint32_t UniformOther(uint32_t n, uint32_t skip);
    /// A WRITE completed: its queue pair becomes idle.
    void FlowCompleted(const RdmaCompletion& completion);
    /// \return the pattern's name
    static std::string PatternName(Pattern p);

    RdmaFlowSizeDistribution m_distribution;
    std::vector<Ptr<Node>> m_hosts;
    uint32_t m_self{0};
    Ptr<RdmaNic> m_nic;

    double m_load{0.3};
    DataRate m_linkRate{0};
    Pattern m_pattern{UNIFORM};
    uint32_t m_destination{0};
    uint32_t m_target{0};
    double m_fraction{0.5};
    uint32_t m_rackSize{16};
    uint64_t m_maxFlows{0};

    double m_lambda{0};
    Ptr<ExponentialRandomVariable> m_interArrival;
    Ptr<UniformRandomVariable> m_size;
    Ptr<UniformRandomVariable> m_choice;
    EventId m_next;

    /// Idle queue pairs by destination index.
    std::vector<std::vector<Ptr<RdmaQueuePair>>> m_idle;
    /// Destination index of every queue pair this generator connected, by QPN.
    std::unordered_map<uint32_t, uint32_t> m_destinationOf;

    uint64_t m_flowsStarted{0};
    uint64_t m_flowsCompleted{0};
    uint64_t m_bytesOffered{0};
    uint64_t m_bytesCompleted{0};
    uint32_t m_qpsCreated{0};

    TracedCallback<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> m_qpCreatedTrace;
    TracedCallback<Ptr<RdmaQueuePair>, uint64_t> m_flowStartTrace;
};

} // namespace ns3

#endif /* RDMA_FLOW_GENERATOR_H */
