/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BULK_SEND_APPLICATION_H
#define RDMA_BULK_SEND_APPLICATION_H

#include "rdma-work-request.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class RdmaNic;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * \brief A bulk or one-shot RDMA sender, the RDMA counterpart of ns-3's
 * BulkSendApplication: at its start time it connects one queue pair to the NIC whose address
 * is Remote and posts messages of MessageSize bytes (WRITE or SEND, Opcode), keeping
 * Outstanding of them posted: each completion posts the next until Messages have been
 * posted (0: until the application stops).
 *
 * Opcode FetchAdd or CompareSwap makes it an atomic workload: every message is one
 * 8-byte atomic (IBTA vol. 1 §9.4.5) on the same remote word (AtomicAddress, AtomicOperand,
 * AtomicSwap), and AtomicCompleted reports each returned value.
 *
 * Messages 1 is a one-shot transfer (one message, one completion); Outstanding 2 or more
 * keeps the send queue from running dry between messages, so a long run sends at the
 * rate the congestion control allows. The QueuePairCreated trace (as RdmaFlowGenerator's)
 * lets RdmaFlowMonitor record every message.
 */
class RdmaBulkSendApplication : public Application
{
  public:
    /// TracedCallback signature for the connection (requester and responder queue pairs).
    typedef void (*QueuePairTracedCallback)(Ptr<RdmaQueuePair> requester,
                                            Ptr<RdmaQueuePair> responder);
    /// TracedCallback signature for a completed atomic (its Original Remote Data).
    typedef void (*AtomicTracedCallback)(uint64_t original);

    /**
     * \brief Get the type ID.
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaBulkSendApplication();

    /// \return messages completed (acknowledged)
    uint64_t GetMessagesCompleted() const;
    /// \return bytes of the messages completed
    uint64_t GetBytesCompleted() const;
    /// \return the requester queue pair (after the start), or nullptr
    Ptr<RdmaQueuePair> GetQueuePair() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Post messages until Outstanding are posted or Messages have been.
    void Post();
    /// A message completed: post the next.
    void Completed(const RdmaCompletion& completion);

    Ipv4Address m_remote;
    uint64_t m_messageSize{1 << 20};
    uint64_t m_messages{1};
    uint32_t m_outstanding{1};
    RdmaWorkRequest::Opcode m_opcode{RdmaWorkRequest::WRITE};
    uint64_t m_atomicAddress{0}; //!< AtomicAddress attribute
    uint64_t m_atomicOperand{1}; //!< AtomicOperand attribute
    uint64_t m_atomicSwap{0};    //!< AtomicSwap attribute

    Ptr<RdmaQueuePair> m_qp;
    bool m_running{false};
    uint64_t m_posted{0};
    uint64_t m_completed{0};
    uint64_t m_bytesCompleted{0};

    TracedCallback<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> m_qpCreatedTrace;
    TracedCallback<uint64_t> m_atomicTrace; //!< AtomicCompleted
};

} // namespace ns3

#endif /* RDMA_BULK_SEND_APPLICATION_H */
