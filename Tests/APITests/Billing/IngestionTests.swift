import API
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("Usage ingestion", .bounded)
struct IngestionTests {
    func event(_ id: String, _ project: String = "solo", meter: String = "api_requests", quantity: JSONValue = 1,
               at: String = "2026-11-10T00:00:00Z") -> JSONValue {
        ["id": .string(id), "project_id": .string(project), "meter": .string(meter), "quantity": quantity, "occurred_at": .string(at)]
    }

    func fixture() throws -> (BillingFixture, service: String, project: String) {
        let f = try BillingFixture()
        try f.project("solo")
        return (f, try f.key(for: KeyPrincipal(kind: .service, id: "metering")), try f.key(for: KeyPrincipal(kind: .project, id: "solo")))
    }

    @Test("a batch is recorded once: a repeated id with the same content is a duplicate, counted once")
    func idempotent() throws {
        let (f, service, project) = try fixture()
        defer { f.shutdown() }
        let batch: JSONValue = ["events": [event("u1", quantity: 10), event("u2", quantity: 20), event("u1", quantity: 10)]]
        let first = try f.post("/v1/usage/events", key: service, body: batch)
        #expect(first.status == 200)
        #expect(first.body["accepted"] == 2 && first.body["duplicates"] == 1)
        let again = try f.post("/v1/usage/events", key: service, body: batch)
        #expect(again.body["accepted"] == 0 && again.body["duplicates"] == 3)
        try f.settle()
        #expect(try f.get("/v1/projects/solo/usage?month=2026-11", key: project).body["units"]?["counted"] == 30)
    }

    @Test("the same id with different content is a 409, and nothing of the batch is recorded")
    func conflict() throws {
        let (f, service, _) = try fixture()
        defer { f.shutdown() }
        #expect(try f.post("/v1/usage/events", key: service, body: ["events": [event("u1", quantity: 10)]]).status == 200)
        let head = try f.service.store.log.headPosition()
        let r = try f.post("/v1/usage/events", key: service, body: ["events": [event("new"), event("u1", quantity: 11)]])
        #expect(r.status == 409 && r.body["code"] == "usage_id_conflict")
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("strict validation: every bad event is named, and nothing of the batch is recorded", arguments: [
        ("unknown meter", ["meter": "gpu_seconds"] as [String: JSONValue], "unknown meter"),
        ("negative quantity", ["quantity": -1], "must not be negative"),
        ("non-canonical quantity", ["quantity": "01"], "not a canonical integer"),
        ("far future", ["occurred_at": "2026-11-15T12:06:00Z"], "in the future"),
        ("not an instant", ["occurred_at": "yesterday"], "RFC 3339"),
        ("unknown project", ["project_id": "ghost"], "no project ghost"),
        ("unknown member", ["colour": "red"], "unknown member"),
        ("empty id", ["id": ""], "id must be"),
    ])
    func validation(_ name: String, _ change: [String: JSONValue], _ message: String) throws {
        let (f, service, _) = try fixture()
        defer { f.shutdown() }
        var bad = event("bad").objectValue!
        for (k, v) in change { bad[k] = v }
        let head = try f.service.store.log.headPosition()
        let r = try f.post("/v1/usage/events", key: service, body: ["events": [event("ok"), .object(bad)]])
        #expect(r.status == 422, "\(name)")
        #expect(r.body["code"] == "invalid_usage_batch")
        let errors = r.body["errors"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(errors.count == 1 && errors[0].hasPrefix("events[1]: ") && errors[0].contains(message), "\(name): \(errors)")
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("numbers are plain integers: a fraction or an exponent is malformed JSON, nothing is recorded",
          arguments: ["1.5", "1e3", "1.0", "10E0"])
    func plainIntegers(_ literal: String) throws {
        let (f, service, _) = try fixture()
        defer { f.shutdown() }
        let head = try f.service.store.log.headPosition()
        let text = event("ok").compactText().replacingOccurrences(of: "\"quantity\":1", with: "\"quantity\":\(literal)")
        #expect(text.contains(literal))
        let r = try f.post("/v1/usage/events", key: service, raw: #"{"events":["# + text + "]}")
        #expect(r.status == 400 && r.body["code"] == "malformed_json", "\(literal)")
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("a key given twice is refused, naming it, wherever it is")
    func duplicateKeys() throws {
        let (f, service, _) = try fixture()
        defer { f.shutdown() }
        let head = try f.service.store.log.headPosition()
        let text = event("ok").compactText().replacingOccurrences(of: "{", with: #"{"meter":"api_requests","#)
        let r = try f.post("/v1/usage/events", key: service, raw: #"{"events":["# + text + "]}")
        #expect(r.status == 400 && r.body["code"] == "duplicate_key")
        #expect(r.body["detail"]?.stringValue?.contains("\"meter\"") == true)
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("a closed month, an empty or oversized batch, malformed JSON and a project key are refused")
    func refusals() throws {
        let (f, service, project) = try fixture()
        defer { f.shutdown() }
        _ = try f.closeMonth(.project("solo"), "2026-10")
        var r = try f.post("/v1/usage/events", key: service, body: ["events": [event("late", at: "2026-10-31T00:00:00Z")]])
        #expect(r.status == 422 && r.body["errors"]?[0]?.stringValue?.contains("2026-10 is closed") == true)
        r = try f.post("/v1/usage/events", key: service, body: ["events": []])
        #expect(r.status == 422)
        r = try f.post("/v1/usage/events", key: service, body: ["events": .array((0...1000).map { event("e\($0)") })])
        #expect(r.status == 422 && r.body["detail"]?.stringValue?.contains("1 to 1000") == true)
        let raw = try f.service.client().send(method: "POST", path: "/v1/usage/events",
                                              headers: [("Authorization", "Bearer " + service), ("Content-Type", "application/json")],
                                              body: Array(#"{"events": [}"#.utf8))
        #expect(raw.status == 400)
        #expect(try f.post("/v1/usage/events", key: project, body: ["events": [event("x")]]).status == 403)
        #expect(try f.post("/v1/usage/events", key: nil, body: ["events": [event("x")]]).status == 401)
    }

    @Test("1,000 events in one batch are one append")
    func fullBatch() throws {
        let (f, service, project) = try fixture()
        defer { f.shutdown() }
        let r = try f.post("/v1/usage/events", key: service, body: ["events": .array((0..<1000).map { event("e\($0)", quantity: 3) })])
        #expect(r.status == 200 && r.body["accepted"] == 1000)
        try f.settle()
        #expect(try f.get("/v1/projects/solo/usage?month=2026-11&min_position=\(r.body["position"]!.int64Value!)", key: project)
            .body["units"]?["counted"] == 3000)
    }
}
