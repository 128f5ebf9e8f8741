/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_WATCHED_TRACE_H
#define RDMA_WATCHED_TRACE_H

#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * A TracedCallback that keeps one bit of its owner's mask set while a sink is connected.
 *
 * A per-frame path that asks several traces whether anyone listens reads each trace's list
 * head, one more cache line per few traces; in a large fabric every device is far from the
 * caches when its next frame comes, so those checks cost lines from memory per packet-hop.
 * With the bits kept beside the owner's other per-frame members, one load answers them all.
 *
 * The bit follows every connection made through the trace source (TypeId's accessor calls
 * these Connect and Disconnect by the member's own type), so a sink connected in the middle
 * of a run sees the next frame.
 */
template <typename... Ts>
class RdmaWatchedTrace : public TracedCallback<Ts...>
{
  public:
    /**
     * Keep \p bit of \p *mask equal to "a sink is connected" from now on.
     * \param mask the owner's mask (outlives this trace: a member of the same object)
     * \param bit the bit of this trace
     */
    void Watch(uint16_t* mask, uint16_t bit)
    {
        m_mask = mask;
        m_bit = bit;
        Update();
    }

    /// TracedCallback::ConnectWithoutContext, then the bit.
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }

    /// TracedCallback::Connect, then the bit.
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }

    /// TracedCallback::DisconnectWithoutContext, then the bit.
    void DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }

    /// TracedCallback::Disconnect, then the bit.
    void Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    /// Set or clear the bit from the sink list.
    void Update()
    {
        if (m_mask == nullptr)
        {
            return;
        }
        if (this->IsEmpty())
        {
            *m_mask = static_cast<uint16_t>(*m_mask & ~m_bit);
        }
        else
        {
            *m_mask = static_cast<uint16_t>(*m_mask | m_bit);
        }
    }

    uint16_t* m_mask{nullptr}; //!< the owner's mask (none: not watched)
    uint16_t m_bit{0};         //!< this trace's bit of it
};

} // namespace ns3

#endif /* RDMA_WATCHED_TRACE_H */
