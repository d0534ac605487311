import LedgerDomain

/// An act on an operator of the console, judged on the operator's stream as the log
/// holds it (`OperatorDirectory`) and appended at the version read. A credential is
/// stored by the front end before the act (`OperatorDirectory.storeCredential`) and named
/// by it; deciding with an empty credential first says whether the act is refused before
/// anything is stored.
public struct OperatorAct: LedgerAct {
    public enum Change: Sendable {
        case add(OperatorRole, credential: String)
        case resetPassword(credential: String)
        case disable
        /// nil ends every session of the operator.
        case endSessions(sessionID: String?)
    }

    public var name: String
    public var change: Change

    public init(_ name: String, _ change: Change) {
        self.name = name
        self.change = change
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try OperatorDirectory(connections: reads.connections).state(of: name)
        switch change {
        case .add(let role, let credential): return try OperatorDecider.add(name: name, role: role, credential: credential, existing: state)
        case .resetPassword(let credential): return try OperatorDecider.resetPassword(state, name: name, credential: credential)
        case .disable: return try OperatorDecider.disable(state, name: name)
        case .endSessions(let sessionID): return try OperatorDecider.endSessions(state, name: name, sessionID: sessionID)
        }
    }

    /// An operator added meanwhile exists; any other change made meanwhile is a conflict to retry.
    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        if case .add = change { return Refusal(.alreadyExists, "operator \(name) exists already") }
        return nil
    }
}
