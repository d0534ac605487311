import LedgerServices

extension LedgerEnvironment {
    /// LEDGER_DRIFT_CHECK_EVERY (0, off, or at least 10 seconds) and LEDGER_DRIFT_CHECK_SAMPLE
    /// (1 to 1000 accounts).
    public func driftCheckSettings() throws -> ProjectionDriftCheck.Settings {
        let every = try double(.driftCheckEvery)
        guard every == 0 || every >= 10 else {
            throw ConfigurationError(setting: .driftCheckEvery, problem: "must be 0 (off) or at least 10 (seconds), got \(string(.driftCheckEvery) ?? "")")
        }
        let sample = try int(.driftCheckSample)
        guard (1...1_000).contains(sample) else {
            throw ConfigurationError(setting: .driftCheckSample, problem: "must be 1 to 1000 (accounts), got \(sample)")
        }
        return ProjectionDriftCheck.Settings(every: every, sample: sample)
    }
}
