/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RED_ECN_MARKER_H
#define RDMA_RED_ECN_MARKER_H

#include "ns3/rdma-egress-processor.h"
#include "ns3/rng-stream.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief RED/ECN marking on the instantaneous egress (port, class) queue length, as DCQCN
 * switches do (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM
 * 2015, section 3: RED with Kmin, Kmax, Pmax on the instantaneous queue; Floyd and
 * Jacobson's RED, RFC 2309, without its averaging).
 *
 * With q the queue length: no mark if q <= Kmin, probability Pmax (q - Kmin) / (Kmax - Kmin)
 * if Kmin < q <= Kmax, always if q > Kmax. Only ECN-capable packets (ECT(0)/ECT(1)) are
 * considered. The decision is taken at dequeue on the bytes the packet leaves behind (the
 * default: the DCQCN papers' switches, several switch ASICs and the HPCC simulator mark at
 * egress, so the signal skips the queueing delay), or at enqueue on the bytes already
 * queued (RED, RFC 2309).
 *
 * Every RdmaSwitch holds one, first among its egress processors; the switch's attributes
 * EcnEnabled, EcnKmin, EcnKmax, EcnPmax and EcnMarkingPoint configure it (set them there:
 * the switch reads the hooks when they change). Further markers (other thresholds, other
 * classes) are added with RdmaSwitch::AddEgressProcessor.
 */
class RdmaRedEcnMarker : public RdmaEgressProcessor
{
  public:
    /// Where the marking decision is taken.
    enum MarkingPoint
    {
        AT_ENQUEUE, //!< on the bytes already queued when the packet arrives (RED)
        AT_DEQUEUE  //!< on the bytes queued behind the packet when it leaves (default)
    };

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaRedEcnMarker();
    ~RdmaRedEcnMarker() override;

    /**
     * The RED marking probability.
     * \param queueBytes egress queue length
     * \param kmin Kmin
     * \param kmax Kmax
     * \param pmax Pmax
     * \return 0 if q <= kmin, pmax (q - kmin) / (kmax - kmin) if kmin < q <= kmax, else 1
     */
    static double MarkProbability(uint64_t queueBytes, uint64_t kmin, uint64_t kmax, double pmax);

    /**
     * Draw the marking decision for a queue length (one uniform draw, only when
     * 0 < p < 1).
     * \param queueBytes egress queue length
     * \return true if the packet is to be marked
     */
    bool DecideMark(uint64_t queueBytes);

    /// \param kmin Kmin, bytes
    void SetKmin(uint64_t kmin);
    /// \return Kmin, bytes
    uint64_t GetKmin() const;
    /// \param kmax Kmax, bytes
    void SetKmax(uint64_t kmax);
    /// \return Kmax, bytes
    uint64_t GetKmax() const;
    /// \param pmax Pmax
    void SetPmax(double pmax);
    /// \return Pmax
    double GetPmax() const;
    /// \param point where to decide
    void SetMarkingPoint(MarkingPoint point);
    /// \return where the decision is taken
    MarkingPoint GetMarkingPoint() const;

    uint8_t GetHooks() const override;
    uint8_t GetPacketFilter() const override;
    bool UsesPortState() const override;
    bool ReadsPacket() const override;
    void CheckConfig() const override;
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    Verdict DoEnqueue(const Ptr<Packet>& packet, const RdmaEgressContext& context) override;
    Verdict DoDequeue(const Ptr<Packet>& packet, const RdmaEgressContext& context) override;

    /// The marking draws: the MRG32k3a stream a UniformRandomVariable(0, 1) would draw from
    /// (same stream number, seed and run, so the same values), made at the first draw.
    /// Making it costs a stream jump (~150,000 instructions); made eagerly, and again by
    /// AssignStreams, that was 7 % of a k = 16 fat-tree's set-up, for switches that mostly
    /// never draw.
    std::unique_ptr<RngStream> m_rng;
    uint64_t m_rngStream; //!< the stream number (an automatic one until AssignStreams)
    uint32_t m_rngSeed;   //!< RngSeedManager's seed when the stream was chosen
    uint64_t m_rngRun;    //!< RngSeedManager's run when the stream was chosen
    uint64_t m_kmin;      //!< attribute Kmin
    uint64_t m_kmax;      //!< attribute Kmax
    double m_pmax;        //!< attribute Pmax
    MarkingPoint m_point; //!< attribute MarkingPoint
};

} // namespace ns3

#endif /* RDMA_RED_ECN_MARKER_H */
