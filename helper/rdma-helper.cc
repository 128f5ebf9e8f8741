/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-helper.h"

#include "rdma-routing-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-switch-mmu.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
    : m_network("10.0.0.0"),
      m_mask("255.0.0.0")
{
    m_nicFactory.SetTypeId("ns3::RdmaNic");
    m_qpFactory.SetTypeId("ns3::RdmaQueuePair");
    m_switchFactory.SetTypeId("ns3::RdmaSwitch");
    m_mmuFactory.SetTypeId("ns3::RdmaSwitchMmu");
}

TypeId
RdmaHelper::CheckTypeId(const std::string& name, TypeId base, const char* what)
{
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(name, &tid) && tid.IsChildOf(base) && tid.HasConstructor())
    {
        return tid;
    }
    std::ostringstream valid;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t != base && t.IsChildOf(base) && t.HasConstructor())
        {
            valid << (valid.tellp() > 0 ? ", " : "") << t.GetName();
        }
    }
    NS_ABORT_MSG("unknown " << what << " TypeId '" << name << "'; valid: " << valid.str());
    return tid;
}

void
RdmaHelper::SetScheduler(const std::string& typeId)
{
    CheckTypeId(typeId, Scheduler::GetTypeId(), "scheduler");
    GlobalValue::Bind("SchedulerType", StringValue(typeId));
}

void
RdmaHelper::SetSimulatorImplementation(const std::string& typeId)
{
    CheckTypeId(typeId, SimulatorImpl::GetTypeId(), "simulator implementation");
    GlobalValue::Bind("SimulatorImplementationType", StringValue(typeId));
}

void
RdmaHelper::UseFastestSimulator()
{
    SetScheduler();
    SetSimulatorImplementation();
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

void
RdmaHelper::SetQueuePairType(const std::string& typeId)
{
    m_qpFactory.SetTypeId(
        CheckTypeId(typeId, TypeId::LookupByName("ns3::RdmaTransportEndpoint"), "queue pair"));
    NS_ABORT_MSG_IF(m_qpFactory.GetTypeId() != RdmaQueuePair::GetTypeId() &&
                        !m_qpFactory.GetTypeId().IsChildOf(RdmaQueuePair::GetTypeId()),
                    "RdmaHelper::SetQueuePairType: " << typeId
                                                     << " is not an ns3::RdmaQueuePair (the "
                                                        "helper's Connect returns queue pairs)");
}

void
RdmaHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RdmaHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
RdmaHelper::SetBaseAddress(Ipv4Address network, Ipv4Mask mask)
{
    m_network = network.CombineMask(mask);
    m_mask = mask;
    m_nextHost = 1;
}

Ptr<RdmaNic>
RdmaHelper::InstallHost(Ptr<Node> host)
{
    NS_ABORT_MSG_IF(host->GetObject<RdmaNic>(),
                    "node " << host->GetId() << " already has an RdmaNic");
    NS_ABORT_MSG_IF(host->GetObject<RdmaSwitch>(), "node " << host->GetId() << " is a switch");
    std::vector<Ptr<RdmaNetDevice>> ports;
    for (uint32_t i = 0; i < host->GetNDevices(); ++i)
    {
        if (Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(host->GetDevice(i)))
        {
            ports.push_back(d);
        }
    }
    NS_ABORT_MSG_IF(ports.empty(),
                    "host node " << host->GetId()
                                 << " has no RdmaNetDevice; connect it with RdmaLinkHelper first");
    const uint32_t hostBits = ~m_mask.Get();
    NS_ABORT_MSG_IF(m_nextHost >= hostBits,
                    "address space " << m_network << "/" << m_mask.GetPrefixLength()
                                     << " exhausted after " << m_nextHost - 1 << " hosts");
    Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
    host->AggregateObject(nic);
    nic->SetAddress(Ipv4Address(m_network.Get() | m_nextHost++));
    // Every RdmaNetDevice of the host is a port of its NIC, in device order (port p of a
    // multi-plane host is on plane p).
    for (const auto& port : ports)
    {
        nic->AddDevice(port);
    }
    if (m_psSet)
    {
        nic->SetPathSelector(m_psFactory.Create<RdmaPathSelector>());
    }
    if (m_ccSet)
    {
        nic->SetCongestionControl(m_ccFactory.Create<RdmaCongestionControl>());
    }
    if (m_lrSet)
    {
        nic->SetLossRecovery(m_lrFactory.Create<RdmaLossRecovery>());
    }
    nic->SetQueuePairFactory(m_qpFactory);
    return nic;
}

void
RdmaHelper::InstallHosts(NodeContainer hosts)
{
    for (auto it = hosts.Begin(); it != hosts.End(); ++it)
    {
        InstallHost(*it);
    }
}

void
RdmaHelper::EnableTelemetry()
{
    m_switchFactory.Set("Telemetry", BooleanValue(true));
}

Ptr<RdmaSwitch>
RdmaHelper::InstallSwitch(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(node->GetObject<RdmaSwitch>(),
                    "node " << node->GetId() << " already has an RdmaSwitch");
    NS_ABORT_MSG_IF(node->GetObject<RdmaNic>(), "node " << node->GetId() << " is a host");
    Ptr<RdmaSwitch> sw = m_switchFactory.Create<RdmaSwitch>();
    sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<RdmaSwitchMmu>()));
    if (m_lbSet)
    {
        sw->SetAttribute("LoadBalancer", PointerValue(m_lbFactory.Create<RdmaLoadBalancer>()));
    }
    for (const ObjectFactory& f : m_egressFactories)
    {
        sw->AddEgressProcessor(f.Create<RdmaEgressProcessor>());
    }
    node->AggregateObject(sw);
    sw->SetNode(node);
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(node->GetDevice(i));
        if (d)
        {
            sw->AddPort(d);
        }
    }
    NS_ABORT_MSG_IF(sw->GetNPorts() == 0,
                    "switch node " << node->GetId() << " has no RdmaNetDevice ports");
    return sw;
}

