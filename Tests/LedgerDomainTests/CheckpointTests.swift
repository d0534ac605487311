import Crypto
import LedgerDomain
import Testing
import TestSupport

/// Signed checkpoints of the log (docs/audit.md), their text and when one is due.
@Suite("Signed checkpoints of the log", .bounded)
struct CheckpointTests {
    static let t0 = Timestamp(iso8601: "2026-12-01T10:00:00Z")!

    static func checkpoint(_ size: Int64, at time: Timestamp = t0) -> LogCheckpoint {
        LogCheckpoint(origin: "ledger.example", size: size, root: Array(repeating: 7, count: 32), head: Array(repeating: 9, count: 32), time: time)
    }

    @Test("the signed text reads back exactly; anything else is refused; the Ed25519 signature checks and a changed byte does not")
    func text() throws {
        let c = Self.checkpoint(1_234)
        #expect(c.text == """
            ledger-checkpoint-v1
            origin ledger.example
            size 1234
            root \(String(repeating: "07", count: 32))
            head \(String(repeating: "09", count: 32))
            time 2026-12-01T10:00:00.000000Z

            """)
        #expect(LogCheckpoint(text: c.text) == c)
        for bad in [c.text.replacingOccurrences(of: "size 1234", with: "size 01234"), c.text + "\n", String(c.text.dropLast()),
                    c.text.replacingOccurrences(of: "origin ledger.example", with: "origin two words"),
                    c.text.replacingOccurrences(of: "root 07", with: "root 7"), c.text.uppercased()] {
            #expect(LogCheckpoint(text: bad) == nil, "\(bad)")
        }
        let key = Ed25519SigningKey()
        let decision = try CheckpointDecider.sign(c, last: nil, publicKey: key.publicKey, sign: key.sign)
        let event = try #require(decision.events.first)
        #expect(event.stream == LogCheckpointSigned.stream && decision.idempotencyKey == "log-checkpoint:1234")
        let signed = LogCheckpointSigned(c, publicKey: key.publicKey, signature: key.sign(Array(c.text.utf8)))
        #expect(signed.signatureIsValid && signed.checkpoint == c && signed.keyID == LogCheckpoint.keyID(key.publicKey))
        var forged = signed
        forged.size = 1_235
        #expect(!forged.signatureIsValid)
        // The key round-trips through its PEM, as `ledger checkpoint-key create` writes it.
        let again = try #require(Ed25519SigningKey(pem: key.privateKeyPEM))
        #expect(again.publicKey == key.publicKey && Ed25519.publicKey(pem: key.publicKeyPEM) == key.publicKey)
        #expect(Ed25519SigningKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") == nil)
    }

    @Test("due every N events or T seconds, the first at once, never for a log that grew only by the last checkpoint; never a size or time going back")
    func due() throws {
        let policy = CheckpointDecider.Policy(events: 100, seconds: 60)
        let last = CheckpointDecider.Last(size: 500, time: Self.t0, position: 501, version: 3)
        let soon = Timestamp(microseconds: Self.t0.microseconds + 10_000_000)!, later = Timestamp(microseconds: Self.t0.microseconds + 61_000_000)!
        #expect(!CheckpointDecider.isDue(size: 0, last: nil, now: soon, policy: policy))
        #expect(CheckpointDecider.isDue(size: 1, last: nil, now: soon, policy: policy))
        #expect(!CheckpointDecider.isDue(size: 501, last: last, now: later, policy: policy), "only the checkpoint itself is new")
        #expect(!CheckpointDecider.isDue(size: 550, last: last, now: soon, policy: policy))
        #expect(CheckpointDecider.isDue(size: 550, last: last, now: later, policy: policy))
        #expect(CheckpointDecider.isDue(size: 600, last: last, now: soon, policy: policy))
        let key = Ed25519SigningKey()
        func code(_ c: LogCheckpoint) -> String? {
            do { _ = try CheckpointDecider.sign(c, last: last, publicKey: key.publicKey, sign: key.sign); return nil } catch { return error.code.rawValue }
        }
        #expect(code(Self.checkpoint(500, at: later)) == "out_of_range", "no new event")
        #expect(code(Self.checkpoint(600, at: Timestamp(microseconds: Self.t0.microseconds - 1)!)) == "out_of_range", "time going back")
        #expect(code(LogCheckpoint(origin: "", size: 600, root: Array(repeating: 0, count: 32), head: Array(repeating: 0, count: 32), time: later)) == "out_of_range")
        let next = try CheckpointDecider.sign(Self.checkpoint(600, at: later), last: last, publicKey: key.publicKey, sign: key.sign)
        #expect(next.expectedVersions[LogCheckpointSigned.stream] == .exactly(3))
    }
}
