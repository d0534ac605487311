import AppStore

extension ServiceContext {
    /// Runs one verification of a signed payload from Apple and counts its outcome, so
    /// that a dashboard tells a wave of forged or expired payloads from a quiet day.
    func verifyingAppStore<T>(_ kind: String, _ verify: () throws(AppStoreError) -> T) throws(AppStoreError) -> T {
        do {
            let verified = try verify()
            appStoreVerifications.increment(labels: ["kind": kind, "outcome": "verified"])
            return verified
        } catch {
            appStoreVerifications.increment(labels: ["kind": kind, "outcome": error.code.rawValue])
            throw error
        }
    }
}
