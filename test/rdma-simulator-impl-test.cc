/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RdmaSimulatorImpl answers every SimulatorImpl call as ns-3's DefaultSimulatorImpl does:
// the same random schedule, with cancellations, removals, destroy events, expiry queries
// and a stop, gives the same log under both, with two schedulers.

#include "rdma-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/global-value.h"
#include "ns3/make-event.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-link-helper.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-simulator-impl.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

using namespace ns3;
using namespace ns3::rdmatest;

namespace
{

/// A random schedule whose events schedule, cancel and remove more events as they run.
class RandomSchedule
{
  public:
    /// \return the log of one run under the given implementation and scheduler
    static std::string Run(const std::string& impl, const std::string& scheduler)
    {
        StringValue savedImpl;
        StringValue savedScheduler;
        GlobalValue::GetValueByName("SimulatorImplementationType", savedImpl);
        GlobalValue::GetValueByName("SchedulerType", savedScheduler);
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        GlobalValue::Bind("SchedulerType", StringValue(scheduler));
        RandomSchedule s;
        s.Start();
        Simulator::Run();
        s.m_log << "end now=" << Simulator::Now().GetTimeStep()
                << " events=" << Simulator::GetEventCount()
                << " finished=" << Simulator::IsFinished() << "\n";
        for (std::size_t i = 0; i < s.m_ids.size(); i += 7)
        {
            s.m_log << "left " << i << " expired=" << Simulator::IsExpired(s.m_ids[i])
                    << " delay=" << Simulator::GetDelayLeft(s.m_ids[i]).GetTimeStep() << "\n";
        }
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", savedImpl);
        GlobalValue::Bind("SchedulerType", savedScheduler);
        return s.m_log.str();
    }

  private:
    void Start()
    {
        for (uint32_t i = 0; i < 200; ++i)
        {
            const Time at = NanoSeconds(m_rng() % 500);
            if (i % 3 == 0)
            {
                Simulator::ScheduleWithContext(i % 5, at, &RandomSchedule::Fire, this, i);
            }
            else
            {
                m_ids.push_back(Simulator::Schedule(at, &RandomSchedule::Fire, this, i));
            }
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            m_destroyIds.push_back(Simulator::ScheduleDestroy(&RandomSchedule::Destroyed, this, i));
        }
        Simulator::Cancel(m_destroyIds[1]);
        Simulator::Remove(m_destroyIds[2]);
        Simulator::Stop(NanoSeconds(2000));
    }

    void Fire(uint32_t tag)
    {
        m_log << Simulator::Now().GetTimeStep() << " ctx=" << Simulator::GetContext()
              << " tag=" << tag << " n=" << Simulator::GetEventCount() << "\n";
        // The module's shortcuts answer as the Simulator does, under any implementation.
        if (RdmaSimulatorImpl::CurrentTime() != Simulator::Now() ||
            RdmaSimulatorImpl::CurrentContext() != Simulator::GetContext())
        {
            m_log << "shortcut differs\n";
        }
        if (m_next > 3000)
        {
            return;
        }
        switch (m_rng() % 8)
        {
        case 0:
            m_ids.push_back(Simulator::ScheduleNow(&RandomSchedule::Fire, this, m_next++));
            m_log << " uid=" << m_ids.back().GetUid() << "\n"; // destroy events take uids too
            break;
        case 1:
        case 2:
            for (int i = 0; i < 3; ++i) // about one new event per event run: the run lasts
            {
                m_ids.push_back(Simulator::Schedule(NanoSeconds(m_rng() % 300),
                                                    &RandomSchedule::Fire,
                                                    this,
                                                    m_next++));
            }
            break;
        case 3:
            RdmaSimulatorImpl::ScheduleWithContextNow(
                m_rng() % 9,
                PicoSeconds(m_rng() % 3),
                MakeEvent(&RandomSchedule::Fire, this, m_next++));
            break;
        case 4:
            if (!m_ids.empty())
            {
                Simulator::Cancel(m_ids[m_rng() % m_ids.size()]);
            }
            break;
        case 5:
            if (!m_ids.empty())
            {
                Simulator::Remove(m_ids[m_rng() % m_ids.size()]);
            }
            break;
        default:
            if (!m_ids.empty())
            {
                const EventId& id = m_ids[m_rng() % m_ids.size()];
                m_log << " expired=" << id.IsExpired() << " running=" << id.IsRunning()
                      << " left=" << Simulator::GetDelayLeft(id).GetTimeStep() << "\n";
            }
            if (m_destroyIds.size() < 8)
            {
                m_destroyIds.push_back(
                    Simulator::ScheduleDestroy(&RandomSchedule::Destroyed, this, m_next++));
            }
        }
    }

