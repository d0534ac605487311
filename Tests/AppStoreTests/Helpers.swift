import Crypto
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// The code an App Store verification threw, or nil when it passed. (Closures are not
/// inferred as typed-throwing, hence `any Error`; anything but an AppStoreError is a bug.)
func refusal<T>(_ body: () throws -> T) -> AppStoreError.Code? {
    failure(body)?.code
}

/// The error an App Store verification threw, or nil when it passed.
func failure<T>(_ body: () throws -> T) -> AppStoreError? {
    do {
        _ = try body()
        return nil
    } catch let error as AppStoreError {
        return error
    } catch {
        Issue.record("not an AppStoreError: \(error)")
        return AppStoreError(.init("unexpected"), "\(error)")
    }
}

/// `text` with the byte at `offset` replaced by `byte` (ASCII, so still one byte).
func replacingByte(in text: String, at offset: Int, with byte: UInt8) -> String {
    var bytes = Array(text.utf8)
    bytes[offset] = byte
    return String(decoding: bytes, as: UTF8.self)
}

/// The three dot-separated parts of a compact JWS.
func parts(_ jws: String) -> [String] {
    jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
}

/// A header `{"alg":"ES256","x5c":[…]}` with these certificates, in order.
func x5cHeader(_ certificates: [[UInt8]]) -> JSONValue {
    ["alg": "ES256", "x5c": .array(certificates.map { .string(Data($0).base64EncodedString()) })]
}

/// A JWS rebuilt from parts (no re-signing).
func joined(_ parts: [String]) -> String { parts.joined(separator: ".") }

/// The decoded header or payload part as JSON text.
func decodedPart(_ part: String) -> String {
    String(decoding: StrictBase64.decode(part, .url) ?? [], as: UTF8.self)
}

/// A part re-encoded from JSON text.
func encodedPart(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

/// `../shared/testdata/apple` beside the repository (CI copies it there); the tests that
/// need it carry `.needsSharedData`.
enum SharedTestData {
    /// The folder, or a failure saying it is missing.
    static func appleFolder() throws -> String { try SharedData.path("testdata/apple") }

    /// Every real Sandbox file, name → JWS (trimmed); a failure when they are missing,
    /// never an empty list that a loop would pass over.
    static func realSandbox() throws -> [(name: String, jws: String)] {
        let dir = try SharedData.path("testdata/apple/real-sandbox")
        return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".jws") }.sorted().map { name in
            (name, try String(contentsOfFile: dir + "/" + name, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

/// A verifier at an explicit instant (chains checked then rather than at `signedDate`).
func verifier(_ policy: AppStoreEnvironmentPolicy, bundleID: String = "ai.screenrig.app", at instant: Timestamp? = nil) -> AppStoreVerifier {
    var verifier = AppStoreVerifier(policy: policy, bundleID: bundleID)
    verifier.verificationTime = instant
    return verifier
}

/// A production-like policy that trusts `roots` besides G3, so that production's
/// environment rules can be tested with a test CA; the public API cannot make one.
func productionPolicy(trusting roots: [[UInt8]]) -> AppStoreEnvironmentPolicy {
    AppStoreEnvironmentPolicy(isProduction: true, allowedEnvironments: AppStoreEnvironmentPolicy.production.allowedEnvironments,
                              trust: TrustStore(extraRoots: roots))
}

extension Timestamp {
    static func utc(_ year: Int, _ month: Int, _ day: Int) -> Timestamp { Timestamp(year: year, month: month, day: day)! }

    func adding(days: Int64) -> Timestamp { Timestamp(microseconds: microseconds + days * 86_400_000_000)! }
}
