/// `operator.added`, on `operator-<name>`: a console principal exists, with a role and a
/// password. The password's hash is not in the log, whose exports reach auditors: it is
/// a row of `console_credentials`, written before this event, which names it by
/// `credential` (a random id). A row that no event names is never used.
public struct OperatorAdded: DomainEvent {
    public static let type = "operator.added"
    public var name: String
    public var role: OperatorRole
    public var credential: String
    public init(name: String, role: OperatorRole, credential: String) {
        self.name = name
        self.role = role
        self.credential = credential
    }
}

/// `operator.password_reset`: a new password (the row `credential` names) replaces the one
/// before, whose sessions end.
public struct OperatorPasswordReset: DomainEvent {
    public static let type = "operator.password_reset"
    public var name: String
    public var credential: String
    public init(name: String, credential: String) {
        self.name = name
        self.credential = credential
    }
}

/// `operator.disabled`: the operator may no longer log in; their sessions end at once.
public struct OperatorDisabled: DomainEvent {
    public static let type = "operator.disabled"
    public var name: String
    public init(name: String) { self.name = name }
}

/// `operator.sessions_ended`: an operator ends console sessions of the operator `name` (a
/// lost laptop, a shared screen): the one `sessionID` names, or, without one, every session
/// opened before this event. The sessions themselves are rows outside the log (migration
/// 0012); this event is what ends them, checked on every request (docs/security.md).
public struct OperatorSessionsEnded: DomainEvent {
    public static let type = "operator.sessions_ended"
    public var name: String
    public var sessionID: String?
    enum CodingKeys: String, CodingKey { case name, sessionID = "session_id" }
    public init(name: String, sessionID: String?) {
        self.name = name
        self.sessionID = sessionID
    }
}
