/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_LOSS_HELPER_H
#define RDMA_LOSS_HELPER_H

#include "ns3/error-model.h"
#include "ns3/net-device-container.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Injects packet loss into links and devices from a one-line text spec, so that
 * scenarios take it from the command line.
 *
 * A spec is a loss model, optionally followed by where to put it:
 * \verbatim
   spec    := model [ "@" target { "," target } ]
   model   := "none"
            | "uniform" ":" p                      RateErrorModel, packet unit, rate p
            | "burst" ":" p [ ",size=" a "-" b ]   BurstErrorModel, bursts of a..b packets
                                                   (default 1-4) whose start rate is solved
                                                   so that the average loss is p
            | "burst" ":rate=" r [ ",size=" a "-" b ]   start rate r given directly
            | "every" ":" k [ ",first=" n ]        RdmaPeriodicErrorModel: packets n, n+k,
                                                   n+2k, ... (n defaults to k)
            | "every" ":p=" p [ ",first=" n ]      the same with k = round(1/p)
   p, r    := probability in [0, 1], e.g. 0.01 or 1e-3 (also "p=0.01")
   target  := node "/" device                      that device's ReceiveErrorModel: frames
                                                   it receives are lost
            | nodeA "-" nodeB                      both devices of the link joining the
                                                   nodes: both directions lose
   \endverbatim
 * Node numbers are ns-3 node ids (NodeList), devices a node's device index. Examples:
 * "uniform:0.01@2/0", "burst:0.02,size=2-8@0-3", "every:256". Every device gets its own
 * model instance (independent losses). A bad spec stops the program with a message naming
 * the offending part and what is valid; Check() returns that message instead.
 *
 * The models corrupt every frame the device receives (data, ACKs, PFC frames): put them on
 * the device that receives the traffic whose loss matters (e.g. the receiver's port).
 */
class RdmaLossHelper
{
  public:
    RdmaLossHelper();

    /**
     * \param spec a loss spec
     * \return "" if the spec (model and targets) is valid, else what is wrong with it
     */
    static std::string Check(const std::string& spec);

    /**
     * \param model a loss model spec without target ("uniform:0.01")
     * \return a new error model, or nullptr for "none"
     */
    static Ptr<ErrorModel> CreateErrorModel(const std::string& model);

    /**
     * Install the model on the targets the spec names after '@'.
     * \param spec a loss spec with targets
     * \return the error models installed
     */
    std::vector<Ptr<ErrorModel>> Install(const std::string& spec);

    /**
     * Install the model (a spec without targets) on each device as its ReceiveErrorModel.
     * \param spec a loss model spec
     * \param devices the devices
     * \return the error models installed
     */
    std::vector<Ptr<ErrorModel>> Install(const std::string& spec, NetDeviceContainer devices);

    /**
     * Install the model on both ends of the link (channel) a device is attached to.
     * \param spec a loss model spec
     * \param device one end of the link
     * \return the error models installed
     */
    std::vector<Ptr<ErrorModel>> InstallOnLink(const std::string& spec, Ptr<NetDevice> device);

    /**
     * Fix the random streams of every model this helper installed.
     * \param stream first stream number
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * The burst start rate that makes ns-3's BurstErrorModel lose a fraction p of the
     * packets, with burst sizes uniform in [minSize, maxSize]. A packet is lost if a burst
     * starts on it (probability r) or if the last burst started d packets earlier with a
     * size above d: loss = r + (1 - r) sum_{d>=1} r (1 - r)^(d-1) P(size > d).
     * \param p the average loss, in [0, 1)
     * \param minSize smallest burst
     * \param maxSize largest burst
     * \return r
     */
    static double BurstRateForLoss(double p, uint32_t minSize, uint32_t maxSize);

    /**
     * \param r burst start rate
     * \param minSize smallest burst
     * \param maxSize largest burst
     * \return the average loss of BurstErrorModel with these parameters
     */
    static double BurstLoss(double r, uint32_t minSize, uint32_t maxSize);

  private:
    /// Install one new model instance on a device.
    Ptr<ErrorModel> InstallOne(const std::string& model, Ptr<NetDevice> device);

    std::vector<Ptr<ErrorModel>> m_models; //!< every model installed
};

} // namespace ns3

#endif /* RDMA_LOSS_HELPER_H */
