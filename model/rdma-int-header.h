/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_INT_HEADER_H
#define RDMA_INT_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One in-band telemetry (INT) hop record: what a switch egress port reports to
 * HPCC-style congestion control (line rate, time, bytes sent, queue length).
 *
 * Field widths and units are those of the HPCC simulator's IntHop (Li et al., "HPCC:
 * High Precision Congestion Control", SIGCOMM 2019; alibaba-edu/High-Precision-Congestion-
 * Control, simulation/src/network/utils/int-header.h): 64 bits, sent big-endian:
 *
 * \verbatim
   bits 63-61  line-rate code (3 bits, see below)
   bits 60-37  timestamp, ns, modulo 2^24 (wraps every 16.78 ms)
   bits 36-17  tx bytes of the egress port / (128 B x multiplier), modulo 2^20
   bits 16-0   egress queue bytes / (80 B x multiplier), saturated at 2^17 - 1
   \endverbatim
 *
 * Line-rate codes 0-4 are HPCC's: 25, 50, 100, 200 and 400 Gb/s. HPCC leaves 5-7
 * undefined; here 5 = 10 Gb/s, 6 = 40 Gb/s, 7 = 800 Gb/s. Other rates cannot be encoded
 * (Set aborts naming the rate; IsEncodableRate lets a configuration check first).
 *
 * The multiplier (HPCC's INT_MULTI, 1..255) scales both byte units so that the 20-bit and
 * 17-bit fields cover faster links. It is no global: it travels in byte 2 of the INT area
 * (RdmaIntHeader), chosen by the sender, so the switches that write and the host that
 * reads always agree. A hop keeps the multiplier it was built with (constructor argument).
 *
 * Differences from HPCC's IntHop: the queue field saturates instead of silently wrapping
 * (HPCC's bit-field assignment keeps the low 17 bits, so a queue of 2^17 units reads as
 * empty); an unknown rate is an error instead of a printed message with a stale code.
 */
class RdmaIntHop
{
  public:
    static constexpr uint32_t TIME_BITS = 24;       //!< timestamp width
    static constexpr uint32_t BYTES_BITS = 20;      //!< tx bytes width
    static constexpr uint32_t QLEN_BITS = 17;       //!< queue length width
    static constexpr uint32_t BYTE_UNIT = 128;      //!< tx bytes unit (times the multiplier)
    static constexpr uint32_t QLEN_UNIT = 80;       //!< queue unit (times the multiplier)
    static constexpr uint32_t SIZE = 8;             //!< serialized bytes
    static constexpr uint32_t MAX_MULTIPLIER = 255; //!< largest multiplier (one byte)

    /// \param multiplier the units multiplier (1..MAX_MULTIPLIER; HPCC's INT_MULTI)
    explicit RdmaIntHop(uint32_t multiplier = 1);

    /// \return the units multiplier the hop is encoded with
    uint32_t GetMultiplier() const;
    /// \return the port line rate, bit/s (decoded from the 3-bit code)
    uint64_t GetLineRateBps() const;
    /// \return the timestamp, ns modulo 2^24
    uint64_t GetTimeNs() const;
    /// \return the tx bytes counter, modulo 2^20 units, in bytes (a multiple of the unit)
    uint64_t GetTxBytes() const;
    /// \return the queue length, bytes (a multiple of the unit)
    uint64_t GetQueueBytes() const;
    /**
     * \param older a record of the same port written earlier (less than 16.78 ms before)
     * \return the time between the two records, ns, across the 24-bit wrap
     */
    uint64_t GetTimeDeltaNs(const RdmaIntHop& older) const;
    /**
     * \param older a record of the same port written earlier (less than 2^20 units of
     *        bytes before)
     * \return the bytes the port sent between the two records, across the 20-bit wrap
     */
    uint64_t GetTxBytesDelta(const RdmaIntHop& older) const;

    /**
     * Encode a record with this hop's multiplier: the time and tx bytes wrap, the queue
     * saturates.
     * \param lineRateBps port line rate, bit/s (one of the encodable rates)
     * \param timeNs the time, ns
     * \param txBytes bytes the port has sent (cumulative)
     * \param queueBytes bytes in the egress queue
     */
    void Set(uint64_t lineRateBps, uint64_t timeNs, uint64_t txBytes, uint64_t queueBytes);

    /// \return the 64-bit record as sent (bit layout in the class documentation)
    uint64_t GetWord() const;
    /// \param word a 64-bit record as received
    void SetWord(uint64_t word);

    /**
     * \param lineRateBps a rate, bit/s
     * \return true if the rate has a line-rate code
     */
    static bool IsEncodableRate(uint64_t lineRateBps);
    /**
     * \param lineRateBps a rate, bit/s (aborts, naming it, if it has no code)
     * \return its 3-bit code
     */
    static uint8_t RateCode(uint64_t lineRateBps);
    /**
     * The record as a 64-bit word, for writers that keep the rate code (RdmaIntInserter).
     * \param rateCode 3-bit line-rate code (RateCode)
     * \param timeNs the time, ns (wraps)
     * \param txBytes cumulative bytes sent (wraps in units)
     * \param queueBytes egress queue bytes (saturates in units)
     * \param multiplier units multiplier (1..MAX_MULTIPLIER)
     * \return the record
     */
    static uint64_t Encode(uint8_t rateCode,
                           uint64_t timeNs,
                           uint64_t txBytes,
                           uint64_t queueBytes,
                           uint32_t multiplier);

  private:
    uint64_t m_word;       //!< the encoded record
    uint32_t m_multiplier; //!< units multiplier
};

/**
 * \ingroup rdma
 * \brief The in-band telemetry (INT) area of a data packet and of the ACK that echoes it.
 *
 * A fixed-size area (as in the HPCC simulator, whose IntHeader always holds five hops), so a
 * switch writes a record in place without resizing the packet. SIZE = 44 bytes, big-endian:
 *
 * \verbatim
   byte 0       number of hop records written (0..MAX_HOPS)
   byte 1       capacity: MAX_HOPS (5)
   byte 2       units multiplier of the hop records (1..255; HPCC's INT_MULTI; 0 reads as 1)
   byte 3       reserved, 0
   bytes 4-11   hop record 0 (the first switch on the path; RdmaIntHop's 64-bit layout)
   bytes 12-19  hop record 1
   ...
   bytes 36-43  hop record 4; records beyond the count are zero
   \endverbatim
 *
 * Placement in a RoCEv2 data packet: at the end, between the padded payload and the ICRC
 * (IPv4 | UDP | BTH | [RETH] | payload | pad | INT area | ICRC), so its offset, packet size
 * - 4 - 44, does not depend on the opcode, and Wireshark still decodes BTH and RETH (the area
 * shows as the last payload bytes). A packet carries the area if and only if its BTH
 * telemetry bit is set (RdmaBthHeader::SetTelemetry: byte 4 bit 5, reserved in RoCEv2). The
 * receiver copies the area into its ACK.
 *
 * Switches append a record each (RdmaIntInserter) with PushHopInPlace on the raw bytes; a
 * full area takes no more records (HPCC's simulator instead overwrote slot nhop % 5).
 */
class RdmaIntHeader : public Header
{
  public:
    static constexpr uint8_t MAX_HOPS = 5;     //!< hop records the area holds
    static constexpr uint32_t SIZE = 44;       //!< serialized bytes: 4 + 5 x 8
    static constexpr uint32_t HOPS_OFFSET = 4; //!< byte offset of hop record 0

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// \param multiplier units multiplier of the records (1..RdmaIntHop::MAX_MULTIPLIER)
    explicit RdmaIntHeader(uint32_t multiplier = 1);

    /// \return the number of hop records
    uint8_t GetNHops() const;
    /**
     * \param i record index, 0 = first switch (aborts if i >= GetNHops())
     * \return the record
     */
    const RdmaIntHop& GetHop(uint8_t i) const;
    /**
     * Append a record.
     * \param hop the record (its multiplier must be the area's)
     * \return false, and nothing written, if the area already holds MAX_HOPS records
     */
    bool PushHop(const RdmaIntHop& hop);
    /// Remove every record (the multiplier stays).
    void Clear();
    /// \return the units multiplier of the records
    uint32_t GetMultiplier() const;
    /// \param multiplier units multiplier (1..255); clears the records
    void SetMultiplier(uint32_t multiplier);

    /**
     * Append a record to an INT area held as raw bytes (a switch's path: no Header round
     * trip, no allocation). Encoded with the area's multiplier (byte 2).
     * \param area SIZE bytes laid out as in the class documentation
     * \param lineRateBps port line rate, bit/s
     * \param timeNs the time, ns
     * \param txBytes cumulative bytes the port has sent
     * \param queueBytes egress queue bytes
     * \return false, and nothing written, if the area is full
     */
    static bool PushHopInPlace(uint8_t* area,
                               uint64_t lineRateBps,
                               uint64_t timeNs,
                               uint64_t txBytes,
                               uint64_t queueBytes);
    /**
     * As above with the rate already coded (RdmaIntHop::RateCode), for a writer that codes
     * each port's rate once.
     * \param area SIZE bytes
     * \param rateCode 3-bit line-rate code
     * \param timeNs the time, ns
     * \param txBytes cumulative bytes the port has sent
     * \param queueBytes egress queue bytes
     * \return false, and nothing written, if the area is full
     */
    static bool PushCodedHopInPlace(uint8_t* area,
                                    uint8_t rateCode,
                                    uint64_t timeNs,
                                    uint64_t txBytes,
                                    uint64_t queueBytes);

    /// \param bytes SIZE bytes to write the area into
    void Write(uint8_t* bytes) const;
    /// \param bytes SIZE bytes to read the area from
    void Read(const uint8_t* bytes);

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    std::array<RdmaIntHop, MAX_HOPS> m_hops; //!< records; those beyond m_nHops are zero
    uint32_t m_multiplier;                   //!< units multiplier
    uint8_t m_nHops;                         //!< records written
};

} // namespace ns3

#endif /* RDMA_INT_HEADER_H */