    void Destroyed(uint32_t tag)
    {
        // The log is read after Destroy: destroy events run inside it.
        m_log << "destroy " << tag << " expired=" << Simulator::IsExpired(m_destroyIds[0]) << "\n";
    }

    std::mt19937 m_rng{12345};
    std::ostringstream m_log;
    std::vector<EventId> m_ids;
    std::vector<EventId> m_destroyIds;
    uint32_t m_next{1000};
};

/// Events scheduled from another thread, before the run and from inside an event.
struct ForeignThread
{
    std::vector<std::pair<int64_t, uint32_t>> runs; //!< (time, context) of each Mark

    void Mark()
    {
        runs.emplace_back(Simulator::Now().GetTimeStep(), Simulator::GetContext());
    }

    void SpawnAndJoin()
    {
        Mark();
        // Through the module's shortcut: from another thread it must take the queued path.
        std::thread t([this] {
            RdmaSimulatorImpl::ScheduleWithContextNow(3,
                                                      NanoSeconds(2),
                                                      MakeEvent(&ForeignThread::Mark, this));
        });
        t.join();
    }
};

} // namespace

TEST(RdmaSimulatorImpl, RandomScheduleLogsAsUnderDefaultSimulatorImpl)
{
    std::string underMap;
    for (const char* scheduler :
         {"ns3::MapScheduler", "ns3::RdmaRadixScheduler", "ns3::RdmaTimingWheelScheduler"})
    {
        const std::string expected = RandomSchedule::Run("ns3::DefaultSimulatorImpl", scheduler);
        // Every scheduler runs the events in the same order: the logs are the same.
        underMap = underMap.empty() ? expected : underMap;
        EXPECT_EQ(expected, underMap) << scheduler;
        const std::string got = RandomSchedule::Run("ns3::RdmaSimulatorImpl", scheduler);
        // The run did what the test means: many events, cancellations and destroy events.
        EXPECT_GT(std::count(expected.begin(), expected.end(), '\n'), 1500) << scheduler;
        EXPECT_NE(expected.find("destroy 0"), std::string::npos);
        EXPECT_EQ(expected.find("destroy 1 "), std::string::npos);      // cancelled
        EXPECT_EQ(expected.find("destroy 2 "), std::string::npos);      // removed
        EXPECT_NE(expected.find("end now=2000000"), std::string::npos); // stopped at 2 us
        EXPECT_EQ(expected.find("shortcut differs"), std::string::npos);
        EXPECT_EQ(got, expected) << scheduler;
    }
}

// An event at time 0 removed before the run is gone, as under DefaultSimulatorImpl: it
// neither runs nor counts among the events run (Remove had cancelled it instead, as it does
// only inside a Lookahead window).
TEST(RdmaSimulatorImpl, AnEventAtTimeZeroRemovedBeforeTheRunIsGone)
{
    for (const std::string impl : {"ns3::DefaultSimulatorImpl", "ns3::RdmaSimulatorImpl"})
    {
        StringValue saved;
        GlobalValue::GetValueByName("SimulatorImplementationType", saved);
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        uint32_t ran = 0;
        const EventId removed = Simulator::Schedule(Time(0), [&ran] { ++ran; });
        Simulator::Schedule(NanoSeconds(1), [&ran] { ran += 10; });
        Simulator::Remove(removed);
        Simulator::Run();
        EXPECT_EQ(ran, 10U) << impl;
        EXPECT_EQ(Simulator::GetEventCount(), 1U) << impl;
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", saved);
    }
}

