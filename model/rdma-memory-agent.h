/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MEMORY_AGENT_H
#define RDMA_MEMORY_AGENT_H

#include "rdma-memory-operation.h"
#include "rdma-memory.h"
#include "rdma-queue-pair.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An accelerator's memory-semantic load/store unit: remote loads, stores and atomics
 * of 64-256 bytes with a bounded number of outstanding requests, carried by one RC queue
 * pair per peer.
 *
 * Scale-up fabrics (NVLink, UALink, Broadcom SUE) let a GPU reach a peer's memory with
 * ordinary load, store and atomic instructions instead of verbs work requests (UALink 200G
 * 1.0: read, write and atomic transactions of up to 256 bytes; NVSHMEM's nvshmem_p/g,
 * nvshmem_putmem_signal). This class is that unit: the program submits operations with
 * Load, Store, FetchAdd, CompareSwap and PutWithSignal; they wait in an issue FIFO in
 * program order and leave it one by one, at most MaxOutstanding in flight (the GPU's load
 * queue: Little's law makes it the bandwidth bound, bandwidth = in-flight bytes / round
 * trip). A load is an RDMA READ, a store an RDMA WRITE, an atomic an RDMA atomic, on the
 * queue pair of its peer (AddPeer; RdmaMemoryAgentHelper creates them with InitiatorDepth
 * and ResponderResources at least MaxOutstanding, so the queue pair is not the bound); the
 * queue pair's path selector interleaves them over the planes by their remote address.
 * The agent does not know which loss recovery the queue pair runs.
 *
 * <b>Ordering</b> (the release/acquire rules of the C++11 and PTX memory models, reduced
 * to what a remote-memory unit enforces):
 * - RELAXED: only program order of issue (the FIFO); completions may come in any order.
 * - RELEASE (stores, atomics): not issued before every earlier store and atomic, to any
 *   peer, has completed (been acknowledged); later operations wait behind it in the FIFO.
 * - ACQUIRE (loads, atomics): no later operation is issued until it has completed.
 *
 * <b>Issue cost.</b> A load or store is one instruction (against tens for building a verbs
 * work request and ringing a doorbell), so IssueInterval defaults to 0: operations leave
 * the FIFO as soon as the rules above allow. A positive interval spaces consecutive issues.
 *
 * <b>Flag polling.</b> WaitFlag models a consumer spinning on a flag word of this node's
 * RdmaMemory every PollInterval from the moment it starts waiting: the flag is seen at the
 * first poll tick at or after the atomic that raises it to the awaited value executes.
 * Polls are not simulated one by one: the agent listens to RdmaMemory's Atomic trace and
 * schedules one event, at that tick, per satisfied wait. PutWithSignal is NVSHMEM's
 * nvshmem_putmem_signal: the data as relaxed stores, then a release Fetch & Add of the
 * signal on the flag word at the target.
 *
 * <b>No allocation per operation.</b> The FIFO is a ring buffer that grows only when more
 * operations are queued than ever before, the in-flight operations live in MaxOutstanding
 * preallocated slots (the work request's wrId is the slot index), and the queue pairs'
 * completion callbacks are bound once per peer: in steady state an operation costs exactly
 * the queue pair's own work for its READ, WRITE or atomic.
 *
 * An ns-3 Object aggregated to the accelerator's Node (like RdmaMemory): it is a
 * node-level hardware unit driven by calls from programs (Applications, scripts), with no
 * start and stop of its own, so it is not an Application.
 */
class RdmaMemoryAgent : public Object
{
  public:
    /// Smallest load or store, bytes (UALink and NVLink move 64-byte flits and sectors).
    static constexpr uint32_t MIN_ACCESS_BYTES = 64;
    /// Largest load or store, bytes (UALink 1.0's largest read and write request).
    static constexpr uint32_t MAX_ACCESS_BYTES = 256;
    /// Size of an atomic, bytes (RDMA atomics: 8 bytes at an 8-byte aligned address).
    static constexpr uint32_t ATOMIC_BYTES = 8;

    /// Called when an operation completes.
    typedef Callback<void, const RdmaMemoryOperation&> OperationCallback;
    /// Called when a flag wait is satisfied: the flag's address, its value, when seen.
    typedef Callback<void, uint64_t, uint64_t, Time> FlagCallback;
    /// TracedCallback signature for an operation event (issued, completed).
    typedef void (*OperationTracedCallback)(const RdmaMemoryOperation& operation);
    /// TracedCallback signature for a flag seen by a poller: address, value.
    typedef void (*FlagTracedCallback)(uint64_t address, uint64_t value);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaMemoryAgent();
    ~RdmaMemoryAgent() override;

    /**
     * Give the agent the queue pair that reaches a peer (this node is its requester).
     * Binds the queue pair's send completion callback to the agent.
     * \param peer the peer's index (e.g. the accelerator index in a pod)
     * \param qp the connected queue pair
     */
    void AddPeer(uint32_t peer, Ptr<RdmaQueuePair> qp);
    /**
     * \param memory this node's memory, which WaitFlag observes
     */
    void SetMemory(Ptr<RdmaMemory> memory);
    /// \return the queue pair to a peer (null if none)
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t peer) const;

    /**
     * A remote load (RDMA READ) of size bytes.
     * \param peer the peer's index
     * \param address remote virtual address, a multiple of size
     * \param size a power of two from 64 to 256
     * \param ordering RELAXED or ACQUIRE
     * \return the operation's id
     */
    uint64_t Load(uint32_t peer,
                  uint64_t address,
                  uint32_t size,
                  RdmaMemoryOperation::Ordering ordering = RdmaMemoryOperation::RELAXED);
    /**
     * A remote store (RDMA WRITE) of size bytes.
     * \param peer the peer's index
     * \param address remote virtual address, a multiple of size
     * \param size a power of two from 64 to 256
     * \param ordering RELAXED or RELEASE
     * \return the operation's id
     */
    uint64_t Store(uint32_t peer,
                   uint64_t address,
                   uint32_t size,
                   RdmaMemoryOperation::Ordering ordering = RdmaMemoryOperation::RELAXED);
    /**
     * A remote atomic Fetch & Add on the 8-byte word at address.
     * \param peer the peer's index
     * \param address remote virtual address, 8-byte aligned
     * \param add the value added
     * \param ordering any
     * \return the operation's id
     */
    uint64_t FetchAdd(uint32_t peer,
                      uint64_t address,
                      uint64_t add,
                      RdmaMemoryOperation::Ordering ordering = RdmaMemoryOperation::RELAXED);
    /**
     * A remote atomic Compare & Swap on the 8-byte word at address.
     * \param peer the peer's index
     * \param address remote virtual address, 8-byte aligned
     * \param compare the value compared
     * \param swap the value written on a match
     * \param ordering any
     * \return the operation's id
     */
    uint64_t CompareSwap(uint32_t peer,
                         uint64_t address,
                         uint64_t compare,
                         uint64_t swap,
                         RdmaMemoryOperation::Ordering ordering = RdmaMemoryOperation::RELAXED);
    /**
     * Put with signal (NVSHMEM nvshmem_putmem_signal with NVSHMEM_SIGNAL_ADD): bytes as
     * relaxed stores of up to 256 bytes (each the largest power of two the address is
     * aligned to and the rest allows), then a release Fetch & Add of signal on the flag word.
     * \param peer the peer's index
     * \param address remote virtual address of the data, a multiple of 64
     * \param bytes data bytes, a positive multiple of 64
     * \param flagAddress the flag word at the peer, 8-byte aligned
     * \param signal the value added to the flag
     * \return the id of the flag's atomic (the last operation)
     */
    uint64_t PutWithSignal(uint32_t peer,
                           uint64_t address,
                           uint64_t bytes,
                           uint64_t flagAddress,
                           uint64_t signal);

    /**
     * Start polling a flag word of this node's memory (SetMemory) every PollInterval:
     * the callback runs at the first poll tick (now + k PollInterval, k >= 0) at which the
     * word is at least value, i.e. the first tick at or after the atomic that raised it.
     * \param address the flag word, 8-byte aligned
     * \param value the value awaited (the word >= value)
     * \param cb called once, when the flag is seen
     */
    void WaitFlag(uint64_t address, uint64_t value, FlagCallback cb);

    /// \param cb called when any operation completes (besides the Complete trace)
    void SetCompletionCallback(OperationCallback cb);

    /// \return operations submitted
    uint64_t GetSubmitted() const;
    /// \return operations completed
    uint64_t GetCompleted() const;
    /// \return completed operations whose response never came (RESPONSE_TIMEOUT status)
    uint64_t GetTimedOut() const;
    /// \return operations issued and not completed
    uint32_t GetInFlight() const;
    /// \return operations waiting in the issue FIFO
    uint64_t GetQueued() const;
    /// \return the largest number of operations in flight at once
    uint32_t GetMaxInFlightSeen() const;
    /// \return the MaxOutstanding attribute
    uint32_t GetMaxOutstanding() const;
    /// \return bytes of agent state per outstanding request (one slot)
    static uint64_t GetSlotBytes();

  protected:
    void DoDispose() override;

  private:
    /// Abort unless size is a valid load/store size and address a multiple of it.
    static void CheckAccess(const char* what, uint64_t address, uint32_t size);
    /// Abort unless the peer has a queue pair.
    void CheckPeer(const char* what, uint32_t peer) const;
    /// Abort unless MaxOutstanding is valid; allocate the slots (first use).
    void PrepareSlots();
    /// Abort unless an atomic's address is 8-byte aligned.
    static void CheckAtomicAddress(const char* what, uint64_t address);
    /// Put an operation (checked) at the tail of the issue FIFO and issue what the rules
    /// allow; return its id.
    uint64_t Submit(RdmaMemoryOperation::Kind kind,
                    RdmaMemoryOperation::Ordering ordering,
                    uint32_t peer,
                    uint64_t address,
                    uint32_t size,
                    uint64_t operand = 0,
                    uint64_t swap = 0);
    /// Issue operations from the FIFO head while MaxOutstanding and the ordering allow.
    void TryIssue();
    /// Post the FIFO head's operation to its queue pair in a free slot.
    void IssueHead();
    /// A queue pair completed one of the agent's work requests (wrId: the slot).
    void QpCompleted(const RdmaCompletion& completion);
    /// RdmaMemory's Atomic trace: a word changed; satisfy flag waits on it.
    void AtomicExecuted(uint64_t address, uint64_t original, uint64_t result);
    /// A flag wait's poll tick came (index in m_waits).
    void FlagSeen(uint64_t address, uint64_t value, FlagCallback cb);

    /// A consumer polling a flag word.
    struct FlagWait
    {
        uint64_t address; //!< the flag word
        uint64_t value;   //!< awaited value (the word >= value)
        Time start;       //!< the first poll
        FlagCallback cb;  //!< called when seen
    };

    uint32_t m_maxOutstanding;               //!< MaxOutstanding attribute
    Time m_issueInterval;                    //!< IssueInterval attribute
    Time m_pollInterval;                     //!< PollInterval attribute
    std::vector<Ptr<RdmaQueuePair>> m_peers; //!< queue pair by peer index (null: none)
    Ptr<RdmaMemory> m_memory;                //!< this node's memory (flag polling)
    bool m_memoryTraced{false};              //!< connected to m_memory's Atomic trace

    std::vector<RdmaMemoryOperation> m_fifo;  //!< issue FIFO ring (capacity a power of two)
    uint64_t m_fifoHead{0};                   //!< index of the head (mod capacity)
    uint64_t m_fifoCount{0};                  //!< operations in the FIFO
    std::vector<RdmaMemoryOperation> m_slots; //!< in-flight operations by slot (wrId)
    std::vector<uint32_t> m_freeSlots;        //!< free slot indices (a stack)
    uint32_t m_inFlight{0};                   //!< issued, not complete
    uint32_t m_writesInFlight{0};             //!< of those, stores and atomics
    uint32_t m_acquiresInFlight{0};           //!< of those, acquires
    uint32_t m_maxInFlightSeen{0};
    Time m_nextIssue;     //!< earliest next issue (IssueInterval)
    EventId m_issueEvent; //!< pending TryIssue after an issue interval
    uint64_t m_nextId{0};
    uint64_t m_completed{0};
    uint64_t m_timedOut{0};        //!< completions with RESPONSE_TIMEOUT status
    std::vector<FlagWait> m_waits; //!< flag waits not yet satisfied

    OperationCallback m_completionCallback;
    TracedCallback<const RdmaMemoryOperation&> m_issueTrace;    //!< Issue trace source
    TracedCallback<const RdmaMemoryOperation&> m_completeTrace; //!< Complete trace source
    TracedCallback<uint64_t, uint64_t> m_flagTrace;             //!< FlagSeen trace source
};

} // namespace ns3

#endif /* RDMA_MEMORY_AGENT_H */
