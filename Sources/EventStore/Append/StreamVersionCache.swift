/// The versions of the streams this appender wrote, valid as long as nobody else wrote.
///
/// Under the append lock the appender reads the head; if it is the head this appender
/// left, no other process has appended since, and the versions it remembers are exact,
/// so only streams it has never seen need a query. Otherwise the cache is dropped. The
/// head is a position and its hash: the hash covers every event up to it, so a match
/// means the log holds exactly what this appender left, whatever happened in between.
final class StreamVersionCache: @unchecked Sendable {
    // Only ever used from the appender thread.
    private var head: Int64 = -1
    private var hash: [UInt8] = []
    private var versions: [String: Int64] = [:]
    /// Bounds memory on a log with very many streams; dropping is always safe.
    private let capacity = 200_000

    func versions(for streams: Set<String>, head current: Int64, hash currentHash: [UInt8]) -> [String: Int64] {
        guard current == head, currentHash == hash else {
            invalidate()
            return [:]
        }
        var out: [String: Int64] = [:]
        for stream in streams { if let v = versions[stream] { out[stream] = v } }
        return out
    }

    func committed(head newHead: Int64, hash newHash: [UInt8], versions written: [String: Int64]) {
        if versions.count + written.count > capacity { versions.removeAll(keepingCapacity: true) }
        versions.merge(written) { _, new in new }
        head = newHead
        hash = newHash
    }

    func invalidate() {
        head = -1
        hash = []
        versions.removeAll(keepingCapacity: true)
    }
}
