// A direct-mapped table from small keys (each key its own slot) to dense ids in order of first appearance: what
// an exact hash table gives for keys that are small integers (a Latin-1 character, a pair of small ids), without
// hashing, probing or a branch on whether a key is new.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace refscore {

// Ids are numbered as an exact hash table numbers them: the next id to a key not met yet. An entry is (stamp <<
// kIdBits) | id, live when its stamp is the current one, so a new use (`start`) empties the table without touching it.
// Entry = uint64_t holds any id; uint32_t holds ids below 2**16 in half the memory (chrF's n-gram tables).
template <class Entry>
class DirectTable {
  public:
    static constexpr int kIdBits = 4 * sizeof(Entry);
    static constexpr Entry kIdMask = (Entry(1) << kIdBits) - 1;

    // Start a use with `slots` slots (grown on demand, never cleared but when the stamp wraps around).
    void start(size_t slots) {
        if (entries_.size() < slots) entries_.resize(slots, 0);
        if (stamp_ == kIdMask) {  // wrapped around: stale stamps could look live
            std::fill(entries_.begin(), entries_.end(), Entry(0));
            stamp_ = 0;
        }
        ++stamp_;
    }

    // A local copy for one loop, so that it keeps the stamp and the next id in registers; the caller takes the
    // next id back from `next` afterwards.
    struct Ids {
        Entry* slots;
        Entry stamp;
        uint32_t next;
        // Without a branch on whether the key is new (which a branch predictor cannot guess): the choices are
        // conditional moves.
        uint32_t id(size_t slot) {
            const Entry entry = slots[slot];
            const bool live = (entry >> kIdBits) == stamp;
            const uint32_t id = live ? static_cast<uint32_t>(entry & kIdMask) : next;
            slots[slot] = static_cast<Entry>((stamp << kIdBits) | id);
            next += !live;
            return id;
        }
    };
    Ids ids(uint32_t next) { return Ids{entries_.data(), stamp_, next}; }

  private:
    std::vector<Entry> entries_;
    Entry stamp_ = 0;
};

}  // namespace refscore
