/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RADIX_SCHEDULER_H
#define RDMA_RADIX_SCHEDULER_H

#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An ns-3 event scheduler built on a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
 * "Faster algorithms for the shortest path problem", J. ACM 37(2), 1990, section 3) with
 * 64-way buckets: the multi-level form of the same paper's section 4, in which a key's
 * bucket is chosen by a digit of base 2^DIGIT_BITS instead of a single bit.
 *
 * Why it exists: in this module's fabrics the scheduler's binary heap (ns-3's
 * PriorityQueueScheduler, the fastest of ns-3's own) cost some 470 instructions per event,
 * a fifth of the whole run (callgrind, hpcc-a2a16): every frame in flight on every link is
 * an event, so the heap holds thousands of entries and each removal sifts through about
 * eleven levels.
 *
 * What it must keep equivalent: the order of events. An event's key is (time stamp, uid);
 * uids are unique, so the key order is total and every correct priority queue hands out
 * the same sequence: results are the same as with any of ns-3's schedulers, by
 * construction (test RdmaRadixScheduler.* compares it with PriorityQueueScheduler).
 *
 * How: a discrete-event simulator is a monotone priority queue: every event inserted is
 * not earlier than the last one removed. The heap keeps a current run: the events of one
 * span of 2^RUN_BITS time stamps (4,096 ps), sorted by (time stamp, uid), and T, the
 * earliest time stamp the run had. An event in the run's span takes its place in the run
 * (usually at its end: its uid is the newest) or, if that place is more than MAX_WALK_BACK
 * events back, goes to a binary heap beside the run (m_late); removal takes the earlier of
 * the two. Any other time stamp t goes to
 * level l = 1 + (highest bit above RUN_BITS in which t differs from T - RUN_BITS) / DIGIT_BITS,
 * bucket d = t's digit of that level: every time stamp of a bucket is smaller than every one of a
 * later bucket of its level and of every higher level. Insertion outside the run is O(1);
 * removal takes the run's next event, and when the run is empty, takes the lowest
 * non-empty level's lowest non-empty bucket, makes its earliest time stamp (found by one
 * scan of the bucket) the new T, spreads its events over the new run
 * and the lower levels and sorts the run. An event moves down at most once per level.
 *
 * Why 64-way: with a bit per bucket (the binary radix heap) a frame scheduled some 2^12 to
 * 2^24 ps ahead (a serialization time, a link delay) could sink through up to one bucket per
 * bit of that distance before it ran, and each refill scanned its bucket twice (the
 * minimum, then the moves): 1.13 G of hpcc-a2a16's instructions. With 6-bit digits it moves about
 * twice (measured on hpcc-incast15: 751,015 moves for 384,959 events), and each level's non-empty
 * buckets fit in one 64-bit mask; 8-bit digits (four words per level to search) measured more
 * instructions, not fewer.
 *
 * Why a sorted run of 4,096 ps instead of levels down to the picosecond: on hpcc-a2a16 the
 * two lowest levels took 4.4 M of the 10.0 M moves for 5.05 M events, and 2.4 M more moves
 * put events of one time stamp in uid order; a run of a few events sorted by insertion
 * costs less (whole process 7.52 G -> 7.31 G; RUN_BITS 10, 11, 13, 14 measured 7.35, 7.30,
 * 7.36, 7.41 G).
 *
 * Why buckets of chunks from one pool: as vectors, each of a level's 64 buckets kept the
 * capacity of the most events it ever held, and in a large fabric each in turn holds most
 * of the events of its span (a 262 ns bucket of level 2 holds every frame arriving in those
 * 262 ns), so the buckets held some 17 times the pending events' memory (41 MB of a k = 16
 * fat-tree's 153 MB heap after 20 us, massif) and kept growing, copying, in the steady
 * state. Chunks of CHUNK_EVENTS events taken from a free list, and given back as soon as a
 * refill has read them, bound the memory by the events pending, and the chunk a refill frees
 * is the next one filled, while it is still in the cache.
 */
class RdmaRadixScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaRadixScheduler();
    ~RdmaRadixScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /// Bits of a time stamp per level: a level has 2^DIGIT_BITS buckets.
    static constexpr uint32_t DIGIT_BITS = 6;
    /// Low bits of a time stamp that the current run spans, sorted instead of bucketed.
    static constexpr uint32_t RUN_BITS = 12;
    /// Most events an insertion into the current run walks back over to find its place;
    /// one that belongs further back goes to the run's side heap (m_late).
    static constexpr std::size_t MAX_WALK_BACK = 8;
    /// Levels 1..NUM_LEVELS cover the time stamp's bits above RUN_BITS (level 0: the run).
    static constexpr uint32_t NUM_LEVELS = (64 - RUN_BITS + DIGIT_BITS - 1) / DIGIT_BITS;
    /// Buckets per level.
    static constexpr uint32_t NUM_DIGITS = 1U << DIGIT_BITS;

    /**
     * The current run from the next event to be removed on, for prefetching what its events
     * will read (RdmaSimulatorImpl): the order of the run may still change by insertion,
     * which a prefetch may ignore.
     * \param[out] count how many events it holds from there (0: none)
     * \return the next event to be removed, then the run's later ones (read only count)
     */
    const Scheduler::Event* RunAhead(std::size_t& count) const
    {
        count = m_current.size() - m_head; // m_head is never past the run's end
        return m_current.data() + m_head;
    }

    /**
     * The level of a time stamp relative to the current run's earliest one.
     * \param ts an event's time stamp, not smaller than lastTs
     * \param lastTs the current run's earliest time stamp
     * \return 0 if both are in one span of 2^RUN_BITS (the current run), else 1 + (the
     *         position of the highest differing bit - RUN_BITS) / DIGIT_BITS (1..NUM_LEVELS)
     */
    static uint32_t LevelOf(uint64_t ts, uint64_t lastTs);

    /**
     * The bucket of a time stamp within its level.
     * \param ts an event's time stamp
     * \param level its level (1..NUM_LEVELS)
     * \return ts's digit of that level (0..NUM_DIGITS - 1)
     */
    static uint32_t DigitOf(uint64_t ts, uint32_t level);

    /// \return the chunks allocated so far (each 1 KiB): they bound the buckets' memory
    std::size_t GetChunksAllocated() const;

    /// Events per chunk of a bucket: a chunk is 1 KiB (with its link and malloc's header).
    static constexpr std::size_t CHUNK_EVENTS = 42;

  private:
    /// A piece of a bucket: CHUNK_EVENTS events, unordered (the bucket's last chunk: up to
    /// its end).
    struct Chunk
    {
        Chunk* next;                                      //!< the bucket's next chunk
        std::array<Scheduler::Event, CHUNK_EVENTS> event; //!< the events
    };

    /// A bucket: its events, unordered (its earliest time stamp is found at its refill), in
    /// a list of chunks, every one full but the last, which is filled up to end: appending
    /// is a vector's push_back (one comparison with limit, one store).
    struct Bucket
    {
        Chunk* first{nullptr};            //!< null: the bucket is empty
        Chunk* last{nullptr};             //!< the chunk being filled
        Scheduler::Event* end{nullptr};   //!< one past the last event (in last)
        Scheduler::Event* limit{nullptr}; //!< the end of last's events (end == limit: full)
    };

    /// \return the events of chunk c of bucket b \param b the bucket \param c its chunk
    static std::size_t EventsIn(const Bucket& b, const Chunk* c)
    {
        return c == b.last ? static_cast<std::size_t>(b.end - c->event.data()) : CHUNK_EVENTS;
    }

    /// \return the lowest non-empty level's lowest non-empty bucket (the current run empty)
    const Bucket& EarliestBucket() const;
    /// \return a chunk from the free list (allocated if it is empty), emptied
    Chunk* TakeChunk();
    /// Put a chunk on the free list. \param chunk the chunk
    void FreeChunk(Chunk* chunk);
    /// Add an event to a bucket. \param b the bucket \param ev the event
    void Append(Bucket& b, const Scheduler::Event& ev);
    /// Append to a bucket whose last chunk is full (or that has none): a new last chunk.
    /// \param b the bucket \param ev the event
    void AppendToNewChunk(Bucket& b, const Scheduler::Event& ev);
    /// Insert an event in the current run's span (Insert's rarer path).
    /// \param ev the event
    void InsertInRun(const Scheduler::Event& ev);
    /// \return the earliest event of a non-empty bucket \param b the bucket
    static Scheduler::Event EarliestOf(const Bucket& b);
    /// Put an event at the end of the current run or in its bucket, relative to m_lastTs.
    /// \param ev the event
    void Place(const Scheduler::Event& ev);
    /**
     * Sort events by (time stamp, uid) by insertion, without std::sort's calls, while that
     * moves at most 8 events per event (never for MAX_INSERTION_SORT events or fewer);
     * then by std::sort.
     * \param first the first event
     * \param last one past the last event
     */
    static void SortByInsertion(Scheduler::Event* first, Scheduler::Event* last);
    /// Sort a run of at least MIN_BINNED_SORT events (Refill).
    void SortLargeRun();
    /// Most events of a run sorted by insertion (SortByInsertion), else by std::sort or
    /// SortLargeRun.
    static constexpr std::size_t MAX_INSERTION_SORT = 16;
    /// Fewest events SortLargeRun sorts: its 64 bins cost more than std::sort on fewer
    /// (hpcc-a2a16, whose longer runs hold a few dozen events, measured 48 M instructions
    /// of sorting with std::sort and 116 M with bins for every run of more than 16).
    static constexpr std::size_t MIN_BINNED_SORT = 256;
    /// SortLargeRun's second array (swapped with m_current).
    std::vector<Scheduler::Event> m_sortSpace;
    /// \return the run's next event, taken (the run must hold one)
    Scheduler::Event TakeFromRun();
    /// Put an event in m_late. \param ev the event
    void PushLate(const Scheduler::Event& ev);
    /// RemoveNext when m_late holds events: the earlier of its top and the run's next.
    /// \return the event removed
    Scheduler::Event RemoveNextWithLate();

    /// The order events run in (a type, not a function, so that std::sort inlines it).
    struct EarlierKey
    {
        /// \param x an event \param y another \return true if x is earlier than y
        bool operator()(const Scheduler::Event& x, const Scheduler::Event& y) const
        {
            return x.key < y.key;
        }
    };

    /// m_late's order: std heaps put the greatest on top, so the earliest is the greatest.
    struct LaterKey
    {
        /// \param x an event \param y another \return true if x is later than y
        bool operator()(const Scheduler::Event& x, const Scheduler::Event& y) const
        {
            return y.key < x.key;
        }
    };

    /// The current run is empty: move the earliest bucket's events of its earliest time
    /// stamp's span into it, sorted by (time stamp, uid).
    void Refill();

    std::vector<Scheduler::Event> m_current; //!< the run: m_lastTs's span, (ts, uid) order
    std::size_t m_head{0}; //!< m_current's next event (those before it were removed)
    /**
     * Events of the run's span that came after it was sorted and belong before its last
     * MAX_WALK_BACK events: a binary heap (std::push_heap with LaterKey, earliest on top).
     * RemoveNext takes the earlier of its top and the run's next. Inserted into the sorted
     * run instead, each would cost a walk back and a move of the events after it: a few
     * instructions in a small fabric, where the run holds a few events, but 576 an insertion
     * in the first 5 us of a k = 32 fat-tree, whose runs hold some 1,270 events (1.55 M
     * events in 5 us): a fifth of all its instructions, and a memmove of the run's tail.
     */
    std::vector<Scheduler::Event> m_late;
    std::array<std::array<Bucket, NUM_DIGITS>, NUM_LEVELS> m_buckets; //!< level 1.. at 0..
    Chunk* m_freeChunks{nullptr}; //!< chunks no bucket holds, the last freed first
    std::size_t m_chunks{0};      //!< chunks allocated (freed with the scheduler)
    static_assert(NUM_DIGITS == 64, "a level's mask of non-empty buckets is one 64-bit word");
    /// Per level, bit d: bucket d is non-empty.
    std::array<uint64_t, NUM_LEVELS> m_digitMask{};
    uint32_t m_levelMask{0}; //!< bit l - 1: level l has a non-empty bucket
    uint64_t m_lastTs{0};    //!< the run's earliest time stamp (levels are relative to it)
    uint64_t m_size{0};      //!< events held
};

} // namespace ns3

#endif // RDMA_RADIX_SCHEDULER_H
