/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaSimulatorImpl's Lookahead: events run in windows, node by node. Each node must run
// the same events at the same times as in global order, events of no node must see the
// whole fabric at their time, an event for another node inside the window is refused, and
// a fabric's results stay those of global order up to the order of same-time events.

#include "rdma-test-utils.h"

#include "ns3/nstime.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/**
 * Run a scenario with the given Lookahead (WithFastestSimulator).
 * \param lookahead RdmaSimulatorImpl::Lookahead (0: global order)
 * \param scenario builds the scenario, runs it and returns its log
 * \return the log
 */
std::string
WithLookahead(Time lookahead, const std::function<std::string()>& scenario)
{
    return WithFastestSimulator("Lookahead", TimeValue(lookahead), scenario);
}

/// SplitMix64's output function: a label's children and delays derive from it alone.
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/**
 * Events on six nodes that schedule events for their own node (0 to 2 lookaheads later,
 * often inside the window) and for others (1 to 4 lookaheads later), and a sampler of no
 * node every 3,333 ps that counts the events run so far. What an event schedules depends
 * on its label only, never on the order of events, so global order and node-by-node
 * windows must run the same events at the same times.
 */
class CrossNodeSchedule
{
  public:
    static constexpr uint32_t NODES = 6;       //!< contexts 0..5
    static constexpr int64_t LOOKAHEAD = 1000; //!< ps: the least delay between nodes

    /**
     * \param lookahead RdmaSimulatorImpl::Lookahead
     * \return per node its (time, label) pairs sorted, then the sampler's counts, then
     *         whether some node ran an event earlier than its event before
     */
    static std::string Run(Time lookahead)
    {
        return WithLookahead(lookahead, [] {
            CrossNodeSchedule s;
            for (uint64_t i = 0; i < 48; ++i)
            {
                Simulator::ScheduleWithContext(i % NODES,
                                               PicoSeconds(37 * i),
                                               &CrossNodeSchedule::Fire,
                                               &s,
                                               Mix(i));
            }
            Simulator::Schedule(PicoSeconds(1), &CrossNodeSchedule::Sample, &s);
            // In two parts, as rdma-bench --measureFrom runs: the second Run goes on from
            // where the first stopped (the stop mid-window, at no event's time).
            Simulator::Stop(PicoSeconds(97 * LOOKAHEAD + 501));
            Simulator::Run();
            std::ostringstream log;
            log << "first part: " << s.m_events << " events, now "
                << Simulator::Now().GetPicoSeconds() << '\n';
            Simulator::Stop(PicoSeconds(103 * LOOKAHEAD - 501));
            Simulator::Run();
            for (uint32_t n = 0; n < NODES; ++n)
            {
                std::vector<std::pair<int64_t, uint64_t>> runs = s.m_runs[n];
                std::sort(runs.begin(), runs.end());
                log << "node " << n << ": " << runs.size() << " events\n";
                for (const auto& [t, label] : runs)
                {
                    log << t << ' ' << label << '\n';
                }
            }
            for (const std::string& sample : s.m_samples)
            {
                log << sample << '\n';
            }
            log << "backwards " << s.m_backwards << " total " << s.m_events << '\n';
            return log.str();
        });
    }

  private:
    void Fire(uint64_t label)
    {
        const uint32_t node = Simulator::GetContext();
        const int64_t now = Simulator::Now().GetPicoSeconds();
        std::vector<std::pair<int64_t, uint64_t>>& runs = m_runs.at(node);
        if (!runs.empty() && runs.back().first > now)
        {
            ++m_backwards; // a node's clock must never go back
        }
        runs.emplace_back(now, label);
        ++m_events;
        const uint64_t h = Mix(label);
        const uint32_t children = h % 8 == 0 ? 0 : (h % 8 == 1 ? 2 : 1); // one on average
        for (uint32_t c = 0; c < children; ++c)
        {
            const uint64_t child = Mix(h + c);
            uint32_t target = node;
            int64_t delay = static_cast<int64_t>((child >> 8) % (2 * LOOKAHEAD)); // may be 0
            if (child & 1)
            {
                target = static_cast<uint32_t>((child >> 1) % NODES); // may be this node
                delay = LOOKAHEAD + static_cast<int64_t>((child >> 8) % (3 * LOOKAHEAD));
            }
            Simulator::ScheduleWithContext(target,
                                           PicoSeconds(delay),
                                           &CrossNodeSchedule::Fire,
                                           this,
                                           child);
        }
    }

    void Sample()
    {
        std::ostringstream s;
        s << "sample " << Simulator::Now().GetPicoSeconds() << " ctx " << Simulator::GetContext()
          << " after " << m_events;
        m_samples.push_back(s.str());
        Simulator::Schedule(PicoSeconds(3333), &CrossNodeSchedule::Sample, this);
    }

