/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-line-cursor.h"

#include "hpcc-topology-reader.h"

#include <sstream>
#include <utility>

namespace ns3
{

HpccLineCursor::HpccLineCursor(std::istream& in, std::string name)
    : m_in(in),
      m_name(std::move(name))
{
}

std::vector<std::string>
HpccLineCursor::Next()
{
    while (std::getline(m_in, m_text))
    {
        ++m_line;
        std::vector<std::string> fields = HpccTopologyReader::SplitFields(m_text);
        if (!fields.empty())
        {
            return fields;
        }
    }
    return {};
}

const std::string&
HpccLineCursor::Text() const
{
    return m_text;
}

uint32_t
HpccLineCursor::Line() const
{
    return m_line;
}

std::string
HpccLineCursor::Where() const
{
    std::ostringstream s;
    s << m_name << ":" << m_line << ": ";
    return s.str();
}

uint64_t
HpccLineCursor::RemainingBytes()
{
    const std::istream::pos_type here = m_in.tellg();
    if (here == std::istream::pos_type(-1))
    {
        m_in.clear(m_in.rdstate() & ~std::ios::failbit);
        return UINT64_MAX;
    }
    m_in.seekg(0, std::ios::end);
    const std::istream::pos_type end = m_in.tellg();
    m_in.seekg(here);
    if (end == std::istream::pos_type(-1) || !m_in || end < here)
    {
        m_in.clear(m_in.rdstate() & ~std::ios::failbit);
        return UINT64_MAX;
    }
    return static_cast<uint64_t>(end - here);
}

} // namespace ns3
