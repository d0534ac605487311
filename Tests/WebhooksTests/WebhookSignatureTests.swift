import Crypto
import Foundation
import Testing
import TestSupport
import WebhookSigning

@Suite("Webhook signatures: HMAC-SHA256 over the time and the raw body", .bounded)
struct WebhookSignatureTests {
    static let now: Double = 1_764_547_200

    @Test("a message verifies with either secret during a rotation, and not with another")
    func rotation() throws {
        let body = Array(#"{"id":"msg_1","sequence":1}"#.utf8)
        let header = WebhookSignature.value(timestamp: Int64(Self.now), body: body, secrets: ["whsec_old", "whsec_new"])
        #expect(header.hasPrefix("t=1764547200,v1="))
        #expect(header.components(separatedBy: "v1=").count == 3)
        for secret in ["whsec_old", "whsec_new"] {
            #expect(try WebhookSignature.verify(header, body: body, secret: secret, now: Self.now) == Int64(Self.now))
        }
        #expect(throws: WebhookSignature.Refusal.self) { try WebhookSignature.verify(header, body: body, secret: "whsec_other", now: Self.now) }
    }

    @Test("a changed byte, an old or future time, a missing or malformed header are refused, each with its code")
    func refusals() {
        let body = Array("payload".utf8)
        let header = WebhookSignature.value(timestamp: Int64(Self.now), body: body, secrets: ["s"])
        func code(_ value: String?, body: [UInt8] = Array("payload".utf8), now: Double = Self.now) -> WebhookSignature.Refusal.Code? {
            do { try WebhookSignature.verify(value, body: body, secret: "s", now: now); return nil } catch { return error.code }
        }
        #expect(code(header) == nil)
        for i in body.indices {
            var changed = body
            changed[i] ^= 0x01
            #expect(code(header, body: changed) == .mismatch)
        }
        #expect(code(header, now: Self.now + 301) == .stale)
        #expect(code(header, now: Self.now - 301) == .stale)
        #expect(code(header, now: Self.now + 299) == nil)
        #expect(code(nil) == .missing)
        #expect(code("") == .missing)
        #expect(code("v1=" + String(repeating: "0", count: 64)) == .malformed)
        #expect(code("t=1764547200") == .malformed)
        #expect(code("t=abc,v1=00") == .malformed)
        #expect(code("t=1764547200,t=1764547200,v1=" + String(repeating: "0", count: 64)) == .malformed)
        #expect(code(header + ",v2=whatever") == nil, "unknown schemes are ignored")
        // A signature replayed with a fresh time no longer matches: the time is signed.
        let replayed = header.replacingOccurrences(of: "t=1764547200", with: "t=1764547500")
        #expect(code(replayed, now: Self.now + 300) == .mismatch)
    }

    @Test("Python's hmac module agrees on 300 generated messages, both ways")
    func independentImplementation() throws {
        var cases: [[String: Any]] = []
        try Property.check("webhook signatures against Python", count: 300) { g, seed in
            let secret = "whsec_" + String((0..<Int.random(in: 1...40, using: &g)).map { _ in "abcdefXYZ0123456789_-".randomElement(using: &g)! })
            let body = (0..<Int.random(in: 0...600, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
            let t = Int64.random(in: 1_600_000_000...1_900_000_000, using: &g)
            cases.append(["secret": secret, "t": t, "body": Hex.encode(body), "seed": seed.hex,
                          "ours": WebhookSignature.value(timestamp: t, body: body, secrets: [secret])])
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("sig-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = """
            import hashlib, hmac, json, sys
            out = []
            for c in json.load(open(sys.argv[1])):
                body = bytes.fromhex(c["body"])
                parts = dict(p.split("=", 1) for p in c["ours"].split(","))
                expected = hmac.new(c["secret"].encode(), str(c["t"]).encode() + b"." + body, hashlib.sha256).hexdigest()
                assert parts["t"] == str(c["t"]) and hmac.compare_digest(parts["v1"], expected), c
                out.append("t=%d,v1=%s" % (c["t"], expected))
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let (output, killed) = ProcessWatchdog.bounded(process) { pipe.fileHandleForReading.readDataToEndOfFile() }
        #expect(!killed, "python3 ran past 120 s and was killed")
        #expect(process.terminationStatus == 0, "Python refused one of our signatures")
        let theirs = try #require(try JSONSerialization.jsonObject(with: output) as? [String])
        #expect(theirs.count == cases.count)
        for (c, header) in zip(cases, theirs) {
            let body = Hex.decode(c["body"] as! String)!
            let t = c["t"] as! Int64
            #expect(throws: Never.self) { try WebhookSignature.verify(header, body: body, secret: c["secret"] as! String, now: Double(t)) }
        }
    }
}
