/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_BTH_HEADER_H
#define RDMA_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief BTH opcodes of the Reliable Connected transport, plus the RoCEv2 CNP.
 *
 * Values from the InfiniBand Architecture Specification vol. 1 (IBTA), section 9.2.1
 * (opcode bits 7-5 = 000 select RC, bits 4-0 the operation), and the RoCEv2 annex A17.9
 * (congestion control) for the Congestion Notification Packet (opcode 0x81).
 */
enum RdmaOpcode : uint8_t
{
    RC_SEND_FIRST = 0x00,
    RC_SEND_MIDDLE = 0x01,
    RC_SEND_LAST = 0x02,
    RC_SEND_LAST_IMM = 0x03,
    RC_SEND_ONLY = 0x04,
    RC_SEND_ONLY_IMM = 0x05,
    RC_WRITE_FIRST = 0x06,
    RC_WRITE_MIDDLE = 0x07,
    RC_WRITE_LAST = 0x08,
    RC_WRITE_LAST_IMM = 0x09,
    RC_WRITE_ONLY = 0x0A,
    RC_WRITE_ONLY_IMM = 0x0B,
    RC_READ_REQUEST = 0x0C,
    RC_READ_RESPONSE_FIRST = 0x0D,
    RC_READ_RESPONSE_MIDDLE = 0x0E,
    RC_READ_RESPONSE_LAST = 0x0F,
    RC_READ_RESPONSE_ONLY = 0x10,
    RC_ACKNOWLEDGE = 0x11,
    RC_ATOMIC_ACKNOWLEDGE = 0x12, //!< AETH + AtomicAckETH (IBTA vol. 1 §9.4.5)
    RC_COMPARE_SWAP = 0x13,       //!< AtomicETH
    RC_FETCH_ADD = 0x14,          //!< AtomicETH
    CNP = 0x81,
};

/**
 * \ingroup rdma
 * \brief InfiniBand Base Transport Header (BTH), as carried by RoCEv2 after IP/UDP.
 *
 * IBTA vol. 1 section 9.2 and RoCEv2 annex A17.4. Twelve bytes, big-endian:
 *
 * \verbatim
   byte 0     OpCode
   byte 1     SE(7) M(6) PadCnt(5-4) TVer(3-0)
   bytes 2-3  P_Key
   byte 4     F/FECN(7) B/BECN(6) T(5) TS(4) resv4(3-0)   (RoCEv2: "resv8a", reserved;
              T and TS are this module's: SetTelemetry, SetTimestampRequest)
   bytes 5-7  DestQP (24 bit)
   byte 8     A/AckReq(7) resv7(6-0)
   bytes 9-11 PSN (24 bit)
   \endverbatim
 *
 * In RoCEv2 byte 4 is reserved (ECN travels in the IP header); the F and B accessors are
 * kept because the RoCEv1-era bits are still defined by the base specification, and
 * byte 4 is excluded (masked to all-ones) from the ICRC. Reserved bits are written as
 * zero and ignored when read.
 *
 * Bit 5 of byte 4 (T, the first reserved bit after FECN/BECN) is this module's telemetry
 * flag: set, the packet carries an in-band telemetry area (RdmaIntHeader) between its
 * padded payload and the ICRC, into which switches write hop records. Byte 4 is outside
 * the ICRC, so switches may change it, and devices that ignore reserved bits are not
 * affected. Not part of any specification.
 */
class RdmaBthHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 12;
    /// Largest value of a 24-bit field (PSN, QPN).
    static constexpr uint32_t MAX_24BIT = 0xFFFFFF;
    /// The default partition key (full membership of the default partition).
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaBthHeader();

    /// \param opcode the BTH opcode (an RdmaOpcode value, or any other 8-bit opcode)
    void SetOpcode(uint8_t opcode);
    /// \return the BTH opcode
    uint8_t GetOpcode() const;

    /// \param se the Solicited Event bit
    void SetSolicitedEvent(bool se);
    /// \return the Solicited Event bit
    bool GetSolicitedEvent() const;

    /// \param m the MigReq bit (path migration state)
    void SetMigReq(bool m);
    /// \return the MigReq bit
    bool GetMigReq() const;

    /// \param pad number of pad bytes (0..3) added to align the payload to 4 bytes
    void SetPadCount(uint8_t pad);
    /// \return the pad count
    uint8_t GetPadCount() const;

    /// \param tver transport header version (0..15; 0 for this specification)
    void SetTransportVersion(uint8_t tver);
    /// \return the transport header version
    uint8_t GetTransportVersion() const;

    /// \param pkey the partition key (default 0xFFFF)
    void SetPartitionKey(uint16_t pkey);
    /// \return the partition key
    uint16_t GetPartitionKey() const;

    /// \param fecn the F (FECN) bit of byte 4
    void SetFecn(bool fecn);
    /// \return the F (FECN) bit
    bool GetFecn() const;

    /// \param becn the B (BECN) bit of byte 4
    void SetBecn(bool becn);
    /// \return the B (BECN) bit
    bool GetBecn() const;

    /**
     * Byte 4 bit 4, a reserved bit of RoCEv2 used by this module: set in a data packet, it
     * asks the responder to echo its receive and ACK transmit times and the hop count in
     * an RdmaAckTimestampHeader after the AETH (Falcon's t2/t3, Swift's hop scaling); set
     * in an ACK, it says that header is present. Byte 4 is masked out of the ICRC.
     * \param request the TS bit
     */
    void SetTimestampRequest(bool request);
    /// \return the TS bit
    bool GetTimestampRequest() const;
    /// \param telemetry the T bit (byte 4 bit 5): an RdmaIntHeader area precedes the ICRC
    void SetTelemetry(bool telemetry);
    /// \return the T (telemetry) bit
    bool GetTelemetry() const;
    /// Mask of the T bit in byte 4, for code reading raw bytes.
    static constexpr uint8_t TELEMETRY_MASK = 0x20;

    /// \param qpn destination queue pair number (0..0xFFFFFF)
    void SetDestQp(uint32_t qpn);
    /// \return the destination queue pair number
    uint32_t GetDestQp() const;

    /// \param ackReq the A (AckReq) bit: the requester asks for an acknowledgement
    void SetAckRequest(bool ackReq);
    /// \return the A (AckReq) bit
    bool GetAckRequest() const;

    /// \param psn packet sequence number (0..0xFFFFFF)
    void SetPsn(uint32_t psn);
    /// \return the packet sequence number
    uint32_t GetPsn() const;

    /**
     * \param opcode a BTH opcode
     * \return true if an RDMA Extended Transport Header (RETH) follows the BTH:
     *         RDMA WRITE First/Only/Only-with-immediate and RDMA READ Request
     */
    static bool HasReth(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if an ACK Extended Transport Header (AETH) follows the BTH:
     *         Acknowledge, Atomic Acknowledge and RDMA READ Response First/Last/Only
     */
    static bool HasAeth(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if an Atomic Extended Transport Header (AtomicETH, 28 bytes) follows
     *         the BTH: the atomic requests Compare & Swap and Fetch & Add
     */
    static bool HasAtomicEth(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if an Atomic Acknowledge Extended Transport Header (AtomicAckETH, 8
     *         bytes) follows the AETH: Atomic Acknowledge
     */
    static bool HasAtomicAckEth(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if a 4-byte Immediate Data header (ImmDt) follows the (RETH after
     *         the) BTH: SEND Last/Only and RDMA WRITE Last/Only with immediate
     */
    static bool HasImmediate(uint8_t opcode);
    /// \param opcode a BTH opcode \return true for the RC RDMA WRITE opcodes (0x06..0x0B)
    static bool IsWrite(uint8_t opcode);
    /// \param opcode a BTH opcode \return true for the RC SEND opcodes (0x00..0x05)
    static bool IsSend(uint8_t opcode);
    /// \param opcode a BTH opcode \return true for the RC RDMA READ Response opcodes
    static bool IsReadResponse(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if the packet starts a message: the First and Only SEND/WRITE/READ
     *         Response opcodes, and the single-packet READ Request, atomic requests,
     *         Acknowledge and Atomic Acknowledge (the START flag of the Linux rxe opcode
     *         table). False for CNP, which is no part of a message.
     */
    static bool IsFirstOrOnly(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return true if the packet ends a message: the Last and Only SEND/WRITE/READ
     *         Response opcodes, and READ Request, atomic requests, Acknowledge and Atomic
     *         Acknowledge (rxe's END flag). False for CNP.
     */
    static bool IsLastOrOnly(uint8_t opcode);
    /**
     * \param opcode a BTH opcode
     * \return the enumerator name without the RdmaOpcode prefix, e.g. "RC_WRITE_ONLY",
     *         or "UNKNOWN" for opcodes this module does not define
     */
    static const char* OpcodeName(uint8_t opcode);

    void Print(std::ostream& os) const override;
    /**
     * Write the BTH in wire format (the same bytes Serialize writes), for code that
     * assembles headers as raw bytes (RdmaHeaderStack).
     * \param bytes at least SIZE bytes
     */
    void Write(uint8_t* bytes) const;
    /**
     * Read the BTH from wire format (as Deserialize does), for receivers that parse raw
     * bytes (RdmaNic).
     * \param bytes at least SIZE bytes
     */
    void Read(const uint8_t* bytes);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint32_t m_destQp;  //!< destination QP (24 bit)
    uint32_t m_psn;     //!< packet sequence number (24 bit)
    uint16_t m_pkey;    //!< partition key
    uint8_t m_opcode;   //!< opcode
    uint8_t m_padCount; //!< pad count (2 bit)
    uint8_t m_tver;     //!< transport version (4 bit)
    bool m_solicited;   //!< SE bit
    bool m_migReq;      //!< M bit
    bool m_fecn;        //!< F bit
    bool m_becn;        //!< B bit
    bool m_tsRequest;   //!< byte 4 bit 4 (this module: timestamps requested / present)
    bool m_telemetry;   //!< T bit (telemetry area present)
    bool m_ackReq;      //!< A bit
};

} // namespace ns3

#endif /* RDMA_BTH_HEADER_H */
