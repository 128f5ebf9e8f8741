/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The pcaps of `rdma-incast --pcap` decode in Wireshark's dissectors (tshark) as RoCEv2
// (BTH opcodes, PSNs, ACKs) and carry real 802.1Qbb PFC frames; RDMA READ requests (RETH)
// and responses (AETH) decode too.

#include "rdma-test-environment.h"
#include "rdma-test-utils.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace
{

/// Run a shell command and return its standard output.
std::string
Capture(const std::string& cmd)
{
    std::array<char, 4096> buf;
    std::string out;
    std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe)
    {
        return out;
    }
    while (fgets(buf.data(), buf.size(), pipe.get()))
    {
        out += buf.data();
    }
    return out;
}

std::vector<std::string>
Lines(const std::string& s)
{
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
    {
        if (!l.empty())
        {
            v.push_back(l);
        }
    }
    return v;
}

class RdmaPcap : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        ASSERT_EQ(std::system("command -v tshark > /dev/null"), 0)
            << "tshark is needed (make deps installs it)";
        const std::string exe = RDMA_INCAST_EXAMPLE; // absolute path, in-tree or standalone
        if (exe.empty())
        {
            GTEST_SKIP() << "examples are not built (configure with --enable-examples)";
        }
        s_prefix = ns3::rdmatest::OutputDir() + "/pcap/incast";
        const std::string cmd = exe +
                                " --senders=2 --size=300000 "
                                "--buffer=300000 --pcap=1 --pcapPrefix=" +
                                s_prefix + " --output=" + s_prefix +
                                ".csv --queueOutput=" + s_prefix + "-queue.csv > /dev/null";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }

    /// tshark fields of a pcap, one line per packet matching the filter.
    static std::vector<std::string> Fields(const std::string& file,
                                           const std::string& filter,
                                           const std::string& fields)
    {
        return Lines(Capture("tshark -r " + s_prefix + "-" + file + ".pcap -Y '" + filter +
                             "' -T fields -E separator=, " + fields + " 2>/dev/null"));
    }

    static std::string s_prefix;
};

std::string RdmaPcap::s_prefix;

} // namespace

// Node ids in the example: 0 receiver, 1..N senders, N+1 the switch. Each host has one
// device (index 0).

TEST_F(RdmaPcap, DataPacketsDecodeAsRoceWithIncreasingPsns)
{
    // Sender 1's port: its WRITE packets to the receiver, 300000 B / 1024 = 293 packets.
    auto rows = Fields("1-0",
                       "infiniband.bth.opcode",
                       "-e infiniband.bth.opcode -e infiniband.bth.psn -e udp.dstport");
    ASSERT_GE(rows.size(), 293u);
    std::vector<unsigned> opcodes;
    long lastPsn = -1;
    unsigned dataPackets = 0;
    bool increasing = true;
    for (const auto& row : rows)
    {
        unsigned op = 0;
        long psn = 0;
        unsigned port = 0;
        ASSERT_EQ(std::sscanf(row.c_str(), "%u,%ld,%u", &op, &psn, &port), 3) << row;
        EXPECT_EQ(port, 4791u);
        if (op >= 6 && op <= 10)
        {
            ++dataPackets;
            increasing &= psn == lastPsn + 1;
            lastPsn = psn;
            opcodes.push_back(op);
        }
    }
    EXPECT_EQ(dataPackets, 293u);
    EXPECT_TRUE(increasing);
    ASSERT_FALSE(opcodes.empty());
    EXPECT_EQ(opcodes.front(), 6u); // RDMA WRITE First
    EXPECT_EQ(opcodes[1], 7u);      // RDMA WRITE Middle
    EXPECT_EQ(opcodes.back(), 8u);  // RDMA WRITE Last
}

TEST_F(RdmaPcap, AcknowledgementsDecode)
{
    // The receiver's port sends ACKs (opcode 0x11, with an AETH) to both senders.
    auto rows = Fields("0-0",
                       "infiniband.bth.opcode == 0x11",
                       "-e infiniband.aeth.syndrome -e infiniband.bth.psn");
    ASSERT_GE(rows.size(), 2u * 293u);
    for (const auto& row : rows)
    {
        unsigned syndrome = 0;
        ASSERT_EQ(std::sscanf(row.c_str(), "%u", &syndrome), 1) << row;
        EXPECT_EQ(syndrome >> 5, 0u) << "an ACK, not a NAK: " << row;
    }
}

TEST_F(RdmaPcap, PfcPauseFramesDecode)
{
    // Two senders at line rate into one port through a small buffer: the switch pauses
    // class 3 on the senders' links. The frames show as 802.1Qbb CBFC pauses.
    auto rows = Fields("1-0", "macc.opcode == 0x0101", "-e eth.dst -e macc.opcode -e frame.len");
    ASSERT_GE(rows.size(), 1u);
    for (const auto& row : rows)
    {
        EXPECT_EQ(row.substr(0, 17), "01:80:c2:00:00:01") << row;
        EXPECT_NE(row.find(",0x0101,60"), std::string::npos) << row;
    }
}

