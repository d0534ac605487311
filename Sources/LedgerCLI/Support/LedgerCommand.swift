/// One `ledger` subcommand.
public protocol LedgerCommand: Sendable {
    /// The word after `ledger`.
    static var name: String { get }
    /// One line for `ledger --help`.
    static var summary: String { get }
    /// The usage text printed by `ledger NAME --help` and after a usage error.
    static var usage: String { get }
    /// The usage `ledger NAME ARGS --help` prints (by default `usage`).
    static func usage(for arguments: [String]) -> String
    /// Runs the command; returns the process exit status.
    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32
}

extension LedgerCommand {
    /// The usage `ledger NAME ARGS --help` prints: all of it, unless a command with
    /// subcommands narrows it to the one named.
    public static func usage(for arguments: [String]) -> String { usage }
}
