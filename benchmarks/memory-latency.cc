/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a cache line from memory costs on this machine, for the arithmetic of doc/rdma.rst
 * ("Helpers", the prefetching paragraphs): random 64-byte lines of a region of the given size
 * are read (1) each address depending on the line read before (a miss at a time, as an event
 * that chases pointers), (2) independently (as many misses in flight as the processor keeps),
 * (3) dependent as in (1), with each address prefetched a number of reads ahead (as the
 * simulator's prefetch stages do with the events they know are next).
 *
 *   build/benchmarks/memory-latency [--sizes=2,4,8,16,32,1024] [--hugePages=1] [--reads=4000000]
 *
 * Sizes are in MiB; --hugePages=1 asks for transparent huge pages (madvise), as make bench's
 * glibc tunable does for the simulator's heap. Prints nanoseconds per read.
 */

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace
{

/// The reads' values end here, so that none of the timed reads is optimized away.
volatile uint64_t g_sink;

/// One cache line; its first word is the index the dependent reads use.
struct alignas(64) Line
{
    uint64_t value;
    uint64_t padding[7];
};

[[noreturn]] void
Fail(const std::string& message)
{
    std::fprintf(stderr, "memory-latency: %s\n", message.c_str());
    std::exit(1);
}

/// Parses "--name=value" into value if the argument has that name.
bool
ParseOption(const char* arg, const char* name, std::string& value)
{
    const size_t n = std::strlen(name);
    if (std::strncmp(arg, name, n) == 0 && arg[n] == '=')
    {
        value = arg + n + 1;
        return true;
    }
    return false;
}

uint64_t
ParsePositive(const std::string& option, const std::string& text)
{
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v == 0 || text[0] == '-')
    {
        Fail(option + "=" + text + " is not valid; valid: a positive integer");
    }
    return v;
}

double
NanosecondsPerRead(std::chrono::steady_clock::time_point start, size_t reads)
{
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::nano>(elapsed).count() / reads;
}

/// Dependent reads over idx: each address is idx[i] perturbed by the previous line's value
/// (always 0, but the processor cannot know), prefetching idx[i + ahead] when ahead > 0.
double
DependentReads(const Line* lines, const std::vector<uint32_t>& idx, size_t ahead, uint64_t& sink)
{
    uint64_t carried = 0;
    const size_t reads = idx.size();
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < reads; ++i)
    {
        if (ahead > 0 && i + ahead < reads)
        {
            __builtin_prefetch(&lines[idx[i + ahead]]);
        }
        carried = lines[idx[i] ^ (carried & 1)].value + carried;
    }
    const double ns = NanosecondsPerRead(start, reads);
    sink += carried;
    return ns;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string sizesText = "2,4,8,16,32,1024";
    std::string hugeText = "1";
    std::string readsText = "4000000";
    for (int a = 1; a < argc; ++a)
    {
        if (!ParseOption(argv[a], "--sizes", sizesText) &&
            !ParseOption(argv[a], "--hugePages", hugeText) &&
            !ParseOption(argv[a], "--reads", readsText))
        {
            Fail(std::string("unknown argument ") + argv[a] +
                 "; valid: --sizes=<MiB,...> --hugePages=0|1 --reads=<n>");
        }
    }
    if (hugeText != "0" && hugeText != "1")
    {
        Fail("--hugePages=" + hugeText + " is not valid; valid: 0 or 1");
    }
    const size_t reads = ParsePositive("--reads", readsText);
    if (reads > 1000000000)
    {
        Fail("--reads=" + readsText + " is not valid; valid: 1 to 1000000000");
    }
    std::vector<uint64_t> sizes;
    std::stringstream list(sizesText);
    for (std::string item; std::getline(list, item, ',');)
    {
        const uint64_t mib = ParsePositive("--sizes", item);
        if (mib > 16384)
        {
            Fail("--sizes entry " + item + " is not valid; valid: 1 to 16384 MiB");
        }
        sizes.push_back(mib);
    }

    std::printf("MiB  huge pages  dependent  independent  dependent, prefetched 4 / 16 / 64 "
                "ahead (ns per read)\n");
    uint64_t sink = 0;
    std::mt19937_64 rng(1);
    for (const uint64_t mib : sizes)
    {
        const size_t bytes = mib << 20;
        void* region =
            mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED)
        {
            Fail("cannot map " + std::to_string(mib) + " MiB");
        }
        madvise(region, bytes, hugeText == "1" ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        Line* lines = static_cast<Line*>(region);
        const size_t n = bytes / sizeof(Line);
        for (size_t i = 0; i < n; ++i)
        {
            lines[i].value = 0; // touched: every page is mapped before the timing
        }
        std::vector<uint32_t> idx(reads);
        for (auto& v : idx)
        {
            v = static_cast<uint32_t>(rng() % n) & ~1u; // even: the perturbation stays in range
        }

        const double dependent = DependentReads(lines, idx, 0, sink);
        uint64_t sum = 0;
        const auto start = std::chrono::steady_clock::now();
        for (size_t i = 0; i < reads; ++i)
        {
            sum += lines[idx[i]].value;
        }
        const double independent = NanosecondsPerRead(start, reads);
        sink += sum;
        const double ahead4 = DependentReads(lines, idx, 4, sink);
        const double ahead16 = DependentReads(lines, idx, 16, sink);
        const double ahead64 = DependentReads(lines, idx, 64, sink);
        std::printf("%5llu  %-10s  %9.1f  %11.1f  %6.1f / %.1f / %.1f\n",
                    static_cast<unsigned long long>(mib),
                    hugeText == "1" ? "asked" : "no",
                    dependent,
                    independent,
                    ahead4,
                    ahead16,
                    ahead64);
        munmap(region, bytes);
    }
    g_sink = sink;
    return 0;
}
