import API
import EventStore
import HTTP
import LedgerServices
import Observability
import Postgres

/// `ledger console`: the operator console, as a process of its own.
///
/// Not inside `ledger serve`: the console keeps sessions and acts for operators, through a
/// database role that may do both (ledger_console), and the internet-facing process must
/// hold no such login (docs/security.md, "Database roles").
public enum ConsoleCommand: LedgerCommand {
    public static let name = "console"
    public static let summary = "Run the operator console, on a listener and a database login of its own."
    public static let usage = """
        usage: ledger console

        Serves the operator console (docs/console.md) on LEDGER_CONSOLE_ADDRESS (default
        127.0.0.1:8081, never the API's port) over DATABASE_URL, a login in ledger_console:
        the role that keeps console sessions and appends the console's acts, each under an
        operator signed in to it. Operators are added with `ledger admin operator add`.
        Its own settings: LEDGER_CONSOLE_SECRET (required in production),
        LEDGER_CONSOLE_URL, LEDGER_CONSOLE_IDLE_MINUTES, LEDGER_CONSOLE_SESSION_HOURS,
        LEDGER_TRUSTED_PROXIES, and LEDGER_PROJECTOR_DATABASE_URL for **Rebuild and
        compare**. On SIGTERM or SIGINT it finishes the requests in flight and exits.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        _ = try Arguments(arguments, valued: [])
        SignalWatcher.shared.install()
        let logger = try environment.logger(component: "console")
        try environment.announceProfile(logger)
        guard let address = try environment.consoleAddress(always: true) else {
            throw LedgerEnvironment.ConfigurationError(setting: .consoleAddress, problem: "is off: `ledger console` has nothing to serve")
        }
        let url = try environment.consoleDatabaseURL()
        let connections = try environment.databasePool(url, maximumConnections: 4)
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        defer { store.close() }
        var configuration = try environment.serverConfiguration(host: address.host, port: address.port)
        configuration.threads = 4
        let console = Console(database: LedgerDatabase(store: store, connections: connections),
                              settings: try environment.consoleSettings(address: address, logger: logger))
        let server = HTTPServer(configuration: configuration, router: console.router(), logger: logger)
        do {
            try server.start()
        } catch {
            throw LedgerEnvironment.ConfigurationError(setting: .consoleAddress,
                problem: "cannot be listened on: \(error) (set another HOST:PORT)")
        }
        logger.info("console listening", ["url": .string("http://\(address.host.contains(":") ? "[\(address.host)]" : address.host):\(server.port)")])
        SignalWatcher.shared.waitForStop()
        logger.info("stopping: finishing requests in flight")
        server.shutdown(gracePeriod: try environment.double(.shutdownGrace))
        logger.info("stopped")
        return 0
    }
}
