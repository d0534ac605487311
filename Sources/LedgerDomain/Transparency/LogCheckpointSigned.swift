import Crypto

/// `log.checkpoint`, on `log-checkpoints`: a checkpoint of the log, signed with the
/// service's checkpoint key (Ed25519) and appended to the log it describes. Its `size`
/// is below its own position: a checkpoint covers the events before it, and the next
/// checkpoint covers this one.
public struct LogCheckpointSigned: DomainEvent {
    public static let type = "log.checkpoint"
    public static let stream = "log-checkpoints"

    public var origin: String
    public var size: Int64
    /// Hex, as in the signed text.
    public var root: String
    public var head: String
    public var time: Timestamp
    /// The signing key: its raw 32 bytes in hex, and its id (`LogCheckpoint.keyID`).
    public var publicKey: String
    public var keyID: String
    /// The Ed25519 signature of the checkpoint's text, in hex.
    public var signature: String

    enum CodingKeys: String, CodingKey {
        case origin, size, root, head, time, signature, publicKey = "public_key", keyID = "key_id"
    }

    public init(_ checkpoint: LogCheckpoint, publicKey: [UInt8], signature: [UInt8]) {
        origin = checkpoint.origin
        size = checkpoint.size
        root = Hex.encode(checkpoint.root)
        head = Hex.encode(checkpoint.head)
        time = checkpoint.time
        self.publicKey = Hex.encode(publicKey)
        keyID = LogCheckpoint.keyID(publicKey)
        self.signature = Hex.encode(signature)
    }

    /// The checkpoint this event signs; nil when a hash is not 32 bytes of hex.
    public var checkpoint: LogCheckpoint? {
        guard let root = Hex.decode(root), root.count == 32, let head = Hex.decode(head), head.count == 32 else { return nil }
        return LogCheckpoint(origin: origin, size: size, root: root, head: head, time: time)
    }

    /// Whether the signature verifies with the public key the event names.
    public var signatureIsValid: Bool {
        guard let checkpoint, let key = Hex.decode(publicKey), let signature = Hex.decode(signature) else { return false }
        return Ed25519.verify(publicKey: key, message: Array(checkpoint.text.utf8), signature: signature)
    }
}
