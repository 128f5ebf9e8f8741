/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_HELPER_H
#define RDMA_CC_HELPER_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaHelper;

/**
 * \ingroup rdma
 * \brief Chooses a congestion control and a loss recovery from command-line text: a short
 * name (one table, below) or any TypeId name, plus attributes as "Name=Value,Name=Value".
 *
 * Scenario scripts that compare congestion controls take them as text, so an algorithm
 * added later (a new RdmaCongestionControl subclass) works in every such script the moment
 * it is registered: by its TypeId name at once, by a short name once it is in the table.
 * Every error (an unknown name, an attribute the TypeId does not have, a value its checker
 * rejects) stops the run before it starts, naming the option, the value and what is valid.
 */
class RdmaCcHelper
{
  public:
    /// Short names of the congestion controls: (short name, TypeId name).
    static const std::vector<std::pair<std::string, std::string>>& GetCongestionControlNames();
    /// Short names of the loss recoveries: (short name, TypeId name).
    static const std::vector<std::pair<std::string, std::string>>& GetLossRecoveryNames();

    /**
     * \param name a short name or a TypeId name of an ns3::RdmaCongestionControl subclass
     * \return the TypeId name (stops with the valid names if it is neither)
     */
    static std::string ResolveCongestionControl(const std::string& name);
    /**
     * \param name a short name or a TypeId name of an ns3::RdmaLossRecovery subclass
     * \return the TypeId name (stops with the valid names if it is neither)
     */
    static std::string ResolveLossRecovery(const std::string& name);
    /**
     * \param typeId a TypeId name
     * \return its short name, or the TypeId name without "ns3::" if it has none
     */
    static std::string GetShortName(const std::string& typeId);

    /**
     * Parse "Name=Value,Name=Value" and check every pair against a TypeId's attributes.
     * \param typeId the TypeId whose attributes these are
     * \param text the list ("" is none)
     * \param option the command-line option it came from, for error messages
     * \return the (name, value) pairs
     */
    static std::vector<std::pair<std::string, std::string>> ParseAttributes(
        const std::string& typeId,
        const std::string& text,
        const std::string& option);

    /**
     * rdma.SetCongestionControl with a resolved name and checked attributes; if the
     * algorithm NeedsTelemetry(), also the switches' Telemetry attribute (they write the
     * in-band telemetry hop records it reads).
     * \param rdma the helper to configure
     * \param name short name or TypeId name
     * \param attributes "Name=Value,..." for it
     * \return the TypeId name
     */
    static std::string SetCongestionControl(RdmaHelper& rdma,
                                            const std::string& name,
                                            const std::string& attributes);
    /**
     * rdma.SetLossRecovery with a resolved name and checked attributes.
     * \param rdma the helper to configure
     * \param name short name or TypeId name
     * \param attributes "Name=Value,..." for it
     * \return the TypeId name
     */
    static std::string SetLossRecovery(RdmaHelper& rdma,
                                       const std::string& name,
                                       const std::string& attributes);

    /**
     * Configure a helper for the DCQCN of the SIGCOMM 2015 paper in one call: congestion
     * control ns3::DcqcnCongestionControl with every attribute at the paper's value (the
     * defaults) and ns3::RdmaNic::CnpInterval 50 us (the NP's N). Switch marking
     * (EcnKmin 5 KB, EcnKmax 200 KB, EcnPmax 1 %) is the RdmaSwitch default and is not
     * touched. Attributes set afterwards with SetCongestionControl (same TypeId) or
     * SetNicAttribute override single values.
     * \param helper the helper whose NICs installed from now on use it
     */
    static void ApplyDcqcnPaperPreset(RdmaHelper& helper);

    /**
     * Configure a helper for the DCQCN of NVIDIA ConnectX-4 and later NICs with their
     * firmware defaults, in one call: the RP parameters (rpg_time_reset 300 us,
     * rpg_byte_reset 32767 B, rpg_threshold 1, rpg_ai_rate 5 Mb/s, rpg_hai_rate
     * 50 Mb/s, rpg_gd 11, rpg_min_dec_fac 50 %, rpg_min_rate 1 Mb/s, dce_tcp_g 1019,
     * dce_tcp_rtt 1 us, rate_reduce_monitor_period 4 us, initial_alpha_value 1023,
     * clamp_tgt_rate 0, clamp_tgt_rate_after_time_inc 1) on the congestion control and the
     * NP's min_time_between_cnps 4 us as ns3::RdmaNic::CnpInterval. doc/dcqcn.rst gives
     * the unit conversions and sources.
     * \param helper the helper whose NICs installed from now on use it
     */
    static void ApplyDcqcnConnectXPreset(RdmaHelper& helper);
};

} // namespace ns3

#endif /* RDMA_CC_HELPER_H */
