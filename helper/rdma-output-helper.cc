/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-output-helper.h"

#include "ns3/abort.h"

#include <filesystem>
#include <system_error>

namespace ns3
{

void
RdmaOutputHelper::CreateDirectories(const std::string& dir)
{
    if (dir.empty())
    {
        return;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    NS_ABORT_MSG_IF(ec && !std::filesystem::is_directory(dir),
                    "cannot create the output directory '" << dir << "': " << ec.message());
}

void
RdmaOutputHelper::CreateParentDirectories(const std::string& file)
{
    CreateDirectories(std::filesystem::path(file).parent_path().string());
}

} // namespace ns3
