/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_CONFIG_READER_H
#define HPCC_CONFIG_READER_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Reads the key/value configuration files of the HPCC simulator family (HPCC,
 * ConWeave, SimAI's ns-3, ns3-datacenter), e.g. `config_dcqcn_a2a16.txt`.
 *
 * Format: one key per line followed by its values, separated by white space; blank lines
 * are ignored, and so are lines whose first field starts with '#' (an extension: the
 * HPCC simulator itself has no comments). The reader knows every key of the HPCC
 * simulator's scenario program (simulation/scratch/third.cc of
 * alibaba-edu/High-Precision-Congestion-Control) and how many values each takes:
 * one value for most keys, three for LINK_DOWN (`time_us node node`), and for the
 * rate-keyed maps KMAX_MAP, KMIN_MAP and PMAX_MAP a count n followed by n pairs
 * `<rate in bit/s> <value>`. Unlike the HPCC simulator (which skips unknown words, and
 * may then read a value as a key), an unknown key, a wrong number of values and a key
 * given twice are errors naming the file, the line and the key.
 *
 * The typed getters check the value and throw an HpccInputError naming the file, the line,
 * the key, the value and what would be valid (uncaught, it stops the program with that
 * message; examples/hpcc-compat.cc catches it and exits with status 1). The reader does not
 * interpret the keys; HpccConfigMapper maps them onto the rdma module's attributes. Its
 * MarkUsed/GetUnusedKeys let a program prove that it handled every key it was given.
 */
class HpccConfigReader
{
  public:
    /// One key and its values.
    struct Entry
    {
        std::string key;                 //!< the key
        std::vector<std::string> values; //!< its values, as written
        uint32_t line{0};                //!< line of the file
    };

    HpccConfigReader();

    /**
     * Read a configuration file.
     * \param filename its path (named in error messages)
     */
    void Read(const std::string& filename);

    /**
     * Read a configuration from a stream.
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
    /// \return the directory of the file ("." if the name has none)
    std::string GetDirectory() const;

    /// \return the entries, in file order
    const std::vector<Entry>& GetEntries() const;
    /**
     * \param key a key
     * \return true if the file sets it
     */
    bool Has(const std::string& key) const;
    /**
     * \param key a key the file sets (stops with an error otherwise)
     * \return its entry
     */
    const Entry& Get(const std::string& key) const;

    /**
     * \param key a one-value key
     * \return its value
     */
    std::string GetString(const std::string& key) const;
    /**
     * \param key a one-value key whose value must be 0 or 1
     * \return the value
     */
    bool GetBoolean(const std::string& key) const;
    /**
     * \param key a key
     * \param min smallest valid value
     * \param max largest valid value
     * \param index which value of the key (0 for one-value keys)
     * \return the value, an unsigned integer
     */
    uint64_t GetUinteger(const std::string& key,
                         uint64_t min = 0,
                         uint64_t max = UINT64_MAX,
                         uint32_t index = 0) const;
    /**
     * \param key a one-value key
     * \param min smallest valid value
     * \param max largest valid value
     * \return the value, a real number
     */
    double GetDouble(const std::string& key, double min, double max) const;
    /**
     * \param key a one-value key whose value is an ns-3 data rate string ("20Mb/s")
     * \return the rate
     */
    DataRate GetDataRate(const std::string& key) const;
    /**
     * \param key KMAX_MAP, KMIN_MAP or PMAX_MAP
     * \return the map from a link rate in bit/s to the value
     */
    std::map<uint64_t, double> GetRateMap(const std::string& key) const;

    /**
     * Throw an HpccInputError about a key: "<file>:<line>: <key> <values>: <message>".
     * \param key a key the file sets
     * \param message what is wrong and what would be valid
     */
    [[noreturn]] void Fail(const std::string& key, const std::string& message) const;

    /**
     * Record that a program has handled a key.
     * \param key the key
     */
    void MarkUsed(const std::string& key);
    /// \return the keys of the file nobody marked as used, in file order
    std::vector<std::string> GetUnusedKeys() const;

    /**
     * \param key a word
     * \return true if it is a key of the HPCC simulator's configuration files
     */
    static bool IsKnownKey(const std::string& key);
    /// \return every key the reader knows, alphabetically
    static std::vector<std::string> GetKnownKeys();

  private:
    /// \return the entry, stopping with an error if the key is absent
    const Entry& Find(const std::string& key) const;
    /// \return "<file>:<line>: <key> <values>: "
    std::string Where(const Entry& e) const;

    std::string m_fileName;
    std::vector<Entry> m_entries;
    std::map<std::string, std::size_t> m_index;
    std::map<std::string, bool> m_used;
};

} // namespace ns3

#endif /* HPCC_CONFIG_READER_H */