void
RdmaHelper::InstallSwitches(NodeContainer switches)
{
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        InstallSwitch(*it);
    }
}

Ptr<RdmaNic>
RdmaHelper::GetNic(Ptr<Node> node)
{
    Ptr<RdmaNic> nic = node->GetObject<RdmaNic>();
    NS_ABORT_MSG_IF(!nic,
                    "node " << node->GetId()
                            << " has no RdmaNic; install it with RdmaHelper::InstallHost");
    return nic;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::Connect(Ptr<Node> requester, Ptr<Node> responder)
{
    return DoConnect(requester, responder, {});
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::DoConnect(Ptr<Node> requester, Ptr<Node> responder, const AttributeList& attributes)
{
    Ptr<RdmaNic> a = GetNic(requester);
    Ptr<RdmaNic> b = GetNic(responder);
    NS_ABORT_MSG_IF(requester == responder,
                    "Connect: requester and responder are the same node " << requester->GetId());
    NS_ABORT_MSG_IF(!RdmaRoutingHelper::IsReachable(requester, responder),
                    "host " << b->GetAddress() << " (node " << responder->GetId()
                            << ") is unreachable from host " << a->GetAddress() << " (node "
                            << requester->GetId()
                            << "): they are neither cabled to each other nor to RdmaSwitch nodes "
                               "that connect them");
    // A multi-port NIC may send through any of its ports (data by its path selector, ACKs
    // through the port the data arrived on): the peer must be reachable through every one.
    for (const auto& [nic, peer] : {std::make_pair(a, responder), std::make_pair(b, requester)})
    {
        if (nic->GetNDevices() < 2)
        {
            continue; // a single port was checked by IsReachable above
        }
        for (uint32_t i = 0; i < nic->GetNDevices(); ++i)
        {
            NS_ABORT_MSG_IF(!RdmaRoutingHelper::IsReachableThrough(nic->GetDevice(i), peer),
                            "host " << RdmaHelper::GetNic(peer)->GetAddress() << " (node "
                                    << peer->GetId() << ") is unreachable through port " << i
                                    << " of host " << nic->GetAddress() << " (node "
                                    << nic->GetNode()->GetId()
                                    << "); every port of a multi-port NIC must reach every "
                                       "peer (one plane per port: cable each host to every "
                                       "plane)");
        }
    }
    // This connection's own attributes on top of each NIC's factory (checked by Set: an
    // unknown name or a bad value stops naming the attribute).
    auto factoryOf = [&attributes](Ptr<RdmaNic> nic) {
        ObjectFactory f = nic->GetQueuePairFactory();
        for (const auto& [name, value] : attributes)
        {
            TypeId::AttributeInformation info;
            NS_ABORT_MSG_IF(!f.GetTypeId().LookupAttributeByName(name, &info),
                            "RdmaHelper::Connect: " << f.GetTypeId().GetName()
                                                    << " has no attribute '" << name << "'");
            NS_ABORT_MSG_IF(!info.checker->CreateValidValue(*value),
                            "RdmaHelper::Connect: value '"
                                << value->SerializeToString(info.checker) << "' of attribute "
                                << name << " is not valid; valid: "
                                << info.checker->GetUnderlyingTypeInformation());
            f.Set(name, *value);
        }
        return f;
    };
    return a->Connect(b, factoryOf(a), factoryOf(b));
}

int64_t
RdmaHelper::AssignStreams(NodeContainer nodes, int64_t stream)
{
    int64_t current = stream;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaSwitch> sw = (*it)->GetObject<RdmaSwitch>();
        if (sw)
        {
            current += sw->AssignStreams(current);
        }
    }
    return current - stream;
}

} // namespace ns3
