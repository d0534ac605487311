import Synchronization

/// Open connections per client address, so that one address cannot take the server's
/// connections from everyone else.
///
/// An address is the connection's peer (IPv4), or the /64 network an IPv6 peer is in:
/// a single host is commonly handed a whole /64, and counting its addresses one by one
/// would give it 2⁶⁴ shares. Each address holds at most `perAddress` connections; and
/// once the server is past three quarters of its limit, an address that already holds
/// `modestShare` or more gets no new one, so that the last quarter stays for the
/// addresses that are not hoarding. A connection refused here never reaches
/// libmicrohttpd: `AcceptLoop` answers 503 and closes it at once, so a refused client
/// holds nothing while it retries.
final class AddressConnections: Sendable {
    let perAddress: Int
    let serverLimit: Int
    /// Connections per address, and their sum: exact, since a connection is counted in
    /// when it is accepted and out when it closes, where the server's own count of open
    /// connections moves only when libmicrohttpd reports them, a little later.
    private let state = Mutex<(counts: [String: Int], total: Int)>(([:], 0))

    init(perAddress: Int, serverLimit: Int) {
        precondition(perAddress > 0 && serverLimit > 0, "limits of \(perAddress) per address and \(serverLimit) in all")
        self.perAddress = perAddress
        self.serverLimit = serverLimit
    }

    /// Connections an address may still open once the server is past three quarters full.
    var modestShare: Int { max(1, perAddress / 8) }

    /// Counts one more connection of `address` (a key from `ClientNetwork.key(of:)`) when the limits
    /// allow it; `false` (nothing counted) else. `reported` is the server's count of open
    /// connections, which also holds those no address is counted for (a trusted proxy's):
    /// the fuller of the two counts decides, and neither counts a connection twice.
    func enter(_ address: String, reported: Int) -> Bool {
        state.withLock { state in
            let held = state.counts[address, default: 0]
            guard held < perAddress else { return false }
            if max(reported, state.total) >= serverLimit - serverLimit / 4, held >= modestShare { return false }
            state.counts[address] = held + 1
            state.total += 1
            return true
        }
    }

    func leave(_ address: String) {
        state.withLock { state in
            guard let held = state.counts[address] else { return }
            state.counts[address] = held > 1 ? held - 1 : nil
            state.total -= 1
            assert(state.total >= 0, "more connections left than entered")
        }
    }

    /// Connections `address` holds now.
    func count(_ address: String) -> Int { state.withLock { $0.counts[address, default: 0] } }
}
