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

} // namespace ns3
