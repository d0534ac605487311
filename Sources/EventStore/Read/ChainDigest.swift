/// One of an event's chain hashes (`prev_hash`, `hash`: SHA-256, 32 bytes, as the log's
/// check constraint holds them), kept inside the event rather than in an array of its own.
///
/// A replay reads a million events: two arrays each were two of the six allocations an
/// event cost the reading thread, and two of the frees after it, where the allocator was
/// a third of that thread's time (docs/benchmarks.md).
struct ChainDigest: Equatable, Sendable {
    static let byteCount = 32
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The digest of these 32 bytes; nil for any other length.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.byteCount else { return nil }
        Swift.withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    }

    init?(_ bytes: [UInt8]) {
        guard let digest = bytes.withUnsafeBytes({ ChainDigest($0) }) else { return nil }
        self = digest
    }

    /// Its bytes in order, as a new array.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Its bytes in order, lent to `body` without a copy.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }

    static func == (a: ChainDigest, b: ChainDigest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }
}
