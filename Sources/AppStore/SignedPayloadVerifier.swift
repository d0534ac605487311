#if canImport(Glibc)
import Crypto
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LedgerDomain
import LedgerJSON

/// The JWS half of verification (docs/appstore.md): three base64url parts, `alg`
/// exactly `ES256`, an `x5c` chain from the leaf through the intermediate to a trusted
/// root with Apple's marks, valid at the payload's `signedDate`, and an ES256 signature
/// over `header.payload` by the leaf's P-256 key. What the payload says is checked by
/// `AppStoreVerifier`.
struct SignedPayloadVerifier: Sendable {
    let trust: TrustStore
    /// Whether a single self-signed certificate from the extra roots may sign (never in production).
    let allowsSelfSigned: Bool
    /// Checks chains at this instant instead of each payload's `signedDate` (tests).
    let verificationTime: Timestamp?

    /// Header and payload: strict JSON, a repeated key refused so that no two readers can
    /// see different values in one signed text.
    static let jsonOptions = JSONParseOptions(duplicateKeys: .reject)

    func verify(_ jws: String) throws(AppStoreError) -> SignedPayload {
        let result = jws.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(AppStoreError) -> SignedPayload in try verify(bytes: bytes) }
        }
        if let result { return try result.get() }
        return try Array(jws.utf8).withUnsafeBufferPointer { bytes in
            Result { () throws(AppStoreError) -> SignedPayload in try verify(bytes: bytes) }
        }.get()
    }

    /// Where the two dots of a compact JWS are; nil unless there are exactly two.
    static func dots(in input: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        guard let base = input.baseAddress else { return nil }
        func find(from start: Int) -> Int? {
            guard start <= input.count, let hit = memchr(base + start, Int32(UInt8(ascii: ".")), input.count - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        guard let first = find(from: 0), let second = find(from: first + 1), find(from: second + 1) == nil else { return nil }
        return (first, second)
    }

    private func verify(bytes input: UnsafeBufferPointer<UInt8>) throws(AppStoreError) -> SignedPayload {
        guard !input.isEmpty else { throw AppStoreError(.malformedJWS, "the JWS is empty") }
        guard let (firstDot, secondDot) = Self.dots(in: input) else {
            throw AppStoreError(.malformedJWS, "a JWS is three base64url parts separated by two dots")
        }
        let headerPart = UnsafeBufferPointer(rebasing: input[..<firstDot])
        let payloadPart = UnsafeBufferPointer(rebasing: input[(firstDot + 1)..<secondDot])
        let signaturePart = UnsafeBufferPointer(rebasing: input[(secondDot + 1)...])

        let certificates = try headerCertificates(headerPart)
        let (payload, signedDate) = try decodePayload(payloadPart)
        let instant = verificationTime ?? signedDate
        let chain = try verifiedChain(certificates, atMilliseconds: instant.microseconds.dividedRoundingDown(by: 1000))
        guard let signature = StrictBase64.decode(signaturePart, .url) else {
            throw AppStoreError(.malformedJWS, "the signature part is not unpadded base64url")
        }
        guard signature.count == 64 else {
            throw AppStoreError(.badSignature, "an ES256 signature is 64 bytes (r‖s), this one is \(signature.count)")
        }
        let signingInput = UnsafeBufferPointer(rebasing: input[..<secondDot])
        guard chain.verifySignature(message: signingInput, signature: signature) else {
            throw AppStoreError(.badSignature, "the ES256 signature does not verify over header.payload with the leaf's key")
        }
        return SignedPayload(payload: payload, signedDate: signedDate, isSelfSigned: certificates.count == 1)
    }

    /// The DER certificates of `x5c` that matter: [leaf, intermediate], or [certificate]
    /// for an Xcode JWS. A root sent in third place is ignored: only configured roots are
    /// trusted, never one because the token carries it.
    private func headerCertificates(_ part: UnsafeBufferPointer<UInt8>) throws(AppStoreError) -> [[UInt8]] {
        if let known = HeaderCache.shared.certificates(forHeader: part) { return known }
        let certificates = try decodeHeader(part)
        HeaderCache.shared.insert(header: part, certificates: certificates)
        return certificates
    }

    private func decodeHeader(_ part: UnsafeBufferPointer<UInt8>) throws(AppStoreError) -> [[UInt8]] {
        guard let bytes = StrictBase64.decode(part, .url) else {
            throw AppStoreError(.malformedJWS, "the header is not unpadded base64url")
        }
        let header: JSONValue
        do { header = try JSONValue.parse(bytes, options: Self.jsonOptions) } catch {
            throw AppStoreError(.malformedJWS, "the header is not JSON: \(error)")
        }
        guard case .object(let members) = header else { throw AppStoreError(.malformedJWS, "the header is not a JSON object") }
        guard let alg = members["alg"] else { throw AppStoreError(.unsupportedAlgorithm, "the header names no alg; only ES256 is accepted") }
        guard alg.stringValue == "ES256" else {
            throw AppStoreError(.unsupportedAlgorithm, "alg is \(alg.compactText()); only ES256 is accepted")
        }
        // RFC 7515 §4.1.11: extensions a recipient does not understand must be refused.
        guard members["crit"] == nil else {
            throw AppStoreError(.unsupportedAlgorithm, "the header has critical parameters (crit), which are not supported")
        }
        guard let x5c = members["x5c"], x5c != .null else { throw AppStoreError(.missingCertificates, "the header has no x5c") }
        guard case .array(let items) = x5c else { throw AppStoreError(.malformedJWS, "x5c is not an array") }
        guard !items.isEmpty else { throw AppStoreError(.missingCertificates, "x5c is empty") }
        guard items.count <= 3 else {
            throw AppStoreError(.untrustedChain, "x5c holds \(items.count) certificates; expected the leaf, the intermediate and optionally the root")
        }
        var certificates: [[UInt8]] = []
        for (index, item) in items.prefix(2).enumerated() {
            guard let text = item.stringValue, let der = StrictBase64.decode(text, .standard), !der.isEmpty else {
                throw AppStoreError(.malformedJWS, "x5c[\(index)] is not a base64 certificate")
            }
            certificates.append(der)
        }
        return certificates
    }

    private func decodePayload(_ part: UnsafeBufferPointer<UInt8>) throws(AppStoreError) -> (JSONValue, Timestamp) {
        guard let bytes = StrictBase64.decode(part, .url) else {
            throw AppStoreError(.malformedJWS, "the payload part is not unpadded base64url")
        }
        let payload: JSONValue
        do { payload = try JSONValue.parse(bytes, options: Self.jsonOptions) } catch {
            throw AppStoreError(.malformedPayload, "the payload is not JSON: \(error)")
        }
        guard case .object = payload else { throw AppStoreError(.malformedPayload, "the payload is not a JSON object") }
        guard let milliseconds = payload["signedDate"]?.int64Value, let signedDate = Timestamp(milliseconds: milliseconds) else {
            throw AppStoreError(.malformedPayload, "signedDate is missing or not a whole number of milliseconds since 1970")
        }
        return (payload, signedDate)
    }

    /// The chain of `certificates`, from the cache or verified now, once each of its
    /// certificates is known to be valid at `milliseconds`.
    private func verifiedChain(_ certificates: [[UInt8]], atMilliseconds milliseconds: Int64) throws(AppStoreError) -> VerifiedChain {
        let key = ChainCache.Key(leaf: certificates[0], intermediate: certificates.count > 1 ? certificates[1] : [])
        if certificates.count == 1, !allowsSelfSigned {
            throw AppStoreError(.untrustedChain, "x5c holds a single certificate (an Xcode JWS), which production never trusts")
        }
        let chain: VerifiedChain
        if let cached = trust.chains.chain(for: key) {
            chain = cached
        } else {
            chain = try certificates.count == 1
                ? verifySelfSigned(certificates[0], atMilliseconds: milliseconds)
                : verifyChain(leaf: certificates[0], intermediate: certificates[1], atMilliseconds: milliseconds)
            trust.chains.insert(chain, for: key)
        }
        if let window = chain.firstInvalidWindow(atMilliseconds: milliseconds) {
            throw Self.notValid(window.role, window.notBefore, window.notAfter, milliseconds)
        }
        return chain
    }

    private func verifyChain(leaf leafDER: [UInt8], intermediate intermediateDER: [UInt8], atMilliseconds milliseconds: Int64) throws(AppStoreError) -> VerifiedChain {
        guard let leaf = Certificate(der: leafDER) else { throw AppStoreError(.malformedJWS, "x5c[0] is not a DER certificate") }
        guard let intermediate = Certificate(der: intermediateDER) else {
            throw AppStoreError(.malformedJWS, "x5c[1] is not a DER certificate")
        }
        guard leaf.hasP256Key else { throw AppStoreError(.unsupportedAlgorithm, "the leaf's key is not an EC key on P-256, as ES256 needs") }
        // Checked here although X509_verify_cert checks it too, to name the certificate.
        for (role, certificate) in [("leaf", leaf), ("intermediate", intermediate)] where !certificate.isValid(atMilliseconds: milliseconds) {
            throw Self.notValid(role, certificate.notBefore, certificate.notAfter, milliseconds)
        }
        let rootWindow: VerifiedChain.Window
        switch trust.verify(leaf: leaf, intermediate: intermediate, atSecond: milliseconds.dividedRoundingDown(by: 1000)) {
        case .valid(let notBefore, let notAfter):
            rootWindow = VerifiedChain.Window(role: "root", notBefore: notBefore, notAfter: notAfter)
        case .notValidAtTime(let reason):
            throw AppStoreError(.certificateNotValidAtSignedDate, "the chain is not valid at \(Self.instant(milliseconds)): \(reason)")
        case .untrusted(let reason):
            throw AppStoreError(.untrustedChain, "the chain does not lead to a trusted root: \(reason)")
        }
        guard leaf.hasExtension(Certificate.receiptSigningOID) else {
            throw AppStoreError(.missingReceiptSigningOID, "the leaf lacks Apple's receipt-signing mark \(Certificate.receiptSigningOID)")
        }
        guard intermediate.hasExtension(Certificate.wwdrOID) else {
            throw AppStoreError(.missingWWDROID, "the intermediate lacks Apple's WWDR mark \(Certificate.wwdrOID)")
        }
        return VerifiedChain(leaf: leaf, windows: [
            VerifiedChain.Window(role: "leaf", notBefore: leaf.notBefore, notAfter: leaf.notAfter),
            VerifiedChain.Window(role: "intermediate", notBefore: intermediate.notBefore, notAfter: intermediate.notAfter),
            rootWindow,
        ])
    }

    /// An Xcode JWS: its one certificate must be, byte for byte, a configured extra root.
    /// Apple's marks are not looked for: Xcode's StoreKit test certificate has none.
    private func verifySelfSigned(_ der: [UInt8], atMilliseconds milliseconds: Int64) throws(AppStoreError) -> VerifiedChain {
        guard let certificate = trust.extraRoot(matching: der) else {
            throw AppStoreError(.untrustedChain, "x5c holds a single certificate that is not one of the configured extra roots")
        }
        guard certificate.isSelfSigned else {
            throw AppStoreError(.untrustedChain, "x5c holds a single certificate that is not self-signed")
        }
        guard certificate.hasP256Key else {
            throw AppStoreError(.unsupportedAlgorithm, "the certificate's key is not an EC key on P-256, as ES256 needs")
        }
        return VerifiedChain(leaf: certificate, windows: [
            VerifiedChain.Window(role: "self-signed", notBefore: certificate.notBefore, notAfter: certificate.notAfter),
        ])
    }

    private static func notValid(_ role: String, _ notBefore: Int64, _ notAfter: Int64, _ milliseconds: Int64) -> AppStoreError {
        AppStoreError(.certificateNotValidAtSignedDate,
            "the \(role) certificate is valid from \(instant(notBefore * 1000)) until \(instant(notAfter * 1000)), not at \(instant(milliseconds))")
    }

    private static func instant(_ milliseconds: Int64) -> String {
        Timestamp(milliseconds: milliseconds).map { $0.description } ?? "\(milliseconds) ms"
    }
}
