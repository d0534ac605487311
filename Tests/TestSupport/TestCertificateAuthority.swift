import AppStore
import Foundation
import LedgerDomain

/// A certificate authority shaped like Apple's, generated with OpenSSL when made: a root,
/// an intermediate carrying the WWDR mark (OID 1.2.840.113635.100.6.2.1) and a leaf
/// carrying the receipt-signing mark (OID 1.2.840.113635.100.6.11.1), P-256 keys and
/// SHA-256 signatures, with the validity windows asked for. Sign with
/// `TestAppStoreSigner(authority:)`; trust it with `developmentPolicy`.
public final class TestCertificateAuthority: Sendable {
    /// The same authority as the product's type.
    public let authority: AppStoreTestAuthority
    public var rootDER: [UInt8] { authority.rootDER }
    public var intermediateDER: [UInt8] { authority.intermediateDER }
    public var leafDER: [UInt8] { authority.leafDER }
    /// The leaf's private key: it signs the JWS.
    public var leafKey: TestSigningKey { authority.leafKey }
    /// Outside production, trusting this root (and Apple's).
    public var developmentPolicy: AppStoreEnvironmentPolicy { authority.developmentPolicy }

    /// One authority for tests that need no particular one.
    public static let shared = TestCertificateAuthority()

    /// - Parameters:
    ///   - name: the start of each certificate's common name.
    ///   - rootValidity, intermediateValidity, leafValidity: windows; by default around
    ///     the time the authority is made (10, 5 and 1 years back; 20, 15 and 2 ahead).
    ///   - leafHasReceiptSigningOID, intermediateHasWWDROID: false to leave a mark out.
    ///   - leafCurve: the leaf key's group; anything but `P-256` is not ES256.
    ///   - leafIssuedByRoot: the root signs the leaf, so that [leaf, intermediate] is no chain.
    public init(name: String = "Ledger Test", rootValidity: TestValidity? = nil, intermediateValidity: TestValidity? = nil,
                leafValidity: TestValidity? = nil, leafHasReceiptSigningOID: Bool = true, intermediateHasWWDROID: Bool = true,
                leafCurve: String = "P-256", leafIssuedByRoot: Bool = false) {
        func window(_ validity: TestValidity?, _ before: Int, _ after: Int) -> ClosedRange<Int64> {
            let v = validity ?? .around(now: before, after)
            return v.notBeforeSecond...v.notAfterSecond
        }
        authority = AppStoreTestAuthority(name: name, root: window(rootValidity, -10 * 365, 20 * 365),
                                          intermediate: window(intermediateValidity, -5 * 365, 15 * 365),
                                          leaf: window(leafValidity, -365, 2 * 365), leafCurve: leafCurve,
                                          intermediateMarked: intermediateHasWWDROID, leafMarked: leafHasReceiptSigningOID,
                                          leafIssuedByRoot: leafIssuedByRoot)
    }

    static func issue(subject: TestSigningKey, name: String, issuerDER: [UInt8]?, issuer: TestSigningKey,
                      validity: TestValidity, isCA: Bool, marker: String?) -> [UInt8] {
        AppStoreTestAuthority.issue(subject: subject, name: name, issuerDER: issuerDER, issuer: issuer,
                                    notBefore: validity.notBeforeSecond, notAfter: validity.notAfterSecond, isCA: isCA, marker: marker)
    }
}
