/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_REPLAYER_H
#define RDMA_FLOW_REPLAYER_H

#include "hpcc-flow.h"
#include "rdma-work-request.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief Replays a list of flows (the HPCC simulator's flow file, read by HpccFlowReader):
 * each flow one RDMA WRITE of its size to its destination at its start time, on a queue
 * pair of its own, as the HPCC simulator's scenario program (scratch/third.cc) starts one
 * queue pair per flow line.
 *
 * One replayer per source host holds that host's flows (RdmaFlowReplayerHelper splits a
 * flow file among the hosts). A flow of priority group p is sent with DSCP (p << 3) | 2
 * (traffic class p, DSCP / 8, on both ends); its UDP source port is FirstSourcePort for the
 * first flow to a destination and one more for each next flow to it, in list order, as the
 * peer numbers them (its portNumber[src][dst]), so that ECMP hashes the same 5-tuples.
 * A flow whose start is before the application's start time starts at once.
 *
 * Each flow is one event at its start time and one completion; the replayer does no
 * per-packet work. FlowStarted and FlowCompleted let a scenario (HpccScenarioHelper) record
 * the flows; QueuePairCreated (as RdmaFlowGenerator's) lets RdmaFlowMonitor watch them.
 */
class RdmaFlowReplayer : public Application
{
  public:
    /// TracedCallback signature for a flow start: index in GetFlows(), both queue pairs.
    typedef void (*FlowStartedTracedCallback)(uint32_t index,
                                              Ptr<RdmaQueuePair> qp,
                                              Ptr<RdmaQueuePair> peer);
    /// TracedCallback signature for a new connection (requester and responder queue pairs).
    typedef void (*QueuePairTracedCallback)(Ptr<RdmaQueuePair> requester,
                                            Ptr<RdmaQueuePair> responder);
    /// TracedCallback signature for a flow completion (its WRITE acknowledged).
    typedef void (*FlowCompletedTracedCallback)(uint32_t index, const RdmaCompletion& completion);
    /// Sets per-flow attributes on the factory of the flow's sending queue pair.
    typedef std::function<void(const HpccFlow& flow, ObjectFactory& factory)>
        ConnectionAttributesCallback;

    /**
     * \brief Get the type ID.
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaFlowReplayer();

    /**
     * \param flows the flows this host sends (their src is this node's index in `nodes`)
     * \param nodes the nodes the flows' src and dst index
     */
    void SetFlows(const std::vector<HpccFlow>& flows, const NodeContainer& nodes);
    /// \return the flows, in the order given
    const std::vector<HpccFlow>& GetFlows() const;
    /**
     * \param callback called before each flow connects, with a copy of the NIC's queue-pair
     * factory (e.g. a BaseRtt of the flow's path)
     */
    void SetConnectionAttributes(ConnectionAttributesCallback callback);

    /// \return flows started
    uint32_t GetFlowsStarted() const;
    /// \return flows completed
    uint32_t GetFlowsCompleted() const;
    /// \return bytes of the flows completed
    uint64_t GetBytesCompleted() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Connect flow `index`'s queue pairs and post its WRITE.
    void StartFlow(uint32_t index);
    /// A WRITE completed (wrId: the flow's index).
    void FlowCompleted(const RdmaCompletion& completion);

    std::vector<HpccFlow> m_flows;
    NodeContainer m_nodes;
    std::vector<uint16_t> m_sourcePorts; //!< per flow, from FirstSourcePort
    std::vector<EventId> m_starts;       //!< pending flow starts
    ConnectionAttributesCallback m_connectionAttributes;
    uint32_t m_firstSourcePort{10000};
    uint32_t m_started{0};
    uint32_t m_completed{0};
    uint64_t m_bytesCompleted{0};

    TracedCallback<uint32_t, Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> m_flowStartedTrace;
    TracedCallback<uint32_t, const RdmaCompletion&> m_flowCompletedTrace;
    TracedCallback<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> m_qpCreatedTrace;
};

} // namespace ns3

#endif /* RDMA_FLOW_REPLAYER_H */
