/// One `ledger` subcommand.
public protocol LedgerCommand: Sendable {
    /// The word after `ledger`.
    static var name: String { get }
    /// One line for `ledger --help`.
    static var summary: String { get }
    /// The usage text printed by `ledger NAME --help` and after a usage error.
    static var usage: String { get }
    /// Runs the command; returns the process exit status.
    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32
}
