/// An append-only byte buffer for the writers, on raw memory: appending to a `[UInt8]`
/// byte by byte pays a uniqueness and capacity check each time, which dominated the
/// canonical writer's profile.
///
/// It starts in caller-provided scratch memory (a stack allocation, so a typical event
/// costs no heap allocation at all) and moves to the heap only when that fills up.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var onHeap = false
    private(set) var count = 0

    init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    deinit {
        if onHeap { base.deallocate() }
    }

    /// Runs `body` with a writer over stack scratch memory.
    static func withWriter<R, E: Error>(_ body: (inout ByteWriter) throws(E) -> R) throws(E) -> R {
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2048) { scratch in
            var writer = ByteWriter(scratch: scratch)
            return Result { () throws(E) -> R in try body(&writer) }
        }
        return try result.get()
    }

    /// The bytes written so far, valid during `body` only.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(minimum: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ a: UInt8, _ b: UInt8) {
        if count + 2 > capacity { grow(minimum: count + 2) }
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(minimum: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Makes room for `n` more bytes, so that callers can then store without checks.
    mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(minimum: count + n) }
    }

    /// Stores a byte; the caller has reserved room for it.
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    private mutating func grow(minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = newBase
        capacity = newCapacity
        onHeap = true
    }
}
