/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * libFuzzer harness of HpccTopologyReader, the HPCC topology file reader (make fuzz; built with
 * -DRDMA_FUZZ=ON by clang). Each input is parsed as a whole file. The reader's own refusal
 * of a malformed file, an HpccInputError, is the correct outcome and is caught here;
 * anything else is a finding: another exception escaping (std::bad_alloc of a huge
 * count, std::out_of_range, ...) aborts as uncaught, a sanitizer report or a signal stops
 * the run, and libFuzzer's -timeout, -rss_limit_mb and -malloc_limit_mb (set by
 * fuzz/run-fuzzers.sh) turn a hang or a huge allocation into a finding too.
 */

#include "ns3/hpcc-input-error.h"
#include "ns3/hpcc-topology-reader.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    ns3::HpccTopologyReader reader;
    try
    {
        reader.ParseOrThrow(in, "fuzz-input");
    }
    catch (const ns3::HpccInputError&)
    {
        // A clean, reported refusal: what the reader must do with a malformed file.
    }
    return 0;
}