TEST(RdmaSimulatorImpl, EventsFromAnotherThreadRunAfterTheCurrentEvent)
{
    StringValue saved;
    GlobalValue::GetValueByName("SimulatorImplementationType", saved);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    ForeignThread f;
    std::thread before(
        [&f] { Simulator::ScheduleWithContext(7, NanoSeconds(5), &ForeignThread::Mark, &f); });
    before.join();
    Simulator::ScheduleWithContext(1, NanoSeconds(10), &ForeignThread::SpawnAndJoin, &f);
    Simulator::Run();
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", saved);
    // The time of a foreign event counts from when the simulation takes it in.
    const std::vector<std::pair<int64_t, uint32_t>> expected{{5000, 7}, {10000, 1}, {12000, 3}};
    EXPECT_EQ(f.runs, expected);
}

/// A direct event that logs its time, context and tag, and schedules a plain event and
/// itself again from inside (as the channel's arrival event does).
class LoggingDirectEvent : public RdmaSimulatorImpl::DirectEvent
{
  public:
    void Fire() override
    {
        runs.emplace_back(Simulator::Now().GetTimeStep(), Simulator::GetContext());
        if (++fires == 1)
        {
            // At the same time stamp: after this one, in scheduling order.
            Simulator::ScheduleWithContext(4, Time(0), &LoggingDirectEvent::Plain, this);
            Ref();
            RdmaSimulatorImpl::ScheduleDirectNow(5, Time(0), this);
        }
    }

    void Plain()
    {
        runs.emplace_back(Simulator::Now().GetTimeStep(), 100 + Simulator::GetContext());
    }

    std::vector<std::pair<int64_t, uint32_t>> runs; //!< (time, context; 100 + it if plain)
    uint32_t fires{0};                              //!< Fire calls
};

// Direct events (ScheduleDirectNow: Run fires them without EventImpl::Invoke) run in the
// (time stamp, uid) order of every other event, in their context; one pending when the
// simulator is destroyed is released (its reference returned), and under ns-3's
// DefaultSimulatorImpl they run through Invoke in the same order.
TEST(RdmaSimulatorImpl, DirectEventsRunInOrderAndAreReleased)
{
    for (const char* impl : {"ns3::RdmaSimulatorImpl", "ns3::DefaultSimulatorImpl"})
    {
        StringValue saved;
        GlobalValue::GetValueByName("SimulatorImplementationType", saved);
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        Ptr<LoggingDirectEvent> direct = Create<LoggingDirectEvent>();
        Ptr<LoggingDirectEvent> pending = Create<LoggingDirectEvent>();
        Simulator::ScheduleWithContext(1, NanoSeconds(10), &LoggingDirectEvent::Plain, direct);
        direct->Ref(); // the scheduler's reference
        RdmaSimulatorImpl::ScheduleDirectNow(2, NanoSeconds(10), PeekPointer(direct));
        Simulator::ScheduleWithContext(3, NanoSeconds(10), &LoggingDirectEvent::Plain, direct);
        pending->Ref();
        RdmaSimulatorImpl::ScheduleDirectNow(6, NanoSeconds(50), PeekPointer(pending));
        Simulator::Stop(NanoSeconds(20));
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", saved);
        const std::vector<std::pair<int64_t, uint32_t>> expected{{10000, 101},
                                                                 {10000, 2},
                                                                 {10000, 103},
                                                                 {10000, 104},
                                                                 {10000, 5}};
        EXPECT_EQ(direct->runs, expected) << impl;
        EXPECT_TRUE(pending->runs.empty()) << impl;
        // Only the test's references are left: the scheduler released its own.
        EXPECT_EQ(pending->GetReferenceCount(), 1U) << impl;
        EXPECT_EQ(direct->GetReferenceCount(), 1U) << impl;
    }
}

