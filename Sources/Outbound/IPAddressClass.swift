/// What an IP address is for, by the IANA special-purpose registries (RFC 6890 and its
/// updates): an outbound request may only go to `public` addresses in production, so that
/// a webhook URL cannot reach the database, the metadata service or anything else inside.
public enum IPAddressClass: String, Sendable, CaseIterable {
    case `public`
    case loopback
    /// RFC 1918, IPv6 unique local (fc00::/7) and the deprecated site-local (fec0::/10).
    case `private`
    case linkLocal = "link_local"
    /// 100.64.0.0/10, shared address space behind carrier-grade NAT.
    case sharedAddressSpace = "shared_address_space"
    case multicast
    case unspecified
    /// Documentation, benchmarking, protocol assignments, the future-use /4 and the
    /// broadcast address, and IPv6 outside 2000::/3: nothing a customer's server is on.
    case reserved

    /// The class of 4 (IPv4) or 16 (IPv6) bytes in network order; `reserved` for any other
    /// length. IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) take that
    /// address's class, so that `::ffff:10.0.0.1` is as private as `10.0.0.1`.
    public init(bytes b: [UInt8]) {
        switch b.count {
        case 4: self = Self.ipv4(b[0], b[1], b[2], b[3])
        case 16: self = Self.ipv6(b)
        default: self = .reserved
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> IPAddressClass {
        switch (a, b, c) {
        case (0, _, _): return .unspecified                             // 0.0.0.0/8, "this network"
        case (10, _, _): return .private
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .private
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): return .reserved  // protocol assignments, TEST-NET-1, 6to4 relay
        case (192, 168, _): return .private
        case (198, 18...19, _): return .reserved                        // benchmarking
        case (198, 51, 100), (203, 0, 113): return .reserved            // TEST-NET-2, TEST-NET-3
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved                        // future use, broadcast
        default: return .public
        }
    }

    private static func ipv6(_ b: [UInt8]) -> IPAddressClass {
        let zeros = b[0..<10].allSatisfy { $0 == 0 }
        if zeros && b[10] == 0xff && b[11] == 0xff { return ipv4(b[12], b[13], b[14], b[15]) }   // ::ffff:0:0/96
        if zeros && b[10] == 0 && b[11] == 0 {
            if b[12..<15].allSatisfy({ $0 == 0 }) {
                if b[15] == 0 { return .unspecified }                                           // ::
                if b[15] == 1 { return .loopback }                                              // ::1
            }
            return .reserved                                                                    // ::/96, IPv4-compatible
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b {
            if b[4..<12].allSatisfy({ $0 == 0 }) { return ipv4(b[12], b[13], b[14], b[15]) }    // 64:ff9b::/96, NAT64
            return .reserved                                                                    // 64:ff9b:1::/48
        }
        if b[0] == 0x20 && b[1] == 0x02 { return ipv4(b[2], b[3], b[4], b[5]) }                 // 2002::/16, 6to4
        if b[0] == 0x20 && b[1] == 0x01 {
            if b[2] < 0x02 { return .reserved }                                                 // 2001::/23
            if b[2] == 0x0d && b[3] == 0xb8 { return .reserved }                                // 2001:db8::/32
        }
        if b[0] == 0xff { return .multicast }                                                   // ff00::/8
        if b[0] & 0xfe == 0xfc { return .private }                                              // fc00::/7
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return .linkLocal }                            // fe80::/10
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return .private }                              // fec0::/10
        if b[0] & 0xe0 == 0x20 { return .public }                                               // 2000::/3
        return .reserved
    }
}
