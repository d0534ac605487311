import Foundation
import HTTP

/// The ports `ledger dev` needs, checked before anything starts, so that a second
/// instance (another data directory, another clone) either runs beside the first or is
/// refused at once with the settings to change (README, "Two commands").
///
/// - The API (LEDGER_PORT), the console (LEDGER_CONSOLE_ADDRESS) and the operations
///   listener (LEDGER_METRICS_ADDRESS) are addresses people type and docs read from
///   demo.json: a taken one is refused, all of them in one message with free ports to use.
/// - The PostgreSQL cluster's port is nobody's business but the commands', which read it
///   from demo.json: when LEDGER_DEV_POSTGRES_PORT is unset and the default is taken,
///   `ledger dev` picks a free one and remembers it for the data directory
///   (`postgres-port`), so that a restart reuses it. A port set explicitly and taken is
///   refused, naming the setting.
/// - The stand-ins for Apple and Stripe listen on ports the kernel gives: they never collide.
enum DevPorts {
    /// The host a URL to a listener on `host` names: a listener on every address (a
    /// container's `0.0.0.0`) is reached, probed and printed as loopback.
    static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::", "[::]": return "[::1]"
        default: return host
        }
    }

    /// Whether `host:port` can be listened on now.
    static func isFree(host: String, port: Int) -> Bool {
        (try? HTTPServer.checkAvailable(host: host, port: port)) != nil
    }

    /// Why `host:port` cannot be listened on, or nil when it can.
    static func problem(host: String, port: Int) -> String? {
        do {
            try HTTPServer.checkAvailable(host: host, port: port)
            return nil
        } catch {
            return error.message
        }
    }

    /// A free port from `start` on, by `step`, none of `avoiding`; nil when none of 100 is.
    static func free(host: String, from start: Int, step: Int = 1, avoiding: Set<Int> = []) -> Int? {
        var port = start
        for _ in 0..<100 {
            guard port <= 65535 else { return nil }
            if !avoiding.contains(port), isFree(host: host, port: port) { return port }
            port += step
        }
        return nil
    }

    /// One of `ledger dev`'s listeners, and the setting that places it.
    struct Listener {
        var what: String
        var host: String
        var port: Int
        var setting: LedgerEnvironment.Setting
        /// `off` is a value of the setting (the console, the operations listener).
        var canBeOff: Bool
        /// How a free port is looked for: the README's alternates (8090, 8091, 9465).
        var step: Int

        /// `LEDGER_PORT=8090`, `LEDGER_CONSOLE_ADDRESS=127.0.0.1:8091`.
        func assignment(port: Int) -> String {
            setting == .port ? "\(setting.name)=\(port)" : "\(setting.name)=\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// Refuses, in one message, every listener whose address is taken, with the settings
    /// to change and free ports to change them to; the first line says which are taken.
    static func checkListeners(_ listeners: [Listener]) throws {
        var taken: [(listener: Listener, problem: String)] = []
        for listener in listeners {
            if let problem = problem(host: listener.host, port: listener.port) { taken.append((listener, problem)) }
        }
        guard !taken.isEmpty else { return }
        var lines: [String] = []
        var suggested: [String] = []
        var used = Set(listeners.map(\.port))
        for (listener, problem) in taken {
            let name = listener.setting == .port ? "cannot serve on" : "cannot run \(listener.what) on"
            lines.append("\(name) \(listener.host):\(listener.port): \(problem) (\(listener.setting.name))")
            if let port = free(host: listener.host, from: listener.port + listener.step, step: listener.step, avoiding: used) {
                used.insert(port)
                suggested.append(listener.assignment(port: port))
            }
        }
        let offs = taken.filter(\.listener.canBeOff).map(\.listener.setting.name)
        var advice = "Another server is using \(taken.count == 1 ? "it" : "them") (another `ledger dev`, of another data directory or clone?): stop it, or choose "
        advice += taken.count == 1 ? "another address with \(taken[0].listener.setting.name)" : "other addresses with " + taken.map(\.listener.setting.name).joined(separator: ", ")
        if !suggested.isEmpty { advice += ", e.g. `\(suggested.joined(separator: " ")) make run` (free now)" }
        if !offs.isEmpty { advice += "; \(offs.joined(separator: " and ")) also take `off`" }
        advice += ". The database's port needs nothing: with LEDGER_DEV_POSTGRES_PORT unset, a free one is chosen."
        throw DevCommand.DevStartError(message: (lines + [advice]).joined(separator: "\n"))
    }

    /// The file, in the data directory, that remembers the PostgreSQL port chosen for it.
    static let postgresPortFile = "postgres-port"

    /// The default port of the dev cluster.
    static var defaultPostgresPort: Int { Int(LedgerEnvironment.Setting.devPostgresPort.defaultValue ?? "") ?? 54329 }

    /// The port the dev cluster of `dataDirectory` listens on, or is to be started on, and
    /// what to say of the choice (nil when there is nothing to say).
    ///
    /// - LEDGER_DEV_POSTGRES_PORT set: that port; refused when a server of this cluster
    ///   runs on another one, or when it is taken by something else.
    /// - Unset: the port a running server of this cluster listens on; else the port
    ///   remembered for the data directory, else the default, when free; else the next free
    ///   one above the default.
    static func postgresPort(environment: LedgerEnvironment, dataDirectory: String, runningPort: Int?,
                             isFree: (Int) -> Bool = { isFree(host: "127.0.0.1", port: $0) }) throws -> (port: Int, note: String?) {
        let setting = LedgerEnvironment.Setting.devPostgresPort
        if let text = environment.values[setting.name], !text.isEmpty {
            guard let port = Int(text), (1...65535).contains(port) else {
                throw LedgerEnvironment.ConfigurationError(setting: setting, problem: "must be a port number, got \(text)")
            }
            if let running = runningPort, running != port {
                throw DevCommand.DevStartError(message: "the dev PostgreSQL of \(dataDirectory) is running on port \(running), not on \(setting.name)=\(port): unset \(setting.name) (or set it to \(running)), or stop that server first (`ledger pg stop --dir \(dataDirectory)/postgres`)")
            }
            if runningPort == nil, !isFree(port) {
                let alternative = port < 65535 ? (port + 1...min(65535, port + 100)).first(where: isFree) : nil
                throw DevCommand.DevStartError(message: "cannot start the dev PostgreSQL on 127.0.0.1:\(port) (\(setting.name)=\(port)): another server is using the port. Choose another with \(setting.name)\(alternative.map { "=\($0)" } ?? ""), or unset it and `ledger dev` picks a free one")
            }
            return (port, nil)
        }
        if let running = runningPort { return (running, nil) }
        let remembered = (try? String(contentsOfFile: dataDirectory + "/" + postgresPortFile, encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.flatMap { (1...65535).contains($0) ? $0 : nil }
        let preferred = remembered ?? defaultPostgresPort
        if isFree(preferred) { return (preferred, nil) }
        guard let port = (defaultPostgresPort + 1...defaultPostgresPort + 200).first(where: { $0 != preferred && isFree($0) }) else {
            throw DevCommand.DevStartError(message: "cannot start the dev PostgreSQL: port \(preferred) and the 200 above \(defaultPostgresPort) are taken; choose a free one with \(setting.name)")
        }
        return (port, "port \(preferred) is taken (another `ledger dev`?): the dev PostgreSQL uses \(port), remembered in \(dataDirectory)/\(postgresPortFile) (\(setting.name) sets one)")
    }

    /// Remembers the port the data directory's cluster runs on.
    static func rememberPostgresPort(_ port: Int, dataDirectory: String) {
        try? "\(port)\n".write(toFile: dataDirectory + "/" + postgresPortFile, atomically: true, encoding: .utf8)
    }
}