namespace
{

/// One cache line of bytes, as a channel's ring slot (RdmaChannel::InFlightFrame).
struct alignas(64) TestLine
{
    std::array<uint8_t, 64> bytes; //!< the line
};

/// What RdmaSimulatorImpl::StoresPastCaches said inside an event, and what StreamLine wrote.
struct StreamLineProbe
{
    bool pastCaches{false}; //!< StoresPastCaches() in the event
    bool copied{false};     //!< the line written held every byte of the source

    /// Write a line with StreamLine and check it.
    void Store()
    {
        TestLine from;
        for (std::size_t i = 0; i < from.bytes.size(); ++i)
        {
            from.bytes[i] = static_cast<uint8_t>(7 * i + 1);
        }
        TestLine to{};
        pastCaches = RdmaSimulatorImpl::StoresPastCaches();
        RdmaSimulatorImpl::StreamLine(to, from);
        copied = to.bytes == from.bytes;
    }
};

} // namespace

// Lines are written past the caches (StoresPastCaches) while a window's events run with at
// least PrefetchMinPending events pending, as the prefetch stages run there, and not with
// fewer, with prefetching off, in global order or outside Run; StreamLine writes the whole
// line.
TEST(RdmaSimulatorImpl, StoresPastCachesInALargeFabricAndStreamLineWritesTheLine)
{
    struct Case
    {
        int64_t lookaheadNs; //!< Lookahead (0: global order)
        uint32_t minPending; //!< PrefetchMinPending (0: never)
        bool pastCaches;     //!< StoresPastCaches() expected in the event
    };

    for (const Case& c :
         {Case{100, 1, true}, Case{100, 0, false}, Case{100, 1000, false}, Case{0, 1, false}})
    {
        StreamLineProbe probe;
        WithFastestSimulator("PrefetchMinPending", UintegerValue(c.minPending), [&probe, &c]() {
            Config::SetDefault("ns3::RdmaSimulatorImpl::Lookahead",
                               TimeValue(NanoSeconds(c.lookaheadNs)));
            Simulator::ScheduleWithContext(0, NanoSeconds(10), &StreamLineProbe::Store, &probe);
            Simulator::ScheduleWithContext(1, NanoSeconds(20), [] {}); // pending meanwhile
            Simulator::ScheduleWithContext(2, NanoSeconds(30), [] {});
            Simulator::Run();
            Config::SetDefault("ns3::RdmaSimulatorImpl::Lookahead", TimeValue(Seconds(0)));
            return std::string();
        });
        const std::string what = "Lookahead " + std::to_string(c.lookaheadNs) +
                                 " ns, PrefetchMinPending " + std::to_string(c.minPending);
        EXPECT_EQ(probe.pastCaches, c.pastCaches) << what;
        EXPECT_TRUE(probe.copied) << what;
    }
    StreamLineProbe outside;
    outside.Store();
    EXPECT_FALSE(outside.pastCaches);
    EXPECT_TRUE(outside.copied);
}

TEST(RdmaSimulatorImplDeathTest, NegativeDelayIsRefused)
{
    StringValue saved;
    GlobalValue::GetValueByName("SimulatorImplementationType", saved);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::RdmaSimulatorImpl"));
    EXPECT_DEATH(Simulator::ScheduleWithContext(0, NanoSeconds(-1), &Simulator::Stop),
                 "Simulator::ScheduleWithContext: negative delay -1");
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", saved);
}

// The helper binds SimulatorImplementationType (the fastest by default), which the command
// line still overrides; an unknown name stops with the valid ones.
TEST(RdmaSimulatorImpl, HelperBindsSimulatorImplementationType)
{
    StringValue saved;
    StringValue savedScheduler;
    GlobalValue::GetValueByName("SimulatorImplementationType", saved);
    GlobalValue::GetValueByName("SchedulerType", savedScheduler);
    RdmaHelper::UseFastestSimulator();
    StringValue v;
    GlobalValue::GetValueByName("SimulatorImplementationType", v);
    EXPECT_EQ(v.Get(), "ns3::RdmaSimulatorImpl");
    GlobalValue::GetValueByName("SchedulerType", v);
    EXPECT_EQ(v.Get(), "ns3::RdmaRadixScheduler");
    EXPECT_EQ(GlobalValueAfterCommandLine("--SimulatorImplementationType=ns3::DefaultSimulatorImpl",
                                          "SimulatorImplementationType"),
              "ns3::DefaultSimulatorImpl");
    GlobalValue::Bind("SimulatorImplementationType", saved);
    GlobalValue::Bind("SchedulerType", savedScheduler);
}

