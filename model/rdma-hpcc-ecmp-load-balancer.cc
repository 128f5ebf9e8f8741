/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-hpcc-ecmp-load-balancer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHpccEcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(RdmaHpccEcmpLoadBalancer);

TypeId
RdmaHpccEcmpLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaHpccEcmpLoadBalancer")
            .SetParent<RdmaLoadBalancer>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaHpccEcmpLoadBalancer>()
            .AddAttribute("Seed",
                          "The HPCC simulator's ECMP seed of this switch: its node id",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaHpccEcmpLoadBalancer::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DestinationPort",
                          "The UDP destination port the HPCC simulator's data packets carry "
                          "(its flow file's dport), hashed instead of the packet's; 0 hashes "
                          "the packet's own",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaHpccEcmpLoadBalancer::m_destinationPort),
                          MakeUintegerChecker<uint16_t>());
    return tid;
}

RdmaHpccEcmpLoadBalancer::RdmaHpccEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

RdmaHpccEcmpLoadBalancer::~RdmaHpccEcmpLoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RdmaHpccEcmpLoadBalancer::Murmur3(const uint8_t* key, std::size_t len, uint32_t seed)
{
    auto rotl = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
    constexpr uint32_t C1 = 0xcc9e2d51;
    constexpr uint32_t C2 = 0x1b873593;
    uint32_t h = seed;
    const std::size_t blocks = len / 4;
    for (std::size_t i = 0; i < blocks; ++i)
    {
        // Little-endian 32-bit blocks, as the peer reads them on x86.
        uint32_t k = uint32_t(key[4 * i]) | (uint32_t(key[4 * i + 1]) << 8) |
                     (uint32_t(key[4 * i + 2]) << 16) | (uint32_t(key[4 * i + 3]) << 24);
        k *= C1;
        k = rotl(k, 15);
        k *= C2;
        h ^= k;
        h = rotl(h, 13);
        h = h * 5 + 0xe6546b64;
    }
    const uint8_t* tail = key + 4 * blocks;
    uint32_t k = 0;
    switch (len & 3)
    {
    case 3:
        k ^= uint32_t(tail[2]) << 16;
        [[fallthrough]];
    case 2:
        k ^= uint32_t(tail[1]) << 8;
        [[fallthrough]];
    case 1:
        k ^= tail[0];
        k *= C1;
        k = rotl(k, 15);
        k *= C2;
        h ^= k;
    }
    h ^= static_cast<uint32_t>(len);
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

uint32_t
RdmaHpccEcmpLoadBalancer::DoSelectPort(const RdmaFlowKey& key,
                                       const std::vector<uint32_t>& ports,
                                       const RdmaSwitchMmu& /* mmu */)
{
    const uint16_t dport = m_destinationPort != 0 ? m_destinationPort : key.dstPort;
    const uint32_t words[3] = {key.src, key.dst, uint32_t(key.srcPort) | (uint32_t(dport) << 16)};
    uint8_t bytes[12];
    for (int w = 0; w < 3; ++w)
    {
        for (int b = 0; b < 4; ++b)
        {
            bytes[4 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
        }
    }
    return ports[Murmur3(bytes, sizeof(bytes), m_seed) % ports.size()];
}

} // namespace ns3
