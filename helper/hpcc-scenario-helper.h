/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_SCENARIO_HELPER_H
#define HPCC_SCENARIO_HELPER_H

#include "hpcc-config-mapper.h"
#include "hpcc-config-reader.h"
#include "hpcc-flow-reader.h"
#include "hpcc-topology-reader.h"
#include "rdma-conservation-monitor.h"
#include "rdma-helper.h"

#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <chrono>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Runs a scenario of the HPCC simulator family (HPCC, ConWeave, SimAI's ns-3,
 * ns3-datacenter) unchanged: its configuration file (mapped by HpccConfigMapper), topology
 * file and flow file; writes `fct.txt` and `pfc.txt` in that simulator's formats.
 *
 * This is what examples/hpcc-compat.cc runs (its header comment and doc/topology.rst
 * describe the mapping, the addresses, ports, framing and ECMP options and the output
 * formats); tests run it in-process:
 * \code
 *   HpccScenarioHelper scenario;
 *   scenario.SetOutputDirectory(dir);
 *   scenario.Configure("config.txt");   // throws HpccInputError on bad input
 *   scenario.PrintConfiguration(std::cout);
 *   scenario.Install();                 // topology, NICs, switches, routing, flows
 *   scenario.Run();                     // until every flow completes or SIMULATOR_STOP_TIME
 *   scenario.PrintSummary(std::cout);
 *   Simulator::Destroy();
 * \endcode
 * The caller sets Time's resolution (picoseconds for 100 Gb/s links) and the scheduler.
 * The flows are replayed by one RdmaFlowReplayer per source host (RdmaFlowReplayerHelper).
 */
class HpccScenarioHelper
{
  public:
    HpccScenarioHelper();
    ~HpccScenarioHelper();
    HpccScenarioHelper(const HpccScenarioHelper&) = delete;
    HpccScenarioHelper& operator=(const HpccScenarioHelper&) = delete;

    /// \param dir directory of TOPOLOGY_FILE and FLOW_FILE (default: the config's directory)
    void SetInputDirectory(const std::string& dir);
    /// \param dir directory of the output files (default results/hpcc-compat)
    void SetOutputDirectory(const std::string& dir);
    /// \param interval ns3::RdmaNic::CnpInterval (default 0: a CNP per CE-marked packet)
    void SetCnpInterval(Time interval);
    /**
     * \param peer true: charge the peer's packet bytes on the wire
     * (ns3::RdmaNetDevice::Framing HpccSimulator); false (default): real RoCEv2 framing
     */
    void SetPeerFraming(bool peer);
    /**
     * \param peer true: the switches hash flows as the peer does (RdmaHpccEcmpLoadBalancer);
     * false (default): this module's hash, seeded per replication
     */
    void SetPeerEcmp(bool peer);

    /**
     * Read and map the configuration, read the topology and flow files and check them
     * against each other (Config::SetDefault of the framing happens here).
     * \param configFile the HPCC-format configuration file
     * Throws HpccInputError naming the file, line, key or value on bad input.
     */
    void Configure(const std::string& configFile);
    /// Print the inputs, framing, CNP class and the configuration mapping (after Configure).
    void PrintConfiguration(std::ostream& os) const;
    /**
     * Build the topology, install NICs and switches, populate routes, open the outputs
     * and install the flow replayers (after Configure).
     */
    void Install();
    /// Run until every flow completes or SIMULATOR_STOP_TIME (after Install).
    void Run();
    /// Print the run's summary (FCT, PFC, drops, events, wall time) and conservation check.
    void PrintSummary(std::ostream& os) const;

    /// \return the mapped settings (after Configure)
    const HpccScenarioSettings& GetSettings() const;
    /// \return every node, in the topology file's order (after Install)
    NodeContainer GetNodes() const;
    /// \return flows of the flow file
    uint32_t GetNFlows() const;
    /// \return flows completed (after Run)
    uint32_t GetNFlowsCompleted() const;
    /// \return the path of the FCT file (after Install)
    std::string GetFctPath() const;
    /// \return the path of the PFC file (after Install)
    std::string GetPfcPath() const;

    /// The peer's address of host i: 11.(i/256).(i%256).1.
    static Ipv4Address HpccAddress(uint32_t id);

  private:
    struct State;
    std::unique_ptr<State> m_state; //!< inputs, settings and the run's bookkeeping
};

} // namespace ns3

#endif /* HPCC_SCENARIO_HELPER_H */
