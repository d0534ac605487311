extension Duration {
    /// The duration in seconds, as a `Double`: what metrics, logs, `Retry-After` and pauses
    /// are written in.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
