/// One operator command (`ledger admin payer create`, `ledger audit corrections`, …).
///
/// Parsing and performing are separate so that each step can be tested: `init` turns the
/// command line into a request, checking only its form; `perform` judges it against the
/// ledger, appends, and returns what it did as a receipt, which the dispatcher prints.
protocol AdminAction: Sendable {
    /// The words after the program, e.g. `["payer", "create"]` or `["credit"]`.
    static var words: [String] { get }
    /// The command's own options, as the usage line shows them.
    static var synopsis: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Options that take a value, and flags (the common ones are added by the dispatcher).
    static var valued: Set<String> { get }
    static var boolean: Set<String> { get }
    /// Valued options that may be given several times (every other repeat is refused).
    static var repeatable: Set<String> { get }
    /// Whether the command appends events, and so needs an operator and a reason.
    static var isOperatorAct: Bool { get }
    /// Whether the command appends once, under the session's idempotency key: then a
    /// run with a key already in the log is answered from the log without judging the
    /// request again (a hold captured by the earlier run is not "already settled").
    /// A command whose appends carry keys of their own (a month close) says false.
    static var appendsUnderSessionKey: Bool { get }

    init(_ options: AdminOptions) throws
    func perform(_ session: AdminSession) throws -> AdminReceipt
}

extension AdminAction {
    static var boolean: Set<String> { [] }
    static var repeatable: Set<String> { [] }
    static var isOperatorAct: Bool { true }
    static var appendsUnderSessionKey: Bool { isOperatorAct }
}
