/// A dictionary of at most `capacity` keys that, when a new key would pass the capacity,
/// drops the key inserted first: memory stays bounded and nobody new is ever refused a
/// place, whoever filled the table.
///
/// The keys are chained oldest to newest through their slots (a doubly linked list over
/// an array, with a free list), so that inserting, evicting and removing are each O(1):
/// nothing ever scans the table, which matters because it is used under a lock on every
/// sign-in. Changing the value of a key already present keeps its place in the order.
struct InsertionOrderedTable<Value: Sendable>: Sendable {
    private struct Slot: Sendable {
        var key: String
        var value: Value?
        var older: Int
        var newer: Int
    }

    let capacity: Int
    private var slots: [Slot] = []
    private var index: [String: Int] = [:]
    /// Slots given back by `remove`, reused before the array grows: `slots` never holds
    /// more than `capacity` entries.
    private var free: [Int] = []
    private var oldest = -1
    private var newest = -1

    init(capacity: Int) {
        precondition(capacity > 0, "a capacity of \(capacity)")
        self.capacity = capacity
    }

    /// Keys held now.
    var count: Int { index.count }

    /// The keys, oldest first (for tests).
    var keys: [String] {
        var keys: [String] = []
        var at = oldest
        while at >= 0 {
            keys.append(slots[at].key)
            at = slots[at].newer
        }
        return keys
    }

    subscript(key: String) -> Value? { index[key].flatMap { slots[$0].value } }

    /// Sets the value of `key`. A key not held yet goes in as the newest; if the table is
    /// full, the oldest key goes first, and is returned.
    @discardableResult
    mutating func set(_ key: String, _ value: Value) -> String? {
        if let at = index[key] {
            slots[at].value = value
            return nil
        }
        var evicted: String?
        if index.count >= capacity, oldest >= 0 {
            evicted = slots[oldest].key
            remove(slots[oldest].key)
        }
        let slot = Slot(key: key, value: value, older: newest, newer: -1)
        let at: Int
        if let reused = free.popLast() {
            at = reused
            slots[at] = slot
        } else {
            at = slots.count
            slots.append(slot)
        }
        if newest >= 0 { slots[newest].newer = at } else { oldest = at }
        newest = at
        index[key] = at
        return evicted
    }

    /// Removes `key`, if held.
    mutating func remove(_ key: String) {
        guard let at = index.removeValue(forKey: key) else { return }
        let slot = slots[at]
        if slot.older >= 0 { slots[slot.older].newer = slot.newer } else { oldest = slot.newer }
        if slot.newer >= 0 { slots[slot.newer].older = slot.older } else { newest = slot.older }
        // The value goes now, not when the slot is reused.
        slots[at] = Slot(key: "", value: nil, older: -1, newer: -1)
        free.append(at)
    }
}
