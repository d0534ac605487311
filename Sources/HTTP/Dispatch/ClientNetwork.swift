import Glibc

/// The network a client address is counted under, by the server's connections per
/// address (`AddressConnections`) and by the console's sign-in limits alike: an
/// IPv4 address as itself, an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as the IPv4
/// one, and an IPv6 address as its /64. A single IPv6 host is commonly handed a whole /64:
/// counted address by address, it would have 2⁶⁴ fresh counts to move through, and could
/// fill any table of counts from one machine.
public enum ClientNetwork {
    /// The key of `address` (an address literal, as `HTTPRequest.remoteAddress` gives it).
    /// Text that is not an address literal is its own key, cut to 64 characters so that
    /// the table never keeps a long string.
    public static func key(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { dotted($0[0..<4]) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return String(address.prefix(64)) }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return dotted(bytes[12..<16])
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    private static func dotted<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        bytes.map(String.init).joined(separator: ".")
    }
}
