/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-memory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaMemory");

NS_OBJECT_ENSURE_REGISTERED(RdmaMemory);

TypeId
RdmaMemory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaMemory")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaMemory>()
            .AddTraceSource("Atomic",
                            "An atomic operation executed: address, value before, value after.",
                            MakeTraceSourceAccessor(&RdmaMemory::m_atomicTrace),
                            "ns3::RdmaMemory::AtomicTracedCallback");
    return tid;
}

RdmaMemory::RdmaMemory()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaMemory::CheckAligned(uint64_t address, const char* operation)
{
    NS_ABORT_MSG_IF(address % 8 != 0,
                    "RdmaMemory::" << operation << ": address 0x" << std::hex << address << std::dec
                                   << " is not 8-byte aligned; valid: a multiple of 8");
}

uint64_t
RdmaMemory::Read64(uint64_t address) const
{
    CheckAligned(address, "Read64");
    const auto it = m_words.find(address);
    return it == m_words.end() ? 0 : it->second;
}

void
RdmaMemory::Write64(uint64_t address, uint64_t value)
{
    CheckAligned(address, "Write64");
    m_words[address] = value;
}

uint64_t
RdmaMemory::FetchAdd(uint64_t address, uint64_t add)
{
    CheckAligned(address, "FetchAdd");
    uint64_t& word = m_words[address];
    const uint64_t original = word;
    word = original + add; // modulo 2^64, as the hardware adds
    ++m_atomicsExecuted;
    m_atomicTrace(address, original, word);
    NS_LOG_LOGIC("fetch-add 0x" << std::hex << address << std::dec << ": " << original << " + "
                                << add);
    return original;
}

uint64_t
RdmaMemory::CompareSwap(uint64_t address, uint64_t compare, uint64_t swap)
{
    CheckAligned(address, "CompareSwap");
    uint64_t& word = m_words[address];
    const uint64_t original = word;
    if (original == compare)
    {
        word = swap;
    }
    ++m_atomicsExecuted;
    m_atomicTrace(address, original, word);
    NS_LOG_LOGIC("compare-swap 0x" << std::hex << address << std::dec << ": " << original
                                   << (original == compare ? " swapped" : " kept"));
    return original;
}

uint64_t
RdmaMemory::GetAtomicsExecuted() const
{
    return m_atomicsExecuted;
}

} // namespace ns3
