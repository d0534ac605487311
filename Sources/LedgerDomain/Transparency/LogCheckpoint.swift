import Crypto

/// A checkpoint of the log (docs/audit.md): its size, the Merkle root of its first `size`
/// events, the chain hash of event `size`, and when it was signed. The signature covers
/// `text`, its exact bytes; an auditor who keeps one checkpoint outside the database can
/// later prove that the log still extends it (a consistency proof) and that an event is
/// in it (an inclusion proof), with `openssl` and a short script (docs/audit.md).
public struct LogCheckpoint: Sendable, Hashable {
    public static let header = "ledger-checkpoint-v1"

    /// Names the log, so that a checkpoint of one deployment is never taken for another's.
    public var origin: String
    public var size: Int64
    public var root: [UInt8]
    /// The chain hash of the event at position `size`.
    public var head: [UInt8]
    public var time: Timestamp

    public init(origin: String, size: Int64, root: [UInt8], head: [UInt8], time: Timestamp) {
        self.origin = origin
        self.size = size
        self.root = root
        self.head = head
        self.time = time
    }

    /// The signed bytes: six lines, each ending in a line feed.
    public var text: String {
        """
        \(Self.header)
        origin \(origin)
        size \(size)
        root \(Hex.encode(root))
        head \(Hex.encode(head))
        time \(time.iso8601)

        """
    }

    /// Reads `text` back; nil unless it is exactly what `text` writes.
    public init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 7, lines[0] == Self.header, lines[6].isEmpty else { return nil }
        func value(_ line: String, _ key: String) -> String? {
            line.hasPrefix(key + " ") ? String(line.dropFirst(key.count + 1)) : nil
        }
        guard let origin = value(lines[1], "origin"), Self.isValidOrigin(origin),
              let sizeText = value(lines[2], "size"), let size = Int64(sizeText), size >= 0, String(size) == sizeText,
              let rootText = value(lines[3], "root"), let root = Hex.decode(rootText), root.count == 32, Hex.encode(root) == rootText,
              let headText = value(lines[4], "head"), let head = Hex.decode(headText), head.count == 32, Hex.encode(head) == headText,
              let timeText = value(lines[5], "time"), let time = Timestamp(iso8601: timeText), time.iso8601 == timeText else { return nil }
        self.init(origin: origin, size: size, root: root, head: head, time: time)
        guard self.text == text else { return nil }
    }

    /// 1 to 100 printable ASCII characters, no space: one token on its line.
    public static func isValidOrigin(_ origin: String) -> Bool {
        (1...100).contains(origin.utf8.count) && origin.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }

    /// The key id an auditor matches a public key by: the first 8 bytes of its SHA-256, hex.
    public static func keyID(_ publicKey: [UInt8]) -> String {
        Hex.encode(Array(SHA256.hash(publicKey).prefix(8)))
    }
}
