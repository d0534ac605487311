import API
import HTTP
import Observability

extension SideListener {
    /// The operations listener of `ledger serve` (LEDGER_METRICS_ADDRESS): `/metrics` and
    /// `/readyz` with the log's positions and the replicas, which the public port no longer
    /// shows (docs/security.md, "Health without the map"); nil when it is `off`.
    static func operations(environment: LedgerEnvironment, context: ServiceContext, publicConfiguration: HTTPServerConfiguration,
                           consoleAddress: (host: String, port: Int)?, logger: Logger) throws -> SideListener? {
        guard let address = try environment.metricsAddress() else {
            logger.info("no operations listener (LEDGER_METRICS_ADDRESS is off): no /metrics, and readiness only as the public /readyz says it")
            return nil
        }
        if address.host == publicConfiguration.host, address.port == publicConfiguration.port, address.port != 0 {
            throw LedgerEnvironment.ConfigurationError(setting: .metricsAddress,
                problem: "is the public address (\(address.host):\(address.port)): the metrics and the log's positions never go on the public port")
        }
        if let consoleAddress, consoleAddress.host == address.host, consoleAddress.port == address.port, address.port != 0 {
            throw LedgerEnvironment.ConfigurationError(setting: .metricsAddress,
                problem: "is the console's address (\(address.host):\(address.port), LEDGER_CONSOLE_ADDRESS): give each listener its own")
        }
        // Every route is inline (answered by the event loop from memory): two request
        // threads are for what the router answers itself, a 404 say.
        let configuration = configuration(from: publicConfiguration, host: address.host, port: address.port, threads: 2)
        let server = HTTPServer(configuration: configuration, router: LedgerAPI.operationsRouter(context), logger: logger)
        return SideListener(name: "operations", server: server, host: address.host, setting: .metricsAddress,
                            explicit: environment.values[LedgerEnvironment.Setting.metricsAddress.name].map { !$0.isEmpty } ?? false)
    }
}
