import LedgerJSON

/// Decides the acts on console operators (`ledger admin operator …`), and folds their
/// stream into the state the console checks on every request.
public enum OperatorDecider {
    public static func stream(_ name: String) -> String { "operator-" + name }

    /// An operator as their stream says.
    public struct State: Sendable, Hashable {
        public var name: String
        public var role: OperatorRole
        public var disabled: Bool
        /// The `console_credentials` row of the current password. A session names the
        /// credential it was opened with, so a reset ends the sessions of the one before.
        public var credential: String
        /// The stream's version, which the next act expects.
        public var streamVersion: Int64
        /// How many times every session of the operator was ended (`operator.sessions_ended`
        /// without a session): a session records the number when it opens and is valid only
        /// while it is still the same.
        public var sessionEpoch: Int64 = 0
        /// Sessions ended one by one.
        public var endedSessions: Set<String> = []

        /// Folds the stream's events (type and data, in version order); nil when it has
        /// no `operator.added`. Events of other types are skipped.
        public static func fold(_ events: [(type: String, data: JSONValue)]) throws -> State? {
            var state: State?
            for (index, event) in events.enumerated() {
                switch event.type {
                case OperatorAdded.type:
                    let added = try JSONValueDecoder().decode(OperatorAdded.self, from: event.data)
                    state = State(name: added.name, role: added.role, disabled: false, credential: added.credential, streamVersion: 0)
                case OperatorPasswordReset.type:
                    state?.credential = try JSONValueDecoder().decode(OperatorPasswordReset.self, from: event.data).credential
                case OperatorDisabled.type:
                    state?.disabled = true
                case OperatorSessionsEnded.type:
                    let ended = try JSONValueDecoder().decode(OperatorSessionsEnded.self, from: event.data)
                    if let id = ended.sessionID { state?.endedSessions.insert(id) } else { state?.sessionEpoch += 1 }
                default:
                    break
                }
                state?.streamVersion = Int64(index + 1)
            }
            return state
        }
    }

    /// Lowercase letters, digits, `.`, `_` and `-`, 1 to 64 of them, starting with a
    /// letter: the name is shown on every act and is part of a stream name.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (0x61...0x7a).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2e || $0 == 0x5f || $0 == 0x2d }
    }

    /// `credential` names the row of `console_credentials` written for the password.
    public static func add(name: String, role: OperatorRole, credential: String, existing: State?) throws(Refusal) -> Decision {
        guard isValidName(name) else {
            throw Refusal(.outOfRange, "an operator's name is 1 to 64 of a-z 0-9 . _ - starting with a letter, got \(ExternalID.text(name))")
        }
        guard existing == nil else { throw Refusal(.alreadyExists, "operator \(name) exists already") }
        return Decision(PendingEvent(OperatorAdded(name: name, role: role, credential: credential), on: stream(name)),
                        expecting: [stream(name): .noStream])
    }

    /// A new password, whose hash is the row `credential` names (written first).
    public static func resetPassword(_ state: State?, name: String, credential: String) throws(Refusal) -> Decision {
        let state = try existing(state, name)
        return Decision(PendingEvent(OperatorPasswordReset(name: name, credential: credential), on: stream(name)),
                        expecting: [stream(name): .exactly(state.streamVersion)])
    }

    public static func disable(_ state: State?, name: String) throws(Refusal) -> Decision {
        let state = try existing(state, name)
        return Decision(PendingEvent(OperatorDisabled(name: name), on: stream(name)), expecting: [stream(name): .exactly(state.streamVersion)])
    }

    /// Ends one session of the operator, or (`sessionID` nil) every session opened so far.
    /// A disabled operator's sessions have ended already; ending them again is refused, as
    /// every act on a disabled operator is.
    public static func endSessions(_ state: State?, name: String, sessionID: String?) throws(Refusal) -> Decision {
        let state = try existing(state, name)
        if let sessionID {
            guard isValidSessionID(sessionID) else {
                throw Refusal(.outOfRange, "a console session id is cs_ and 16 hex digits, got \(ExternalID.text(sessionID))")
            }
        }
        return Decision(PendingEvent(OperatorSessionsEnded(name: name, sessionID: sessionID), on: stream(name)),
                        expecting: [stream(name): .exactly(state.streamVersion)])
    }

    /// `cs_` and 16 lowercase hex digits: a session's public id (its secret is the cookie).
    public static func isValidSessionID(_ id: String) -> Bool {
        id.utf8.count == 19 && id.hasPrefix("cs_") && id.utf8.dropFirst(3).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A disabled operator stays disabled: acts name them, so their name is not reused.
    private static func existing(_ state: State?, _ name: String) throws(Refusal) -> State {
        guard let state else { throw Refusal(.notFound, "there is no operator \(name)") }
        guard !state.disabled else { throw Refusal(.operatorDisabled, "operator \(name) is disabled; add another operator instead") }
        return state
    }
}

extension Refusal.Code {
    /// The operator named is disabled.
    public static let operatorDisabled = Refusal.Code("operator_disabled")
}
