import Foundation
import LedgerServices

/// The `ledger` executable: dispatches to one subcommand.
public enum LedgerMain {
    /// Every subcommand, in the order `ledger --help` lists them.
    static let commands: [any LedgerCommand.Type] = [
        DevCommand.self,
        ServeCommand.self,
        ConsoleCommand.self,
        MigrateCommand.self,
        ProjectCommand.self,
        ReplayCommand.self,
        ProjectionsCommand.self,
        VerifyCommand.self,
        ArchiveCommand.self,
        CheckpointKeyCommand.self,
        LogCommand.self,
        FindCommand.self,
        ListCommand.self,
        ExportCommand.self,
        PostgresCommand.self,
        AdminCommand.self,
        AuditCommand.self,
        AppStoreCommand.self,
        StripeCommand.self,
        WebhookCommand.self,
        ErrorsCommand.self,
    ]

    public static func run(_ argv: [String] = CommandLine.arguments) -> Int32 {
        let environment = LedgerEnvironment()
        let args = Array(argv.dropFirst())
        guard let name = args.first, name != "--help", name != "-h", name != "help" else {
            print(help())
            return args.isEmpty ? 2 : 0
        }
        if name == "--version" || name == "version" {
            print("ledger \(LedgerVersion.current)")
            return 0
        }
        if name == "bench" {
            FileHandle.standardError.write(Data("ledger: the benchmarks moved to an executable of their own: `ledger-bench \(args.dropFirst().first ?? "append") …` (`make bench`, or `swift build -c release --product ledger-bench`); they write only into databases they make\n".utf8))
            return 2
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            // One line that points somewhere, rather than the whole help after a typo.
            let hint = Suggestion.nearest(to: name, among: commands.map { $0.name }).map { "; did you mean `ledger \($0)`?" } ?? ""
            FileHandle.standardError.write(Data("ledger: unknown command \(name.debugDescription)\(hint)\n`ledger --help` lists every command.\n".utf8))
            return 2
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.usage(for: rest))
            return 0
        }
        // Fails closed before anything runs: a misspelt profile is never taken for either.
        do {
            _ = try environment.profile()
        } catch {
            FileHandle.standardError.write(Data("ledger \(name): \(error)\n".utf8))
            return 2
        }
        do {
            return try command.run(arguments: rest, environment: environment)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("ledger \(name): \(error)\n\n\(command.usage)\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("ledger \(name): \(error)\n".utf8))
            return 1
        }
    }

    static func help() -> String {
        var text = "usage: ledger COMMAND [OPTIONS]   (ledger COMMAND --help for its options)\n\nCommands:\n"
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nEnvironment:\n"
        for setting in LedgerEnvironment.Setting.all {
            text += "  \(setting.name)"
            if let d = setting.defaultValue { text += " (default: \(d))" }
            text += "\n      \(setting.help)\n"
        }
        return text
    }
}
