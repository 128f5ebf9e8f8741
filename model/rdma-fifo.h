/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FIFO_H
#define RDMA_FIFO_H

#include "ns3/ptr.h"

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A FIFO queue in a ring buffer that allocates nothing while empty.
 *
 * The per-port, per-class queues of devices and switches are many (eight classes on every
 * port of every switch) and nearly all empty; std::deque allocates a 512-byte block for each
 * even when empty, which made empty queues half the memory of a k = 32 fat-tree. The ring
 * grows by doubling (capacity a power of two) and keeps its capacity.
 * \tparam T the element type
 */
template <class T>
class RdmaFifo
{
  public:
    /// \return true if the queue holds nothing
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of elements
    std::size_t size() const
    {
        return m_size;
    }

    /// \return the oldest element (the queue must not be empty)
    T& front()
    {
        return m_ring[m_head];
    }

    /// \return the oldest element (the queue must not be empty)
    const T& front() const
    {
        return m_ring[m_head];
    }

    /// \param value the element to append
    void push_back(T value)
    {
        AppendSlot() = std::move(value);
    }

    /**
     * Append an element as its slot holds it and return it for the caller to fill: no copy
     * of a large element (only for trivially copyable T, whose old values mean nothing).
     * \return the new newest element
     */
    T& push_back_slot()
    {
        static_assert(std::is_trivially_copyable_v<T>, "push_back_slot: T must be trivial");
        return AppendSlot();
    }

    /// Remove the oldest element (the queue must not be empty).
    void pop_front()
    {
        if constexpr (!std::is_trivially_destructible_v<T>)
        {
            m_ring[m_head] = T(); // release what the slot holds (a Ptr's reference)
        }
        m_head = (m_head + 1) & m_mask;
        --m_size;
    }

    /// \return the newest element (the queue must not be empty)
    T& back()
    {
        return m_ring[(m_head + m_size - 1) & m_mask];
    }

    /// \param i position from the oldest (0) on, below size()
    /// \return the element at i
    T& operator[](std::size_t i)
    {
        return m_ring[(m_head + i) & m_mask];
    }

    /// \param i position from the oldest (0) on, below size()
    /// \return the element at i
    const T& operator[](std::size_t i) const
    {
        return m_ring[(m_head + i) & m_mask];
    }

