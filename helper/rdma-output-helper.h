/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OUTPUT_HELPER_H
#define RDMA_OUTPUT_HELPER_H

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Where scenario scripts write their CSV, pcap and summary files: creates the
 * folders an output path needs (like mkdir -p), and stops with a message naming the path
 * when it cannot, rather than letting the file open fail later without saying why.
 */
class RdmaOutputHelper
{
  public:
    /**
     * Create a directory and its parents if they do not exist.
     * \param dir the directory
     */
    static void CreateDirectories(const std::string& dir);

    /**
     * Create the directories above a file path (nothing for a bare file name).
     * \param file the path of a file about to be written
     */
    static void CreateParentDirectories(const std::string& file);
};

} // namespace ns3

#endif /* RDMA_OUTPUT_HELPER_H */
