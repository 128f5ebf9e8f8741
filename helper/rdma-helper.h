/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-path-selector.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-switch.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Installs RoCEv2 NICs on hosts and shared-buffer switches on switch nodes, and
 * connects queue pairs.
 *
 * Typical use, after the links exist (RdmaLinkHelper):
 * \code
 *   RdmaHelper rdma;
 *   rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
 *   rdma.SetSwitchAttribute("EcnKmin", UintegerValue(5000));
 *   rdma.InstallHosts(hosts);
 *   rdma.InstallSwitches(switches);
 *   RdmaRoutingHelper::PopulateRoutingTables();
 *   auto [sender, receiver] = rdma.Connect(hosts.Get(1), hosts.Get(0));
 *   sender->PostSend(RdmaWorkRequest{RdmaWorkRequest::WRITE, 1, 1000000});
 * \endcode
 * Each part has its own factory (like the nr module's helpers): NIC, switch, switch MMU,
 * congestion control and loss recovery, each chosen by TypeId and configured by
 * attributes. Hosts get consecutive addresses from SetBaseAddress (10.0.0.1 up).
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /**
     * Set an attribute of every NIC installed from now on.
     * \param name attribute of ns3::RdmaNic
     * \param value its value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every queue pair created from now on.
     * \param name attribute of ns3::RdmaQueuePair
     * \param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Make the queue pairs of the NICs installed from now on of another type: a subclass
     * of ns3::RdmaQueuePair (the transport endpoint seam, RdmaTransportEndpoint). The
     * attributes set so far are kept.
     * \param typeId its TypeId name
     */
    void SetQueuePairType(const std::string& typeId);
    /**
     * Set an attribute of every switch installed from now on.
     * \param name attribute of ns3::RdmaSwitch
     * \param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every switch MMU installed from now on.
     * \param name attribute of ns3::RdmaSwitchMmu
     * \param value its value
     */
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Choose the congestion control of NICs installed from now on.
     * \param typeId a subclass of ns3::RdmaCongestionControl
     * \param args attribute name/value pairs for it
     */
    template <typename... Args>
    void SetCongestionControl(const std::string& typeId, Args&&... args);

    /**
     * Choose the loss recovery of NICs installed from now on.
     * \param typeId a subclass of ns3::RdmaLossRecovery
     * \param args attribute name/value pairs for it
     */
    template <typename... Args>
    void SetLossRecovery(const std::string& typeId, Args&&... args);

    /**
     * Choose the host-side path selector of NICs installed from now on (one instance per
     * NIC; default ns3::RdmaQpPathSelector): which port (plane) and UDP source port each
     * data packet takes.
     * \param typeId a subclass of ns3::RdmaPathSelector
     * \param args attribute name/value pairs for it
     */
    template <typename... Args>
    void SetPathSelector(const std::string& typeId, Args&&... args);

    /**
     * Choose the load balancer of switches installed from now on (one instance per switch;
     * default ns3::RdmaEcmpLoadBalancer).
     * \param typeId a subclass of ns3::RdmaLoadBalancer
     * \param args attribute name/value pairs for it
     */
    template <typename... Args>
    void SetLoadBalancer(const std::string& typeId, Args&&... args);

    /**
     * Add an egress stage to every switch installed from now on (one instance per switch,
     * after the switch's RED marker and telemetry inserter; see RdmaSwitch::
     * AddEgressProcessor). Several calls add several stages, in call order.
     * \param typeId a subclass of ns3::RdmaEgressProcessor
     * \param args attribute name/value pairs for it
     */
    template <typename... Args>
    void AddEgressProcessor(const std::string& typeId, Args&&... args);

    /**
     * Switches installed from now on write in-band telemetry records into packets that ask
     * for them (their Telemetry attribute; RdmaIntInserter).
     */
    void EnableTelemetry();

    /**
     * Addresses of hosts installed from now on: network | 1, network | 2, ...
     * \param network the network address
     * \param mask its mask
     */
    void SetBaseAddress(Ipv4Address network, Ipv4Mask mask);

    /**
     * Install a NIC on a host whose RdmaNetDevices already exist: every one of them becomes
     * a port of the NIC, in device order (multi-port NICs: see RdmaNic and SetPathSelector).
     * \param host the host node
     * \return the NIC
     */
    Ptr<RdmaNic> InstallHost(Ptr<Node> host);
    /**
     * \param hosts host nodes
     */
    void InstallHosts(NodeContainer hosts);
    /**
     * Install a switch on a node; every RdmaNetDevice of the node becomes a port.
     * \param node the switch node
     * \return the switch
     */
    Ptr<RdmaSwitch> InstallSwitch(Ptr<Node> node);
    /**
     * \param switches switch nodes
     */
    void InstallSwitches(NodeContainer switches);

    /**
     * Create a queue pair on each host and connect them (verbs: create, exchange QPN and
     * PSN, modify to RTS). Stops with an error if no path of switches joins the hosts.
     * \param requester the host that posts work requests
     * \param responder the remote host
     * \return the requester's and the responder's queue pair
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<Node> requester,
                                                              Ptr<Node> responder);

    /**
     * Connect with attributes of ns3::RdmaQueuePair for this connection only (a per-flow
     * Dscp, SourcePort, ...), given as name/value pairs like ObjectFactory::Set. They apply to
     * both queue pairs of the connection (as a verbs program sets the same path attributes
     * on both ends with ibv_modify_qp) on top of SetQueuePairAttribute's, before the queue
     * pairs are set up; other connections keep the defaults.
     * \code
     *   auto [qp, peer] = rdma.Connect(a, b, "Dscp", UintegerValue(26));
     * \endcode
     * Per-flow congestion-control parameters: qp->GetCongestionControl()->SetAttribute(...)
     * before the first PostSend.
     * \param requester the local host
     * \param responder the remote host
     * \param name an attribute of ns3::RdmaQueuePair
     * \param value its value
     * \param args more name/value pairs
     * \return the requester's and the responder's queue pair
     */
    template <typename... Args>
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<Node> requester,
                                                              Ptr<Node> responder,
                                                              const std::string& name,
                                                              const AttributeValue& value,
                                                              Args&&... args)
    {
        std::vector<std::pair<std::string, Ptr<AttributeValue>>> attributes;
        CollectAttributes(attributes, name, value, std::forward<Args>(args)...);
        return DoConnect(requester, responder, attributes);
    }

    /**
     * Use fixed random-variable streams in the switches (ECN marking, load balancers) for
     * reproducibility.
     * \param nodes nodes whose switches take streams
     * \param stream first stream number
     * \return number of streams used
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream);

    /**
     * \param node a host
     * \return its NIC (stops with an error if it has none)
     */
    static Ptr<RdmaNic> GetNic(Ptr<Node> node);

    /// The fastest scheduler for this module's event patterns, measured by
    /// benchmarks/run-benchmarks.py --schedulers and --instructions (README, "Performance"):
    /// the module's radix heap (RdmaRadixScheduler), which runs events in the same order as
    /// ns-3's own schedulers. (RdmaTimingWheelScheduler executes fewer instructions but did
    /// not run faster side by side: doc/rdma.rst, "Helpers".)
    static constexpr const char* FASTEST_SCHEDULER = "ns3::RdmaRadixScheduler";

    /**
     * Choose ns-3's event scheduler (the global value SchedulerType). Call it before
     * CommandLine::Parse and before the first event is scheduled: a --SchedulerType on the
     * command line then still overrides it.
     * \param typeId a Scheduler TypeId name (stops with the valid names if it is not one)
     */
    static void SetScheduler(const std::string& typeId = FASTEST_SCHEDULER);

    /// The fastest sequential simulator implementation for this module's event patterns
    /// (benchmarks/run-benchmarks.py --instructions): RdmaSimulatorImpl, which runs events
    /// in the same order as ns-3's DefaultSimulatorImpl with less work per event.
    static constexpr const char* FASTEST_SIMULATOR = "ns3::RdmaSimulatorImpl";

    /**
     * Choose ns-3's simulator implementation (the global value SimulatorImplementationType).
     * Call it before CommandLine::Parse and before anything touches the simulator: a
     * --SimulatorImplementationType on the command line then still overrides it.
     * \param typeId a SimulatorImpl TypeId name (stops with the valid names if it is not one)
     */
    static void SetSimulatorImplementation(const std::string& typeId = FASTEST_SIMULATOR);

    /**
     * The fastest sequential set-up: SetScheduler() and SetSimulatorImplementation() with
     * their defaults. Results are the same as with ns-3's defaults (the same events in the
     * same order); both can still be overridden on the command line.
     */
    static void UseFastestSimulator();

  private:
    /// The attributes of a Connect call, as (name, value) pairs.
    using AttributeList = std::vector<std::pair<std::string, Ptr<AttributeValue>>>;

    /// End of CollectAttributes' recursion.
    static void CollectAttributes(AttributeList& /* list */)
    {
    }

    /// Append name/value pairs to `list`.
    template <typename... Args>
    static void CollectAttributes(AttributeList& list,
                                  const std::string& name,
                                  const AttributeValue& value,
                                  Args&&... args)
    {
        list.emplace_back(name, value.Copy());
        CollectAttributes(list, std::forward<Args>(args)...);
    }

    /**
     * Connect with per-connection queue-pair attributes.
     * \param requester the local host
     * \param responder the remote host
     * \param attributes attributes of ns3::RdmaQueuePair for both ends
     * \return the two queue pairs
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> DoConnect(Ptr<Node> requester,
                                                                Ptr<Node> responder,
                                                                const AttributeList& attributes);
    /// Resolve a TypeId name, stopping with the list of valid choices if it is unknown.
    static TypeId CheckTypeId(const std::string& name, TypeId base, const char* what);

    ObjectFactory m_nicFactory;
    ObjectFactory m_qpFactory;
    ObjectFactory m_switchFactory;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_ccFactory;
    ObjectFactory m_lrFactory;
    bool m_ccSet{false};
    bool m_lrSet{false};
    ObjectFactory m_lbFactory;
    bool m_lbSet{false};
    ObjectFactory m_psFactory;
    bool m_psSet{false};
    std::vector<ObjectFactory> m_egressFactories; //!< AddEgressProcessor, in call order
    Ipv4Address m_network;
    Ipv4Mask m_mask;
    uint32_t m_nextHost{1};
};

template <typename... Args>
void
RdmaHelper::SetCongestionControl(const std::string& typeId, Args&&... args)
{
    m_ccFactory.SetTypeId(CheckTypeId(typeId,
                                      TypeId::LookupByName("ns3::RdmaCongestionControl"),
                                      "congestion control"));
    m_ccFactory.Set(std::forward<Args>(args)...);
    m_ccSet = true;
}

template <typename... Args>
void
RdmaHelper::SetLossRecovery(const std::string& typeId, Args&&... args)
{
    m_lrFactory.SetTypeId(
        CheckTypeId(typeId, TypeId::LookupByName("ns3::RdmaLossRecovery"), "loss recovery"));
    m_lrFactory.Set(std::forward<Args>(args)...);
    m_lrSet = true;
}

template <typename... Args>
void
RdmaHelper::SetLoadBalancer(const std::string& typeId, Args&&... args)
{
    m_lbFactory.SetTypeId(
        CheckTypeId(typeId, TypeId::LookupByName("ns3::RdmaLoadBalancer"), "load balancer"));
    m_lbFactory.Set(std::forward<Args>(args)...);
    m_lbSet = true;
}

template <typename... Args>
void
RdmaHelper::AddEgressProcessor(const std::string& typeId, Args&&... args)
{
    ObjectFactory f;
    f.SetTypeId(
        CheckTypeId(typeId, TypeId::LookupByName("ns3::RdmaEgressProcessor"), "egress processor"));
    f.Set(std::forward<Args>(args)...);
    m_egressFactories.push_back(f);
}

template <typename... Args>
void
RdmaHelper::SetPathSelector(const std::string& typeId, Args&&... args)
{
    m_psFactory.SetTypeId(
        CheckTypeId(typeId, TypeId::LookupByName("ns3::RdmaPathSelector"), "path selector"));
    m_psFactory.Set(std::forward<Args>(args)...);
    m_psSet = true;
}

} // namespace ns3

#endif /* RDMA_HELPER_H */
