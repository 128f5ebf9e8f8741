/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BULK_SEND_HELPER_H
#define RDMA_BULK_SEND_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Installs RdmaBulkSendApplication senders toward one responder, in the style of
 * BulkSendHelper:
 * \code
 *   RdmaBulkSendHelper bulk(hosts.Get(1));                  // the responder (an RdmaNic)
 *   bulk.SetAttribute("MessageSize", UintegerValue(1 << 20));
 *   ApplicationContainer apps = bulk.Install(hosts.Get(0)); // one-shot WRITE of 1 MiB
 *   apps.Start(Seconds(0));
 * \endcode
 */
class RdmaBulkSendHelper
{
  public:
    /// \param responder the node whose RdmaNic receives (its address becomes Remote)
    explicit RdmaBulkSendHelper(Ptr<Node> responder);

    /**
     * \param name an attribute of ns3::RdmaBulkSendApplication
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param senders nodes with an RdmaNic, one sender each
     * \return the applications
     */
    ApplicationContainer Install(NodeContainer senders) const;
    /**
     * \param sender a node with an RdmaNic
     * \return the application
     */
    ApplicationContainer Install(Ptr<Node> sender) const;

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif /* RDMA_BULK_SEND_HELPER_H */
