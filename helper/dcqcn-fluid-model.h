/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCQCN_FLUID_MODEL_H
#define DCQCN_FLUID_MODEL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The fluid model of DCQCN (Zhu et al., SIGCOMM 2015 §5, equations (5)-(9); analysed
 * with a feedback delay in Zhu et al., "ECN or Delay", CoNEXT 2016 §3): its fixed point and
 * a numerical solution of its delay-differential equations, which the packet-level model is
 * validated against (examples/dcqcn-convergence, test/rdma-dcqcn-test.cc).
 *
 * N identical flows share a bottleneck of capacity C. Per flow: current rate RC, target
 * rate RT (packets/s), alpha; the switch marks by RED on the queue q with probability p(q);
 * tau is the CNP interval, tau' the alpha period, T the rate-increase timer, B the byte
 * counter (packets), F the fast-recovery steps, R_AI the additive step; every term that the
 * sender sees is delayed by the feedback delay tau* (p and RC at t - tau*):
 *   dq/dt     = N RC - C                       (q >= 0)
 *   dalpha/dt = g/tau' ((1 - (1-p)^(tau' RC)) - alpha)
 *   dRT/dt    = -(RT - RC)/tau (1 - (1-p)^(tau RC))
 *               + R_AI (1-p)^(F B) b + R_AI (1-p)^(F T RC) t
 *   dRC/dt    = -RC alpha/(2 tau) (1 - (1-p)^(tau RC)) + (RT - RC)/2 (b + t)
 * with b = RC p / ((1-p)^-B - 1) and t = RC p / ((1-p)^-(T RC) - 1), the rates of byte-
 * counter and timer expiries (RC/B and 1/T when p = 0).
 *
 * A helper, not a model: it simulates no packets and reads no attributes.
 */
class DcqcnFluidModel
{
  public:
    /// The parameters of the model (SI units; rates in bit/s, sizes in bytes).
    struct Parameters
    {
        double lineBps{40e9};         //!< C
        uint32_t flows{2};            //!< N
        double wireBytes{1106};       //!< wire bytes of a data packet (payload + overhead)
        double tau{50e-6};            //!< CNP interval, s
        double tauPrime{55e-6};       //!< alpha update period, s
        double timer{55e-6};          //!< rate-increase timer T, s (0: none)
        double byteCounterBytes{1e7}; //!< byte counter B, bytes (0: none)
        uint32_t fastRecovery{5};     //!< F
        double raiBps{40e6};          //!< R_AI
        double g{1.0 / 256};          //!< alpha gain
        double kmin{5e3};             //!< RED Kmin, bytes
        double kmax{200e3};           //!< RED Kmax, bytes
        double pmax{0.01};            //!< RED Pmax
        double feedbackDelay{4e-6};   //!< tau*: from a mark to the sender's reaction, s
    };

    /// The fixed point (RC = C/N for every flow).
    struct FixedPoint
    {
        double p{0};          //!< marking probability per packet
        double alpha{0};      //!< alpha
        double rtOverRc{0};   //!< target rate / current rate
        double queueBytes{0}; //!< RED's inverse of p
        double cnpRate{0};    //!< CNPs per second per flow, a / tau
    };

    /**
     * The fixed point: alpha = a' = 1 - (1-p)^(tau' RC); dRC/dt = 0 gives
     * RT - RC = RC alpha a / (tau (b + t)) with a = 1 - (1-p)^(tau RC); dRT/dt = 0 then
     * leaves one equation in p,
     *   RC alpha a^2 / (tau^2 (b + t)) = R_AI ((1-p)^(F B) b + (1-p)^(F T RC) t),
     * whose left side grows faster in p: one root, found by bisection. The queue is RED's
     * inverse q = Kmin + p / Pmax (Kmax - Kmin) (Kmax if p >= Pmax).
     * \param prm the parameters (feedbackDelay and g do not matter)
     * \return the fixed point
     */
    static FixedPoint SolveFixedPoint(const Parameters& prm);

    /// One sample of a trajectory.
    struct Sample
    {
        double time{0};       //!< s
        double queueBytes{0}; //!< q
        double rateBps{0};    //!< RC per flow, bit/s
        double targetBps{0};  //!< RT per flow, bit/s
        double alpha{0};      //!< alpha
    };

    /**
     * Integrate the delay-differential equations (explicit Euler with step dt, a history
     * of p and RC for the delay), every flow starting at RC = RT = startRateFraction x C
     * with alpha = 1 and an empty queue; RC and RT stay at most C (a NIC's line rate).
     * \param prm the parameters
     * \param duration simulated seconds
     * \param dt the step, s (well below tau*, tau and the queue's time constant)
     * \param sampleEvery record one sample every this many seconds
     * \param startRateFraction each flow's initial RC = RT as a fraction of the line rate
     * \return the samples, the first at time 0
     */
    static std::vector<Sample> Integrate(const Parameters& prm,
                                         double duration,
                                         double dt,
                                         double sampleEvery,
                                         double startRateFraction = 1.0);

    /**
     * RED's marking probability at a queue: 0 below Kmin, linear to Pmax at Kmax, 1 above.
     * \param prm the parameters
     * \param queueBytes the queue
     * \return p
     */
    static double MarkingProbability(const Parameters& prm, double queueBytes);
};

} // namespace ns3

#endif /* DCQCN_FLUID_MODEL_H */
