/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SACK_HEADER_H
#define RDMA_SACK_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Selective-acknowledgement extension of a RoCEv2 ACK (this module's own format).
 *
 * IRN (Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018) lets the
 * responder accept out-of-order packets and tell the requester what it holds; this header
 * does that with a bitmap. It follows the AETH of an Acknowledge packet (BTH opcode 0x11)
 * of a queue pair using RdmaSackLossRecovery, before the ICRC:
 *
 * \verbatim
   byte 0      D(7) | W(6-0)   D: the ACK was caused by a duplicate arrival (D-SACK)
                               W: bitmap length in 32-bit words, 0..127
   bytes 1-3   trigger PSN     the PSN of the data packet whose arrival caused the ACK
   bytes 4..   W x 32 bits     bitmap, big-endian words; bit 31 of word 0 is the PSN after
                               the first missing one (BTH PSN + 2), then in PSN order
   \endverbatim
 *
 * The BTH PSN keeps its IBTA meaning (the last PSN received in order), so the first
 * missing PSN is BTH PSN + 1 and needs no bit. The responder trims the bitmap after the
 * highest PSN it holds: 4 bytes when nothing is missing, 4 + 4 x ceil(span / 32) otherwise.
 * The extension is part of the packet, so its bytes count on the wire. Its presence is
 * visible from the length: a standard ACK has exactly the 4 ICRC bytes after the AETH.
 * Wireshark decodes the BTH and AETH and shows the extension as undecoded bytes.
 */
class RdmaSackHeader : public Header
{
  public:
    /// Bytes before the bitmap.
    static constexpr uint32_t FIXED_SIZE = 4;
    /// Largest bitmap, 32-bit words.
    static constexpr uint32_t MAX_WORDS = 127;
    /// Largest number of PSNs the bitmap can report.
    static constexpr uint32_t MAX_BITS = 32 * MAX_WORDS;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaSackHeader();

    /// \param duplicate the D bit: the trigger packet had arrived before
    void SetDuplicate(bool duplicate);
    /// \return the D bit
    bool GetDuplicate() const;

    /// \param psn the PSN (24 bit) of the data packet that caused the ACK
    void SetTriggerPsn(uint32_t psn);
    /// \return the trigger PSN
    uint32_t GetTriggerPsn() const;

    /**
     * Report one PSN as received; the bitmap grows as needed.
     * \param offset PSN - (BTH PSN + 2), 0..MAX_BITS-1
     */
    void SetReceived(uint32_t offset);
    /**
     * \param offset PSN - (BTH PSN + 2)
     * \return true if the bitmap reports that PSN received (false beyond the bitmap)
     */
    bool IsReceived(uint32_t offset) const;
    /// \return the bitmap length in bits (32 x words)
    uint32_t GetBitmapBits() const;
    /// \return the bitmap words
    const std::vector<uint32_t>& GetWords() const;
    /// Empty the bitmap.
    void ClearBitmap();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    std::vector<uint32_t> m_words; //!< bitmap, bit 31 of word 0 first
    uint32_t m_triggerPsn;         //!< trigger PSN (24 bit)
    bool m_duplicate;              //!< D bit
};

} // namespace ns3

#endif /* RDMA_SACK_HEADER_H */
