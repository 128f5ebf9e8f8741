/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_WIRE_ERROR_MODEL_H
#define RDMA_WIRE_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

class RdmaLinkFraming;

/**
 * \ingroup rdma
 * \brief Random link errors at a frame error rate or a bit error rate counted over the bits a
 * frame really has on the wire.
 *
 * Installed as an RdmaNetDevice's ReceiveErrorModel: a corrupted frame fails the receiver's
 * CRC (the FCS) and is discarded whole, as a real receiver does; RdmaLinkRetry then asks for a
 * replay. With BitErrorRate b and independent bit errors, a frame of w wire bytes (preamble,
 * SFD, FCS, padding and inter-frame gap included, RdmaNetDevice::WireBytes) is corrupt with
 * probability 1 - (1 - b)^(8 w), computed as -expm1(8 w log1p(-b)) so that b = 1e-12 is not
 * lost to rounding. On a link with an RdmaLinkFraming, w is what the framing puts on the wire
 * for the frame (a UALink-like FLIT stream's share, TL flits x DlFlitBytes / TL flits per DL
 * flit; a compressed-header frame's bytes). FrameErrorRate, if not 0, is used instead, the
 * same for every frame.
 * ns-3's RateErrorModel counts the bits of the Packet only (no Ethernet overhead), hence this
 * model. Both rates must lie in [0, 1).
 */
class RdmaWireErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaWireErrorModel();

    /**
     * \param rate probability that a frame is corrupt, in [0, 1)
     */
    void SetFrameErrorRate(double rate);
    /// \return the frame error rate (0: the bit error rate is used)
    double GetFrameErrorRate() const;
    /**
     * \param rate probability that a bit is corrupt, in [0, 1)
     */
    void SetBitErrorRate(double rate);
    /// \return the bit error rate
    double GetBitErrorRate() const;

    /**
     * \param frameBytes Ethernet header plus payload (no FCS), as carried in the Packet
     * \return the probability that such a frame is corrupt
     */
    double GetFrameCorruptProbability(uint32_t frameBytes) const;

    /**
     * \param frame an Ethernet frame (header included, no FCS), as received
     * \return the probability that it is corrupt: over its Ethernet wire bytes, or over the
     *         bytes the link framing gives it (SetLinkFraming)
     */
    double GetFrameCorruptProbability(const Ptr<const Packet>& frame) const;

    /**
     * Count a frame's bits as the link's framing carries them (a FLIT stream's share, a
     * compressed header) instead of as an Ethernet frame. RdmaLinkFraming calls it at time 0
     * for the error model of the device it serves.
     * \param framing the framing of the receiving device (null: Ethernet)
     */
    void SetLinkFraming(Ptr<const RdmaLinkFraming> framing);

    /**
     * \param stream first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return frames examined
    uint64_t GetFramesExamined() const;
    /// \return frames corrupted
    uint64_t GetFramesCorrupted() const;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_frameErrorRate{0}; //!< FrameErrorRate attribute
    double m_bitErrorRate{0};   //!< BitErrorRate attribute
    Ptr<UniformRandomVariable> m_uniform;
    Ptr<const RdmaLinkFraming> m_framing; //!< the receiving device's framing, if any
    uint64_t m_examined{0};               //!< frames examined
    uint64_t m_corrupted{0};              //!< frames corrupted
};

} // namespace ns3

#endif /* RDMA_WIRE_ERROR_MODEL_H */
