import Glibc
import Outbound
import Testing
import TestSupport

/// The classifier against an independent reading of the IANA special-purpose registries:
/// a table of prefixes, longest match wins, checked on many generated addresses.
@Suite("Outbound addresses are classified by the special-purpose registries", .bounded)
struct IPAddressClassTests {
    static let table: [(String, IPAddressClass)] = [
        ("0.0.0.0/8", .unspecified), ("10.0.0.0/8", .private), ("100.64.0.0/10", .sharedAddressSpace),
        ("127.0.0.0/8", .loopback), ("169.254.0.0/16", .linkLocal), ("172.16.0.0/12", .private),
        ("192.0.0.0/24", .reserved), ("192.0.2.0/24", .reserved), ("192.88.99.0/24", .reserved),
        ("192.168.0.0/16", .private), ("198.18.0.0/15", .reserved), ("198.51.100.0/24", .reserved),
        ("203.0.113.0/24", .reserved), ("224.0.0.0/4", .multicast), ("240.0.0.0/4", .reserved),
        ("::/128", .unspecified), ("::1/128", .loopback), ("::/96", .reserved), ("64:ff9b:1::/48", .reserved),
        ("2001::/23", .reserved), ("2001:db8::/32", .reserved), ("fc00::/7", .private), ("fe80::/10", .linkLocal),
        ("fec0::/10", .private), ("ff00::/8", .multicast), ("2000::/3", .public),
    ]

    static func parse(_ text: String) -> [UInt8] {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        precondition(inet_pton(AF_INET6, text, &v6) == 1, "\(text) is not an address")
        return withUnsafeBytes(of: &v6) { Array($0) }
    }

    struct Prefix {
        var bytes: [UInt8]
        var length: Int
        var kind: IPAddressClass
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in 0..<length where (address[bit / 8] >> (7 - bit % 8)) & 1 != (bytes[bit / 8] >> (7 - bit % 8)) & 1 { return false }
            return true
        }
        /// An address inside the prefix, the host bits random.
        func random<G: RandomNumberGenerator>(_ g: inout G) -> [UInt8] {
            var a = bytes
            for bit in length..<(bytes.count * 8) where Bool.random(using: &g) { a[bit / 8] |= 1 << (7 - bit % 8) }
            return a
        }
    }

    static let prefixes: [Prefix] = table.map { cidr, kind in
        let parts = cidr.split(separator: "/")
        return Prefix(bytes: parse(String(parts[0])), length: Int(parts[1])!, kind: kind)
    }

    /// The reference: the longest matching prefix; IPv4 outside the table is public, IPv6
    /// outside it reserved; IPv6 forms embedding IPv4 take its class.
    static func reference(_ a: [UInt8]) -> IPAddressClass {
        if a.count == 16 {
            if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xff && a[11] == 0xff { return reference(Array(a[12...])) }
            if a[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0][...] { return reference(Array(a[12...])) }
            if a[0] == 0x20 && a[1] == 0x02 { return reference(Array(a[2..<6])) }
        }
        let match = prefixes.filter { $0.contains(a) }.max { $0.length < $1.length }
        return match?.kind ?? (a.count == 4 ? .public : .reserved)
    }

    @Test("every prefix of the table, and addresses around it, 20,000 generated cases")
    func generated() throws {
        var cases = 0
        // Seeded (SeededRandom): a failure prints the seed, and LEDGER_TEST_CASE_SEED replays it.
        try Property.check("ip address classes", count: 1) { g, seed in
        for prefix in Self.prefixes {
            for _ in 0..<300 {
                let inside = prefix.random(&g)
                #expect(IPAddressClass(bytes: inside) == Self.reference(inside), "seed \(seed.hex): \(inside)")
                cases += 1
            }
        }
        for _ in 0..<7_000 {
            let v4 = (0..<4).map { _ in UInt8.random(in: 0...255, using: &g) }
            #expect(IPAddressClass(bytes: v4) == Self.reference(v4), "seed \(seed.hex): \(v4)")
            var v6 = (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
            // Half of them in the interesting part of the space: global unicast and the IPv4 forms.
            switch Int.random(in: 0..<6, using: &g) {
            case 0: v6[0] = 0x20 | (v6[0] & 0x1f)
            case 1: v6.replaceSubrange(0..<12, with: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
            case 2: v6.replaceSubrange(0..<12, with: [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
            case 3: v6[0] = 0x20; v6[1] = 0x02
            default: break
            }
            #expect(IPAddressClass(bytes: v6) == Self.reference(v6), "seed \(seed.hex): \(v6)")
            cases += 2
        }
        }
        #expect(cases > 20_000 || Property.isReplaying)
    }

    @Test("well-known addresses", arguments: [
        ("8.8.8.8", IPAddressClass.public), ("1.1.1.1", .public), ("127.0.0.1", .loopback), ("169.254.169.254", .linkLocal),
        ("10.1.2.3", .private), ("192.168.1.1", .private), ("100.100.100.100", .sharedAddressSpace), ("0.0.0.0", .unspecified),
        ("255.255.255.255", .reserved), ("::1", .loopback), ("::ffff:10.0.0.1", .private), ("::ffff:8.8.8.8", .public),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("2002:7f00:1::", .loopback), ("fd00::1", .private), ("fe80::1", .linkLocal),
        ("2606:4700:4700::1111", .public), ("2001:db8::1", .reserved), ("ff02::1", .multicast),
    ])
    func wellKnown(_ address: String, _ kind: IPAddressClass) {
        #expect(IPAddressClass(bytes: Self.parse(address)) == kind)
    }
}
