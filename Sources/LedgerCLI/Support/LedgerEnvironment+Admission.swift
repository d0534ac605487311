import LedgerServices

extension LedgerEnvironment {
    /// LEDGER_ADMISSION_LAG_MS (0: off) and LEDGER_ADMISSION_WAIT_MS.
    public func admissionSettings() throws -> AdmissionControl.Settings {
        let lag = try int(.admissionLag)
        guard lag >= 0 && lag <= 60_000 else {
            throw ConfigurationError(setting: .admissionLag, problem: "must be 0 (off) to 60000 (milliseconds), got \(lag)")
        }
        let wait = try int(.admissionWait)
        guard wait >= 100 && wait <= 30_000 else {
            throw ConfigurationError(setting: .admissionWait, problem: "must be 100 to 30000 (milliseconds), got \(wait)")
        }
        return AdmissionControl.Settings(bound: lag == 0 ? nil : .milliseconds(lag), wait: .milliseconds(wait))
    }
}
