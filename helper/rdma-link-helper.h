/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LINK_HELPER_H
#define RDMA_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class NetDevice;
class Node;

/**
 * \ingroup rdma
 * \brief Build Ethernet links (IEEE 802.1Qbb PFC-capable RdmaNetDevice pairs joined by
 * an RdmaChannel), modelled on ns-3's PointToPointHelper.
 *
 * Pcap tracing writes DLT_EN10MB (Ethernet) captures from the PromiscSniffer trace
 * source: data frames and PFC frames both appear, at transmission start and at
 * reception. Ascii tracing maps MacTx to '+', PhyTxBegin to '-', PhyRxDrop to 'd' and
 * MacRx to 'r'.
 */
class RdmaLinkHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    RdmaLinkHelper();
    ~RdmaLinkHelper() override = default;

    /**
     * Set an attribute on every RdmaNetDevice created by Install.
     * \param name the attribute name, e.g. "DataRate"
     * \param value the value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * Set an attribute on every RdmaChannel created by Install.
     * \param name the attribute name, e.g. "Delay"
     * \param value the value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * Choose the link flow control of every device Install creates, by TypeId name:
     * "ns3::RdmaPfcFlowControl" (IEEE 802.1Qbb PFC, the default) or
     * "ns3::RdmaCreditFlowControl" (InfiniBand-style credits). One instance per device.
     * \param type the TypeId name of an RdmaLinkFlowControl subclass
     */
    void SetLinkFlowControl(std::string type);
    /**
     * Set an attribute of the link flow control of every device Install creates (after
     * SetLinkFlowControl), e.g. ("BlockBytes", UintegerValue(64)).
     * \param name the attribute name
     * \param value the value
     */
    void SetLinkFlowControlAttribute(std::string name, const AttributeValue& value);

    /**
     * Choose the scale-up link framing of every device Install creates, by TypeId name:
     * "ns3::RdmaUalinkFlitFraming" or "ns3::RdmaCompressedHeaderFraming" (default: none,
     * Ethernet). Aborts, listing the valid names, if type is not an RdmaLinkFraming.
     * \param type the TypeId name
     */
    void SetLinkFraming(std::string type);
    /**
     * Set an attribute of the link framing of every device Install creates (after
     * SetLinkFraming), e.g. ("TransactionHeaderBytes", UintegerValue(16)).
     * \param name the attribute name
     * \param value its value
     */
    void SetLinkFramingAttribute(std::string name, const AttributeValue& value);

    /**
     * Run link-level retry (ns3::RdmaLinkRetry, PCIe-style ACK/NAK replay) on both ends of
     * every link Install creates. One instance per device.
     */
    void EnableLinkRetry();
    /**
     * Set an attribute of the link-level retry of every device Install creates (after
     * EnableLinkRetry), e.g. ("ReplayBufferBytes", UintegerValue(65536)).
     * \param name the attribute name
     * \param value the value
     */
    void SetLinkRetryAttribute(std::string name, const AttributeValue& value);

    /**
     * Give both devices of every link Install creates their own receive error model of this
     * type (an ns3::ErrorModel, e.g. "ns3::RdmaWireErrorModel" for a bit error rate).
     * \param type the TypeId name
     */
    void SetReceiveErrorModel(std::string type);
    /**
     * Set an attribute of the receive error models (after SetReceiveErrorModel), e.g.
     * ("BitErrorRate", DoubleValue(1e-6)).
     * \param name the attribute name
     * \param value the value
     */
    void SetReceiveErrorModelAttribute(std::string name, const AttributeValue& value);

    /**
     * Connect two nodes: one RdmaNetDevice on each (with a freshly allocated MAC
     * address), attached to a new RdmaChannel.
     * \param a one node
     * \param b the other node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \param c a container of exactly two nodes
     * \return the two devices, in the order of the nodes
     */
    NetDeviceContainer Install(NodeContainer c);

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;      //!< creates the devices
    ObjectFactory m_channelFactory;     //!< creates the channels
    ObjectFactory m_flowControlFactory; //!< creates the link flow controls (if a type is set)
    bool m_flowControlSet{false};       //!< SetLinkFlowControl was called
    ObjectFactory m_framingFactory;     //!< creates the link framings (if a type is set)
    bool m_framingSet{false};           //!< SetLinkFraming was called
    ObjectFactory m_linkRetryFactory;   //!< creates the link-level retries (if enabled)
    bool m_linkRetrySet{false};         //!< EnableLinkRetry was called
    ObjectFactory m_errorModelFactory;  //!< creates the receive error models (if a type is set)
    bool m_errorModelSet{false};        //!< SetReceiveErrorModel was called
};

} // namespace ns3

#endif /* RDMA_LINK_HELPER_H */
