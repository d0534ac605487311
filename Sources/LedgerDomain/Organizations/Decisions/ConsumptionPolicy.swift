/// What an app's configuration says about refund requests (its entry of
/// LEDGER_APPSTORE_API_KEYS): never from the log, so that consent is the operator's
/// statement about the app, not something a notification could carry.
public struct ConsumptionPolicy: Sendable, Hashable {
    /// `consumption_consent`: the app obtains its customers' consent to share consumption
    /// information with Apple. Off by default: without it nothing is sent.
    public var consent: Bool
    /// `consumption_refund_preference`: Apple's `refundPreference` (0 undeclared, 1 grant,
    /// 2 decline, 3 no preference).
    public var refundPreference: Int

    public init(consent: Bool = false, refundPreference: Int = 0) {
        self.consent = consent
        self.refundPreference = refundPreference
    }
}