    std::vector<std::vector<std::pair<int64_t, uint64_t>>> m_runs{NODES};
    std::vector<std::string> m_samples;
    uint64_t m_events{0};
    uint64_t m_backwards{0};
};

/// Record that an event ran.
void
Ran(std::vector<std::string>* log, std::string what)
{
    log->push_back(what + " at " + std::to_string(Simulator::Now().GetPicoSeconds()));
}

/// Remove one event and cancel another of this node, both inside the running window.
void
RemoveAndCancel(std::vector<std::string>* log, EventId* removed, EventId* cancelled)
{
    Simulator::Remove(*removed);
    Simulator::Cancel(*cancelled);
    log->push_back(std::string("expired ") + (removed->IsExpired() ? "1" : "0") +
                   (cancelled->IsExpired() ? "1" : "0"));
}

/// Schedule two events of this node 300 and 400 ps later, and one that removes and cancels them.
void
ScheduleThree(std::vector<std::string>* log, EventId* removed, EventId* cancelled)
{
    *removed = Simulator::Schedule(PicoSeconds(300), &Ran, log, std::string("removed"));
    *cancelled = Simulator::Schedule(PicoSeconds(400), &Ran, log, std::string("cancelled"));
    Simulator::Schedule(PicoSeconds(100), &RemoveAndCancel, log, removed, cancelled);
    Simulator::Schedule(PicoSeconds(500), &Ran, log, std::string("kept"));
}

/**
 * RunDcqcnFatTree4 (a k = 4 fat-tree under DCQCN with ECN marking and an incast that PFC
 * pauses).
 * \param lookahead RdmaSimulatorImpl::Lookahead
 * \return per flow its completion time (ps) and length, one per line, then the frames the
 *         switches forwarded, the pause frames they sent and their drops
 */
std::string
FatTreeLog(Time lookahead)
{
    return WithLookahead(lookahead, [] {
        const FatTreeRunResult r = RunDcqcnFatTree4();
        std::ostringstream log;
        log << r.completions << "forwarded " << r.forwarded << " pauses " << r.pauses << " drops "
            << r.drops << '\n';
        return log.str();
    });
}

/**
 * FatTreeLog in 1 us windows with prefetching from the given number of pending events on.
 * \param prefetchMinPending RdmaSimulatorImpl::PrefetchMinPending (0: never)
 * \return FatTreeLog's log
 */
std::string
FatTreeInWindowsLog(uint32_t prefetchMinPending)
{
    return WithFastestSimulator("PrefetchMinPending", UintegerValue(prefetchMinPending), [] {
        return FatTreeLog(MicroSeconds(1));
    });
}

/// \return the lines of a log, each split at spaces into numbers where they are numbers
std::vector<std::vector<std::string>>
Fields(const std::string& log)
{
    std::vector<std::vector<std::string>> lines;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::vector<std::string> fields;
        std::string w;
        while (words >> w)
        {
            fields.push_back(w);
        }
        lines.push_back(fields);
    }
    return lines;
}

} // namespace

// With no same-time events of one node from different nodes to order, node-by-node windows
// run exactly the events of global order at the same times; every node's clock moves
// forward only; and an event of no node (a sampler, scheduled from main) runs when every
// node has run exactly the events global order would have run before it.
TEST(RdmaLookahead, EachNodeRunsTheEventsOfGlobalOrderAtTheirTimes)
{
    const std::string global = CrossNodeSchedule::Run(Time(0));
    const std::string windows = CrossNodeSchedule::Run(PicoSeconds(CrossNodeSchedule::LOOKAHEAD));
    EXPECT_EQ(windows, global);
    EXPECT_NE(global.find("backwards 0 total "), std::string::npos) << global;
    // It ran long enough to matter: many windows, events on every node, samples throughout.
    EXPECT_EQ(global.find(": 0 events\n"), std::string::npos) << global;
    EXPECT_NE(global.find("first part: "), std::string::npos) << global;
    EXPECT_NE(global.find("sample 199981 ctx 4294967295 after "), std::string::npos); // the last
    // A shorter window than the least delay between nodes is as good.
    EXPECT_EQ(CrossNodeSchedule::Run(PicoSeconds(CrossNodeSchedule::LOOKAHEAD / 3)), global);
}

