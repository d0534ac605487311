/// When the log is due a signed checkpoint, and the event that records it.
public enum CheckpointDecider {
    /// How often: every `events` events, or every `seconds` seconds when fewer came.
    public struct Policy: Sendable, Hashable {
        public var events: Int64
        public var seconds: Double
        public init(events: Int64 = 10_000, seconds: Double = 60) {
            self.events = events
            self.seconds = seconds
        }
    }

    /// The last checkpoint recorded: its size and time, its own position in the log, and
    /// the stream's version (the next append expects it).
    public struct Last: Sendable, Hashable {
        public var size: Int64
        public var time: Timestamp
        public var position: Int64
        public var version: Int64
        public init(size: Int64, time: Timestamp, position: Int64, version: Int64) {
            self.size = size
            self.time = time
            self.position = position
            self.version = version
        }
    }

    /// Whether a checkpoint of the tree of `size` events is due. Never for a log that grew
    /// only by the last checkpoint itself, so that an idle log is not checkpointed for
    /// ever; the first one as soon as the tree holds an event.
    public static func isDue(size: Int64, last: Last?, now: Timestamp, policy: Policy) -> Bool {
        guard size > 0 else { return false }
        guard let last else { return true }
        guard size > last.position else { return false }
        let elapsed = Double(now.microseconds - last.time.microseconds) / 1e6
        return size - last.size >= policy.events || elapsed >= policy.seconds
    }

    /// The checkpoint of the tree of `checkpoint.size`, signed by `sign` with `publicKey`.
    /// Refused unless the tree grew since the last one and its time does not go back.
    /// One checkpoint per size (the key names it), each after the last (the stream's
    /// version), so two signers at once record one.
    public static func sign(_ checkpoint: LogCheckpoint, last: Last?, publicKey: [UInt8],
                            sign: ([UInt8]) -> [UInt8]) throws(Refusal) -> Decision {
        guard LogCheckpoint.isValidOrigin(checkpoint.origin) else {
            throw Refusal(.outOfRange, "a checkpoint's origin is 1 to 100 printable ASCII characters without spaces")
        }
        guard checkpoint.size > (last?.size ?? 0), checkpoint.root.count == 32, checkpoint.head.count == 32 else {
            throw Refusal(.outOfRange, "a checkpoint covers more events than the last one (\(last?.size ?? 0))")
        }
        if let last, checkpoint.time < last.time {
            throw Refusal(.outOfRange, "a checkpoint's time does not go back before the last one's (\(last.time.iso8601))")
        }
        let event = LogCheckpointSigned(checkpoint, publicKey: publicKey, signature: sign(Array(checkpoint.text.utf8)))
        return Decision(PendingEvent(event, on: LogCheckpointSigned.stream),
                        expecting: [LogCheckpointSigned.stream: last.map { .exactly($0.version) } ?? .noStream],
                        idempotencyKey: "log-checkpoint:\(checkpoint.size)")
    }
}
