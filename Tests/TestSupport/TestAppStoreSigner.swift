import AppStore

/// The tests sign with the product's development signer and key.
public typealias TestAppStoreSigner = AppStoreTestSigner
public typealias TestSigningKey = AppStoreSigningKey

extension AppStoreTestSigner {
    /// Signing with a test `authority`'s leaf (by default the shared one); `x5c` is
    /// [leaf, intermediate, root], or [leaf, intermediate] without `includingRoot`.
    public init(authority: TestCertificateAuthority = .shared, bundleID: String = "ai.screenrig.app", includingRoot: Bool = true) {
        self.init(authority: authority.authority, bundleID: bundleID, includingRoot: includingRoot)
    }

    /// Signing as Xcode does: `x5c` is the one self-signed certificate. Payloads name the
    /// `Xcode` environment only if asked: pass `environment: "Xcode"`.
    public init(xcode certificate: TestXcodeCertificate, bundleID: String = "ai.screenrig.app") {
        self.init(key: certificate.key, certificates: [certificate.der], developmentPolicy: certificate.developmentPolicy,
                  bundleID: bundleID)
    }

    /// An Xcode-like signer with the shared self-signed certificate.
    public static var xcode: AppStoreTestSigner { AppStoreTestSigner(xcode: .shared) }
}
