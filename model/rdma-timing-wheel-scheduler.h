/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TIMING_WHEEL_SCHEDULER_H
#define RDMA_TIMING_WHEEL_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief An ns-3 event scheduler built on a timing wheel (Varghese and Lauck, "Hashed and
 * hierarchical timing wheels: data structures for the efficient implementation of a timer
 * facility", SOSP 1987, scheme 4) whose slots are sorted when their turn comes, with a
 * binary heap for the events beyond the wheel's reach.
 *
 * Why it exists: in this module's fabrics nearly every event is a frame's end of
 * serialization or its arrival, a few nanoseconds to a few microseconds ahead. The radix
 * heap (RdmaRadixScheduler) moves such an event down through one bucket per 6-bit digit of
 * that distance before it runs, some 210 instructions per event in all on hpcc-a2a16. Here
 * an event within the wheel's reach is placed once, in the slot of its time stamp: on
 * hpcc-a2a16 the scheduler's instructions fall from about 1.07 G to 0.64 G. It is not
 * RdmaHelper's default because side by side it did not run faster (doc/rdma.rst, "Helpers").
 *
 * What it must keep equivalent: the order of events. An event's key is (time stamp, uid);
 * uids are unique, so the key order is total and every correct priority queue hands out
 * the same sequence: results are the same as with any of ns-3's schedulers, by construction
 * (test RdmaTimingWheelScheduler.* compares it with PriorityQueueScheduler).
 *
 * How: time is cut into slots of 2^k ticks (attribute SlotWidth, rounded down to a power of
 * two ticks), and the wheel has NUM_SLOTS of them, each a list of events. The slot of the
 * last removed event is the current slot; its events are in a list sorted by key, from
 * which removal takes the first. An event in the current slot is inserted into that sorted
 * list; one in the next NUM_SLOTS - 1 slots goes, unsorted, to its slot's list (a bit per
 * slot marks the non-empty ones); a later one goes to the overflow heap. When the current
 * list runs out, the first marked slot after the current one becomes current: its events
 * are sorted (few: a slot is a few nanoseconds), and the overflow events now within reach
 * move to their slots. A wheel with nothing marked jumps to the overflow's earliest slot.
 * Every event in the wheel is earlier than every overflow event, so nothing is out of
 * order.
 *
 * Each slot's list is a vector in insertion order (nearly key order, so the sort is mostly
 * one comparison per event); a slot that becomes current swaps its vector with the empty
 * current list, so no event is copied and the capacities circulate. Contiguous lists, not
 * linked nodes: a first version with a linked list per slot executed as few instructions but
 * ran 7-10 % slower on the fat-trees (side by side, farm-bench), its removals a chain of
 * dependent loads.
 */
class RdmaTimingWheelScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    RdmaTimingWheelScheduler();
    ~RdmaTimingWheelScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /// Slots in the wheel: with the default 4 ns slots (4,096 ps), some 16.8 us of reach,
    /// more than a link's delay plus a frame's serialization in the fabrics of this module.
    static constexpr uint32_t NUM_SLOTS = 4096;

    /**
     * The slot width in ticks, for a width and the tick of the time resolution.
     * \param width the SlotWidth attribute
     * \return log2 of the largest power of two ticks not above width (0 if under a tick)
     */
    static uint32_t SlotShiftFor(Time width);

  protected:
    void NotifyConstructionCompleted() override;

  private:
    static constexpr uint32_t WORDS = NUM_SLOTS / 64;
    static_assert(WORDS <= 64, "the non-empty words of the slot mask fit in one 64-bit word");

    /// \return the index of the first non-empty slot after the current one (circular)
    uint32_t NextSlotIndex() const;
    /// Make the next non-empty slot (or the overflow's earliest) the current one, and remove
    /// its first event.
    Scheduler::Event RemoveFromNextSlot();
    /// With nothing within reach, make the overflow's earliest slot the current one.
    void JumpToOverflow();
    /// Sort the current list, just taken from a slot (in insertion order).
    void SortCurrent();
    /// Put an event beyond the wheel's reach into the overflow heap.
    void PushOverflow(const Scheduler::Event& ev);
    /// \return the overflow's earliest event, taken out of it
    Scheduler::Event PopOverflow();
    /// Move the overflow events now within the wheel's reach to their slots.
    void PullOverflow();
    /// Append an event to a slot's list and mark the slot.
    void Append(const Scheduler::Event& ev, uint32_t index);
    /// Clear an empty slot's bit (and its word's, if it was the word's last).
    void Unmark(uint32_t index);

    Time m_slotWidth;     //!< attribute SlotWidth
    uint32_t m_shift{12}; //!< log2 of the slot width in ticks

    std::vector<Scheduler::Event> m_current; //!< the current slot's events, sorted by key
    std::size_t m_head{0};                   //!< m_current's next event
    uint64_t m_currentSlot{0};               //!< the slot of the last removed event

    std::array<std::vector<Scheduler::Event>, NUM_SLOTS> m_slots; //!< each slot's events
    std::array<uint64_t, WORDS> m_slotMask{};                     //!< bit per non-empty slot
    uint64_t m_wordMask{0};                                       //!< bit w: m_slotMask[w] is not 0

    std::vector<Scheduler::Event> m_overflow; //!< events beyond reach: a heap, earliest first
    uint64_t m_overflowSlot{UINT64_MAX};      //!< the slot of its earliest (max if none)
    uint64_t m_size{0};                       //!< events held
};

} // namespace ns3

#endif // RDMA_TIMING_WHEEL_SCHEDULER_H
