/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_PAUSE_HEADER_H
#define PFC_PAUSE_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Payload of an IEEE 802.1Qbb priority-based flow control (PFC) MAC control frame.
 *
 * IEEE 802.1Qbb clause 36 and IEEE 802.3 Annex 31D. This header is everything after the
 * Ethernet II header (destination 01:80:C2:00:00:01, EtherType 0x8808 MAC control, both
 * written by the net device) and before the FCS. Big-endian:
 * \verbatim
   bytes 0-1    MAC control opcode 0x0101 (PFC)
   bytes 2-3    priority-enable vector: high octet reserved (0), low octet bit i = class i
   bytes 4-19   time[0] .. time[7], pause time per class in quanta of 512 bit times
   bytes 20-45  reserved, zero
   \endverbatim
 * The header is 46 bytes so that 14 (Ethernet header) + 46 + 4 (FCS) = 64 bytes, the
 * minimum frame. A time[i] is meaningful only if bit i of the enable vector is set; a
 * time of 0 releases (un-pauses) the class.
 *
 * Deserialize() accepts any MAC control opcode and reads the rest with the PFC layout;
 * IsPfc() tells whether the frame actually is a PFC frame (an IEEE 802.3x global PAUSE
 * has opcode 0x0001 and is not).
 */
class PfcPauseHeader : public Header
{
  public:
    /// MAC control opcode of PFC.
    static constexpr uint16_t OPCODE = 0x0101;
    /// MAC control opcode of the IEEE 802.3x (global) PAUSE.
    static constexpr uint16_t OPCODE_PAUSE = 0x0001;
    /// Serialized size in bytes (padding included).
    static constexpr uint32_t SIZE = 46;
    /// Number of traffic classes (priorities).
    static constexpr uint8_t NUM_CLASSES = 8;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// A PFC frame with no class enabled and all times zero.
    PfcPauseHeader();

    /// \return the MAC control multicast address 01:80:C2:00:00:01
    static Mac48Address GetMulticastAddress();

    /// \return the MAC control opcode (0x0101 when built locally)
    uint16_t GetOpcode() const;
    /// \return true if the opcode is PFC (0x0101)
    bool IsPfc() const;

    /// \param cev the priority-enable vector: bit i set means time[i] is valid
    void SetClassEnableVector(uint8_t cev);
    /// \return the priority-enable vector
    uint8_t GetClassEnableVector() const;
    /// \param cls a class 0..7 \return true if its enable bit is set
    bool IsClassEnabled(uint8_t cls) const;

    /**
     * \param cls a class 0..7
     * \param quanta pause time in quanta of 512 bit times (0 = resume); does not change
     *        the enable vector
     */
    void SetQuanta(uint8_t cls, uint16_t quanta);
    /// \param cls a class 0..7 \return its pause time in quanta
    uint16_t GetQuanta(uint8_t cls) const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    std::array<uint16_t, NUM_CLASSES> m_quanta; //!< time[0..7]
    uint16_t m_opcode;                          //!< MAC control opcode
    uint8_t m_classEnableVector;                //!< low octet of the enable vector
};

} // namespace ns3

#endif /* PFC_PAUSE_HEADER_H */
