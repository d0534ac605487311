import COpenSSL
import Foundation
import LedgerDomain

/// A certificate authority shaped like Apple's, for signing App Store payloads outside
/// Apple: a root, an intermediate carrying the WWDR mark (OID 1.2.840.113635.100.6.2.1)
/// and a leaf carrying the receipt-signing mark (OID 1.2.840.113635.100.6.11.1), P-256
/// keys, SHA-256 signatures.
///
/// `ledger dev` makes one, keeps it in its data directory and trusts its root (outside
/// production only: the production policy trusts Apple Root CA - G3 alone), so that
/// `ledger appstore sign` can make transactions and notifications the local service
/// accepts. Sign with `AppStoreTestSigner(authority:)`.
public struct AppStoreTestAuthority: Sendable {
    public let rootDER: [UInt8]
    public let intermediateDER: [UInt8]
    public let leafDER: [UInt8]
    /// The leaf's private key: it signs the JWS.
    public let leafKey: AppStoreSigningKey
    /// Outside production, trusting this root (and Apple's).
    public let developmentPolicy: AppStoreEnvironmentPolicy

    /// The OIDs Apple marks its certificates with.
    public enum Marker {
        public static let wwdrIntermediate = "1.2.840.113635.100.6.2.1"
        public static let receiptSigning = "1.2.840.113635.100.6.11.1"
    }

    /// A new authority named `name`, valid from 10 years (root), 5 (intermediate) and 1
    /// (leaf) before `now` until 20, 15 and 2 years after.
    public init(name: String = "Ledger Development", now: Date = Date()) {
        let second = Int64(now.timeIntervalSince1970)
        let year: Int64 = 365 * 86_400
        self.init(name: name, root: (second - 10 * year)...(second + 20 * year),
                  intermediate: (second - 5 * year)...(second + 15 * year), leaf: (second - year)...(second + 2 * year))
    }

    /// A new authority with the validity windows given (seconds since the epoch), and
    /// flaws on request, for tests of the verifier's refusals: a leaf key on another
    /// curve, a mark left out, the root signing the leaf (so [leaf, intermediate] is no chain).
    package init(name: String, root: ClosedRange<Int64>, intermediate: ClosedRange<Int64>, leaf: ClosedRange<Int64>,
                 leafCurve: String = "P-256", intermediateMarked: Bool = true, leafMarked: Bool = true,
                 leafIssuedByRoot: Bool = false) {
        let rootKey = AppStoreSigningKey(), intermediateKey = AppStoreSigningKey(), leafKey = AppStoreSigningKey(curve: leafCurve)
        let rootDER = Self.issue(subject: rootKey, name: "\(name) Root CA", issuerDER: nil, issuer: rootKey,
                                 notBefore: root.lowerBound, notAfter: root.upperBound, isCA: true, marker: nil)
        let intermediateDER = Self.issue(subject: intermediateKey, name: "\(name) WWDR Intermediate", issuerDER: rootDER,
                                         issuer: rootKey, notBefore: intermediate.lowerBound, notAfter: intermediate.upperBound,
                                         isCA: true, marker: intermediateMarked ? Marker.wwdrIntermediate : nil)
        let leafDER = Self.issue(subject: leafKey, name: "\(name) Receipt Signing",
                                 issuerDER: leafIssuedByRoot ? rootDER : intermediateDER,
                                 issuer: leafIssuedByRoot ? rootKey : intermediateKey,
                                 notBefore: leaf.lowerBound, notAfter: leaf.upperBound, isCA: false,
                                 marker: leafMarked ? Marker.receiptSigning : nil)
        self.init(rootDER: rootDER, intermediateDER: intermediateDER, leafDER: leafDER, leafKey: leafKey)
    }

    /// An authority from its parts (they are not checked against each other).
    public init(rootDER: [UInt8], intermediateDER: [UInt8], leafDER: [UInt8], leafKey: AppStoreSigningKey) {
        self.rootDER = rootDER
        self.intermediateDER = intermediateDER
        self.leafDER = leafDER
        self.leafKey = leafKey
        developmentPolicy = .development(extraRoots: [rootDER])
    }

    /// Issues a certificate for `subject` named CN=`name`, signed by `issuer` (whose
    /// certificate is `issuerDER`; nil: self-issued), valid between the two instants in
    /// seconds, a CA or not, with the `marker` OID as an extension when given.
    package static func issue(subject: AppStoreSigningKey, name: String, issuerDER: [UInt8]?, issuer: AppStoreSigningKey,
                              notBefore: Int64, notAfter: Int64, isCA: Bool, marker: String?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 8192)
        let serial = Int64.random(in: 1...Int64.max)
        let length = subject.withUnsafeKey { subjectKey in
            issuer.withUnsafeKey { issuerKey in
                out.withUnsafeMutableBufferPointer { buffer in
                    func call(_ issuerPointer: UnsafePointer<UInt8>?, _ issuerLength: Int, _ oid: UnsafePointer<CChar>?) -> Int {
                        ledger_x509_issue(subjectKey, name, issuerPointer, issuerLength, issuerKey, notBefore, notAfter,
                                          serial, isCA ? 1 : 0, oid, buffer.baseAddress, buffer.count)
                    }
                    func withMarker(_ issuerPointer: UnsafePointer<UInt8>?, _ issuerLength: Int) -> Int {
                        guard let marker else { return call(issuerPointer, issuerLength, nil) }
                        return marker.withCString { call(issuerPointer, issuerLength, $0) }
                    }
                    guard let issuerDER else { return withMarker(nil, 0) }
                    return issuerDER.withUnsafeBufferPointer { withMarker($0.baseAddress, $0.count) }
                }
            }
        }
        precondition(length > 0, "OpenSSL could not issue the certificate \(name)")
        return Array(out.prefix(length))
    }
}
