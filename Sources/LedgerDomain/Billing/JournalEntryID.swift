/// A journal entry's stable id, `je_<position>_<n>`: the position of the event that posted
/// it and its index among that event's entries. Entries sort by `(position, n)` for ever.
public struct JournalEntryID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var position: Int64
    public var index: Int32

    public init(position: Int64, index: Int32) {
        self.position = position
        self.index = index
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "je", let p = Int64(parts[1]), let i = Int32(parts[2]), p > 0, i >= 0,
              String(p) == parts[1], String(i) == parts[2] else { return nil }
        self.init(position: p, index: i)
    }

    public var description: String { "je_\(position)_\(index)" }

    public static func < (a: JournalEntryID, b: JournalEntryID) -> Bool { (a.position, a.index) < (b.position, b.index) }
}
