// The one hash table of the compiled kernels: open addressing with linear probing over a power-of-two array.
//
// Keys are 64-bit integers compared exactly, so a hash collision only costs a probe, never merges two entries.
// Entries keyed by content (a word, a byte string) use a digest of the content as key and pass `same`, a
// predicate that compares the content itself, to `probe`. Every slot carries a stamp: it is live when its stamp
// equals the table's generation, so `start` empties the table in O(1) however large it is; a table is sized once
// per use (`start(entries)`, load factor <= 1/2) or grows as it fills (`grow_for_one_more`). A table never started
// holds no slot of its own: lookups find nothing, and the first insertion must follow `start` or
// `grow_for_one_more`.
//
// One table per thread, reused for every segment it scores: results never depend on which thread or in which
// order segments were scored, because nothing but exact keys decides what a lookup returns.
//
// Crafted collisions (docs/reliability.md): every hash and digest below is keyed by a per-process random key
// (`hash_key()`, drawn when the module is loaded), so input built to collide under one key does not collide under
// another, and linear probing stays linear. The key decides only where entries sit, never what a lookup returns,
// and nothing iterates over the slots except to re-place them: no result depends on it. REFSCORE_HASH_KEY=<int>
// fixes it (0: the unkeyed functions, which tests use to build colliding input).
//
// `Interner` builds on it: sequences (a token's code points) to dense ids in order of first interning, with its
// own copy of each distinct sequence (the tokenizers' vocabulary of a call).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <utility>
#include <vector>

