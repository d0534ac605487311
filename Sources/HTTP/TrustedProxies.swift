#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverse proxies in front of the server (LEDGER_TRUSTED_PROXIES): addresses and
/// CIDR blocks whose `X-Forwarded-For` is believed. Without it a server behind a proxy
/// sees every client as the proxy, and a limit per address (the console's sign-in, the
/// notifications' N8) then stops everyone at once; with it, anybody else's
/// `X-Forwarded-For` is ignored, since a client may write whatever it likes there.
public struct TrustedProxies: Sendable, Equatable {
    struct Block: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int
    }

    private var blocks: [Block]

    public static let none = TrustedProxies(blocks: [])

    private init(blocks: [Block]) { self.blocks = blocks }

    /// Parses comma-separated addresses and CIDR blocks (`10.0.0.0/8`, `fd00::/8`,
    /// `127.0.0.1`); nil names the first entry that is neither.
    public init(parsing text: String) throws(Invalid) {
        var blocks: [Block] = []
        for entry in text.split(separator: ",").map({ String($0).trimmed }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.parse(parts[0]) else { throw Invalid(entry: entry) }
            var prefix = bytes.count * 8
            if parts.count == 2 {
                guard let n = Int(parts[1]), (0...bytes.count * 8).contains(n) else { throw Invalid(entry: entry) }
                prefix = n
            }
            blocks.append(Block(bytes: bytes, prefix: prefix))
        }
        self.blocks = blocks
    }

    public struct Invalid: Error, CustomStringConvertible {
        public var entry: String
        public var description: String { "\(entry.debugDescription) is neither an IP address nor a CIDR block" }
    }

    public var isEmpty: Bool { blocks.isEmpty }

    /// Whether `address` (as the server prints a peer's) is one of the proxies.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.parse(address) else { return false }
        return blocks.contains { block in
            guard block.bytes.count == bytes.count else { return false }
            var bits = block.prefix
            for i in 0..<bytes.count where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
                if bytes[i] & mask != block.bytes[i] & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    /// The client's address: `peer` itself unless it is a proxy; then the right-most entry
    /// of `X-Forwarded-For` (each proxy appends the address it saw) that is not a proxy.
    /// An entry that is not an IP address ends the walk: the peer is the client then.
    public func client(peer: String, forwardedFor values: [String]) -> String {
        guard contains(peer) else { return peer }
        let hops = values.flatMap { $0.split(separator: ",") }.map { String($0).trimmed }
        for hop in hops.reversed() {
            guard Self.parse(hop) != nil else { return peer }
            if !contains(hop) { return hop }
        }
        return peer
    }

    /// The bytes of an IPv4 or IPv6 address literal.
    static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
