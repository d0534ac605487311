import Foundation
import Glibc
import Outbound
import Testing
import TestSupport
import WebhookSigning

/// `ledger webhook listen`, the real binary, sent real requests over libcurl.
@Suite("ledger webhook listen", .bounded)
struct WebhookListenTests {
    static func listen(_ extra: [String] = []) throws -> (LedgerProcess, Int) {
        let process = try LedgerBinary.start(["webhook", "listen", "--port", "0", "--secret", "whsec_test"] + extra)
        var port: Int?
        Poll.until(timeout: 20) {
            guard let line = process.output.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }),
                  let text = line.split(separator: ":").last?.split(separator: "/").first else { return false }
            port = Int(text)
            return port != nil
        }
        return (process, try #require(port, "the listener did not say where it listens: \(process.errors)"))
    }

    static func signed(_ body: String, secret: String = "whsec_test", at t: Int64 = Int64(Date().timeIntervalSince1970),
                       port: Int) -> OutboundRequest {
        OutboundRequest(url: "http://127.0.0.1:\(port)/hooks",
                        headers: [(WebhookSignature.header, WebhookSignature.value(timestamp: t, body: Array(body.utf8), secrets: [secret])),
                                  ("Ledger-Message-Id", "msg_1"), ("Content-Type", "application/json")],
                        body: Array(body.utf8))
    }

    @Test("a signed message is verified, printed and answered 200; a forged, stale or unsigned one is refused with 400")
    func verifies() throws {
        let (process, port) = try Self.listen()
        defer { process.kill(signal: SIGINT); _ = process.wait() }
        let client = OutboundClient(policy: .development)
        defer { client.close() }

        #expect(try client.send(Self.signed(#"{"type":"plan.changed"}"#, port: port)).status == 200)
        #expect(try client.send(Self.signed(#"{"type":"forged"}"#, secret: "whsec_other", port: port)).status == 400)
        #expect(try client.send(Self.signed(#"{"type":"old"}"#, at: Int64(Date().timeIntervalSince1970) - 3_600, port: port)).status == 400)
        #expect(try client.send(OutboundRequest(url: "http://127.0.0.1:\(port)/", body: Array("{}".utf8))).status == 400)
        Poll.until(timeout: 5) { process.output.contains("refused (signature_missing)") }
        let output = process.output
        #expect(output.contains("verified t="))
        #expect(output.contains("message-id=msg_1"))
        #expect(output.contains(#"{"type":"plan.changed"}"#))
        #expect(output.contains("refused (signature_mismatch)"))
        #expect(output.contains("refused (signature_stale)"))
    }

    @Test("--answer 500 makes a receiver that fails, for watching retries")
    func failingReceiver() throws {
        let (process, port) = try Self.listen(["--answer", "500"])
        defer { process.kill(signal: SIGINT); _ = process.wait() }
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        #expect(try client.send(Self.signed("{}", port: port)).status == 500)
    }
}
