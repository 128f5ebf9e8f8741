/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_CONFIG_MAPPER_H
#define HPCC_CONFIG_MAPPER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class HpccConfigReader;

/**
 * \ingroup rdma
 * \brief Everything an HPCC-simulator configuration file says, mapped onto this module
 * (HpccConfigMapper::Map fills it; HpccScenarioHelper installs it).
 */
struct HpccScenarioSettings
{
    std::string topologyFile;
    std::string flowFile;
    std::string fctFile{"fct.txt"};
    std::string pfcFile{"pfc.txt"};
    bool ecn{true};
    bool dcqcn{true};
    uint32_t mtu{1000};
    uint32_t ackInterval{1};
    bool ackHighPriority{false};
    bool backToZero{false};
    uint64_t chunkSize{0};
    uint64_t bufferBytes{16ULL * 1024 * 1024};
    double errorRate{0};
    Time stopTime{Seconds(3.01)};
    std::map<uint64_t, double> kmin;
    std::map<uint64_t, double> kmax;
    std::map<uint64_t, double> pmax;
    /// DCQCN attribute name -> value (as text, with units)
    std::vector<std::pair<std::string, std::string>> dcqcnAttributes;
    /// CC_MODE: 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP
    uint64_t ccMode{1};
    /// CC_MODE 3/7/8: the congestion control's TypeId and attributes (as text, with units)
    std::string ccTypeId;
    std::vector<std::pair<std::string, std::string>> ccAttributes;
    /// The congestion control needs the peer's base RTT T (GLOBAL_T 1: the largest RTT)
    bool ccNeedsBaseRtt{false};
    /// GLOBAL_T 0: T (and the window) of each flow from its (source, destination) pair
    bool perPairBaseRtt{false};
    /// HAS_WIN 1: the congestion control caps the bytes in flight at T x rate
    bool window{false};
    /// One line per key: what it became.
    std::vector<std::string> mapping;
    /// Outputs of the peer this run does not produce.
    std::vector<std::string> notProduced;
};

/**
 * \ingroup rdma
 * \brief Maps the keys of an HPCC-simulator configuration file (HpccConfigReader) onto the
 * rdma module's attributes, as the peer's scenario program (scratch/third.cc of
 * alibaba-edu/High-Precision-Congestion-Control) interprets them.
 *
 * Every key is mapped, or accepted because it has no effect in the peer simulator for this
 * configuration either (the mapping report says so), or refused with an HpccInputError
 * naming the file, line, key and value: nothing is silently ignored, and every key of the
 * reader is marked used. doc/topology.rst has the full table.
 */
class HpccConfigMapper
{
  public:
    /**
     * Turn the configuration into settings, or throw an HpccInputError naming the key.
     * \param cfg the configuration read (its keys are marked used)
     * \return the settings, with one report line per key
     */
    static HpccScenarioSettings Map(HpccConfigReader& cfg);
};

} // namespace ns3

#endif /* HPCC_CONFIG_MAPPER_H */
