/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Runs a scenario of the HPCC simulator family (HPCC, ConWeave, SimAI's ns-3,
 * ns3-datacenter) unchanged: its key/value configuration file, topology file and flow file
 * (HpccConfigReader, HpccTopologyReader, HpccFlowReader), and writes `fct.txt` and
 * `pfc.txt` in that simulator's formats, so that results can be compared line by line.
 *
 *   hpcc-compat --config=path/to/config.txt [--dir=D] [--outDir=results/hpcc-compat]
 *
 * TOPOLOGY_FILE and FLOW_FILE are relative to --dir (default: the configuration file's
 * directory). The output files (the base names of FCT_OUTPUT_FILE and PFC_OUTPUT_FILE) go
 * to --outDir.
 *
 * HpccScenarioHelper (helper/hpcc-scenario-helper.h) does the work; this program reads the
 * options and prints the helper's report. Every key of the configuration is mapped onto the rdma
 * module's attributes, or accepted because it has no effect in the peer simulator for this
 * configuration either (the summary says so), or refused with an error naming the file, line, key
 * and value: nothing is silently ignored. The mapping (doc/topology.rst has the full table):
 *  - CC_MODE 3 (HPCC), 7 (TIMELY), 8 (DCTCP): ns3::HpccCongestionControl,
 *    ns3::TimelyCongestionControl, ns3::DctcpCongestionControl (MapRateWindowCc names
 *    each key's attribute: RATE_AI, RATE_HAI, MIN_RATE, U_TARGET, MI_THRESH, FAST_REACT,
 *    INT_MULTI, DCTCP_RATE_AI, EWMA_GAIN).
 *  - HAS_WIN, VAR_WIN, GLOBAL_T (every mode; MapWindowKeys): the congestion control's
 *    UseWindow and VariableWindow (DCQCN's window variants included: a cap of one BDP on
 *    the bytes in flight, scaled by rate / line rate with VAR_WIN 1); with a window (or
 *    HPCC) the queue pairs' BaseRtt is the peer's T, the topology's largest base RTT
 *    (GLOBAL_T 1) or each flow's (source, destination) pair's (GLOBAL_T 0).
 *  - CC_MODE 1 (DCQCN) with ENABLE_QCN 1:
 *    ns3::DcqcnCongestionControl with G = EWMA_GAIN, AlphaUpdateInterval =
 *    ALPHA_RESUME_INTERVAL us, RateDecreaseInterval = RATE_DECREASE_INTERVAL us,
 *    RateIncreaseInterval = RP_TIMER us, FastRecoverySteps = FAST_RECOVERY_TIMES,
 *    AdditiveIncreaseRate = RATE_AI, HyperIncreaseRate = RATE_HAI, MinRate = MIN_RATE,
 *    ClampTargetRate = CLAMP_TARGET_RATE, ByteCounter = 0 (the peer has none); switches
 *    mark ECN with EcnKmin/EcnKmax = KMIN_MAP/KMAX_MAP x 1000 bytes and EcnPmax =
 *    PMAX_MAP for the rate of the switch's ports; RdmaNic::CnpInterval 0 (the peer flags
 *    the ACK of every CE-marked packet). With ENABLE_QCN 0 nothing is ever marked, DCQCN
 *    stays at line rate, and the run uses ns3::RdmaFixedRateCongestionControl (identical).
 *  - PACKET_PAYLOAD_SIZE -> RdmaNic::Mtu; L2_ACK_INTERVAL -> RdmaNic::AckInterval;
 *    ACK_HIGH_PRIO -> RdmaNic::AckDscp -1 (ACKs in the data class: the peer's switches queue
 *    them with the data whatever the key says); CNPs in the flows' data class too
 *    (RdmaNic::CnpDscp; the peer's CNP is a flag in the ACK); L2_BACK_TO_ZERO -> go-back-N (0) or
 *    ns3::RdmaGoBackZeroLossRecovery (1).
 *  - BUFFER_SIZE MB -> RdmaSwitchMmu::BufferSize; USE_DYNAMIC_PFC_THRESHOLD -> dynamic
 *    threshold, Alpha 1/8; the peer's 4 KB reserve, 3 KB resume offset and headroom
 *    3 x rate x delay per port -> ReservedPerQueue, XonOffset, Headroom.
 *  - ERROR_RATE_PER_LINK -> a receive error model on links whose own error rate is 0.
 *  - SIMULATOR_STOP_TIME -> Simulator::Stop.
 *
 * Node ids are those of the topology file; host i has the peer's address
 * 11.(i/256).(i%256).1, and the flows from one host to one destination use UDP source ports
 * 10000, 10001, ... in file order, as the peer numbers them (scratch/third.cc keeps a
 * counter per (source, destination) pair), so that the fct.txt lines and the ECMP paths
 * (the source port is part of the hashed 5-tuple) match.
 *
 * --framing chooses what a packet costs on the wire: `roce` (default) is real RoCEv2 on
 * Ethernet, 82 bytes per data packet besides the payload (plus the 16-byte RETH once);
 * `hpcc-sim` charges the bytes of the peer's packets (ns3::RdmaNetDevice::Framing
 * HpccSimulator: 36 per data packet with DCQCN and DCTCP, 44 with TIMELY's timestamp, 48
 * per ACK, no CNP, 31 per PFC frame; HPCC's packets carry this module's 44-byte INT area),
 * so that differences that remain are model differences, not framing differences.
 * --ecmp chooses the flow hash of the switches: `module` (default; seeded per replication,
 * --run) or `hpcc-sim` (ns3::RdmaHpccEcmpLoadBalancer: the peer's MurmurHash3 over source,
 * destination and ports, seeded with the switch's node id), so that data packets take the
 * peer's paths.
 *
 * Output formats (as the peer writes them):
 *  - fct.txt, one line per completed flow, in completion order:
 *    `sip dip sport dport size start_ns fct_ns standalone_fct_ns` (addresses in hex,
 *    %08x). dport is the flow file's (on the wire RoCEv2 uses 4791); standalone_fct is the
 *    peer's formula base_rtt + total_bytes x 8 / bottleneck_rate with this model's
 *    per-packet wire overhead (82 bytes, plus the 16-byte RETH once) or, with
 *    --framing=hpcc-sim, the peer's own (48 bytes: CustomHeader::GetStaticWholeHeaderSize
 *    without INT, which counts a 14-byte Ethernet header where its wire has PPP's 2).
 *  - pfc.txt, one line per PFC frame received: `time_ns node_id node_type if_index type`
 *    with node_type 0 host / 1 switch, if_index the device index + 1 (the peer's device 0
 *    is the loopback), type 1 pause / 0 resume. This model also sends pause refreshes
 *    while congestion lasts; they appear as further type-1 lines.
 */

#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <filesystem>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("HpccCompat");

int
RunHpccCompat(int argc, char* argv[])
{
    // 100 Gb/s: frames are not whole nanoseconds; simulate in picoseconds.
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator(); // the fastest (benchmarks/); the command line overrides it
    HpccScenarioHelper scenario;       // starts the wall clock of the summary

    std::string configFile;
    std::string dir;
    std::string outDir = "results/hpcc-compat";
    uint32_t seed = 0;      // 0: keep ns-3's RngSeed (default 1, or --RngSeed)
    uint32_t runNumber = 0; // 0: keep ns-3's RngRun (default 1, or --RngRun)
    Time cnpInterval(0);
    std::string framing = "roce";
    std::string ecmp = "module";
    CommandLine cmd(__FILE__);
    cmd.Usage("Run an HPCC-simulator configuration (config, topology and flow files) unchanged; "
              "write fct.txt and pfc.txt in that simulator's formats.");
    cmd.AddValue("config", "the HPCC-format configuration file (required)", configFile);
    cmd.AddValue("dir",
                 "directory of TOPOLOGY_FILE and FLOW_FILE (default: the config's directory)",
                 dir);
    cmd.AddValue("outDir", "directory of the output files", outDir);
    cmd.AddValue("seed", "random seed (ns3::RngSeedManager; 0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", runNumber);
    cmd.AddValue("cnpInterval",
                 "ns3::RdmaNic::CnpInterval (0: a CNP for every CE-marked packet, as the peer "
                 "flags the ACK of every CE packet)",
                 cnpInterval);
    cmd.AddValue("framing",
                 "what a packet costs on the wire: roce (real RoCEv2 on Ethernet) or hpcc-sim "
                 "(the peer's packet bytes, ns3::RdmaNetDevice::Framing HpccSimulator)",
                 framing);
    cmd.AddValue("ecmp",
                 "how switches hash flows onto equal-cost paths: module (this module's hash, "
                 "seeded per replication) or hpcc-sim (the peer's MurmurHash3 seeded with the "
                 "switch's node id, ns3::RdmaHpccEcmpLoadBalancer)",
                 ecmp);
    cmd.Parse(argc, argv);
    std::error_code ec;
    RdmaOptionChecker::Require(!configFile.empty() && std::filesystem::exists(configFile, ec),
                               "config",
                               configFile,
                               "an HPCC configuration file that exists (required)");
    RdmaOptionChecker::OutputDirectory("outDir", outDir);
    RdmaOptionChecker::Require(framing == "roce" || framing == "hpcc-sim",
                               "framing",
                               framing,
                               "roce, hpcc-sim");
    RdmaOptionChecker::Require(ecmp == "module" || ecmp == "hpcc-sim",
                               "ecmp",
                               ecmp,
                               "module, hpcc-sim");
    // Only an explicit --seed/--run overrides ns-3's global RngSeed/RngRun.
    RdmaOptionChecker::Seed(seed, runNumber);

    scenario.SetInputDirectory(dir);
    scenario.SetOutputDirectory(outDir);
    scenario.SetCnpInterval(cnpInterval);
    scenario.SetPeerFraming(framing == "hpcc-sim");
    scenario.SetPeerEcmp(ecmp == "hpcc-sim");
    scenario.Configure(configFile);
    scenario.PrintConfiguration(std::cout);
    scenario.Install();
    scenario.Run();
    scenario.PrintSummary(std::cout);
    Simulator::Destroy();
    return 0;
}

int
main(int argc, char* argv[])
{
    // A malformed input file or configuration is a usage error: its message and status 1,
    // not an abort trace.
    try
    {
        return RunHpccCompat(argc, argv);
    }
    catch (const HpccInputError& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
}
