/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_AETH_HEADER_H
#define RDMA_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief InfiniBand ACK Extended Transport Header (AETH).
 *
 * IBTA vol. 1 section 9.3.5 (format) and 9.7.5.1.3 (syndrome encoding). Four bytes:
 * byte 0 the Syndrome, bytes 1-3 the Message Sequence Number (MSN, 24 bit, big-endian).
 *
 * Syndrome: bit 7 is reserved (0); bits 6-5 select the kind and bits 4-0 its value:
 * \verbatim
   00  ACK       bits 4-0 = credit count (0x1F: invalid, end-to-end credits not used)
   01  RNR NAK   bits 4-0 = RNR timer
   10  reserved
   11  NAK       bits 4-0 = NAK code (0 PSN sequence error, 1 invalid request,
                 2 remote access error, 3 remote operational error, 4 invalid RD request)
   \endverbatim
 * It follows the BTH of Acknowledge and RDMA READ Response First/Last/Only packets
 * (see RdmaBthHeader::HasAeth).
 */
class RdmaAethHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 4;
    /// Largest MSN (24 bit).
    static constexpr uint32_t MAX_MSN = 0xFFFFFF;

    /// ACK credit count meaning "invalid": end-to-end flow control credits are not used.
    static constexpr uint8_t CREDITS_INVALID = 0x1F;

    /// NAK code: PSN sequence error (the responder expects an earlier PSN).
    static constexpr uint8_t NAK_PSN_SEQUENCE_ERROR = 0;
    /// NAK code: invalid request.
    static constexpr uint8_t NAK_INVALID_REQUEST = 1;
    /// NAK code: remote access error.
    static constexpr uint8_t NAK_REMOTE_ACCESS_ERROR = 2;
    /// NAK code: remote operational error.
    static constexpr uint8_t NAK_REMOTE_OPERATIONAL_ERROR = 3;
    /// NAK code: invalid RD request.
    static constexpr uint8_t NAK_INVALID_RD_REQUEST = 4;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// Default: an ACK with invalid credits (syndrome 0x1F) and MSN 0.
    RdmaAethHeader();

    /**
     * \param syndrome the raw syndrome byte; bit 7 must be 0 and bits 6-5 must not be the
     *        reserved value 10b
     */
    void SetSyndrome(uint8_t syndrome);
    /// \return the raw syndrome byte
    uint8_t GetSyndrome() const;

    /// \param msn the message sequence number (0..0xFFFFFF)
    void SetMsn(uint32_t msn);
    /// \return the message sequence number
    uint32_t GetMsn() const;

    /// \return true if the syndrome is an ACK (bits 6-5 = 00)
    bool IsAck() const;
    /// \return true if the syndrome is a NAK (bits 6-5 = 11)
    bool IsNak() const;
    /// \return true if the syndrome is an RNR NAK (bits 6-5 = 01)
    bool IsRnrNak() const;
    /// \return the NAK code (bits 4-0); meaningful when IsNak()
    uint8_t GetNakCode() const;
    /// \return the ACK credit count (bits 4-0); meaningful when IsAck()
    uint8_t GetCredits() const;
    /// \return the RNR timer (bits 4-0); meaningful when IsRnrNak()
    uint8_t GetRnrTimer() const;

    /**
     * \param credits credit count 0..31 (0x1F = invalid)
     * \return the ACK syndrome
     */
    static uint8_t AckSyndrome(uint8_t credits = CREDITS_INVALID);
    /**
     * \param code NAK code 0..31 (0..4 are defined, see the NAK_ constants)
     * \return the NAK syndrome
     */
    static uint8_t NakSyndrome(uint8_t code);
    /**
     * \param timer RNR timer encoding 0..31
     * \return the RNR NAK syndrome
     */
    static uint8_t RnrNakSyndrome(uint8_t timer);

    void Print(std::ostream& os) const override;
    /**
     * Write the AETH in wire format (the same bytes Serialize writes), for code that
     * assembles headers as raw bytes (RdmaHeaderStack).
     * \param bytes at least SIZE bytes
     */
    void Write(uint8_t* bytes) const;
    /**
     * Read the AETH from wire format (as Deserialize does), for receivers that parse raw
     * bytes (RdmaNic).
     * \param bytes at least SIZE bytes
     */
    void Read(const uint8_t* bytes);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint32_t m_msn;     //!< message sequence number (24 bit)
    uint8_t m_syndrome; //!< syndrome byte
};

} // namespace ns3

#endif /* RDMA_AETH_HEADER_H */
