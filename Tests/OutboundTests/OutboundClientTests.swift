import Crypto
import Dispatch
import Foundation
import Outbound
import Synchronization
import Testing
import TestSupport

/// libcurl behind `OutboundClient`: answers, failures and refusals, against a real
/// receiver on loopback.
@Suite("Outbound HTTP over libcurl", .bounded)
struct OutboundClientTests {
    @Test("a POST reaches the receiver with its headers and body; the answer's status, digest, length and time come back")
    func post() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        let response = try client.send(OutboundRequest(url: receiver.url("/ok"), headers: [("X-Test", "1"), ("Content-Type", "application/json")],
                                                       body: Array(#"{"a":1}"#.utf8)))
        #expect(response.status == 200)
        #expect(response.bodySHA256 == Hex.encode(SHA256.hash(Array("thanks".utf8))))
        #expect(response.bodyBytes == 6)
        #expect(response.latency > 0)
        #expect(response.remoteAddress == "127.0.0.1")
        let got = try #require(receiver.received.first)
        #expect(got.body == Array(#"{"a":1}"#.utf8))
        #expect(got.headers["X-Test"] == "1")
        #expect(got.headers["Expect"] == nil)

        #expect(try client.send(OutboundRequest(url: receiver.url("/fail"))).status == 500)
        let redirect = try client.send(OutboundRequest(url: receiver.url("/redirect")))
        #expect(redirect.status == 302, "a redirect is an answer, never followed")
        #expect(receiver.received.map(\.path) == ["/ok", "/fail", "/redirect"])
    }

    @Test("a long answer is hashed whole, across every piece libcurl hands over")
    func longAnswerDigest() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        let response = try client.send(OutboundRequest(url: receiver.url("/long")))
        #expect(response.status == 200)
        #expect(response.bodyBytes == Receiver.longAnswer.count)
        #expect(response.bodySHA256 == Hex.encode(SHA256.hash(Receiver.longAnswer)))
    }

    @Test("production refuses plain http, and loopback, private and link-local addresses at connect time")
    func productionRefusals() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let client = OutboundClient(policy: .production)
        defer { client.close() }
        func refusal(_ url: String) -> OutboundError.Code? {
            do { _ = try client.send(OutboundRequest(url: url, timeout: 3)); return nil } catch { return error.code }
        }
        #expect(refusal(receiver.url("/ok")) == .refusedURL)
        #expect(refusal(receiver.url("/ok", scheme: "https")) == .refusedAddress)
        #expect(refusal(receiver.url("/ok", scheme: "https", host: "localhost")) == .refusedAddress)
        #expect(refusal(receiver.url("/ok", scheme: "https", host: "[::ffff:127.0.0.1]")) == .refusedAddress)
        #expect(refusal("https://169.254.169.254/latest/meta-data/") == .refusedAddress)
        #expect(refusal("https://10.0.0.1/") == .refusedAddress)
        #expect(refusal("https://user:pw@example.com/") == .refusedURL)
        #expect(refusal("ftp://example.com/") == .refusedURL)
        #expect(refusal("not a url") == .refusedURL)
        #expect(receiver.received.isEmpty, "nothing reached the receiver")

        // Development allows loopback over http, but nothing else over http.
        let development = OutboundClient(policy: .development)
        defer { development.close() }
        do {
            _ = try development.send(OutboundRequest(url: "http://10.0.0.1/", timeout: 3))
            Issue.record("http to a private address was sent")
        } catch {
            #expect(error.code == .refusedAddress)
        }
    }

    @Test("a receiver that hangs times out without delaying the others; one that closes at once fails")
    func slowAndBrokenReceivers() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let silent = try RawListener(.silent)
        defer { silent.stop() }
        let closing = try RawListener(.closeAtOnce)
        defer { closing.stop() }
        let client = OutboundClient(policy: .development)
        defer { client.close() }

        let hung = Mutex<Result<OutboundResponse, OutboundError>?>(nil)
        let hungDone = DispatchSemaphore(value: 0)
        client.submit(OutboundRequest(url: receiver.url("/slow"), timeout: 8)) { r in hung.withLock { $0 = r }; hungDone.signal() }
        client.submit(OutboundRequest(url: "http://127.0.0.1:\(silent.port)/", timeout: 8)) { _ in }
        // While both hang, forty quick ones are answered: all of them before the hung one
        // has ended (by its timeout), which is an order, not a speed.
        let answered = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<40 {
            group.enter()
            client.submit(OutboundRequest(url: receiver.url("/ok"))) { r in
                if case .success(let response) = r, response.status == 200 { answered.add(1, ordering: .relaxed) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success, "the quick requests were not all answered")
        #expect(hung.withLock { $0 } == nil, "the hung request ended before the quick ones were all answered")
        #expect(answered.load(ordering: .relaxed) == 40)
        #expect(hungDone.wait(timeout: .now() + 60) == .success, "the hung request never ended")
        let hungCode: OutboundError.Code? = hung.withLock { result in
            if case .failure(let error)? = result { return error.code }
            return nil
        }
        #expect(hungCode == .timedOut)

        do {
            _ = try client.send(OutboundRequest(url: "http://127.0.0.1:\(silent.port)/", timeout: 0.5))
            Issue.record("a silent receiver answered")
        } catch { #expect(error.code == .timedOut) }
        do {
            _ = try client.send(OutboundRequest(url: "http://127.0.0.1:\(closing.port)/", timeout: 3))
            Issue.record("a receiver that closed at once answered")
        } catch { #expect(error.code == .connectionFailed) }
    }

    @Test("an answer over 1 MiB is cut off; close() fails what has not started")
    func limits() throws {
        let receiver = try Receiver()
        defer { receiver.stop() }
        let client = OutboundClient(policy: .development)
        do {
            _ = try client.send(OutboundRequest(url: receiver.url("/big")))
            Issue.record("a 2 MiB answer was read")
        } catch { #expect(error.code == .answerTooLarge) }
        client.close()
        do {
            _ = try client.send(OutboundRequest(url: receiver.url("/ok")))
            Issue.record("a closed client sent")
        } catch { #expect(error.code == .closed) }
    }
}
