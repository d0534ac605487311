import Foundation
import Testing
import TestSupport
@testable import AppStore

/// Any one-byte change to any real Sandbox payload is refused.
///
/// A dense sample, not every position (each file is up to 18.6 KB and a debug build
/// verifies a few hundred changed notifications a second): per file, every position of
/// the signature part, the 96 bytes around each dot, the first and last 96 of the token,
/// and every 13th position elsewhere from an offset that differs per file, so that
/// together the files cover each residue; each position gets a base64url character, and
/// every seventh a dot, padding or a space instead. The nested transaction and renewal
/// info of one notification are swept the same way as JWS of their own.
@Suite(.needsSharedData, .bounded)
struct RealSandboxByteChangeTests {
    /// The files to sweep; where they are absent (outside CI: the suite is skipped) one
    /// placeholder argument, so that in CI the test runs and fails on the missing data.
    static var files: [String] {
        let names = (try? SharedTestData.realSandbox().map(\.name)) ?? []
        return names.isEmpty ? ["(../shared/testdata/apple/real-sandbox is missing)"] : names
    }

    static func positions(in jws: String, stride: Int, offset: Int) -> [Int] {
        let bytes = Array(jws.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        var chosen = Set<Int>()
        for i in bytes.indices where i % stride == offset % stride { chosen.insert(i) }
        for i in bytes.indices.prefix(96) { chosen.insert(i) }
        for i in bytes.indices.suffix(96) { chosen.insert(i) }
        if let last = dots.last { for i in last..<bytes.count { chosen.insert(i) } }
        for dot in dots { for i in max(0, dot - 48)..<min(bytes.count, dot + 48) { chosen.insert(i) } }
        return chosen.sorted()
    }

    static func change(_ jws: String, at offset: Int) -> String {
        let bytes = Array(jws.utf8)
        let choices = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var replacement = offset % 7 == 3 ? Array(".= ".utf8)[offset % 3] : choices[(offset * 31 + 7) % choices.count]
        if replacement == bytes[offset] { replacement = choices[(offset * 31 + 8) % choices.count] }
        return replacingByte(in: jws, at: offset, with: replacement)
    }

    @Test(arguments: files) func aChangedByteIsRefused(file: String) throws {
        let jws = try #require(SharedTestData.realSandbox().first { $0.name == file }).jws
        let bundle = file.hasPrefix("notif_") ? RealSandboxTests.notificationBundle : RealSandboxTests.transactionBundle
        let verifier = AppStoreVerifier(policy: .production, bundleID: bundle)
        #expect(refusal { try verifier.verifyAny(jws, expectedEnvironment: nil) } == nil)
        let index = Self.files.firstIndex(of: file) ?? 0
        let positions = Self.positions(in: jws, stride: 13, offset: index)
        for offset in positions {
            let changed = Self.change(jws, at: offset)
            #expect(refusal { try verifier.verifyAny(changed, expectedEnvironment: nil) } != nil, "\(file): offset \(offset) accepted")
        }
    }

    @Test func aChangedByteInANestedJWSIsRefused() throws {
        let jws = try #require(SharedTestData.realSandbox().first { $0.name.hasPrefix("notif_DID_RENEW") }).jws
        let verifier = AppStoreVerifier(policy: .production, bundleID: RealSandboxTests.notificationBundle)
        let notification = try verifier.verifyNotification(jws)
        let data = try #require(notification.payload["data"])
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            let nested = try #require(data[key]?.stringValue)
            #expect(refusal { try verifier.verifyAny(nested, expectedEnvironment: nil) } == nil)
            for offset in Self.positions(in: nested, stride: 5, offset: 0) {
                let changed = Self.change(nested, at: offset)
                #expect(refusal { try verifier.verifyAny(changed, expectedEnvironment: nil) } != nil, "\(key): offset \(offset) accepted")
            }
        }
    }
}
