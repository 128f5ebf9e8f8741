/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_H
#define RDMA_COLLECTIVE_H

#include "rdma-collective-algorithm.h"
#include "rdma-work-request.h"

#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief One collective job (a communicator running one operation, Iterations times) on any
 * set of hosts with RdmaNics, over any topology: it runs the schedule of its
 * RdmaCollectiveAlgorithm with RDMA WRITEs, each step posted when the previous one's data has
 * arrived, as a collective library does.
 *
 * Every (sender, receiver) pair the schedule uses gets one connection (RdmaCollectiveHelper
 * makes them with RdmaHelper::Connect). A message a rank sends at its step s counts toward the
 * receiver's step s; it is recognised on arrival (the responder's ReceiveComplete: the last
 * byte placed) because a reliable connection delivers its messages in the order they were
 * posted. A rank posts step s + 1 when all messages of its step s have arrived, so the
 * dependency is on the data, not on the sender's acknowledgements.
 *
 * <b>Chunking and pipelining</b> (ChunkBytes): the buffer is cut into P parts, as NCCL cuts
 * it into slices, with P the smallest number that keeps every message at most ChunkBytes; each
 * part runs the whole algorithm on its bytes, independently of the others, so step s + 1 of
 * part c starts when step s of part c has arrived while later parts of step s are still on
 * the wire. A ring's latency term 2 (p - 1) alpha then shrinks toward one alpha
 * (doc/traffic.rst derives the time).
 *
 * <b>Results</b> with nccl-tests' definitions (doc/PERFORMANCE.md): the time of an iteration
 * runs from its first post to the last message's arrival at the last rank; algbw = Bytes /
 * time, busbw = algbw x RdmaCollectiveAlgorithm::BusBandwidthFactor. An iteration starts when
 * the previous one has completed everywhere.
 */
class RdmaCollective : public Object
{
  public:
    /// TracedCallback signature for a completed iteration: its index and duration.
    typedef void (*IterationTracedCallback)(uint32_t iteration, Time duration);

    /**
     * \brief Get the type ID.
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaCollective();
    ~RdmaCollective() override;

    /// \param ranks the hosts, rank i = ranks[i]; each must have an RdmaNic
    void SetRanks(const std::vector<Ptr<Node>>& ranks);
    /// \param algorithm the algorithm (instead of one created from the Algorithm attribute)
    void SetAlgorithm(Ptr<RdmaCollectiveAlgorithm> algorithm);
    /// \return the algorithm
    Ptr<RdmaCollectiveAlgorithm> GetAlgorithm();

    /**
     * Check the configuration and build the schedule: stops with a message naming the
     * attribute, its value and what is valid (fewer than 2 ranks, a rank twice, Bytes 0 or
     * fewer bytes than ranks, an operation the algorithm does not run, Iterations 0).
     */
    void Prepare();

    /// \return the (sender, receiver) rank pairs the schedule uses, after Prepare
    std::vector<std::pair<uint32_t, uint32_t>> GetConnectionsNeeded() const;
    /**
     * \param src sender rank
     * \param dst receiver rank
     * \param requester the queue pair at src that posts the WRITEs
     * \param responder its peer at dst
     */
    void SetConnection(uint32_t src,
                       uint32_t dst,
                       Ptr<RdmaQueuePair> requester,
                       Ptr<RdmaQueuePair> responder);

    /**
     * Start the first iteration after `delay` (every connection must be set).
     * \param delay from now
     */
    void Start(Time delay);

    /// \return ranks
    uint32_t GetRanks() const;
    /// \return the operation
    RdmaCollectiveAlgorithm::Operation GetOperation() const;
    /// \return S, nccl-tests' size, bytes
    uint64_t GetBytes() const;
    /// \return parts the buffer is cut into (1 without pipelining)
    uint32_t GetParts() const;
    /// \return steps of the schedule (the largest number of any rank)
    uint32_t GetSteps() const;
    /// \return e.g. "Ring AllReduce, 8 ranks, 1048576 B"
    std::string Describe() const;

    /// \return iterations completed
    uint32_t GetIterationsDone() const;
    /// \return true when every iteration has completed
    bool IsComplete() const;
    /**
     * \param i iteration index, < GetIterationsDone()
     * \return its time, first post to last arrival
     */
    Time GetIterationTime(uint32_t i) const;
    /// \return the mean iteration time (0 if none completed)
    Time GetMeanIterationTime() const;
    /// \return algbw of the mean iteration, bytes per second (nccl-tests)
    double GetAlgorithmBandwidth() const;
    /// \return busbw of the mean iteration, bytes per second (nccl-tests)
    double GetBusBandwidth() const;
    /// \return message bytes posted, all iterations
    uint64_t GetBytesPosted() const;
    /// \return message bytes that arrived completely, all iterations
    uint64_t GetBytesArrived() const;

  protected:
    void DoDispose() override;

  private:
    /// One (sender, receiver) connection and the messages on it not yet arrived.
    struct Connection
    {
        RdmaCollective* owner{nullptr};
        uint32_t dst{0};
        Ptr<RdmaQueuePair> requester;
        Ptr<RdmaQueuePair> responder;
        std::deque<std::pair<uint32_t, uint32_t>> inFlight; //!< (part, step), post order
    };

    /// One distinct part size: its schedule and the messages each (rank, step) waits for.
    struct PartPlan
    {
        uint64_t bytes{0};
        RdmaCollectiveAlgorithm::Schedule schedule;
        std::vector<std::vector<uint32_t>> expected; //!< [rank][step]
    };

    /// Begin an iteration: every (rank, part) posts what it can.
    void StartIteration();
    /// Post the steps of (rank, part) whose predecessors' data has arrived.
    void Advance(uint32_t rank, uint32_t part);
    /// A message arrived completely on a connection.
    static void MessageArrived(Connection* c, const RdmaCompletion& completion);
    /// \return the plan of a part
    const PartPlan& PlanOf(uint32_t part) const;
    /// \return the index of (rank, part) in the progress arrays
    std::size_t Slot(uint32_t rank, uint32_t part) const;

    RdmaCollectiveAlgorithm::Operation m_operation{RdmaCollectiveAlgorithm::ALL_REDUCE};
    TypeId m_algorithmTypeId;
    Ptr<RdmaCollectiveAlgorithm> m_algorithm;
    uint64_t m_bytes{1 << 20};
    uint64_t m_chunkBytes{0};
    uint32_t m_iterations{1};
    uint64_t m_bufferAddress{0};

    std::vector<Ptr<Node>> m_ranks;
    bool m_prepared{false};
    uint32_t m_parts{1};
    uint32_t m_steps{0};
    std::vector<PartPlan> m_plans;     //!< at most two distinct part sizes
    std::vector<uint8_t> m_planOfPart; //!< part -> m_plans index
    std::unordered_map<uint64_t, std::unique_ptr<Connection>> m_connections; //!< src x p + dst

    std::vector<uint32_t> m_nextStep; //!< per (rank, part): next step to post
    std::vector<uint32_t> m_arrived;  //!< per (rank, part, step): messages arrived
    uint64_t m_unfinished{0};         //!< (rank, part) pairs not done this iteration
    uint32_t m_iterationsDone{0};
    bool m_running{false};
    Time m_iterationStart;
    std::vector<Time> m_iterationTimes;
    uint64_t m_bytesPosted{0};
    uint64_t m_bytesArrived{0};
    uint64_t m_nextWrId{0};

    TracedCallback<uint32_t, Time> m_iterationTrace;
};

} // namespace ns3

#endif /* RDMA_COLLECTIVE_H */
