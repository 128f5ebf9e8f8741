/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OPTION_CHECKER_H
#define RDMA_OPTION_CHECKER_H

#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Checks of command-line options for the examples, in one place: every bad value
 * stops the program before anything is built or simulated, with
 * `option --x: value 'v' is not valid; valid: ...` on stderr and exit status 1 (a usage
 * error, like ns-3's CommandLine for an unparsable value), not an abort trace.
 *
 * It also holds the examples' one rule for random numbers (Seed()): ns-3's global
 * --RngSeed/--RngRun apply unless the example's own --seed/--run are given (non-zero).
 */
class RdmaOptionChecker
{
  public:
    /**
     * Print the message of a bad option and exit with status 1.
     * \param option the option's name, without "--"
     * \param value the value as given
     * \param valid what would be valid
     */
    [[noreturn]] static void Fail(const std::string& option,
                                  const std::string& value,
                                  const std::string& valid);

    /**
     * Fail() unless `ok`.
     * \param ok the check
     * \param option the option's name
     * \param value the value (anything printable)
     * \param valid what would be valid
     */
    template <typename T>
    static void Require(bool ok,
                        const std::string& option,
                        const T& value,
                        const std::string& valid)
    {
        if (!ok)
        {
            Fail(option, ToText(value), valid);
        }
    }

    /**
     * Fail() unless min <= value <= max. An unsigned value above 2^63 is reported as what
     * it most likely is: a negative number that wrapped ("--size=-5").
     * \param option the option's name
     * \param value the value
     * \param min smallest valid value
     * \param max largest valid value
     * \param unit unit named in the message ("bytes", ...), may be empty
     */
    template <typename T>
    static void Range(const std::string& option,
                      T value,
                      T min,
                      T max,
                      const std::string& unit = "")
    {
        if (value < min || value > max)
        {
            std::ostringstream valid;
            valid << min << " .. " << max << (unit.empty() ? "" : " ") << unit;
            Fail(option, ToText(value), valid.str());
        }
    }

    /**
     * ns-3 stops the program with its own message ("Attribute value ... is not properly
     * formatted", or an uncaught std::invalid_argument for a time) when a number or a time
     * attribute is given text that is not one; this checks the text first.
     * \param info the attribute
     * \param text the value as text
     * \return false if ns-3 would stop the program on parsing it
     */
    static bool IsWellFormed(const TypeId::AttributeInformation& info, const std::string& text);
    /**
     * \param info the attribute
     * \return what its text must look like, e.g. "a number", "a time with a unit, such as 10us"
     */
    static std::string DescribeFormat(const TypeId::AttributeInformation& info);

    /**
     * Fail() unless `value` is accepted by the attribute `attribute` of `typeId`: the check
     * SetAttribute would do later, with its bare "Invalid value for attribute set".
     * \param option the option's name
     * \param value the value, as a string
     * \param typeId e.g. "ns3::RdmaNic"
     * \param attribute e.g. "Mtu"
     */
    static void Attribute(const std::string& option,
                          const std::string& value,
                          const std::string& typeId,
                          const std::string& attribute);

    /**
     * Fail() unless `value` is an ns-3 data rate above 0 bit/s.
     * \param option the option's name
     * \param value e.g. "100Gbps"
     */
    static void Rate(const std::string& option, const std::string& value);

    /**
     * Fail() unless `value` is an interval > 0 (a periodic sampler at 0 s never advances).
     * \param option the option's name
     * \param value the time
     */
    static void Positive(const std::string& option, Time value);

    /**
     * Fail() unless `value` >= 0.
     * \param option the option's name
     * \param value the time
     */
    static void NonNegative(const std::string& option, Time value);

    /**
     * Create the parent directories of `path` and check that it can be written, before the
     * run (the file is created empty and written at the end). "none" is accepted as "no
     * output".
     * \param option the option's name
     * \param path the file
     */
    static void OutputFile(const std::string& option, const std::string& path);

    /**
     * Create directory `path` (and its parents) and check that it is writable.
     * \param option the option's name
     * \param path the directory
     */
    static void OutputDirectory(const std::string& option, const std::string& path);

    /**
     * The examples' one rule for random numbers: ns-3's global RngSeed and RngRun (set with
     * --RngSeed/--RngRun or NS_GLOBAL_VALUE) apply, unless the example's own option is given
     * (non-zero), which then wins.
     * \param seed the example's --seed (0: keep RngSeed)
     * \param run the example's --run (0: keep RngRun)
     */
    static void Seed(uint32_t seed, uint32_t run);

    /**
     * Split an option's list ("a,b,c"), the one list splitter of the examples.
     * \param list the option's text
     * \param separator the separator (default ',')
     * \return the items, in order, without empty ones ("a,,b," gives a and b)
     */
    static std::vector<std::string> SplitList(const std::string& list, char separator = ',');

  private:
    template <typename T>
    static std::string ToText(const T& value)
    {
        std::ostringstream s;
        s << value;
        return s.str();
    }

    static std::string ToText(uint64_t value);
};

} // namespace ns3

#endif /* RDMA_OPTION_CHECKER_H */
