import Crypto
import Foundation

/// The signature of a webhook message, in one header:
///
///     Ledger-Signature: t=1764547200,v1=5257a8…,v1=9f3c1d…
///
/// `t` is the sending time in Unix seconds and each `v1` is the lowercase hex
/// HMAC-SHA256, keyed with a secret's UTF-8 bytes, of `t`, a period and the raw body. The
/// time is inside the signed bytes, so an old message cannot be replayed with a fresh
/// time; a receiver refuses a `t` too far from its clock. While a secret is being rotated
/// the message carries one `v1` per valid secret, and a receiver holding either accepts it.
public enum WebhookSignature {
    public static let header = "Ledger-Signature"
    /// How far `t` may be from the receiver's clock, by default (5 minutes).
    public static let defaultTolerance: Double = 300

    /// Why a message is refused, with a stable code.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Code: String, Sendable {
            case missing = "signature_missing"
            case malformed = "signature_malformed"
            case stale = "signature_stale"
            case mismatch = "signature_mismatch"
        }
        public var code: Code
        public var message: String
        public var description: String { "\(code.rawValue): \(message)" }
    }

    /// The bytes each `v1` covers.
    public static func signedBytes(timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Array("\(timestamp).".utf8) + body
    }

    /// The header's value for `body` sent at `timestamp`, with one `v1` per secret.
    public static func value(timestamp: Int64, body: [UInt8], secrets: [String]) -> String {
        let signed = signedBytes(timestamp: timestamp, body: body)
        return (["t=\(timestamp)"] + secrets.map { "v1=" + Hex.encode(HMAC.sha256(key: Array($0.utf8), data: signed)) })
            .joined(separator: ",")
    }

    /// Checks a received header against the raw body: a `t` within `tolerance` seconds of
    /// `now`, and at least one `v1` made with `secret`. Returns the signed time.
    @discardableResult
    public static func verify(_ value: String?, body: [UInt8], secret: String, now: Double,
                              tolerance: Double = defaultTolerance) throws(Refusal) -> Int64 {
        try verify(value, body: body, secrets: [secret], now: now, tolerance: tolerance)
    }

    /// The same check against several secrets: any `v1` made with any of them verifies, so
    /// that while a secret is rolled both the old and the new one are accepted (Stripe's
    /// `Stripe-Signature` is this scheme, `headerName` naming the header in refusals).
    @discardableResult
    public static func verify(_ value: String?, body: [UInt8], secrets: [String], now: Double,
                              tolerance: Double = defaultTolerance, headerName: String = header) throws(Refusal) -> Int64 {
        guard let value, !value.isEmpty else { throw Refusal(code: .missing, message: "no \(headerName) header") }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw Refusal(code: .malformed, message: "\(part) is not key=value") }
            switch pair[0] {
            case "t":
                guard timestamp == nil, let t = Int64(pair[1]) else { throw Refusal(code: .malformed, message: "t must be one integer") }
                timestamp = t
            case "v1":
                guard pair[1].count == 64, let bytes = Hex.decode(pair[1].lowercased()) else {
                    throw Refusal(code: .malformed, message: "v1 must be 64 hex digits")
                }
                signatures.append(bytes)
            default:
                continue   // later schemes (v2=…) are ignored by a v1 receiver
            }
        }
        guard let timestamp else { throw Refusal(code: .malformed, message: "no t=") }
        guard !signatures.isEmpty else { throw Refusal(code: .malformed, message: "no v1=") }
        guard abs(now - Double(timestamp)) <= tolerance else {
            throw Refusal(code: .stale, message: "t=\(timestamp) is \(Int(abs(now - Double(timestamp)))) s from this clock (tolerance \(Int(tolerance)) s)")
        }
        let signed = signedBytes(timestamp: timestamp, body: body)
        // Every candidate is compared with every secret, so the time taken does not say
        // which one matched.
        var matched = false
        for secret in secrets {
            let expected = HMAC.sha256(key: Array(secret.utf8), data: signed)
            for signature in signatures where constantTimeEquals(signature, expected) { matched = true }
        }
        guard matched else {
            throw Refusal(code: .mismatch, message: "no v1 matches \(secrets.count == 1 ? "this secret" : "any of the \(secrets.count) secrets") and body")
        }
        return timestamp
    }
}