// An event that schedules one for another node sooner than the window allows would let
// that node run out of order: refused, naming the nodes, the delay and what is valid.
TEST(RdmaLookaheadDeathTest, AnEventForAnotherNodeInsideTheWindowIsRefused)
{
    EXPECT_DEATH(
        WithLookahead(NanoSeconds(1),
                      [] {
                          Simulator::ScheduleWithContext(2, NanoSeconds(5), [] {
                              Simulator::ScheduleWithContext(7, PicoSeconds(400), &Simulator::Stop);
                          });
                          Simulator::Run();
                          return std::string();
                      }),
        "Lookahead \\+1ns: an event of node 2 at \\+5ns scheduled one for context 7 "
        "\\+0.4ns later, inside the window that ends at \\+6ns; valid: a Lookahead no "
        "larger than the least delay between nodes");
}

// A negative Lookahead is refused when it is set, naming the attribute.
TEST(RdmaLookaheadDeathTest, ANegativeLookaheadIsRefused)
{
    EXPECT_DEATH(WithLookahead(NanoSeconds(-1),
                               [] {
                                   Simulator::Run();
                                   return std::string();
                               }),
                 "RdmaSimulatorImpl::Lookahead: -1ns; valid: 0 \\(off\\) or more");
}

// Inside a window, Remove and Cancel of the running node's own events work as in global
// order: neither event runs, both are expired, the others run.
TEST(RdmaLookahead, RemovedAndCancelledEventsInsideTheWindowDoNotRun)
{
    for (const Time& lookahead : {Time(0), MicroSeconds(1)})
    {
        std::vector<std::string> log;
        EventId removed;
        EventId cancelled;
        WithLookahead(lookahead, [&] {
            Simulator::ScheduleWithContext(3,
                                           NanoSeconds(10),
                                           &ScheduleThree,
                                           &log,
                                           &removed,
                                           &cancelled);
            Simulator::Run();
            return std::string();
        });
        EXPECT_EQ(log, (std::vector<std::string>{"expired 11", "kept at 10500"})) << lookahead;
    }
}

// A k = 4 fat-tree (1 us links) run in 1 us windows: every flow completes with its length,
// no frame is dropped, the switches forward the same frames as in global order and about
// as many pause frames, and completion times stay within 2 % of global order's (same-time
// arrivals at a switch from different ports may be queued in the other order); run twice,
// identical.
TEST(RdmaLookahead, AFatTreeInWindowsMatchesGlobalOrder)
{
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaLookahead.AFatTreeInWindowsMatchesGlobalOrder");
    }
    const std::string global = FatTreeLog(Time(0));
    const std::string windows = FatTreeLog(MicroSeconds(1));
    EXPECT_EQ(FatTreeLog(MicroSeconds(1)), windows); // deterministic
    const auto g = Fields(global);
    const auto w = Fields(windows);
    ASSERT_EQ(g.size(), 16U + 6U + 1U) << global; // every flow completed
    ASSERT_EQ(w.size(), g.size()) << windows;
    double worst = 0;
    for (std::size_t i = 0; i + 1 < g.size(); ++i)
    {
        ASSERT_EQ(w[i].size(), 2U) << windows;
        EXPECT_EQ(w[i][1], g[i][1]) << "flow " << i; // its length
        const double tg = std::stod(g[i][0]);
        const double tw = std::stod(w[i][0]);
        worst = std::max(worst, std::abs(tw - tg) / tg);
    }
    EXPECT_LT(worst, 0.02) << global << windows;
    // forwarded, pauses, drops: the same frames; pauses within 5 % (a pause frame is sent
    // when a queue crosses its threshold, which same-time arrivals can cross in the other
    // order); lossless: no drops
    ASSERT_EQ(g.back().size(), 6U) << global;
    ASSERT_EQ(w.back().size(), 6U) << windows;
    EXPECT_EQ(w.back()[1], g.back()[1]);
    const double pg = std::stod(g.back()[3]);
    const double pw = std::stod(w.back()[3]);
    EXPECT_GT(pg, 50) << global; // the incast paused
    EXPECT_LE(std::abs(pw - pg), 0.05 * pg) << global << windows;
    EXPECT_EQ(g.back()[5], "0") << global;
    EXPECT_EQ(w.back()[5], "0") << windows;
}

// In windows the prefetch stages are called batch by batch from the window's array, across
// one node's last events into the next node's first, and the channel's arrival stages name
// the frame each schedule will take (RdmaPrefetchCursor), not the oldest. Called for every
// event (from one pending event on), they change nothing: the same completions at the same
// times, the same frames forwarded, pauses and drops as without them. Under the sanitizers
// this also checks that no stage reads freed memory or past a ring's frames.
TEST(RdmaLookahead, PrefetchingInWindowsChangesNothing)
{
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaLookahead.PrefetchingInWindowsChangesNothing");
    }
    const std::string with = FatTreeInWindowsLog(1);
    const std::string without = FatTreeInWindowsLog(0);
    EXPECT_EQ(with, without);
    EXPECT_EQ(std::count(with.begin(), with.end(), '\n'), 16 + 6 + 1) << with;
}
