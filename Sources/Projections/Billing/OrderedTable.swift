/// Values by key, kept in the order their keys were first inserted (a batch writes rows in
/// the order its events first touched them). A value changes in place, after one lookup:
/// a dictionary beside `OrderedKeys` took three, and copied the value out and back for
/// every event that added to it.
struct OrderedTable<Key: Hashable, Value> {
    private var slots: [Key: Int] = [:]
    private(set) var keys: [Key] = []
    private(set) var values: [Value] = []

    var isEmpty: Bool { keys.isEmpty }

    /// The value of `key`; on first use, `initial`, inserted when changed.
    subscript(key: Key, default initial: @autoclosure () -> Value) -> Value {
        get { slots[key].map { values[$0] } ?? initial() }
        _modify {
            let slot: Int
            if let found = slots[key] {
                slot = found
            } else {
                slot = values.count
                slots[key] = slot
                keys.append(key)
                values.append(initial())
            }
            yield &values[slot]
        }
    }
}
