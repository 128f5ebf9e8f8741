/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_INPUT_ERROR_H
#define HPCC_INPUT_ERROR_H

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A malformed HPCC-format input file (topology, flow or configuration): what() is
 * the reader's message, "file:line: field 'value' is not valid; valid: ...".
 *
 * The readers' ParseOrThrow() throws it; their Parse() and Read() turn it into
 * NS_ABORT_MSG, as the rest of ns-3 reports bad configuration. A program that handles bad
 * input itself (a front end, the fuzz harnesses in fuzz/, which must tell a reader's clean
 * refusal from a crash) calls ParseOrThrow() and catches this type; anything else escaping
 * a reader (std::bad_alloc, a signal) is a bug.
 */
class HpccInputError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

} // namespace ns3

/**
 * \ingroup rdma
 * Throw an ns3::HpccInputError whose message is `msg` (stream syntax) if `cond` holds.
 */
#define HPCC_INPUT_ERROR_IF(cond, msg)                                                             \
    do                                                                                             \
    {                                                                                              \
        if (cond)                                                                                  \
        {                                                                                          \
            std::ostringstream hpccInputErrorText;                                                 \
            hpccInputErrorText << msg;                                                             \
            throw ns3::HpccInputError(hpccInputErrorText.str());                                   \
        }                                                                                          \
    } while (false)

#endif /* HPCC_INPUT_ERROR_H */
