/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_TOPOLOGY_READER_H
#define HPCC_TOPOLOGY_READER_H

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

class RdmaLinkHelper;

/**
 * \ingroup rdma
 * \brief One link of an HPCC-format topology file.
 */
struct HpccLink
{
    uint32_t src{0};     //!< node id of one end
    uint32_t dst{0};     //!< node id of the other end
    DataRate rate;       //!< line rate
    Time delay;          //!< propagation delay
    double errorRate{0}; //!< packet error rate of the link (receive error model), 0..1
    uint32_t line{0};    //!< line of the file it was read from
};

/**
 * \ingroup rdma
 * \brief Reads the topology files of the HPCC simulator family (HPCC, ConWeave, SimAI's
 * ns-3, ns3-datacenter) and builds the topology with RdmaLinkHelper.
 *
 * Format (whitespace-separated fields, one record per line; blank lines are ignored):
 * \verbatim
   <nodes> <switches> <links>
   <switch id> ... (exactly <switches> ids; absent when <switches> is 0)
   <src> <dst> <rate> <delay> <error_rate>      (exactly <links> lines)
   \endverbatim
 * Node ids are 0 .. nodes-1; ids not on the second line are hosts. Rates are ns-3
 * DataRate strings (100Gbps, 25Gb/s, ...), delays ns-3 time strings (0.001ms, 1us, ...;
 * a number without unit is seconds), error rates packet error probabilities in [0, 1].
 * Every malformed line stops the program (NS_ABORT_MSG) with the file name, the line
 * number, the field, the bad value and what would be valid.
 *
 * Build() creates the nodes in file order (node i of the file is element i of the
 * returned container, and also ns3::NodeList id i when no node existed before) and the
 * links in file order, so device (interface) indices follow the file as in the HPCC
 * simulator. A host with several links gets one NIC with several ports (RdmaNic, queue
 * pairs mapped to ports by RdmaQpPathSelector's hash, as the peer hashes a QP onto one of
 * its NICs); its links must have the same rate (Build() stops naming the host and lines).
 */
class HpccTopologyReader
{
  public:
    HpccTopologyReader();

    /**
     * Read a topology file.
     * \param filename its path (named in error messages)
     */
    void Read(const std::string& filename);

    /**
     * Read a topology from a stream.
     * \param in the stream
     * \param name name of the source, used in error messages
     */
    void Parse(std::istream& in, const std::string& name);
    /**
     * Read from a stream, reporting a malformed input by throwing HpccInputError (whose
     * what() is the message Parse() would abort with) instead of aborting: for programs
     * that handle bad input themselves, such as the fuzz harnesses.
     * \param in the stream
     * \param name name of the source, used in error messages
     */
    void ParseOrThrow(std::istream& in, const std::string& name);

    /// \return the file (or source) name
    const std::string& GetFileName() const;
    /// \return number of nodes, hosts and switches
    uint32_t GetNNodes() const;
    /// \return number of switches
    uint32_t GetNSwitches() const;
    /// \return number of hosts
    uint32_t GetNHosts() const;
    /// \return the switch ids, in file order
    const std::vector<uint32_t>& GetSwitchIds() const;
    /**
     * \param id a node id
     * \return true if it is a switch
     */
    bool IsSwitch(uint32_t id) const;
    /// \return the links, in file order
    const std::vector<HpccLink>& GetLinks() const;

    /**
     * Error rate of the links whose own error_rate field is 0 (the HPCC simulator's
     * ERROR_RATE_PER_LINK). Default 0.
     * \param rate packet error probability in [0, 1]
     */
    void SetDefaultErrorRate(double rate);

    /**
     * Create the nodes and the links (RdmaNetDevice pairs). For every link the helper's
     * DataRate and Delay are set from the file; a link with a non-zero error rate (its
     * own, or else the default) gets a RateErrorModel (ERROR_UNIT_PACKET) on the
     * receive side of both devices.
     * \param link the link helper (its other attributes apply to every link)
     * \return all nodes, element i being node i of the file
     */
    NodeContainer Build(RdmaLinkHelper& link);

    /**
     * \param nodes the container returned by Build()
     * \return the hosts, in increasing id
     */
    NodeContainer GetHosts(const NodeContainer& nodes) const;
    /**
     * \param nodes the container returned by Build()
     * \return the switches, in increasing id
     */
    NodeContainer GetSwitches(const NodeContainer& nodes) const;
    /**
     * \param i link index, in file order
     * \return its two devices (src's first), after Build()
     */
    NetDeviceContainer GetLinkDevices(uint32_t i) const;

    /**
     * Assign fixed random streams to the error models created by Build().
     * \param stream first stream
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Parse an ns-3 DataRate string ("100Gbps", "20Mb/s", ...), as the HPCC simulator
     * does through ns-3's DataRate attribute.
     * \param text the string
     * \param rate receives the rate
     * \return false if the text is not a data rate
     */
    static bool ParseDataRate(const std::string& text, DataRate* rate);
    /**
     * Parse an ns-3 time string: a decimal number and a unit s, ms, us, ns, ps or fs (no
     * unit: seconds), exactly (decimal arithmetic, rounded to the simulator resolution).
     * \param text the string, e.g. "0.001ms"
     * \param time receives the time
     * \return false if the text is not a time
     */
    static bool ParseTime(const std::string& text, Time* time);
    /**
     * Parse a decimal number of seconds exactly (rounded to the simulator resolution).
     * \param text e.g. "2.000001"
     * \param time receives the time
     * \return false unless the text is a non-negative decimal number
     */
    static bool ParseSeconds(const std::string& text, Time* time);
    /**
     * \param text a token
     * \param value receives the value
     * \return false unless the token is an unsigned decimal integer that fits 64 bits
     */
    static bool ParseUnsigned(const std::string& text, uint64_t* value);
    /**
     * \param text a token
     * \param value receives the value
     * \return false unless the token is a finite real number
     */
    static bool ParseReal(const std::string& text, double* value);
    /**
     * Split a line into whitespace-separated fields.
     * \param line the line
     * \return the fields
     */
    static std::vector<std::string> SplitFields(const std::string& line);

  private:
    std::string m_fileName;
    uint32_t m_nNodes{0};
    std::vector<uint32_t> m_switchIds;
    std::vector<bool> m_isSwitch;
    std::vector<HpccLink> m_links;
    double m_defaultErrorRate{0};
    std::vector<NetDeviceContainer> m_linkDevices;
    bool m_read{false};
};

} // namespace ns3

#endif /* HPCC_TOPOLOGY_READER_H */
