import AppStore

/// A self-signed P-256 certificate like the one Xcode signs StoreKit test purchases with:
/// an `x5c` of this one certificate, trusted only outside production and only when it is
/// one of the policy's extra roots. Sign with `TestAppStoreSigner(xcode:)`.
public final class TestXcodeCertificate: Sendable {
    public let der: [UInt8]
    public let key: TestSigningKey
    /// Outside production, trusting this certificate (and Apple's root).
    public let developmentPolicy: AppStoreEnvironmentPolicy

    public static let shared = TestXcodeCertificate()

    public init(validity: TestValidity = .around(now: -365, 5 * 365)) {
        let key = TestSigningKey()
        der = TestCertificateAuthority.issue(subject: key, name: "StoreKit Testing in Xcode", issuerDER: nil, issuer: key,
                                             validity: validity, isCA: false, marker: nil)
        self.key = key
        developmentPolicy = .development(extraRoots: [der])
    }
}