TEST(RdmaPcapRead, ReadRequestAndResponsesDecode)
{
    // Host 1 reads 3000 bytes of host 0's memory at VA 0x10000 (R_Key 0x1234), MTU 1024:
    // one READ Request (opcode 0x0C, RETH) leaves host 1; three responses, First (0x0D,
    // AETH), Middle (0x0E) and Last (0x0F, AETH), with the request's PSN and the two after
    // it, come back; then a one-packet READ of 8 bytes: Request and Response Only (0x10).
    ASSERT_EQ(std::system("command -v tshark > /dev/null"), 0)
        << "tshark is needed (make deps installs it)";
    using namespace ns3;
    const std::string pcap = rdmatest::OutputDir() + "/pcap-read-host1.pcap";
    {
        // In a block: the pcap file is complete once the devices writing it are gone.
        rdmatest::Star star(2, "100Gbps", MicroSeconds(1));
        star.Install();
        auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        star.link.EnablePcap(pcap, star.HostDevice(1), false, true);
        for (uint64_t length : {3000, 8})
        {
            RdmaWorkRequest wr;
            wr.opcode = RdmaWorkRequest::READ;
            wr.length = length;
            wr.remoteAddress = 0x10000;
            wr.rkey = 0x1234;
            Simulator::ScheduleWithContext(star.hosts.Get(1)->GetId(),
                                           Seconds(0),
                                           &RdmaQueuePair::PostSend,
                                           requester,
                                           wr);
        }
        Simulator::Run();
        EXPECT_EQ(requester->GetBytesRead(), 3008u);
        Simulator::Destroy();
    }

    const auto rows = Lines(Capture(
        "tshark -r " + pcap +
        " -Y infiniband -T fields -E separator=, -e infiniband.bth.opcode -e infiniband.bth.psn "
        "-e infiniband.reth.va -e infiniband.reth.r_key -e infiniband.reth.dmalen "
        "-e infiniband.aeth.syndrome -e infiniband.aeth.msn 2>/dev/null"));
    // Requests leave and responses arrive on host 1's port: both in its pcap. The AETH
    // syndrome is ACK with credits invalid (0x1F); its MSN counts the READs executed.
    ASSERT_EQ(rows.size(), 6u) << ::testing::PrintToString(rows);
    EXPECT_EQ(rows[0], "12,0,0x0000000000010000,0x00001234,3000,,");
    EXPECT_EQ(rows[1], "12,3,0x0000000000010000,0x00001234,8,,");
    EXPECT_EQ(rows[2], "13,0,,,,31,1");
    EXPECT_EQ(rows[3], "14,1,,,,,");
    EXPECT_EQ(rows[4], "15,2,,,,31,1");
    EXPECT_EQ(rows[5], "16,3,,,,31,2");
}

TEST(RdmaPcapAtomic, AtomicRequestsAndAcknowledgesDecode)
{
    // Host 1 does a Fetch & Add of 5 and then a Compare & Swap (compare 12, swap 1) on the
    // word at VA 0x20 of host 0 (R_Key 0x1234), which holds 7: two requests leave host 1,
    // Fetch & Add (opcode 0x14) with PSN 0 and Compare & Swap (0x13) with PSN 1, each with
    // an AtomicETH; two Atomic Acknowledges (0x12) come back with an AETH (ACK, credits
    // invalid: 0x1F; MSN 1 and 2) and an AtomicAckETH: the original values 7 and 12. The
    // word ends at 1 (12 matched the comparand).
    ASSERT_EQ(std::system("command -v tshark > /dev/null"), 0)
        << "tshark is needed (make deps installs it)";
    using namespace ns3;
    const std::string pcap = rdmatest::OutputDir() + "/pcap-atomic-host1.pcap";
    {
        rdmatest::Star star(2, "100Gbps", MicroSeconds(1));
        star.Install();
        auto [requester, responder] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
        star.link.EnablePcap(pcap, star.HostDevice(1), false, true);
        Ptr<RdmaMemory> memory = star.hosts.Get(0)->GetObject<RdmaMemory>();
        memory->Write64(0x20, 7);
        RdmaWorkRequest wr;
        wr.length = 8;
        wr.remoteAddress = 0x20;
        wr.rkey = 0x1234;
        wr.opcode = RdmaWorkRequest::FETCH_ADD;
        wr.compareAdd = 5;
        Simulator::ScheduleWithContext(star.hosts.Get(1)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       requester,
                                       wr);
        wr.opcode = RdmaWorkRequest::COMPARE_SWAP;
        wr.compareAdd = 12;
        wr.swap = 1;
        Simulator::ScheduleWithContext(star.hosts.Get(1)->GetId(),
                                       Seconds(0),
                                       &RdmaQueuePair::PostSend,
                                       requester,
                                       wr);
        Simulator::Run();
        EXPECT_EQ(memory->Read64(0x20), 1u);
        Simulator::Destroy();
    }

    const auto rows = Lines(Capture(
        "tshark -r " + pcap +
        " -Y infiniband -T fields -E separator=, -e infiniband.bth.opcode -e infiniband.bth.psn "
        "-e infiniband.reth.va -e infiniband.reth.r_key -e infiniband.atomiceth.swapdt "
        "-e infiniband.atomiceth.cmpdt -e infiniband.aeth.syndrome -e infiniband.aeth.msn "
        "-e infiniband.atomicacketh.origremdt 2>/dev/null"));
    ASSERT_EQ(rows.size(), 4u) << ::testing::PrintToString(rows);
    EXPECT_EQ(rows[0], "20,0,0x0000000000000020,0x00001234,5,0,,,");
    EXPECT_EQ(rows[1], "19,1,0x0000000000000020,0x00001234,1,12,,,");
    EXPECT_EQ(rows[2], "18,0,,,,,31,1,7");
    EXPECT_EQ(rows[3], "18,1,,,,,31,2,12");
}
