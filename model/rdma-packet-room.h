/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PACKET_ROOM_H
#define RDMA_PACKET_ROOM_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Adds the first header of a packet built from a zero-filled payload so that ns-3
 * gives the packet a data area it keeps for reuse.
 *
 * ns-3's Buffer (src/network/model/buffer.cc) recycles a freed data area only if it is at
 * least as large as the largest it has seen, and keeps at most 1,000. A packet built while
 * its free list is empty (more packets alive than areas on it, as in any loaded fabric)
 * starts with a 1-byte area, and each header added in front then reallocates and copies it
 * to exactly its new size: two reallocations per RoCEv2 packet (IPv4 to BTH, then
 * Ethernet), and the exact-sized areas are freed at the end, so the list never grows.
 *
 * AddFirstHeader writes the header behind AREA_BYTES - size bytes of room (not written) and
 * removes the room again: a packet that got an area from the list (AREA_BYTES long, all of
 * it room in front once ns-3 has seen such a packet) writes in place; one that did not gets
 * one reallocation, to an area of AREA_BYTES that is recycled at its end, so the areas of the
 * packets that end refill the list. The bytes of the packet are the same either way: the
 * room is only a place in memory.
 *
 * A packet whose headers outgrow the area (an ACK with a SACK bitmap of more than 70 bytes)
 * is reallocated to a larger one; once ns-3 has recycled a larger area it frees areas of
 * AREA_BYTES instead of keeping them (its rule above), and packets cost what they cost
 * without this class: the same bytes, more reallocations.
 *
 * With ns-3's packet metadata on (Packet::EnablePrinting, ASCII traces) the header is added
 * as it is, so that printing shows it whole; whether metadata is on is read once, at the
 * first call (ns-3 allows turning it on only before any packet was built without it).
 */
class RdmaPacketRoom
{
  public:
    /// Bytes of the area a packet gets, the size of the areas RdmaNetDevice puts on ns-3's
    /// list at start (80 bytes of room in front, 48 behind: see ReservePacketBufferRoom):
    /// room for Ethernet, IPv4, UDP, BTH and RETH (70 bytes), and no more, since every packet
    /// alive holds one.
    static constexpr uint32_t AREA_BYTES = 128;

    /**
     * Add the packet's first header (nothing added in front or behind its zero-filled
     * payload yet), in an area ns-3 will recycle.
     * \param packet the packet
     * \param header its first header, at most AREA_BYTES bytes
     */
    static void AddFirstHeader(const Ptr<Packet>& packet, const Header& header);

    /// \return true if ns-3's packet metadata is off in this process (read once; inline:
    ///         every frame's head path asks)
    static bool IsMetadataOff()
    {
        if (s_metadataOff < 0)
        {
            s_metadataOff = ReadMetadataOff() ? 1 : 0;
        }
        return s_metadataOff != 0;
    }

  private:
    /// \return true if a new packet with a payload has no metadata item
    static bool ReadMetadataOff();
    /// IsMetadataOff's answer: -1 until read, then 0 or 1.
    static int8_t s_metadataOff;
};

} // namespace ns3

#endif /* RDMA_PACKET_ROOM_H */
