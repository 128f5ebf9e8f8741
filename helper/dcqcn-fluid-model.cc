/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-fluid-model.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{

/// Rate of expiries of a counter of `period` units that restarts on every mark: for rate
/// RC (units/s) and marking probability p per packet, RC p / ((1-p)^-period - 1), the
/// limit RC / period at p = 0; 0 without a counter.
double
ExpiryRate(double rc, double p, double period)
{
    if (period <= 0)
    {
        return 0.0;
    }
    if (p < 1e-15)
    {
        return rc / period;
    }
    return rc * p / std::expm1(-period * std::log1p(-p));
}

/// 1 - (1-p)^n: the probability of at least one mark in n packets.
double
AtLeastOneMark(double p, double n)
{
    return p <= 0 ? 0.0 : -std::expm1(n * std::log1p(-std::min(p, 1.0 - 1e-15)));
}

/// (1-p)^n
double
NoMark(double p, double n)
{
    return p <= 0 ? 1.0 : std::exp(n * std::log1p(-std::min(p, 1.0 - 1e-15)));
}

} // namespace

double
DcqcnFluidModel::MarkingProbability(const Parameters& prm, double queueBytes)
{
    if (queueBytes <= prm.kmin)
    {
        return 0.0;
    }
    if (queueBytes > prm.kmax)
    {
        return 1.0;
    }
    if (prm.kmax <= prm.kmin)
    {
        return prm.pmax;
    }
    return prm.pmax * (queueBytes - prm.kmin) / (prm.kmax - prm.kmin);
}

DcqcnFluidModel::FixedPoint
DcqcnFluidModel::SolveFixedPoint(const Parameters& prm)
{
    const double rc = prm.lineBps / (8 * prm.wireBytes) / prm.flows;
    const double bPkts = prm.byteCounterBytes / prm.wireBytes;
    const double rai = prm.raiBps / (8 * prm.wireBytes);
    const double f = prm.fastRecovery;
    auto excess = [&](double p) {
        const double a = AtLeastOneMark(p, prm.tau * rc);
        const double ap = AtLeastOneMark(p, prm.tauPrime * rc);
        const double b = ExpiryRate(rc, p, bPkts);
        const double t = ExpiryRate(rc, p, prm.timer * rc);
        const double lhs = rc * ap * a * a / (prm.tau * prm.tau * (b + t));
        const double rhs = rai * (NoMark(p, f * bPkts) * b + NoMark(p, f * prm.timer * rc) * t);
        return lhs - rhs;
    };
    double lo = 1e-12;
    double hi = 0.999;
    for (int i = 0; i < 200; ++i)
    {
        const double mid = std::sqrt(lo * hi);
        (excess(mid) > 0 ? hi : lo) = mid;
    }
    FixedPoint fp;
    fp.p = lo;
    const double a = AtLeastOneMark(fp.p, prm.tau * rc);
    const double b = ExpiryRate(rc, fp.p, bPkts);
    const double t = ExpiryRate(rc, fp.p, prm.timer * rc);
    fp.alpha = AtLeastOneMark(fp.p, prm.tauPrime * rc);
    fp.cnpRate = a / prm.tau;
    fp.rtOverRc = 1 + fp.alpha * a / (prm.tau * (b + t));
    fp.queueBytes =
        fp.p >= prm.pmax ? prm.kmax : prm.kmin + fp.p / prm.pmax * (prm.kmax - prm.kmin);
    return fp;
}

std::vector<DcqcnFluidModel::Sample>
DcqcnFluidModel::Integrate(const Parameters& prm,
                           double duration,
                           double dt,
                           double sampleEvery,
                           double startRateFraction)
{
    const double c = prm.lineBps / (8 * prm.wireBytes); // packets/s
    const double n = prm.flows;
    const double bPkts = prm.byteCounterBytes / prm.wireBytes;
    const double rai = prm.raiBps / (8 * prm.wireBytes);
    const double f = prm.fastRecovery;
    const std::size_t lag = std::max<std::size_t>(1, std::lround(prm.feedbackDelay / dt));
    // History of (p, RC) over the last `lag` steps (ring buffer): the sender sees the
    // marks of packets sent tau* ago, at the rate it sent them.
    std::vector<double> pHist(lag, 0.0);
    std::vector<double> rcHist(lag, startRateFraction * c);
    double q = 0;
    double rc = startRateFraction * c;
    double rt = rc;
    double alpha = 1.0;
    std::vector<Sample> out;
    double nextSample = 0;
    const auto steps = static_cast<uint64_t>(std::ceil(duration / dt));
    for (uint64_t k = 0; k <= steps; ++k)
    {
        const double now = k * dt;
        if (now >= nextSample - dt / 2)
        {
            out.push_back(Sample{now, q, rc * 8 * prm.wireBytes, rt * 8 * prm.wireBytes, alpha});
            nextSample += sampleEvery;
        }
        const std::size_t slot = k % lag;
        const double pd = pHist[slot]; // p(t - tau*)
        const double rcd = rcHist[slot];
        const double a = AtLeastOneMark(pd, prm.tau * rcd);
        const double ap = AtLeastOneMark(pd, prm.tauPrime * rcd);
        const double b = ExpiryRate(rcd, pd, bPkts);
        const double t = ExpiryRate(rcd, pd, prm.timer * rcd);
        const double dAlpha = prm.g / prm.tauPrime * (ap - alpha);
        const double dRt = -(rt - rc) / prm.tau * a +
                           rai * (NoMark(pd, f * bPkts) * b + NoMark(pd, f * prm.timer * rcd) * t);
        const double dRc = -rc * alpha / (2 * prm.tau) * a + (rt - rc) / 2 * (b + t);
        const double dQ = (n * rc - c) * prm.wireBytes;
        pHist[slot] = MarkingProbability(prm, q);
        rcHist[slot] = rc;
        alpha = std::clamp(alpha + dAlpha * dt, 0.0, 1.0);
        rt = std::clamp(rt + dRt * dt, 0.0, c);
        rc = std::clamp(rc + dRc * dt, 0.0, c);
        q = std::max(0.0, q + dQ * dt);
    }
    return out;
}

} // namespace ns3
