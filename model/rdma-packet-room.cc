/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-packet-room.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/**
 * A header behind bytes of room, added to a packet as one header. The room is skipped, not
 * written: AddFirstHeader removes it right after. Its TypeId is the header's (ns-3's
 * metadata, which would record it, is off whenever this is used).
 */
class HeaderBehindRoom : public Header
{
  public:
    /**
     * \param header the header to write (kept by reference until the next Set)
     * \param size its serialized size
     * \param room bytes of room in front of it
     */
    void Set(const Header& header, uint32_t size, uint32_t room)
    {
        m_header = &header;
        m_size = size;
        m_room = room;
    }

    TypeId GetInstanceTypeId() const override
    {
        return m_header->GetInstanceTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return m_room + m_size;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        // The room is removed right after: its bytes are never read, so none are written.
        start.Next(m_room);
        m_header->Serialize(start);
    }

    uint32_t Deserialize(Buffer::Iterator /* start */) override
    {
        NS_ABORT_MSG("HeaderBehindRoom is only written");
        return 0;
    }

    void Print(std::ostream& os) const override
    {
        m_header->Print(os);
    }

  private:
    const Header* m_header{nullptr};
    uint32_t m_size{0};
    uint32_t m_room{0};
};

} // namespace

int8_t RdmaPacketRoom::s_metadataOff = -1;

bool
RdmaPacketRoom::ReadMetadataOff()
{
    // A packet with a payload has a metadata item exactly when metadata is on.
    return !Create<Packet>(1)->BeginItem().HasNext();
}

void
RdmaPacketRoom::AddFirstHeader(const Ptr<Packet>& packet, const Header& header)
{
    const uint32_t size = header.GetSerializedSize();
    if (size >= AREA_BYTES || !IsMetadataOff())
    {
        packet->AddHeader(header);
        return;
    }
    // One wrapper for the process: no Header constructed and destroyed per packet.
    static HeaderBehindRoom behindRoom;
    const uint32_t room = AREA_BYTES - size;
    behindRoom.Set(header, size, room);
    packet->AddHeader(behindRoom);
    packet->RemoveAtStart(room);
}

} // namespace ns3