TEST(RdmaSimulatorImplDeathTest, UnknownSimulatorImplementationTypeId)
{
    EXPECT_DEATH(RdmaHelper::SetSimulatorImplementation("ns3::MapScheduler"),
                 "unknown simulator implementation TypeId 'ns3::MapScheduler'; valid: "
                 ".*ns3::RdmaSimulatorImpl");
}

namespace
{

/**
 * Run a scenario with prefetching for the next events from the given number of pending
 * events on (WithFastestSimulator).
 * \param prefetchMinPending RdmaSimulatorImpl::PrefetchMinPending (0: never)
 * \param scenario builds the scenario, runs it and returns its log
 * \return the log
 */
std::string
WithPrefetching(uint32_t prefetchMinPending, const std::function<std::string()>& scenario)
{
    return WithFastestSimulator("PrefetchMinPending", UintegerValue(prefetchMinPending), scenario);
}

/**
 * \param logs the queue pairs' completion logs
 * \return each completion's time (ps) and length, one per line
 */
std::string
CompletionLines(const std::vector<CompletionLog>& logs)
{
    std::ostringstream log;
    for (const CompletionLog& l : logs)
    {
        for (const RdmaCompletion& c : l.sends)
        {
            log << c.completionTime.GetPicoSeconds() << ' ' << c.length << '\n';
        }
    }
    return log.str();
}

/**
 * An 8-to-1 incast through one switch (PFC pauses the senders).
 * \param prefetchMinPending RdmaSimulatorImpl::PrefetchMinPending (0: never)
 * \return each completion's time (ps) and length, the events run and the pause frames
 */
std::string
IncastLog(uint32_t prefetchMinPending)
{
    return WithPrefetching(prefetchMinPending, [] {
        Star star(9, "100Gbps", MicroSeconds(1));
        star.rdma.SetMmuAttribute("BufferSize", UintegerValue(1024 * 1024));
        star.Install();
        std::vector<CompletionLog> logs(8);
        for (uint32_t i = 0; i < 8; ++i)
        {
            auto [a, b] = star.rdma.Connect(star.hosts.Get(i + 1), star.hosts.Get(0));
            logs[i].Attach(a, b);
            PostWriteAt(a, star.hosts.Get(i + 1), NanoSeconds(100 * i), 200'000, i);
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        std::ostringstream log;
        log << CompletionLines(logs) << "events " << Simulator::GetEventCount() << " pauses "
            << star.Switch()->GetPfcPausesSent() << '\n';
        return log.str();
    });
}

/**
 * RunDcqcnFatTree4 (a k = 4 fat-tree under DCQCN with ECN marking and an incast).
 * \param prefetchMinPending RdmaSimulatorImpl::PrefetchMinPending (0: never)
 * \return each completion's time (ps) and length, the events run, the frames the switches
 *         forwarded and the ECN marks
 */
std::string
FatTreeLog(uint32_t prefetchMinPending)
{
    return WithPrefetching(prefetchMinPending, [] {
        const FatTreeRunResult r = RunDcqcnFatTree4();
        std::ostringstream log;
        log << r.completions << "events " << r.events << " forwarded " << r.forwarded << " marked "
            << r.marked << '\n';
        return log.str();
    });
}

/// Receive callback: record the arrival time.
void
RecordArrival(std::vector<int64_t>* times, Ptr<RdmaNetDevice>, Ptr<Packet>)
{
    times->push_back(Simulator::Now().GetPicoSeconds());
}

/**
 * Sixteen links of two devices each, with no port handler (the receivers are callbacks, as
 * for a protocol that is neither the module's NIC nor its switch): on every link one device
 * sends 64 frames queued at once, so that many events share the scheduler's current run.
 * \param prefetchMinPending RdmaSimulatorImpl::PrefetchMinPending (0: never)
 * \return the arrival times (ps), one per line
 */
std::string
BareLinksLog(uint32_t prefetchMinPending)
{
    return WithPrefetching(prefetchMinPending, [] {
        constexpr uint32_t LINKS = 16;
        std::vector<int64_t> arrivals;
        arrivals.reserve(LINKS * 64);
        for (uint32_t l = 0; l < LINKS; ++l)
        {
            NodeContainer nodes;
            nodes.Create(2);
            NetDeviceContainer d = RdmaLinkHelper().Install(nodes);
            Ptr<RdmaNetDevice> a = DynamicCast<RdmaNetDevice>(d.Get(0));
            DynamicCast<RdmaNetDevice>(d.Get(1))->SetRdmaReceiveCallback(
                MakeBoundCallback(&RecordArrival, &arrivals));
            for (uint32_t i = 0; i < 64; ++i)
            {
                a->Enqueue(Create<Packet>(1000), 3);
            }
        }
        Simulator::Run();
        std::ostringstream log;
        for (int64_t t : arrivals)
        {
            log << t << '\n';
        }
        return log.str();
    });
}

} // namespace

// Prefetching for the next events (from one pending event on: every event, every stage)
// reads only what the events read anyway and changes nothing: the same completions at the
// same times, the same events, the same pauses, as without it. Under the sanitizers it also
// checks that the prefetch stages touch no freed or foreign memory.
TEST(RdmaSimulatorImpl, PrefetchingChangesNothing)
{
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaSimulatorImpl.PrefetchingChangesNothing");
    }
    const std::string with = IncastLog(1);
    const std::string without = IncastLog(0);
    EXPECT_EQ(with, without);
    EXPECT_NE(with.find("200000"), std::string::npos) << with; // the WRITEs completed
    EXPECT_EQ(std::count(with.begin(), with.end(), '\n'), 9) << with;
    EXPECT_EQ(with.find(" pauses 0\n"), std::string::npos) << with; // PFC paused the senders
}

// A device without a port handler (its receiver a callback) has no handler's stages to
// prefetch for: prefetching for every event changes nothing there either (it had read
// through the null handler and crashed).
TEST(RdmaSimulatorImpl, PrefetchingChangesNothingOnALinkWithoutPortHandlers)
{
    const std::string with = BareLinksLog(1);
    const std::string without = BareLinksLog(0);
    EXPECT_EQ(with, without);
    EXPECT_EQ(std::count(with.begin(), with.end(), '\n'), 16 * 64) << with;
}

// As PrefetchingChangesNothing, on a fat-tree, where a frame crosses up to five switches: the
// switches' own prefetch stages (RdmaSwitch::PrefetchReceive and PrefetchTransmit: the route looked
// up from the head beside the packet, the FIFO entry of the next frame to leave) run at every hop,
// on single-port and load-balanced route sets, with ECN marks and PFC pauses.
TEST(RdmaSimulatorImpl, PrefetchingChangesNothingOnAFatTree)
{
    // Frames carry their head beside the packet, the path the switches' stages prefetch
    // for, only with ns-3's packet metadata off: the test runs in a child with it off too.
    if (std::getenv(PacketMetadataOn::METADATA_OFF_ENV) == nullptr)
    {
        RunInChildWithMetadataOff("RdmaSimulatorImpl.PrefetchingChangesNothingOnAFatTree");
    }
    const std::string with = FatTreeLog(1);
    const std::string without = FatTreeLog(0);
    EXPECT_EQ(with, without);
    EXPECT_EQ(std::count(with.begin(), with.end(), '\n'), 16 + 6 + 1) << with; // all completed
    EXPECT_EQ(with.find(" marked 0\n"), std::string::npos) << with;            // ECN marked
}
