/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PREFETCH_CURSOR_H
#define RDMA_PREFETCH_CURSOR_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Which of a FIFO's items a prefetch stage of one pending schedule of a reused event
 * object is for.
 *
 * Why: one event object is scheduled once per item (RdmaChannel's arrival event, once per
 * frame on the wire of one direction), and each schedule takes the oldest item when it
 * fires. The prefetch stages (RdmaSimulatorImpl::DirectEvent::Prefetch) run some events
 * ahead; for a host, whose every arrival comes over one link, all of them looked at the
 * oldest frame, the one the running event was about to take, and no later frame was
 * prefetched. The stages are called in the order the events run, so the n-th call of a
 * stage since the last schedule fired is for the n-th frame after the oldest. A schedule
 * that fires without its stage having been called (the first events of a window) is
 * caught up with: the stage then counts from the oldest again. A wrong answer costs a
 * useless prefetch, never a wrong result (the caller checks it against the FIFO's size).
 *
 * \tparam STAGES how many stages look at the item
 */
template <std::size_t STAGES>
class RdmaPrefetchCursor
{
  public:
    /// A schedule fired (it took the oldest item).
    void Fired()
    {
        ++m_fired;
    }

    /**
     * A stage is called for the next schedule not yet seen by it.
     * \param stage the stage, 0 to STAGES - 1
     * \return the position of that schedule's item from the oldest (0) on
     */
    std::size_t Next(std::size_t stage)
    {
        uint64_t& called = m_called[stage];
        called = std::max(called, m_fired);
        return static_cast<std::size_t>(called++ - m_fired);
    }

  private:
    uint64_t m_fired{0};                     //!< schedules fired
    std::array<uint64_t, STAGES> m_called{}; //!< per stage, schedules it was called for
};

} // namespace ns3

#endif // RDMA_PREFETCH_CURSOR_H