namespace refscore {

// splitmix64's finaliser, unkeyed: derives the key's words and spreads the bits of a random draw.
inline uint64_t splitmix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

// The per-process hash key: `seed` is xor-ed into every hash and digest, the odd `multipliers` replace the
// constants of the folded multiply and the tokenizers' block hash. Key 0 gives seed 0 and the fixed constants.
struct HashKey {
    uint64_t seed;
    uint64_t multipliers[4];
};

inline HashKey hash_key_from(uint64_t key) {
    if (key == 0)
        return HashKey{0, {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL}};
    HashKey derived{};
    uint64_t state = key;
    derived.seed = splitmix64(state += 0x9E3779B97F4A7C15ULL);
    for (uint64_t& multiplier : derived.multipliers) multiplier = splitmix64(state += 0x9E3779B97F4A7C15ULL) | 1;
    return derived;
}

// REFSCORE_HASH_KEY as a decimal integer when set (a fixed key, for tests), else 64 bits of std::random_device
// (getrandom on Linux); a 64-bit key is never 0 by chance in practice, and a draw that fails falls back to
// the addresses and the clock, which still differ between runs.
inline uint64_t hash_key_value() {
    if (const char* text = std::getenv("REFSCORE_HASH_KEY")) {
        char* end = nullptr;
        const unsigned long long fixed = std::strtoull(text, &end, 10);
        if (end != text && *end == '\0') return fixed;
    }
    uint64_t drawn = 0;
    try {
        std::random_device device;
        drawn = (static_cast<uint64_t>(device()) << 32) ^ device();
    } catch (...) {
        static const int here = 0;
        drawn = reinterpret_cast<uintptr_t>(&here) ^ reinterpret_cast<uintptr_t>(&drawn)
                ^ static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
    }
    return splitmix64(drawn) | 1;  // never the unkeyed 0
}

// This process's key (one per compiled module: each module's tables use their own, and results never depend on
// it). Read once at load time; constant afterwards, so threads share it without synchronisation.
inline const HashKey kHashKey = hash_key_from(hash_key_value());
inline const HashKey& hash_key() { return kHashKey; }

// splitmix64's finaliser of the keyed input: spreads any 64-bit key over a power-of-two table.
inline uint64_t mix64(uint64_t x) { return splitmix64(x ^ kHashKey.seed); }

// A folded multiply (the 128-bit product's halves xor-ed): cheaper than mix64, and every bit of the input reaches
// the low bits that pick a slot (a plain 64-bit multiply lets keys that agree in their low bits collide whatever
// the key).
inline uint64_t multiply_mix64(uint64_t key) {
    const uint64_t x = key ^ kHashKey.seed, m = kHashKey.multipliers[0];
#if defined(__SIZEOF_INT128__)
    const unsigned __int128 product = static_cast<unsigned __int128>(x) * m;
    return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
#else
    const uint64_t x_lo = x & 0xFFFFFFFFu, x_hi = x >> 32, m_lo = m & 0xFFFFFFFFu, m_hi = m >> 32;
    const uint64_t lo_lo = x_lo * m_lo, hi_lo = x_hi * m_lo, lo_hi = x_lo * m_hi, hi_hi = x_hi * m_hi;
    const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    return ((cross << 32) | (lo_lo & 0xFFFFFFFFu)) ^ (hi_hi + (hi_lo >> 32) + (cross >> 32));
#endif
}

// FNV-1a over the items of a sequence (characters, bytes, token ids) from a keyed offset, then mixed with its
// length.
template <class Item>
inline uint64_t sequence_digest(const Item* items, size_t length) {
    uint64_t digest = 0xCBF29CE484222325ULL ^ kHashKey.seed;
    for (size_t k = 0; k < length; ++k) digest = (digest ^ static_cast<uint64_t>(items[k])) * 0x100000001B3ULL;
    return digest ^ static_cast<uint64_t>(length);
}

// Whether a[0, length) and b[0, length) hold equal items: how content keys decide equality after their digests
// matched.
template <class Item>
inline bool same_items(const Item* a, const Item* b, size_t length) {
    for (size_t k = 0; k < length; ++k)
        if (a[k] != b[k]) return false;
    return true;
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
    HashTable& operator=(HashTable&& other) noexcept {
        swap(other);
        return *this;
    }
    ~HashTable() { release(); }

    // Empty the table with room for `entries` keys (load factor <= 1/2); it grows, never shrinks. Returns false
    // when the memory cannot be had (the table then finds nothing and takes nothing until a `start` succeeds).
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

    // The value under `key` (content keys: the one that satisfies `same`), or nullptr: the lookup of a table that
    // is mostly hit (an interner), whose rare misses then `probe` for the free slot.
    template <class Same>
    const Value* find(uint64_t key, uint64_t hash, Same&& same) const {
        for (size_t index = static_cast<size_t>(hash) & mask_;; index = (index + 1) & mask_) {
            const Slot& slot = slots_[index];
            if (slot.stamp != generation_) return nullptr;
            if (slot.key == key && same(slot.value)) return &slot.value;
        }
    }

    // `probe` for keys an adversary may choose (an unkeyed digest of user text): gives up after passing
    // `max_passed` (>= 1) live slots that do not hold the key, and returns kGaveUp then: it bounds the work per lookup.
    static constexpr size_t kGaveUp = SIZE_MAX;
    template <class Same>
    size_t probe_at_most(uint64_t key, uint64_t hash, Same&& same, size_t max_passed) const {
        size_t index = static_cast<size_t>(hash) & mask_;
        for (size_t passed = 0; slots_[index].stamp == generation_; ++passed) {
            if (slots_[index].key == key && same(slots_[index].value)) break;
            if (passed + 1 == max_passed) return kGaveUp;
            index = (index + 1) & mask_;
        }
        return index;
    }

    // Fetch the slot where probing for `hash` starts into the cache: issued a few lookups ahead, it lets their
    // cache misses overlap. Harmless on a table never started (a prefetch never faults).
    void prefetch(uint64_t hash) const { __builtin_prefetch(slots_ + (static_cast<size_t>(hash) & mask_)); }

    bool live(size_t index) const { return slots_[index].stamp == generation_; }
    // Where probing for `hash` starts, and the number of slots: (index - home(hash)) & (capacity() - 1) is how
    // many occupied slots a lookup passed (the probe length that tests measure).
    size_t home(uint64_t hash) const { return static_cast<size_t>(hash) & mask_; }
    size_t capacity() const { return capacity_; }
    Value& value(size_t index) { return slots_[index].value; }
    const Value& value(size_t index) const { return slots_[index].value; }

    // Make the free slot `index` (from `probe`) hold `key` and `value` (after a `start` or `grow_for_one_more`).
    Value& claim(size_t index, uint64_t key, const Value& value) {
        Slot& slot = slots_[index];
        slot.key = key;
        slot.stamp = generation_;
        slot.value = value;
        ++size_;
        return slot.value;
    }

    // Before inserting into a table that grows as it fills: doubles it (re-placing the live slots by
    // `hash_of(key)`) when one more entry would pass the load factor 1/2; slot indices change then. False: OOM.
    template <class HashOf>
    bool grow_for_one_more(HashOf&& hash_of) {
        if (2 * (size_ + 1) <= capacity_) return true;
        const size_t capacity = capacity_ ? 2 * capacity_ : kMinSlots;
        Slot* slots = new_slots(capacity);
        if (slots == nullptr) return false;
        const size_t mask = capacity - 1;
        for (size_t k = 0; k < capacity_; ++k) {
            if (slots_[k].stamp != generation_) continue;
            size_t index = static_cast<size_t>(hash_of(slots_[k].key)) & mask;
            while (slots[index].stamp == 1) index = (index + 1) & mask;
            slots[index] = slots_[k];
            slots[index].stamp = 1;
        }
        release();
        slots_ = slots;
        capacity_ = capacity;
        mask_ = mask;
        generation_ = 1;
        return true;
    }

    size_t size() const { return size_; }

  private:
    static constexpr size_t kMinSlots = 16;

    // The one slot of a table never started (or whose memory could not be had): its stamp 0 is never live.
    static Slot* no_slots() {
        static Slot none{};
        return &none;
    }

    // `capacity` free slots (stamp 0), or nullptr. The stamps are written here, in order, rather than left to
    // calloc's lazily zeroed pages: tables that grow anew on every call (the tokenizers' interners) then take
    // fewer page faults (docs/architecture.md).
    static Slot* new_slots(size_t capacity) {
        if (capacity > SIZE_MAX / sizeof(Slot)) return nullptr;
        Slot* slots = static_cast<Slot*>(std::malloc(capacity * sizeof(Slot)));
        if (slots != nullptr)
            for (size_t k = 0; k < capacity; ++k) slots[k].stamp = 0;
        return slots;
    }

    void release() {
        if (slots_ != no_slots()) std::free(slots_);
        slots_ = no_slots();
    }

    bool allocate(size_t capacity) {
        release();
        Slot* slots = new_slots(capacity);
        if (slots != nullptr) slots_ = slots;
        capacity_ = slots ? capacity : 0;
        mask_ = capacity_ ? capacity_ - 1 : 0;
        generation_ = 1;
        size_ = 0;
        return slots != nullptr;
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

    Slot* slots_ = no_slots();
    size_t capacity_ = 0;
    size_t mask_ = 0;
    uint32_t generation_ = 1;
    size_t size_ = 0;
};

// Sequences of `Item`s (a token's code points) to dense ids 0, 1, ... in order of first interning. It keeps its
// own copy of every distinct sequence, back to back (at most 2**32 - 1 items in all: 24-byte slots, which keep
// the table a quarter smaller than 64-bit positions would). The caller passes each sequence's digest (the key,
// and where probing starts: it must be well mixed); equality is decided on the items, so equal digests never
// merge two sequences. Grows as it fills; movable, not copyable.
template <class Item>
class Interner {
  public:
    // Throws std::bad_alloc (out of memory, or past 2**32 - 1 items).
    uint32_t intern(const Item* items, uint32_t length, uint64_t digest) {
        const Entry* entry = table_.find(digest, digest, [&](const Entry& candidate) {
            return candidate.length == length && same_items(items_.data() + candidate.start, items, length);
        });
        return entry != nullptr ? entry->id : insert(items, length, digest);
    }

    // See HashTable::prefetch.
    void prefetch(uint64_t digest) const { table_.prefetch(digest); }

    size_t size() const { return lengths_.size(); }
    const Item* items(uint32_t id) const { return items_.data() + starts_[id]; }
    uint32_t length(uint32_t id) const { return lengths_[id]; }
    uint64_t digest(uint32_t id) const { return digests_[id]; }

  private:
    struct Entry {  // a probe reads everything it needs from the slot, and the items themselves
        uint32_t start;
        uint32_t id;
        uint32_t length;
    };

    // A sequence not met yet (the rare case: kept out of line, so that the lookup keeps its registers).
    __attribute__((noinline)) uint32_t insert(const Item* items, uint32_t length, uint64_t digest) {
        if (items_.size() + length > UINT32_MAX) throw std::bad_alloc();
        if (!table_.grow_for_one_more([](uint64_t key) { return key; })) throw std::bad_alloc();
        const uint32_t id = static_cast<uint32_t>(lengths_.size());
        const uint32_t start = static_cast<uint32_t>(items_.size());
        starts_.push_back(start);
        lengths_.push_back(length);
        digests_.push_back(digest);
        items_.insert(items_.end(), items, items + length);
        // the sequence is not in the table: the first free slot is its
        const size_t index = table_.probe(digest, digest, [](const Entry&) { return false; });
        table_.claim(index, digest, Entry{start, id, length});
        return id;
    }

    HashTable<Entry> table_;
    std::vector<Item> items_;       // the distinct sequences, back to back
    std::vector<uint32_t> starts_;  // per id: where its items start
    std::vector<uint32_t> lengths_;
    std::vector<uint64_t> digests_;
};

}  // namespace refscore
