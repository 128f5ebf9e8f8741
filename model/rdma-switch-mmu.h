/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_MMU_H
#define RDMA_SWITCH_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Shared-buffer memory management unit of an RdmaSwitch: ingress admission with
 * IEEE 802.1Qbb priority flow control (PFC) thresholds, and egress queue accounting.
 *
 * The model follows the shared-buffer architecture of Broadcom Trident/Tomahawk-class
 * switch chips as exposed by their SDKs (per ingress "priority group" minimum guarantee,
 * shared pool with dynamic thresholds, per priority group PFC headroom) and the
 * SwitchMmu of the HPCC simulator (Li et al., "HPCC: High Precision Congestion Control",
 * SIGCOMM 2019), with the same defaults where that simulator has them.
 *
 * <b>Partition of the buffer.</b> BufferSize is split, when the ports are added, into
 *  - the reserved space: ReservedPerQueue bytes for every (ingress port, class), all
 *    eight classes of every port: nPorts x 8 x ReservedPerQueue;
 *  - the headroom: for every port and every lossless class, the port's headroom
 *    (attribute Headroom, or computed from the port's link as described below);
 *  - the shared pool: what remains. Its size is S, its use U (sum over all queues).
 *
 * <b>Ingress accounting per (port, class).</b> A packet of s bytes (the IPv4 packet: the
 * Ethernet overhead is not counted) takes, in this order: what is left of the queue's
 * reserved space; then the shared pool, if the queue's shared use stays within the
 * threshold T and the pool does not overflow; otherwise, for a lossless class that has
 * PFC, the headroom (and once a queue uses headroom, further packets go to headroom
 * until it is drained, so that the headroom models the bytes in flight after XOFF).
 * A lossless packet that does not fit in the headroom either is dropped with reason
 * HEADROOM_OVERFLOW (this never happens when the headroom is computed from the link);
 * a lossy packet (a class not in LosslessClasses, or any class when PfcEnabled is false)
 * that does not fit in the shared pool is dropped (LOSSY_BUFFER_LIMIT). When a packet
 * leaves, its bytes are returned headroom first, then shared, then reserved (counters
 * only, as in the HPCC SwitchMmu).
 *
 * <b>Threshold T.</b> DYNAMIC (default, Broadcom's "dynamic threshold", Choudhury and
 * Hahne, IEEE/ACM ToN 1998): T = Alpha x (S - U), i.e. a queue may use at most Alpha
 * times the free shared pool; a single congested queue settles at Alpha S / (1 + Alpha),
 * n congested queues at Alpha S / (1 + n Alpha) each. STATIC: T = StaticXoffThreshold.
 *
 * <b>PFC.</b> A lossless queue asks for XOFF (CheckShouldPause) when it uses headroom or
 * when its shared use is positive and reaches T. It asks for XON (CheckShouldResume) when
 * it uses no headroom and its shared use is 0 or at most T - XonOffset. The switch sends
 * the PFC frames; the MMU only keeps the paused state.
 *
 * <b>Automatic headroom</b> (Headroom = 0), per lossless class of a port of rate R and
 * cable propagation delay d, after IEEE 802.1Qbb Annex N (with D-Intf and D-Resp given
 * together by PfcResponseTime):
 *
 *   H = 2 x R x d / 8 + 2 x Fmax + Fpfc + R x PfcResponseTime / 8        [bytes]
 *
 * with Fmax the wire bytes of a maximum frame (MTU + 14 bytes of Ethernet header, plus
 * FCS, preamble, SFD and inter-frame gap), Fpfc = 84, the wire bytes of a PFC frame.
 * Derivation: the XOFF decision is taken when the last bit of a packet arrives; the PFC
 * frame may wait for one maximum frame being sent on the port (Fmax), is serialized
 * (Fpfc), propagates (d); the upstream port may have just started a maximum frame
 * (Fmax), whose last bit arrives d later. In that time at most R x (2d + 2 Fmax/R + Fpfc/R
 * + response) worth of bytes arrive; the MMU counts IP bytes, fewer than wire bytes, so
 * the bound is conservative. The RdmaNetDevice reacts to a PFC frame as soon as it has
 * received it, so PfcResponseTime = 0 (default) is enough for losslessness; the 802.3
 * upper bounds (e.g. 2 x 122880 + 201728 bit times at 100 Gb/s) reproduce the (larger)
 * headroom reservation of real switches.
 */
class RdmaSwitchMmu : public Object
{
  public:
    /// Number of traffic classes (IEEE 802.1p priorities).
    static constexpr uint32_t NUM_CLASSES = 8;

    /// How the per-queue shared-pool threshold T is computed.
    enum ThresholdMode
    {
        DYNAMIC, //!< T = Alpha x (free shared pool)
        STATIC   //!< T = StaticXoffThreshold
    };

    /// Result of Admit().
    enum Admission
    {
        ADMITTED,               //!< accounted, may be queued
        DROP_LOSSY_LIMIT,       //!< lossy packet beyond the threshold or the shared pool
        DROP_HEADROOM_OVERFLOW, //!< lossless packet beyond the headroom
        DROP_EGRESS_LIMIT       //!< lossy packet beyond MaxEgressQueueBytes
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaSwitchMmu();
    ~RdmaSwitchMmu() override;

    /**
     * Declare a port. Recomputes the buffer partition and validates the configuration
     * (NS_ABORT_MSG naming the offending values when reserved + headroom exceed the
     * buffer, and for the other impossible settings listed in Validate()).
     * \param rate the port's line rate
     * \param delay the propagation delay of the port's cable
     * \param maxFrameWireBytes wire bytes of a maximum-size frame on the port
     * \return the port index (0, 1, ...)
     */
    uint32_t AddPort(DataRate rate, Time delay, uint32_t maxFrameWireBytes);

    /// \return the number of ports
    uint32_t GetNPorts() const;

    /**
     * Recompute the partition from the current attributes and abort on an impossible
     * configuration: Alpha <= 0 (dynamic mode), StaticXoffThreshold > BufferSize (static
     * mode), LosslessClasses naming a class above 7, reserved + headroom > BufferSize.
     */
    void Validate();

    /**
     * Account an arriving packet, or refuse it.
     * \param inPort ingress port
     * \param outPort egress port
     * \param cls traffic class
     * \param size packet bytes
     * \return ADMITTED, or the reason of the refusal (nothing is accounted then)
     */
    Admission Admit(uint32_t inPort, uint32_t outPort, uint8_t cls, uint32_t size);

    /**
     * Return the bytes of a departing packet.
     * \param inPort the ingress port it was admitted on
     * \param outPort its egress port
     * \param cls traffic class
     * \param size packet bytes
     */
    void Release(uint32_t inPort, uint32_t outPort, uint8_t cls, uint32_t size);

    /**
     * \param inPort ingress port
     * \param cls class
     * \return true if the queue is lossless, not paused, and over its XOFF threshold
     */
    bool CheckShouldPause(uint32_t inPort, uint8_t cls) const;
    /**
     * \param inPort ingress port
     * \param cls class
     * \return true if the queue is paused and back below its XON threshold
     */
    bool CheckShouldResume(uint32_t inPort, uint8_t cls) const;
    /**
     * Record that the switch sent XOFF (true) or XON (false) for a queue.
     * \param inPort ingress port
     * \param cls class
     * \param paused new state
     */
    void SetPaused(uint32_t inPort, uint8_t cls, bool paused);
    /**
     * \param inPort ingress port
     * \param cls class
     * \return true if XOFF is asserted for the queue
     */
    bool IsPaused(uint32_t inPort, uint8_t cls) const;
    /**
     * \param inPort ingress port
     * \return bitmask of the classes of the port for which XOFF is asserted
     */
    uint8_t GetPausedMask(uint32_t inPort) const;

    /**
     * \param cls class
     * \return true if the class is lossless (PfcEnabled and in LosslessClasses)
     */
    bool IsLossless(uint8_t cls) const
    {
        return m_pfcEnabled && ((m_losslessClasses >> cls) & 1U);
    }

    /// \return the current shared-pool threshold T of every queue, bytes
    uint64_t GetThreshold() const;

    /**
     * \param outPort egress port
     * \param cls class
     * \return bytes waiting in the egress queue (admitted, not yet started transmission)
     */
    uint64_t GetEgressBytes(uint32_t outPort, uint8_t cls) const
    {
        return m_egress[outPort][cls];
    }

    /**
     * Prefetch the counters Admit and Release read for an ingress queue (a hint for
     * RdmaSwitch's prefetching; nothing is read).
     * \param inPort ingress port (ignored if not one)
     * \param cls class
     */
    void PrefetchIngress(uint32_t inPort, uint8_t cls) const
    {
        if (inPort < m_ingress.size() && cls < NUM_CLASSES)
        {
            __builtin_prefetch(&m_ingress[inPort][cls]);
        }
    }

    /**
     * Prefetch the counter Admit and Release read for an egress queue, like PrefetchIngress.
     * \param outPort egress port (ignored if not one)
     * \param cls class
     */
    void PrefetchEgress(uint32_t outPort, uint8_t cls) const
    {
        if (outPort < m_egress.size() && cls < NUM_CLASSES)
        {
            __builtin_prefetch(&m_egress[outPort][cls]);
        }
    }

    /// \return bytes of the (ingress port, class) queue, all three parts
    uint64_t GetIngressBytes(uint32_t inPort, uint8_t cls) const;
    /// \return reserved-space bytes used by the (ingress port, class) queue
    uint64_t GetReservedUsed(uint32_t inPort, uint8_t cls) const;
    /// \return shared-pool bytes used by the (ingress port, class) queue
    uint64_t GetSharedUsed(uint32_t inPort, uint8_t cls) const;
    /// \return headroom bytes used by the (ingress port, class) queue
    uint64_t GetHeadroomUsed(uint32_t inPort, uint8_t cls) const;
    /// \return largest GetIngressBytes seen for the queue
    uint64_t GetPeakIngressBytes(uint32_t inPort, uint8_t cls) const;
    /// \return largest GetSharedUsed seen for the queue
    uint64_t GetPeakSharedUsed(uint32_t inPort, uint8_t cls) const;
    /// \return largest GetHeadroomUsed seen for the queue
    uint64_t GetPeakHeadroomUsed(uint32_t inPort, uint8_t cls) const;

    /**
     * \param inPort ingress port
     * \return headroom of each lossless class of the port (0 if no class is lossless)
     */
    uint64_t GetHeadroom(uint32_t inPort) const;
    /**
     * \param rate line rate
     * \param delay cable propagation delay
     * \param maxFrameWireBytes wire bytes of a maximum frame
     * \return the automatic headroom formula of the class documentation, bytes
     */
    uint64_t ComputeHeadroom(DataRate rate, Time delay, uint32_t maxFrameWireBytes) const;

    /// \return BufferSize
    uint64_t GetBufferSize() const;
    /// \return size S of the shared pool
    uint64_t GetSharedPoolSize() const;
    /// \return use U of the shared pool
    uint64_t GetSharedPoolUsed() const;
    /// \return total reserved space, all ports and classes
    uint64_t GetTotalReserved() const;
    /// \return total headroom, all ports and lossless classes
    uint64_t GetTotalHeadroom() const;
    /// \return bytes accounted in the whole buffer
    uint64_t GetTotalUsed() const;

  private:
    /// Per (ingress port, class) counters.
    struct IngressQueue
    {
        uint64_t reserved{0};     //!< bytes in the reserved space
        uint64_t shared{0};       //!< bytes in the shared pool
        uint64_t headroom{0};     //!< bytes in the headroom
        uint64_t peakTotal{0};    //!< largest reserved + shared + headroom
        uint64_t peakShared{0};   //!< largest shared
        uint64_t peakHeadroom{0}; //!< largest headroom
        bool paused{false};       //!< XOFF asserted

        /// \return the bytes the queue holds: reserved + shared + headroom
        uint64_t Total() const
        {
            return reserved + shared + headroom;
        }
    };

    /// What AddPort was told about a port.
    struct PortInfo
    {
        DataRate rate;              //!< line rate
        Time delay;                 //!< cable delay
        uint32_t maxFrameWireBytes; //!< wire bytes of a maximum frame
        uint64_t headroom;          //!< headroom per lossless class (computed)
    };

    /// \return number of lossless classes
    uint32_t CountLossless() const;

    /**
     * Abort unless the queue indices are valid (inline test; the abort is out of line).
     * \param port port index
     * \param cls class
     */
    void CheckQueue(uint32_t port, uint8_t cls) const
    {
        if (port >= m_ingress.size() || cls >= NUM_CLASSES)
        {
            AbortBadQueue(port, cls);
        }
    }

    /**
     * Abort naming the invalid queue indices.
     * \param port port index
     * \param cls class
     */
    [[noreturn]] void AbortBadQueue(uint32_t port, uint8_t cls) const;

    /**
     * Abort naming a release of more bytes than the queues hold.
     * \param inPort ingress port
     * \param outPort egress port
     * \param cls class
     * \param size bytes released
     */
    [[noreturn]] void AbortBadRelease(uint32_t inPort,
                                      uint32_t outPort,
                                      uint8_t cls,
                                      uint32_t size) const;

    // attributes
    uint64_t m_bufferSize;
    uint64_t m_reservedPerQueue;
    uint64_t m_headroomAttr;
    Time m_responseTime;
    bool m_pfcEnabled;
    uint32_t m_losslessClasses;
    ThresholdMode m_mode;
    double m_alpha;
    uint64_t m_staticXoff;
    uint64_t m_xonOffset;
    uint64_t m_maxEgressBytes;

    // partition
    std::vector<PortInfo> m_portInfo;
    uint64_t m_totalReserved{0};
    uint64_t m_totalHeadroom{0};
    uint64_t m_sharedPoolSize{0};

    // state
    std::vector<std::array<IngressQueue, NUM_CLASSES>> m_ingress;
    std::vector<std::array<uint64_t, NUM_CLASSES>> m_egress;
    uint64_t m_sharedPoolUsed{0};
    uint64_t m_totalUsed{0};
};

// Admission, release and the XOFF test run at every switch hop: inline, so that the switch's
// forwarding path has no call, spill and reload of its own for them (NS_LOG is not used here:
// its component lives in the .cc file).

inline uint64_t
RdmaSwitchMmu::GetThreshold() const
{
    if (m_mode == STATIC)
    {
        return m_staticXoff;
    }
    return static_cast<uint64_t>(m_alpha *
                                 static_cast<double>(m_sharedPoolSize - m_sharedPoolUsed));
}

inline RdmaSwitchMmu::Admission
RdmaSwitchMmu::Admit(uint32_t inPort, uint32_t outPort, uint8_t cls, uint32_t size)
{
    CheckQueue(inPort, cls);
    CheckQueue(outPort, cls);
    IngressQueue& q = m_ingress[inPort][cls];
    const bool lossless = IsLossless(cls);

    const uint64_t room = m_reservedPerQueue - std::min(q.reserved, m_reservedPerQueue);
    uint64_t toReserved = size;
    uint64_t toShared = 0;
    uint64_t toHeadroom = 0;
    if (size > room)
    {
        toReserved = room;
        const uint64_t rest = size - room;
        const bool fitsShared =
            m_sharedPoolUsed + rest <= m_sharedPoolSize && q.shared + rest <= GetThreshold();
        if (lossless)
        {
            if (q.headroom == 0 && fitsShared)
            {
                toShared = rest;
            }
            else if (q.headroom + rest <= m_portInfo[inPort].headroom)
            {
                toHeadroom = rest;
            }
            else
            {
                return DROP_HEADROOM_OVERFLOW;
            }
        }
        else if (fitsShared)
        {
            toShared = rest;
        }
        else
        {
            return DROP_LOSSY_LIMIT;
        }
    }
    uint64_t& egress = m_egress[outPort][cls];
    if (!lossless && m_maxEgressBytes != 0 && egress + size > m_maxEgressBytes)
    {
        return DROP_EGRESS_LIMIT;
    }

    q.reserved += toReserved;
    if (toShared != 0)
    {
        q.shared += toShared;
        m_sharedPoolUsed += toShared;
        q.peakShared = std::max(q.peakShared, q.shared);
    }
    if (toHeadroom != 0)
    {
        q.headroom += toHeadroom;
        q.peakHeadroom = std::max(q.peakHeadroom, q.headroom);
    }
    q.peakTotal = std::max(q.peakTotal, q.Total());
    m_totalUsed += size;
    egress += size;
    return ADMITTED;
}

inline void
RdmaSwitchMmu::Release(uint32_t inPort, uint32_t outPort, uint8_t cls, uint32_t size)
{
    CheckQueue(inPort, cls);
    CheckQueue(outPort, cls);
    IngressQueue& q = m_ingress[inPort][cls];
    uint64_t& egress = m_egress[outPort][cls];
    if (q.Total() < size || egress < size)
    {
        AbortBadRelease(inPort, outPort, cls, size);
    }
    uint64_t rest = size;
    if (q.headroom != 0)
    {
        const uint64_t fromHeadroom = std::min<uint64_t>(q.headroom, rest);
        q.headroom -= fromHeadroom;
        rest -= fromHeadroom;
    }
    if (q.shared != 0)
    {
        const uint64_t fromShared = std::min<uint64_t>(q.shared, rest);
        q.shared -= fromShared;
        m_sharedPoolUsed -= fromShared;
        rest -= fromShared;
    }
    q.reserved -= rest;
    m_totalUsed -= size;
    egress -= size;
}

inline bool
RdmaSwitchMmu::CheckShouldPause(uint32_t inPort, uint8_t cls) const
{
    const IngressQueue& q = m_ingress[inPort][cls];
    if (!IsLossless(cls) || q.paused)
    {
        return false;
    }
    return q.headroom > 0 || (q.shared > 0 && q.shared >= GetThreshold());
}

} // namespace ns3

#endif /* RDMA_SWITCH_MMU_H */
