/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_LINE_CURSOR_H
#define HPCC_LINE_CURSOR_H

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Reads an HPCC-format input file (topology, flow or configuration file) line by line
 * for its reader: the whitespace-separated fields of the next non-blank line, that line's
 * text and number, and the "file:line: " prefix of the reader's error messages.
 */
class HpccLineCursor
{
  public:
    /**
     * \param in the stream to read
     * \param name the file name used in messages
     */
    HpccLineCursor(std::istream& in, std::string name);

    /// \return the fields of the next non-blank line; empty at the end of the stream
    std::vector<std::string> Next();
    /// \return the text of the line Next() read last
    const std::string& Text() const;
    /// \return the number (1-based) of the line Next() read last
    uint32_t Line() const;
    /// \return "name:line: ", the prefix of an error about that line
    std::string Where() const;
    /**
     * \return the number of bytes after the line Next() read last, or UINT64_MAX if the
     * stream cannot tell (not seekable): what bounds the records a header may announce
     */
    uint64_t RemainingBytes();

  private:
    std::istream& m_in;
    std::string m_name;
    std::string m_text;
    uint32_t m_line{0};
};

} // namespace ns3

#endif /* HPCC_LINE_CURSOR_H */
