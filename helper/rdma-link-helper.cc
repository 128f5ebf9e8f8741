/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-link-helper.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rdma-channel.h"
#include "ns3/rdma-link-flow-control.h"
#include "ns3/rdma-link-framing.h"
#include "ns3/rdma-link-retry.h"
#include "ns3/rdma-net-device.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaLinkHelper");

RdmaLinkHelper::RdmaLinkHelper()
{
    m_deviceFactory.SetTypeId("ns3::RdmaNetDevice");
    m_channelFactory.SetTypeId("ns3::RdmaChannel");
}

void
RdmaLinkHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RdmaLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
RdmaLinkHelper::SetLinkFlowControl(std::string type)
{
    NS_LOG_FUNCTION(this << type);
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(type, &tid) ||
                        !tid.IsChildOf(RdmaLinkFlowControl::GetTypeId()),
                    "RdmaLinkHelper::SetLinkFlowControl: '"
                        << type
                        << "' is not a link flow control; valid: ns3::RdmaPfcFlowControl, "
                           "ns3::RdmaCreditFlowControl");
    m_flowControlFactory.SetTypeId(tid);
    m_flowControlSet = true;
}

void
RdmaLinkHelper::SetLinkFlowControlAttribute(std::string name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_flowControlSet,
                    "RdmaLinkHelper::SetLinkFlowControlAttribute(" << name
                                                                   << "): call "
                                                                      "SetLinkFlowControl first");
    m_flowControlFactory.Set(name, value);
}

void
RdmaLinkHelper::SetLinkFraming(std::string type)
{
    NS_LOG_FUNCTION(this << type);
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(type, &tid) ||
                        !tid.IsChildOf(RdmaLinkFraming::GetTypeId()) ||
                        tid == RdmaLinkFraming::GetTypeId(),
                    "RdmaLinkHelper::SetLinkFraming: '"
                        << type
                        << "' is not a link framing; valid: ns3::RdmaUalinkFlitFraming, "
                           "ns3::RdmaCompressedHeaderFraming");
    m_framingFactory.SetTypeId(tid);
    m_framingSet = true;
}

void
RdmaLinkHelper::SetLinkFramingAttribute(std::string name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_framingSet,
                    "RdmaLinkHelper::SetLinkFramingAttribute(" << name
                                                               << "): call SetLinkFraming first");
    m_framingFactory.Set(name, value);
}

void
RdmaLinkHelper::EnableLinkRetry()
{
    m_linkRetryFactory.SetTypeId(RdmaLinkRetry::GetTypeId());
    m_linkRetrySet = true;
}

void
RdmaLinkHelper::SetLinkRetryAttribute(std::string name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_linkRetrySet,
                    "RdmaLinkHelper::SetLinkRetryAttribute(" << name
                                                             << "): call EnableLinkRetry first");
    m_linkRetryFactory.Set(name, value);
}

void
RdmaLinkHelper::SetReceiveErrorModel(std::string type)
{
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(type, &tid) ||
                        !tid.IsChildOf(ErrorModel::GetTypeId()),
                    "RdmaLinkHelper::SetReceiveErrorModel: '"
                        << type
                        << "' is not an error model; valid: an ns3::ErrorModel subclass such "
                           "as ns3::RdmaWireErrorModel");
    m_errorModelFactory.SetTypeId(tid);
    m_errorModelSet = true;
}

void
RdmaLinkHelper::SetReceiveErrorModelAttribute(std::string name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_errorModelSet,
                    "RdmaLinkHelper::SetReceiveErrorModelAttribute("
                        << name << "): call SetReceiveErrorModel first");
    m_errorModelFactory.Set(name, value);
}

NetDeviceContainer
RdmaLinkHelper::Install(NodeContainer c)
{
    NS_ABORT_MSG_IF(c.GetN() != 2,
                    "RdmaLinkHelper::Install: a link joins exactly two nodes, the container holds "
                        << c.GetN());
    return Install(c.Get(0), c.Get(1));
}