    /**
     * As std::partition_point over the queue from the oldest element on.
     * \tparam Pred a predicate on const T&
     * \param pred true for a leading run of elements, false for every one after it
     * \return the position of the first element for which pred is false (size() if none)
     */
    template <class Pred>
    std::size_t partition_point(Pred pred) const
    {
        std::size_t lo = 0;
        std::size_t hi = m_size;
        while (lo < hi)
        {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (pred((*this)[mid]))
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    /// Remove the newest element (the queue must not be empty).
    void pop_back()
    {
        --m_size;
        if constexpr (!std::is_trivially_destructible_v<T>)
        {
            m_ring[(m_head + m_size) & m_mask] = T();
        }
    }

    /**
     * Insert value before position i (i = size() appends); the elements from i on move
     * back by one, so this is for short queues or positions near the end.
     * \param i position from the oldest (0) on, at most size()
     * \param value the element
     */
    void insert(std::size_t i, T value)
    {
        push_back(std::move(value));
        for (std::size_t k = m_size - 1; k > i; --k)
        {
            std::swap((*this)[k], (*this)[k - 1]);
        }
    }

    /// Remove every element and release the storage.
    void clear()
    {
        std::vector<T>().swap(m_ring);
        m_mask = 0;
        m_head = 0;
        m_size = 0;
    }

  private:
    /// \return a new newest slot (growing the ring if full), holding what it held before
    T& AppendSlot()
    {
        if (m_size == m_ring.size())
        {
            Grow();
        }
        return m_ring[(m_head + m_size++) & m_mask];
    }

    /// Double the capacity (4 at first), keeping the order.
    void Grow()
    {
        std::vector<T> ring(m_ring.empty() ? 4 : 2 * m_ring.size());
        for (std::size_t i = 0; i < m_size; ++i)
        {
            ring[i] = std::move(m_ring[(m_head + i) & m_mask]);
        }
        m_ring.swap(ring);
        m_mask = m_ring.size() - 1;
        m_head = 0;
    }

    std::vector<T> m_ring; //!< the ring; its size is the capacity (0 or a power of two)
    std::size_t m_mask{0}; //!< capacity - 1 (when the capacity is not 0)
    std::size_t m_head{0}; //!< index of the oldest element
    std::size_t m_size{0}; //!< number of elements
};

/**
 * \ingroup rdma
 * \brief A FIFO of ns-3 Ptrs that holds their references itself, so an element moves in and
 * out without a Ref/Unref pair.
 *
 * Why: ns-3.37's Ptr has no move constructor, so `std::move` of a Ptr copies it, and each
 * copy is a Ref and an Unref: push_back takes the one reference the queue keeps; take_front
 * hands it to the caller's Ptr without another (Ptr's constructor with ref = false adopts
 * it). A device's control frames wait in one; its class queues and a channel's frames in
 * flight keep a packet's size beside its reference instead, and take it with
 * RdmaTakeReference (RdmaNetDevice::QueuedPacket, RdmaChannel::InFlightFrame). Equivalent to
 * RdmaFifo<Ptr<U>> of the generic template otherwise: same order, same lifetime of what it holds.
 * \tparam U the pointee type (reference counted, as ns-3's Ptr requires)
 */
template <class U>
class RdmaFifo<Ptr<U>>
{
  public:
    RdmaFifo() = default;
    RdmaFifo(const RdmaFifo&) = delete;
    RdmaFifo& operator=(const RdmaFifo&) = delete;

    ~RdmaFifo()
    {
        clear();
    }

    /// \return true if the queue holds nothing
    bool empty() const
    {
        return m_raw.empty();
    }

    /// \return the number of elements
    std::size_t size() const
    {
        return m_raw.size();
    }

    /// \return the oldest element, still held by the queue (the queue must not be empty)
    U* front()
    {
        return m_raw.front();
    }

    /// \return the oldest element, still held by the queue (the queue must not be empty)
    const U* front() const
    {
        return m_raw.front();
    }

    /// \return where the oldest element's pointer is kept, for a prefetch (not empty)
    const void* front_address() const
    {
        return &m_raw.front();
    }

    /// \param value the element to append; the queue takes a reference of its own
    void push_back(const Ptr<U>& value)
    {
        U* raw = PeekPointer(value);
        if (raw)
        {
            raw->Ref();
        }
        m_raw.push_back(raw);
    }

    /// Remove the oldest element and hand its reference to the caller (not empty).
    /// \return the element
    Ptr<U> take_front()
    {
        U* raw = m_raw.front();
        m_raw.pop_front();
        return Ptr<U>(raw, false);
    }

    /// Remove the oldest element (the queue must not be empty).
    void pop_front()
    {
        U* raw = m_raw.front();
        m_raw.pop_front();
        if (raw)
        {
            raw->Unref();
        }
    }

    /// Remove every element and release the storage.
    void clear()
    {
        while (!m_raw.empty())
        {
            pop_front();
        }
        m_raw.clear();
    }

  private:
    RdmaFifo<U*> m_raw; //!< the elements; each holds one reference
};

/**
 * \ingroup rdma
 * Take the reference a Ptr holds, without an Unref, and leave the Ptr null.
 *
 * Why: ns-3.37's Ptr has no move constructor and no release, so handing a packet's
 * reference on (a queue, a frame on the wire) would cost a Ref and an Unref, each a read
 * and a write of the packet's count. In a large fabric a queued packet has left the caches
 * by the time it is served: its line fetched only to count up and down (see RdmaFifo<Ptr<U>>).
 * The Ptr is left in the state of a default-constructed one (its storage reused without its
 * destructor, which a null Ptr's would leave undone anyway).
 * \tparam U the pointee type
 * \param ptr the Ptr whose reference the caller now holds; null afterwards
 * \return the pointee (null if ptr was); the caller releases it with Unref
 */
template <class U>
U*
RdmaTakeReference(Ptr<U>& ptr)
{
    static_assert(sizeof(Ptr<U>) == sizeof(U*), "Ptr<U> holds just the pointer");
    U* raw = PeekPointer(ptr);
    ::new (static_cast<void*>(&ptr)) Ptr<U>(); // the reference now belongs to raw
    return raw;
}

} // namespace ns3

#endif /* RDMA_FIFO_H */
