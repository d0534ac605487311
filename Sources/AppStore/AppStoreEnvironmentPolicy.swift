/// Which roots are trusted and which App Store environments are accepted (T3).
///
/// Build a policy once and keep it: it parses its roots when made, and the chains it has
/// verified are remembered with it (see `TrustStore`), so every verifier made from the
/// same policy shares that work.
public struct AppStoreEnvironmentPolicy: Sendable {
    /// Whether this is the production policy: only Apple Root CA - G3 is trusted and
    /// `Xcode` payloads are refused.
    public let isProduction: Bool
    /// The `environment` values a payload may name.
    public let allowedEnvironments: Set<String>
    let trust: TrustStore

    /// Production: `Production` and `Sandbox` payloads (App Review and TestFlight buy with
    /// sandbox accounts in production), Apple Root CA - G3 as the only root, `Xcode` never.
    public static let production = AppStoreEnvironmentPolicy(
        isProduction: true, allowedEnvironments: [Environment.production, Environment.sandbox],
        trust: TrustStore(extraRoots: []))

    /// Outside production: `Sandbox` and `Xcode` payloads (T3: `Production` only in
    /// production, so a real purchase never lands in a test ledger); Apple Root CA - G3
    /// plus `extraRoots` (DER: a test CA, Xcode's StoreKit test certificate). A JWS whose
    /// `x5c` is a single self-signed certificate is accepted only when that certificate
    /// is, byte for byte, one of `extraRoots`.
    ///
    /// Entries that are not a DER certificate are left out (trusting less, never more);
    /// check files with `AppStoreRootCertificates.certificates(in:)` first to report them.
    public static func development(extraRoots: [[UInt8]]) -> Self {
        AppStoreEnvironmentPolicy(
            isProduction: false,
            allowedEnvironments: [Environment.sandbox, Environment.xcode],
            trust: TrustStore(extraRoots: extraRoots))
    }

    /// The environment names Apple writes in payloads.
    public enum Environment {
        /// Real purchases.
        public static let production = "Production"
        /// Sandbox accounts: development, TestFlight and App Review.
        public static let sandbox = "Sandbox"
        /// StoreKit testing in Xcode, signed locally by Xcode's own certificate.
        public static let xcode = "Xcode"
    }
}