NetDeviceContainer
RdmaLinkHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_ABORT_MSG_IF(!a || !b, "RdmaLinkHelper::Install: null node");
    Ptr<RdmaNetDevice> devA = m_deviceFactory.Create<RdmaNetDevice>();
    devA->SetAddress(Mac48Address::Allocate());
    a->AddDevice(devA);
    Ptr<RdmaNetDevice> devB = m_deviceFactory.Create<RdmaNetDevice>();
    devB->SetAddress(Mac48Address::Allocate());
    b->AddDevice(devB);

    if (m_flowControlSet)
    {
        devA->SetLinkFlowControl(m_flowControlFactory.Create<RdmaLinkFlowControl>());
        devB->SetLinkFlowControl(m_flowControlFactory.Create<RdmaLinkFlowControl>());
    }
    if (m_framingSet)
    {
        devA->SetLinkFraming(m_framingFactory.Create<RdmaLinkFraming>());
        devB->SetLinkFraming(m_framingFactory.Create<RdmaLinkFraming>());
    }
    if (m_linkRetrySet)
    {
        devA->SetLinkRetry(m_linkRetryFactory.Create<RdmaLinkRetry>());
        devB->SetLinkRetry(m_linkRetryFactory.Create<RdmaLinkRetry>());
    }
    if (m_errorModelSet)
    {
        devA->SetAttribute("ReceiveErrorModel",
                           PointerValue(m_errorModelFactory.Create<ErrorModel>()));
        devB->SetAttribute("ReceiveErrorModel",
                           PointerValue(m_errorModelFactory.Create<ErrorModel>()));
    }
    Ptr<RdmaChannel> channel = m_channelFactory.Create<RdmaChannel>();
    devA->Attach(channel);
    devB->Attach(channel);

    NetDeviceContainer container;
    container.Add(devA);
    container.Add(devB);
    return container;
}

void
RdmaLinkHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    NS_LOG_FUNCTION(this << prefix << nd << promiscuous << explicitFilename);
    // A point-to-point link sees only its own frames: promiscuous and non-promiscuous
    // captures are the same (as in PointToPointHelper).
    Ptr<RdmaNetDevice> device = nd->GetObject<RdmaNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("RdmaLinkHelper::EnablePcapInternal(): device " << nd
                                                                    << " is not an RdmaNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<RdmaNetDevice>(device, "PromiscSniffer", file);
}

void
RdmaLinkHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                    std::string prefix,
                                    Ptr<NetDevice> nd,
                                    bool explicitFilename)
{
    Ptr<RdmaNetDevice> device = nd->GetObject<RdmaNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("RdmaLinkHelper::EnableAsciiInternal(): device " << nd
                                                                     << " is not an RdmaNetDevice");
        return;
    }

    // The default sinks print packet contents.
    Packet::EnablePrinting();

    if (!stream)
    {
        // One file per device: no context needed.
        AsciiTraceHelper asciiTraceHelper;
        std::string filename =
            explicitFilename ? prefix : asciiTraceHelper.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> theStream = asciiTraceHelper.CreateFileStream(filename);
        asciiTraceHelper.HookDefaultEnqueueSinkWithoutContext<RdmaNetDevice>(device,
                                                                             "MacTx",
                                                                             theStream);
        asciiTraceHelper.HookDefaultDequeueSinkWithoutContext<RdmaNetDevice>(device,
                                                                             "PhyTxBegin",
                                                                             theStream);
        asciiTraceHelper.HookDefaultDropSinkWithoutContext<RdmaNetDevice>(device,
                                                                          "PhyRxDrop",
                                                                          theStream);
        asciiTraceHelper.HookDefaultReceiveSinkWithoutContext<RdmaNetDevice>(device,
                                                                             "MacRx",
                                                                             theStream);
        return;
    }

    // A shared stream: connect through the config system, which supplies the context.
    std::ostringstream base;
    base << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::RdmaNetDevice/";
    Config::Connect(base.str() + "MacTx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultEnqueueSinkWithContext, stream));
    Config::Connect(base.str() + "PhyTxBegin",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    Config::Connect(base.str() + "PhyRxDrop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    Config::Connect(base.str() + "MacRx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
}

} // namespace ns3
