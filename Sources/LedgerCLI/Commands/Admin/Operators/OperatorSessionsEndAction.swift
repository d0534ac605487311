import LedgerDomain
import LedgerServices

/// `ledger admin operator sessions end`: ends one console session (`--session`) or every
/// session of an operator (`--name`), at once for every copy of their cookies. The act is
/// `operator.sessions_ended` on the operator's stream, which the console checks on every
/// request; the sessions' rows are marked too, for listings.
struct OperatorSessionsEndAction: AdminAction {
    static let words = ["operator", "sessions", "end"]
    static let synopsis = "(--session cs_… | --name NAME)"
    static let summary = "End one console session, or every session of an operator (a lost laptop, a shared screen)."
    static let valued: Set<String> = ["session", "name"]

    let sessionID: String?
    let name: String?

    init(_ options: AdminOptions) throws {
        switch try options.exactlyOne(of: ["session", "name"]) {
        case "session":
            sessionID = try options.text("session", maximumLength: 19)
            name = nil
        default:
            sessionID = nil
            name = try options.text("name", maximumLength: 64)
        }
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let sessions = ConsoleSessionStore(connections: session.connections)
        let operatorName: String
        if let sessionID {
            guard OperatorDecider.isValidSessionID(sessionID), let found = try sessions.session(sessionID) else {
                throw AdminError(.notFound, "there is no console session \(sessionID) (`ledger admin operator sessions --all` lists them)")
            }
            operatorName = found.operatorName
        } else {
            operatorName = name ?? ""
        }
        var receipt = AdminReceipt(events: try session.perform(OperatorAct(operatorName, .endSessions(sessionID: sessionID))))
        // What the listing shows; the event above is what ends them.
        let reason = "ended by \(session.identity?.actor.id ?? "an operator")"
        if let sessionID {
            try sessions.end(sessionID, reason: reason, now: session.now.microseconds)
            receipt.lines = ["session \(sessionID) of \(operatorName) ended"]
        } else {
            let count = try sessions.endAll(operator: operatorName, reason: reason, now: session.now.microseconds)
            receipt.lines = ["every session of \(operatorName) ended (\(count) open)"]
        }
        return receipt
    }
}
