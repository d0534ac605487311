@testable import API
import HTTP
import Testing
import TestSupport

/// The sign-in limits' own table, with no server: it stays bounded without ever refusing
/// a newcomer, and it counts networks, not addresses (docs/security.md, "Signing in").
@Suite("The sign-in lockout's table", .bounded)
struct ConsoleLockoutTests {
    static func allowed(_ admission: ConsoleLockout.Admission) -> Bool {
        if case .allowed = admission { return true }
        return false
    }

    @Test("the table stays bounded, and a fresh address is not refused when it is full of other addresses")
    func boundedWithoutRefusal() {
        let lockout = ConsoleLockout(limits: .init(freePerPair: 5, perAddress: 20, window: 900, maximumDelay: 900), capacity: 100)
        // A thousand addresses fail once each, within one window: five times what the table holds.
        for i in 0..<1_000 {
            let address = "10.0.\(i / 256).\(i % 256)"
            #expect(Self.allowed(lockout.admit(name: "root", address: address, now: 1_000 + Double(i) / 1_000)), "\(address)")
            #expect(lockout.count <= 100)
        }
        #expect(lockout.count == 100)
        let now = 1_002.0
        #expect(Self.allowed(lockout.admit(name: "alice", address: "203.0.113.77", now: now)), "a newcomer is counted, not refused")
        #expect(lockout.failureCount(name: "alice", address: "203.0.113.77", now: now) == 1)
        // The oldest counts went to make room; the newest are kept.
        #expect(lockout.addressFailureCount(address: "10.0.0.0", now: now) == 0)
        #expect(lockout.addressFailureCount(address: "10.0.3.231", now: now) == 1)
        #expect(lockout.count <= 100)
    }

    @Test("counts go oldest first, and only to make room: an address at its limit stays refused until newer keys fill the table")
    func oldestGoFirst() {
        let lockout = ConsoleLockout(limits: .init(freePerPair: 100, perAddress: 3, window: 900, maximumDelay: 900), capacity: 10)
        // Four keys: the pair of n0, the address, the pairs of n1 and n2.
        for n in 0..<3 { #expect(Self.allowed(lockout.admit(name: "n\(n)", address: "198.51.100.9", now: 10))) }
        #expect(!Self.allowed(lockout.admit(name: "n9", address: "198.51.100.9", now: 11)))
        // Three newcomers (a pair and an address each) fill the table to its ten keys.
        for i in 0..<3 { #expect(Self.allowed(lockout.admit(name: "root", address: "10.1.0.\(i)", now: 12))) }
        #expect(lockout.count == 10)
        #expect(!Self.allowed(lockout.admit(name: "n9", address: "198.51.100.9", now: 13)), "nothing was pushed out yet")
        // A fourth pushes out the two oldest keys: the pair of n0, then the address.
        #expect(Self.allowed(lockout.admit(name: "root", address: "10.1.0.3", now: 14)))
        #expect(lockout.count == 10)
        #expect(lockout.addressFailureCount(address: "198.51.100.9", now: 14) == 0)
        #expect(lockout.failureCount(name: "n1", address: "198.51.100.9", now: 14) == 1, "newer keys of it stay")
    }

    @Test("two addresses in one /64 share a count; another /64 has its own; an IPv4-mapped address counts as the IPv4 one")
    func countedByNetwork() {
        let lockout = ConsoleLockout(limits: .init(freePerPair: 100, perAddress: 3, window: 900, maximumDelay: 900))
        #expect(Self.allowed(lockout.admit(name: "a", address: "2001:db8:7:8::1", now: 10)))
        #expect(Self.allowed(lockout.admit(name: "b", address: "2001:db8:7:8::2", now: 10)))
        #expect(Self.allowed(lockout.admit(name: "a", address: "2001:0db8:0007:0008:ffff:ffff:ffff:fffe", now: 10)))
        #expect(lockout.addressFailureCount(address: "2001:db8:7:8::abcd", now: 10) == 3)
        #expect(lockout.failureCount(name: "a", address: "2001:db8:7:8::abcd", now: 10) == 2, "the pair counts by network too")
        #expect(!Self.allowed(lockout.admit(name: "c", address: "2001:db8:7:8:1:2:3:4", now: 10)), "the /64 is at its limit")
        #expect(Self.allowed(lockout.admit(name: "c", address: "2001:db8:7:9::1", now: 10)), "the next /64 is not")

        #expect(Self.allowed(lockout.admit(name: "a", address: "203.0.113.9", now: 10)))
        #expect(Self.allowed(lockout.admit(name: "b", address: "::ffff:203.0.113.9", now: 10)))
        #expect(Self.allowed(lockout.admit(name: "c", address: "203.0.113.9", now: 10)))
        #expect(!Self.allowed(lockout.admit(name: "d", address: "::ffff:203.0.113.9", now: 10)))
        #expect(Self.allowed(lockout.admit(name: "d", address: "203.0.113.10", now: 10)), "IPv4 counts each address")
    }

    @Test("network keys: IPv4 as itself, IPv4-mapped as IPv4, IPv6 by its /64, anything else as its first 64 characters")
    func networkKeys() {
        #expect(ClientNetwork.key(of: "203.0.113.9") == "203.0.113.9")
        #expect(ClientNetwork.key(of: "::ffff:203.0.113.9") == "203.0.113.9")
        #expect(ClientNetwork.key(of: "2001:db8::1") == "2001:db8:0:0::/64")
        #expect(ClientNetwork.key(of: "2001:DB8:0:0:8000::1") == "2001:db8:0:0::/64")
        #expect(ClientNetwork.key(of: "::1") == "0:0:0:0::/64")
        #expect(ClientNetwork.key(of: String(repeating: "x", count: 500)) == String(repeating: "x", count: 64))
    }

    @Test("the table drops the key inserted first; a changed value keeps its place; a removed key's slot is reused")
    func insertionOrder() {
        var table = InsertionOrderedTable<Int>(capacity: 3)
        #expect(table.set("a", 1) == nil && table.set("b", 2) == nil && table.set("c", 3) == nil)
        #expect(table.set("a", 10) == nil, "a change, not an insertion")
        #expect(table.set("d", 4) == "a", "a was inserted first, changed since or not")
        #expect(table.keys == ["b", "c", "d"] && table["a"] == nil && table["b"] == 2)
        table.remove("c")
        #expect(table.keys == ["b", "d"] && table.count == 2)
        #expect(table.set("e", 5) == nil, "room was made by the removal")
        #expect(table.set("f", 6) == "b")
        #expect(table.keys == ["d", "e", "f"] && table["e"] == 5 && table["f"] == 6)
        table.remove("d")
        table.remove("f")
        table.remove("e")
        #expect(table.keys == [] && table.count == 0)
        #expect(table.set("g", 7) == nil && table.keys == ["g"])
    }
}
