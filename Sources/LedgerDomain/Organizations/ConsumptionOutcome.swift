/// How the ledger answered a refund request (`appstore.consumption_answered`), once per
/// request (docs/appstore.md, "Refund requests").
public enum ConsumptionOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple took the consumption information (202).
    case sent
    /// Nothing was sent, by decision: the app's configuration gives no consent, or the
    /// request names no organization of the ledger (`reason` says which).
    case declined
    /// Twelve hours passed before it could be sent: Apple decides without it.
    case expired
    /// Apple refused it with a 4xx that sending again cannot fix (`reason`: Apple's code).
    case failed
}

/// Why a refund request was answered as it was: stable words, for scripts and dashboards.
public enum ConsumptionReason {
    /// The app's keys-file entry does not say the customers consented (`consumption_consent`).
    public static let noConsent = "no_consent"
    /// The transaction's account token names no organization of the ledger: nothing it
    /// could declare is known.
    public static let noOrganization = "no_organization"
    /// The answer was due by `respond_by`.
    public static let pastRespondBy = "past_respond_by"
    /// Apple took it.
    public static let accepted = "accepted"
}
