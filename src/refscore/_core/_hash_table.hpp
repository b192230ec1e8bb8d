// The one hash table of the compiled kernels: open addressing with linear probing over a power-of-two array.
//
// Keys are 64-bit integers compared exactly, so a hash collision only costs a probe, never merges two entries.
// Entries keyed by content (a word, a byte string) use a digest of the content as key and pass `same`, a
// predicate that compares the content itself, to `probe`. Every slot carries a stamp: it is live when its stamp
// equals the table's generation, so `start` empties the table in O(1) however large it is; a table is sized once
// per use (`start(entries)`, load factor <= 1/2) or grows as it fills (`grow_for_one_more`).
//
// One table per thread, reused for every segment it scores: results never depend on which thread or in which
// order segments were scored, because nothing but exact keys decides what a lookup returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace refscore {

// splitmix64's finaliser: spreads any 64-bit key over a power-of-two table.
inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

// One multiply by 2**64 / golden ratio and a fold of the high bits: cheaper than mix64, enough for keys whose
// low bits already vary (token ids, slot indices).
inline uint64_t multiply_mix64(uint64_t key) {
    const uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

// FNV-1a over the items of a sequence (characters, bytes, token ids), then mixed with its length.
template <class Item>
inline uint64_t sequence_digest(const Item* items, size_t length) {
    uint64_t digest = 0xCBF29CE484222325ULL;
    for (size_t k = 0; k < length; ++k) digest = (digest ^ static_cast<uint64_t>(items[k])) * 0x100000001B3ULL;
    return digest ^ static_cast<uint64_t>(length);
}

// A table from exact 64-bit keys to `Value`s (a trivially copyable struct or integer).
template <class Value>
class HashTable {
  public:
    struct Slot {
        uint64_t key;
        uint32_t stamp;  // live when equal to the table's generation
        Value value;
    };

    HashTable() = default;
    HashTable(const HashTable&) = delete;
    HashTable& operator=(const HashTable&) = delete;
    HashTable(HashTable&& other) noexcept { swap(other); }
    HashTable& operator=(HashTable&& other) noexcept { swap(other); return *this; }
    ~HashTable() { std::free(slots_); }

    // Empty the table with room for `entries` keys (load factor <= 1/2); it grows, never shrinks. Returns false
    // when the memory cannot be had (the table is then empty and unusable until a `start` succeeds).
    bool start(size_t entries) {
        size_t capacity = kMinSlots;
        while (capacity < 2 * entries) capacity <<= 1;
        if (capacity > capacity_) return allocate(capacity);
        next_generation();
        return true;
    }

    // The slot holding `key` (and, for content keys, whose value satisfies `same`), or the free slot where it
    // belongs. `hash` decides where probing starts (usually mix64(key) or multiply_mix64(key)).
    template <class Same>
    size_t probe(uint64_t key, uint64_t hash, Same&& same) const {
        size_t index = static_cast<size_t>(hash) & mask_;
        while (slots_[index].stamp == generation_ && !(slots_[index].key == key && same(slots_[index].value)))
            index = (index + 1) & mask_;
        return index;
    }
    size_t probe(uint64_t key, uint64_t hash) const {
        return probe(key, hash, [](const Value&) { return true; });
    }

    bool live(size_t index) const { return slots_[index].stamp == generation_; }
    Value& value(size_t index) { return slots_[index].value; }
    const Value& value(size_t index) const { return slots_[index].value; }
    uint64_t key(size_t index) const { return slots_[index].key; }

    // Make the free slot `index` (from `probe`) hold `key` and `value`.
    Value& claim(size_t index, uint64_t key, const Value& value) {
        Slot& slot = slots_[index];
        slot.key = key;
        slot.stamp = generation_;
        slot.value = value;
        ++size_;
        return slot.value;
    }

    // Call `start` (or `grow_for_one_more`) once before the first `probe`.
    // Before inserting into a table that grows as it fills: doubles it (re-placing the live slots by
    // `hash_of(key)`) when one more entry would pass the load factor 1/2; slot indices change then. False: OOM.
    template <class HashOf>
    bool grow_for_one_more(HashOf&& hash_of) {
        if (2 * (size_ + 1) <= capacity_) return true;
        const size_t capacity = capacity_ ? 2 * capacity_ : kMinSlots;
        Slot* slots = static_cast<Slot*>(std::calloc(capacity, sizeof(Slot)));  // stamp 0: free
        if (slots == nullptr) return false;
        const size_t mask = capacity - 1;
        for (size_t k = 0; k < capacity_; ++k) {
            if (slots_[k].stamp != generation_) continue;
            size_t index = static_cast<size_t>(hash_of(slots_[k].key)) & mask;
            while (slots[index].stamp == 1) index = (index + 1) & mask;
            slots[index] = slots_[k];
            slots[index].stamp = 1;
        }
        std::free(slots_);
        slots_ = slots;
        capacity_ = capacity;
        mask_ = mask;
        generation_ = 1;
        return true;
    }

    size_t size() const { return size_; }
    size_t capacity() const { return capacity_; }

  private:
    static constexpr size_t kMinSlots = 16;

    bool allocate(size_t capacity) {
        std::free(slots_);
        slots_ = static_cast<Slot*>(std::calloc(capacity, sizeof(Slot)));  // stamp 0: free
        capacity_ = slots_ ? capacity : 0;
        mask_ = capacity_ ? capacity_ - 1 : 0;
        generation_ = 1;
        size_ = 0;
        return slots_ != nullptr;
    }

    void next_generation() {
        if (generation_ == UINT32_MAX) {  // wrapped around: stale stamps could look live
            std::memset(static_cast<void*>(slots_), 0, capacity_ * sizeof(Slot));
            generation_ = 0;
        }
        ++generation_;
        size_ = 0;
    }

    void swap(HashTable& other) noexcept {
        std::swap(slots_, other.slots_);
        std::swap(capacity_, other.capacity_);
        std::swap(mask_, other.mask_);
        std::swap(generation_, other.generation_);
        std::swap(size_, other.size_);
    }

    Slot* slots_ = nullptr;
    size_t capacity_ = 0;
    size_t mask_ = 0;
    uint32_t generation_ = 0;
    size_t size_ = 0;
};

}  // namespace refscore
