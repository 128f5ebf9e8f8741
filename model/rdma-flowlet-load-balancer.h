/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOWLET_LOAD_BALANCER_H
#define RDMA_FLOWLET_LOAD_BALANCER_H

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-load-balancer.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Flowlet switching with random path choice (LetFlow: Vanini, Pan, Alizadeh, Taheri
 * and Edsall, "Let It Flow: Resilient Asymmetric Load Balancing with Flowlet Switching",
 * NSDI 2017; flowlets: Kandula, Katabi, Sinha and Berger, "Dynamic Load Balancing Without
 * Packet Reordering", ACM CCR 2007; the switch table of CONGA, Alizadeh et al., SIGCOMM 2014).
 *
 * A flowlet is a burst of packets of a flow separated from the previous burst by more than
 * FlowletTimeout. All packets of a flowlet take the same egress port; a new flowlet takes a
 * port drawn uniformly at random among the equal-cost ports (LetFlow). If the timeout exceeds
 * the largest difference of delay between the equal-cost paths, the first packet of a
 * flowlet cannot overtake the last one of the previous flowlet: no reordering.
 *
 * <b>Table.</b> As in CONGA and LetFlow hardware, a fixed array of TableSize entries indexed
 * by the flow hash (RdmaLoadBalancer::FlowHash, slot = ((h mod 2^32) x TableSize) >> 32);
 * each entry holds the time of its last packet and its port. A packet whose entry saw a packet
 * at most FlowletTimeout ago (gap <= timeout) takes the entry's port; otherwise (gap >
 * timeout, or an unused entry) a new flowlet starts. The table has no tags in the decision:
 * flows that hash to the same slot share it (and its port) while either is active, which
 * keeps both in order; GetCollisions counts packets that found their active entry last used by
 * another flow (a sign that TableSize is too small). Memory is bounded by TableSize x 24 bytes
 * whatever the number of flows; nothing is allocated per packet.
 *
 * <b>Default timeout: 50 us.</b> The timeout must exceed the largest delay difference between
 * equal-cost paths (Kandula et al.). CONGA and LetFlow used hundreds of microseconds for
 * TCP over 10/40 Gb/s fabrics with deep queues; RDMA simulators of LetFlow and CONGA at
 * 100 Gb/s (ConWeave, Song et al., SIGCOMM 2023) use 100 us. In a two-tier fabric with this
 * module's defaults, ECN keeps each egress queue near EcnKmax = 200 KB, i.e. 16 us at
 * 100 Gb/s, and a path crosses two queued hops (leaf uplink, spine downlink): delay
 * differences stay under 2 x 16 = 32 us, below 50 us. Longer timeouts (or PFC-paused
 * queues, whose delay is unbounded) make flowlets rarer and the policy closer to ECMP;
 * shorter ones make it closer to per-packet spraying. Note that RoCE senders at line rate
 * leave no gaps: flowlets appear when congestion control paces a queue pair below line rate,
 * or when PFC pauses it.
 */
class RdmaFlowletLoadBalancer : public RdmaLoadBalancer
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaFlowletLoadBalancer();
    ~RdmaFlowletLoadBalancer() override;

    int64_t AssignStreams(int64_t stream) override;

    /**
     * Set the flowlet inactivity timeout.
     * \param timeout the timeout (not negative)
     */
    void SetFlowletTimeout(Time timeout);
    /// \return the flowlet inactivity timeout
    Time GetFlowletTimeout() const;
    /**
     * Resize the flowlet table; every entry is cleared.
     * \param size number of entries (at least 1)
     */
    void SetTableSize(uint32_t size);
    /// \return the number of table entries
    uint32_t GetTableSize() const;

    /// \return flowlets started (packets that found their entry unused or expired)
    uint64_t GetFlowletCount() const;
    /// \return packets that found their active entry last used by another flow
    uint64_t GetCollisions() const;
    /// \return entries whose last packet is at most FlowletTimeout old now
    uint32_t GetActiveEntries() const;

  protected:
    void DoDispose() override;

  private:
    uint32_t DoSelectPort(const RdmaFlowKey& key,
                          const std::vector<uint32_t>& ports,
                          const RdmaSwitchMmu& mmu) override;

    /// One slot of the flowlet table.
    struct Entry
    {
        int64_t lastSeen{0}; //!< time step of the last packet
        uint64_t tag{0};     //!< flow hash of the last packet (statistics only)
        uint32_t index{0};   //!< port index in the group
        bool valid{false};   //!< the entry has seen a packet
    };

    std::vector<Entry> m_table;
    Time m_timeout;
    Ptr<UniformRandomVariable> m_rng; //!< port of new flowlets
    uint64_t m_flowlets{0};
    uint64_t m_collisions{0};
};

} // namespace ns3

#endif /* RDMA_FLOWLET_LOAD_BALANCER_H */
