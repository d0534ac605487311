extension LedgerEnvironment {
    /// Where the operations listener listens (`/metrics`, `/readyz` in full):
    /// LEDGER_METRICS_ADDRESS, default 127.0.0.1:9464; nil when it is `off`.
    public func metricsAddress() throws -> (host: String, port: Int)? {
        guard let text = string(.metricsAddress), text != "off" else { return nil }
        return try Self.listenerAddress(text, setting: .metricsAddress)
    }

    /// `HOST:PORT` (the host may be an IPv6 literal: the port is after the last colon), or
    /// a configuration error naming `setting`.
    static func listenerAddress(_ text: String, setting: Setting) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
              let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ConfigurationError(setting: setting, problem: "must be HOST:PORT or off, got \(text.debugDescription)")
        }
        return (String(text[..<colon]), port)
    }
}
