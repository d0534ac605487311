import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin operator sessions`: console sessions, newest first, with where each
/// stands (active, ended and why, expired, idle), from where and which browser.
struct OperatorSessionsAction: AdminAction {
    static let words = ["operator", "sessions"]
    static let synopsis = "[--name NAME] [--all]"
    static let summary = "List console sessions (active ones; --all: every one kept, 90 days): who, since when, last seen, from where."
    static let valued: Set<String> = ["name"]
    static let boolean: Set<String> = ["all"]
    static let isOperatorAct = false

    let name: String?
    let all: Bool

    init(_ options: AdminOptions) throws {
        name = try options.optionalText("name", maximumLength: 64)
        all = options.flag("all")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let operators = OperatorDirectory(connections: session.connections)
        let now = session.now.microseconds
        var states: [String: OperatorDecider.State?] = [:]
        var rows: [(ConsoleSession, ConsoleSession.Status)] = []
        for s in try ConsoleSessionStore(connections: session.connections).list(operator: name, limit: 1_000) {
            if states[s.operatorName] == nil { states[s.operatorName] = .some(try operators.state(of: s.operatorName)) }
            let status = s.status(at: now, idleTimeout: session.services.consoleIdleTimeout, operator: states[s.operatorName] ?? nil)
            if all || status == .active { rows.append((s, status)) }
        }
        var receipt = AdminReceipt()
        receipt.fields["sessions"] = .array(rows.map { s, status in
            .object(["session_id": .string(s.id), "operator": .string(s.operatorName), "status": .string(status.description),
                     "signed_in_at": .string(Self.time(s.created)), "last_seen_at": .string(Self.time(s.lastSeen)),
                     "expires_at": .string(Self.time(s.expires)), "ended_at": s.ended.map { .string(Self.time($0)) } ?? .null,
                     "address": .string(s.address), "user_agent": .string(s.userAgent)])
        })
        receipt.lines = rows.isEmpty ? [all ? "no sessions" : "no active sessions (--all lists ended ones too)"] : TextTable.lines(
            ["session", "operator", "status", "signed in", "last seen", "address", "browser"],
            rows.map { s, status in [s.id, s.operatorName, status.description, Self.time(s.created), Self.time(s.lastSeen), s.address,
                                     String(s.userAgent.prefix(40))] })
        return receipt
    }

    static func time(_ microseconds: Int64) -> String { (Timestamp(microseconds: microseconds) ?? .minimum).iso8601 }
}
