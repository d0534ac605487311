import HTTP
import Observability

/// A listener of `ledger serve` beside the public one, for operators only: the operations
/// listener (`LEDGER_METRICS_ADDRESS`: metrics and readiness in full), built like the
/// console's (`LEDGER_CONSOLE_ADDRESS`).
///
/// It has an address of its own, never the public port, and a few threads of its own, so
/// a scrape is answered however busy the API is and the internet never reaches it. On an
/// address given explicitly it must start; on its default address it may find another API
/// process of the same machine there already, and that process then runs without it,
/// saying so, rather than not at all.
struct SideListener: Sendable {
    /// For the log lines: `operations`.
    let name: String
    let server: HTTPServer
    let host: String
    /// The setting that chose the address, named in the warning or the error.
    let setting: LedgerEnvironment.Setting
    /// Whether `setting` was given, rather than its default taken.
    let explicit: Bool

    /// The URL it answers at, once started.
    var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)" }

    /// The public listener's limits, on another address, with `threads` request threads and
    /// no per-credential admission: operators and scrapers are counted by address.
    static func configuration(from base: HTTPServerConfiguration, host: String, port: Int, threads: Int) -> HTTPServerConfiguration {
        var configuration = base
        configuration.host = host
        configuration.port = port
        configuration.threads = threads
        configuration.admissionClient = nil
        return configuration
    }

    /// Starts listening. A default address that is taken is skipped with a warning; an
    /// explicit one that cannot be listened on is a configuration error.
    func start(logger: Logger) throws {
        do {
            try server.start()
            logger.info("\(name) listening", ["url": .string(url)])
        } catch where !explicit {
            logger.warning("\(name) listener not started: its default address is in use (another API process?); set \(setting.name) to run it elsewhere, or off",
                           ["error": .string("\(error)")])
        } catch {
            throw LedgerEnvironment.ConfigurationError(setting: setting, problem: "cannot be listened on: \(error) (set another HOST:PORT, or off)")
        }
    }

    /// Stops at once: what it answers is answered from memory, so nothing is left to finish.
    func stop() {
        server.shutdown(gracePeriod: 0)
    }
}
