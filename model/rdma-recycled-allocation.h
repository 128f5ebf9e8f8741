/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RECYCLED_ALLOCATION_H
#define RDMA_RECYCLED_ALLOCATION_H

#include <algorithm>
#include <cstddef>
#include <new>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Class-level operator new and delete that recycle the blocks of one type through a
 * free list, for the small objects the simulation creates and destroys once per frame (the
 * frame-arrival and end-of-frame events): they then cost no malloc and free.
 *
 * Use: `class MyEvent : public EventImpl, public RdmaRecycledAllocation<MyEvent>`. The list
 * is a plain static per type: ns-3's Simulator creates and destroys events in its one
 * thread. Recycled blocks are kept for reuse, never returned to the heap (the list holds as
 * many as were alive at once).
 */
template <typename T>
class RdmaRecycledAllocation
{
  public:
    /**
     * \param size the object size
     * \return a recycled block, or a new one
     */
    static void* operator new(std::size_t size)
    {
        if (FreeBlock* b = g_free)
        {
            g_free = b->next;
            return b;
        }
        return ::operator new(std::max(size, sizeof(FreeBlock)));
    }

    /// \param p the block to recycle
    static void operator delete(void* p)
    {
        FreeBlock* b = static_cast<FreeBlock*>(p);
        b->next = g_free;
        g_free = b;
    }

  private:
    /// A recycled block.
    struct FreeBlock
    {
        FreeBlock* next; //!< the next recycled block
    };

    static inline FreeBlock* g_free = nullptr; //!< the first recycled block of type T
};

} // namespace ns3

#endif /* RDMA_RECYCLED_ALLOCATION_H */
