/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INT_TRAILER_H
#define RDMA_INT_TRAILER_H

#include "rdma-icrc-trailer.h"
#include "rdma-int-header.h"

#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief The last bytes of a data packet that carries in-band telemetry: the INT area
 * (RdmaIntHeader, SIZE bytes) followed by the ICRC, as raw bytes.
 *
 * A data packet with the BTH telemetry bit set ends with the area and the ICRC
 * (RdmaIntHeader documents the placement). As a Trailer the pair is added by the sender,
 * peeked by the responder (which echoes the area in its ACK) and rewritten in place by a
 * switch (PeekTrailer, edit the bytes, RemoveAtEnd + AddTrailer) without copying the
 * packet's payload. The ICRC bytes are carried as they are (zero on the data path, see
 * RdmaIcrcTrailer).
 */
class RdmaIntTrailer : public Trailer
{
  public:
    /// Serialized size: the area and the ICRC.
    static constexpr uint32_t SIZE = RdmaIntHeader::SIZE + RdmaIcrcTrailer::SIZE;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaIntTrailer();

    /// \param area the INT area to carry (the ICRC bytes are set to zero)
    void SetArea(const RdmaIntHeader& area);
    /// \return the INT area decoded
    RdmaIntHeader GetArea() const;
    /// \return the area's raw bytes (RdmaIntHeader::SIZE), for in-place writers
    uint8_t* GetAreaBytes();
    /// \return the area's raw bytes (RdmaIntHeader::SIZE)
    const uint8_t* GetAreaBytes() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint8_t m_bytes[SIZE]; //!< the area (first RdmaIntHeader::SIZE bytes), then the ICRC
};

} // namespace ns3

#endif /* RDMA_INT_TRAILER_H */
