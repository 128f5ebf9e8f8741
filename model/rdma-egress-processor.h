/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EGRESS_PROCESSOR_H
#define RDMA_EGRESS_PROCESSOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief What an RdmaSwitch tells its egress processors about a packet entering or leaving
 * an egress (port, class) queue.
 *
 * Filled only when some processor is called, from what the switch already knows (the
 * IPv4 header was parsed once at arrival; the MMU holds the queue lengths).
 */
struct RdmaEgressContext
{
    uint32_t port;       //!< egress port
    uint8_t cls;         //!< traffic class (DSCP >> 3)
    bool ecnCapable;     //!< the IPv4 ECN field is ECT(0) or ECT(1)
    bool checksum;       //!< the IPv4 header carries a checksum (to update if changed)
    bool telemetry;      //!< RoCEv2 with the BTH telemetry bit: an INT area precedes the ICRC
    uint64_t queueBytes; //!< enqueue: bytes of (port, class) already queued before the
                         //!< packet; dequeue: bytes left behind in (port, class)
    // Port state: filled only for stages whose UsesPortState() is true.
    uint64_t portQueueBytes; //!< bytes queued in all classes of the port, the packet excluded
    uint64_t lineRateBps;    //!< the port's line rate, bit/s
    uint64_t txBytes;        //!< wire bytes the port has sent (RdmaNetDevice::WireBytes of
                             //!< each frame); at dequeue including this packet's frame
    Time now;                //!< the time of the call
};

/**
 * \ingroup rdma
 * \brief A switch egress-processing stage, called by RdmaSwitch when a packet enters an
 * egress (port, class) queue and when it leaves it for the wire: active queue management
 * (RED/ECN: RdmaRedEcnMarker), in-band telemetry (RdmaIntInserter), and other AQMs later.
 *
 * Modelled on ns-3's QueueDisc: the public, non-virtual Enqueue and Dequeue are what the
 * switch calls; subclasses implement the private DoEnqueue / DoDequeue. A stage does not
 * mark or drop itself: it returns a verdict, and the switch applies it through its single
 * accounting point (RdmaSwitch's ECN mark counter and EcnMark trace), as QueueDisc's Mark()
 * does. A stage may rewrite bytes of the packet that no other stage owns (the telemetry
 * area); it never resizes it, and it leaves the IPv4 header to the switch (the egress port
 * rewrites the TTL from the header bytes read at arrival unless the switch marked CE).
 *
 * The switch asks each stage, when it is added (RdmaSwitch::AddEgressProcessor) and when
 * the switch's own ECN attributes change, which hooks it uses (GetHooks) and which packets
 * it wants (GetPacketFilter); it then calls a stage only for those, so a switch without
 * stages, or a packet no stage wants, costs no call.
 */
class RdmaEgressProcessor : public Object
{
  public:
    /// Hooks a stage uses (bit mask).
    enum Hook : uint8_t
    {
        HOOK_ENQUEUE = 1, //!< when the packet enters the egress queue (after MMU admission)
        HOOK_DEQUEUE = 2  //!< when it leaves the queue, before its frame is serialized
    };

    /// Packets a stage wants (bit mask: all bits set must hold; 0 = every packet).
    enum Filter : uint8_t
    {
        FILTER_ALL = 0,         //!< every packet
        FILTER_ECN_CAPABLE = 1, //!< only ECT(0)/ECT(1) packets
        FILTER_TELEMETRY = 2    //!< only RoCEv2 packets with the BTH telemetry bit set
    };

    /// What the switch is to do with the packet.
    enum Verdict : uint8_t
    {
        PASS,   //!< nothing (the stage may have rewritten its own bytes)
        MARK_CE //!< set ECN CE in the IPv4 header (counted and traced by the switch)
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    ~RdmaEgressProcessor() override;

    /**
     * The packet enters its egress queue.
     * \param packet the IPv4 packet
     * \param context where and when
     * \return the verdict
     */
    Verdict Enqueue(const Ptr<Packet>& packet, const RdmaEgressContext& context)
    {
        return DoEnqueue(packet, context);
    }

    /**
     * The packet leaves its egress queue for the wire.
     * \param packet the IPv4 packet
     * \param context where and when
     * \return the verdict
     */
    Verdict Dequeue(const Ptr<Packet>& packet, const RdmaEgressContext& context)
    {
        return DoDequeue(packet, context);
    }

    /// \return the hooks used (Hook bits); read when the stage is added to a switch
    virtual uint8_t GetHooks() const = 0;
    /// \return the packets wanted (Filter bits); FILTER_ALL by default
    virtual uint8_t GetPacketFilter() const;
    /**
     * \return true (the default) if the stage reads the context's port state (lineRateBps,
     *         txBytes, portQueueBytes, now); false lets the switch skip filling it
     */
    virtual bool UsesPortState() const;
    /**
     * \return true (the default) if the stage may read the packet's bytes; false if it reads
     *         only the context and the packet's size: the switch then need not write into the
     *         packet the IPv4 bytes it arrived with, which may travel beside it
     *         (RdmaPortHandler::HandleReceive's headBeside), before calling it. A stage that
     *         returns MARK_CE gets them written with the mark in either case.
     */
    virtual bool ReadsPacket() const;
    /**
     * Abort with a message naming the attribute and the valid range if the configuration
     * is impossible; called when the stage is added and when the switch is initialized.
     */
    virtual void CheckConfig() const;
    /**
     * Abort with a message naming the port and its rate if the stage cannot serve it;
     * called for every port when the switch is initialized.
     * \param port the port index
     * \param lineRateBps its line rate, bit/s
     */
    virtual void CheckPort(uint32_t port, uint64_t lineRateBps) const;
    /**
     * Assign fixed random variable stream numbers.
     * \param stream first stream index to use
     * \return the number of streams assigned (0 by default)
     */
    virtual int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \param packet the packet
     * \param context where and when
     * \return the verdict (PASS by default)
     */
    virtual Verdict DoEnqueue(const Ptr<Packet>& packet, const RdmaEgressContext& context);
    /**
     * \param packet the packet
     * \param context where and when
     * \return the verdict (PASS by default)
     */
    virtual Verdict DoDequeue(const Ptr<Packet>& packet, const RdmaEgressContext& context);
};

} // namespace ns3

#endif /* RDMA_EGRESS_PROCESSOR_H */
