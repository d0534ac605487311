import Crypto
import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// Signs checkpoints of the log (docs/audit.md): while its process is the active projector,
/// it looks every `interval` seconds whether one is due (`CheckpointDecider.isDue`), and
/// if so signs the Merkle tree's root at its size with the checkpoint key, appends it to
/// the log (`log.checkpoint`), and writes it to `directory` when one is set: a witness
/// outside the database that a superuser cannot rewrite along with it.
public final class Checkpointer: Sendable {
    public struct Configuration: Sendable {
        public var key: Ed25519SigningKey
        public var origin: String
        public var policy: CheckpointDecider.Policy
        /// Seconds between looks.
        public var interval: Double
        /// Where each checkpoint is also written: `checkpoint-SIZE.txt` (the signed text),
        /// `checkpoint-SIZE.sig` (the raw signature) and `checkpoint-key.pem`.
        public var directory: String?
        public var now: LedgerClock

        public init(key: Ed25519SigningKey, origin: String, policy: CheckpointDecider.Policy = .init(), interval: Double = 1,
                    directory: String? = nil, now: @escaping LedgerClock) {
            self.key = key
            self.origin = origin
            self.policy = policy
            self.interval = interval
            self.directory = directory
            self.now = now
        }
    }

    private let configuration: Configuration
    private let store: EventStore
    private let connections: PostgresPool
    private let isActive: @Sendable () -> Bool
    private let log: ProjectorLog
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    public init(configuration: Configuration, store: EventStore, connections: PostgresPool,
                isActive: @escaping @Sendable () -> Bool, log: @escaping ProjectorLog) {
        self.configuration = configuration
        self.store = store
        self.connections = connections
        self.isActive = isActive
        self.log = log
    }

    /// Starts looking on a thread of its own.
    public func start() {
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !stopped.withLock({ $0 }) {
                if isActive() {
                    do { _ = try tick() } catch {
                        log(.warning, "checkpoint not signed", ["error": "\(error)"])
                    }
                }
                Thread.sleep(forTimeInterval: configuration.interval)
            }
        }
        thread.name = "checkpointer"
        thread.start()
    }

    /// Stops looking and waits for the look in flight.
    public func stop() {
        let wasRunning = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        if wasRunning { finished.wait() }
    }

    /// One look: appends a checkpoint when one is due; its position, else nil.
    @discardableResult
    public func tick() throws -> Int64? {
        let model = MerkleReadModel(connections: connections)
        guard let size = try model.treeSize(), size > 0 else { return nil }
        let last = try lastCheckpoint()
        let now = configuration.now()
        guard CheckpointDecider.isDue(size: size, last: last, now: now, policy: configuration.policy) else { return nil }
        guard let head = try connections.read({ try LogReader($0).event(at: size) }) else { return nil }
        let checkpoint = LogCheckpoint(origin: configuration.origin, size: size, root: try model.root(size: size), head: head.hash,
                                       time: max(now, last?.time ?? now))
        let key = configuration.key
        let decision = try CheckpointDecider.sign(checkpoint, last: last, publicKey: key.publicKey, sign: key.sign)
        let result: AppendResult
        do {
            result = try store.append(AppendRequest(decision, metadata: EventMetadata(actor: Actor(.system, "checkpointer"))))
        } catch {
            guard error.code == .wrongExpectedVersion else { throw error }
            return nil  // Another process signed one meanwhile; the next look sees it.
        }
        if let directory = configuration.directory {
            // Ed25519 is deterministic: the same signature as the one in the log.
            try write(checkpoint, signature: key.sign(Array(checkpoint.text.utf8)), to: directory)
        }
        let position = result.events.first?.position ?? 0
        log(.info, "checkpoint signed", ["size": String(size), "position": String(position), "key_id": LogCheckpoint.keyID(key.publicKey)])
        return position
    }

    /// The last checkpoint in the log (not the projection: a decision reads the log).
    private func lastCheckpoint() throws -> CheckpointDecider.Last? {
        try connections.read { conn in
            guard let head = try LogReader(conn).streamHead(LogCheckpointSigned.stream),
                  let event = try LogReader(conn).event(at: head.position) else { return nil }
            let signed = try event.decode(LogCheckpointSigned.self)
            return CheckpointDecider.Last(size: signed.size, time: signed.time, position: head.position, version: head.version)
        }
    }

    private func write(_ checkpoint: LogCheckpoint, signature: [UInt8], to directory: String) throws {
        let files: [(String, [UInt8])] = [
            ("checkpoint-\(checkpoint.size).txt", Array(checkpoint.text.utf8)),
            ("checkpoint-\(checkpoint.size).sig", signature),
            ("checkpoint-key.pem", Array(configuration.key.publicKeyPEM.utf8)),
        ]
        for (name, bytes) in files {
            let path = directory + "/" + name
            let partial = path + ".partial"
            guard FileManager.default.createFile(atPath: partial, contents: Data(bytes)) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial])
            }
            _ = try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        }
    }
}
