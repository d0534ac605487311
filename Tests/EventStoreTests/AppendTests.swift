import EventStore
import Foundation
import LedgerJSON
import Postgres
import Testing
import TestSupport

@Suite("Appending to the log", .bounded)
struct AppendTests {
    @Test("positions and stream versions are dense and start at 1")
    func positionsAndVersions() throws {
        try withStore { store, _ in
            let a = try store.append(AppendRequest(events: [event("org-1"), event("org-1"), event("org-2")]))
            #expect(a.events.map(\.position) == [1, 2, 3])
            #expect(a.events.map(\.streamVersion) == [1, 2, 1])
            let b = try store.append(AppendRequest(event("org-1")))
            #expect(b.events[0].position == 4)
            #expect(b.events[0].streamVersion == 3)
            let read = try store.log.read(after: 0, limit: 10)
            #expect(read.map(\.position) == [1, 2, 3, 4])
            #expect(try read[0].data() == ["n": 1])
            #expect(try store.log.readStream("org-1").map(\.streamVersion) == [1, 2, 3])
        }
    }

    /// Each appender remembers the versions it wrote while the head is the one it left
    /// (`StreamVersionCache`); another process appending in between must make it ask.
    @Test("two stores appending to the same streams in turn each see the other's versions")
    func twoStoresInTurn() throws {
        try withStore { first, db in
            let second = EventStore(conninfo: db.writerURL)
            defer { second.close() }
            var version: Int64 = 0
            for turn in 0..<12 {
                let store = turn % 3 == 0 ? second : first
                let stale = version == 0 ? ExpectedVersion.noStream : .exactly(version - 1)
                if version > 0 {
                    #expect(throws: AppendError.self, "turn \(turn)") { try store.append(AppendRequest(event("shared"), expected: stale)) }
                }
                let expected = version == 0 ? ExpectedVersion.noStream : .exactly(version)
                let appended = try store.append(AppendRequest(events: [event("shared"), event("other-\(turn % 2)")],
                                                                   expectedVersions: ["shared": expected]))
                version += 1
                #expect(appended.events[0].streamVersion == version, "turn \(turn)")
            }
            #expect(try first.log.readStream("shared").map(\.streamVersion) == Array(1...12))
        }
    }

    @Test("an expected version that does not hold appends nothing")
    func expectedVersionConflict() throws {
        try withStore { store, _ in
            _ = try store.append(AppendRequest(event("org-1"), expected: .noStream))
            #expect(throws: AppendError.self) { try store.append(AppendRequest(event("org-1"), expected: .noStream)) }
            do {
                _ = try store.append(AppendRequest(event("org-1"), expected: .exactly(5)))
                Issue.record("a wrong expected version was accepted")
            } catch let error as AppendError {
                #expect(error.code == .wrongExpectedVersion)
                #expect(error.stream == "org-1")
                #expect(error.actualVersion == 1)
            }
            _ = try store.append(AppendRequest(event("org-1"), expected: .exactly(1)))
            _ = try store.append(AppendRequest(event("org-1"), expected: .streamExists))
            #expect(throws: AppendError.self) { try store.append(AppendRequest(event("org-9"), expected: .streamExists)) }
            #expect(try store.log.headPosition() == 3)
        }
    }

    @Test("an append over several streams is all or nothing")
    func multiStreamAtomicity() throws {
        try withStore { store, _ in
            _ = try store.append(AppendRequest(event("payer-1")))
            let request = AppendRequest(events: [event("payer-1"), event("project-1"), event("project-2")],
                                        expectedVersions: ["payer-1": .exactly(1), "project-1": .noStream, "project-2": .exactly(3)])
            #expect(throws: AppendError.self) { try store.append(request) }
            #expect(try store.log.headPosition() == 1)
            #expect(try store.log.readStream("project-1").isEmpty)
            var fixed = request
            fixed.expectedVersions["project-2"] = .noStream
            let result = try store.append(fixed)
            #expect(result.events.map(\.position) == [2, 3, 4])
            #expect(result.events.map(\.stream) == ["payer-1", "project-1", "project-2"])
        }
    }

    @Test("an expectation may guard a stream the append does not write")
    func guardOnOtherStream() throws {
        try withStore { store, _ in
            _ = try store.append(AppendRequest(event("org-1")))
            let guarded = AppendRequest(events: [event("project-1")], expectedVersions: ["org-1": .exactly(1)])
            _ = try store.append(guarded)
            _ = try store.append(AppendRequest(event("org-1")))
            #expect(throws: AppendError.self) { try store.append(guarded) }
        }
    }

    @Test("the same idempotency key with the same request answers the original result and appends nothing")
    func idempotentReplay() throws {
        try withStore { store, _ in
            let request = AppendRequest(events: [event("org-1", data: ["a": 1]), event("org-2")], idempotencyKey: "req-1")
            let first = try store.append(request)
            #expect(!first.replayed)
            _ = try store.append(AppendRequest(event("org-3")))
            var retry = request
            // A retry carries different metadata (another request id): still the same request.
            retry.events[0].metadata.requestID = "retry"
            let second = try store.append(retry)
            #expect(second.replayed)
            #expect(second.events.map(\.position) == first.events.map(\.position))
            #expect(second.events.map(\.eventID) == first.events.map(\.eventID))
            #expect(try store.log.headPosition() == 3)
        }
    }

    @Test("the same idempotency key with a different request is a conflict")
    func idempotencyConflict() throws {
        try withStore { store, _ in
            _ = try store.append(AppendRequest(event("org-1", data: ["a": 1]), idempotencyKey: "req-1"))
            do {
                _ = try store.append(AppendRequest(event("org-1", data: ["a": 2]), idempotencyKey: "req-1"))
                Issue.record("a different request under the same key was accepted")
            } catch let error as AppendError {
                #expect(error.code == .idempotencyConflict)
            }
            #expect(try store.log.headPosition() == 1)
        }
    }

    @Test("per-event keys: duplicates are reported as recorded, new events are written")
    func perEventKeys() throws {
        try withStore { store, _ in
            let first = try store.append(AppendRequest(events: [event("usage-1", key: "u-1"), event("usage-1", key: "u-2")]))
            let second = try store.append(AppendRequest(events: [event("usage-1", key: "u-2"), event("usage-1", key: "u-3")]))
            #expect(!second.replayed)
            #expect(second.events[0].alreadyRecorded)
            #expect(second.events[0].position == first.events[1].position)
            #expect(!second.events[1].alreadyRecorded)
            #expect(second.events[1].position == 3)
            let third = try store.append(AppendRequest(events: [event("usage-1", key: "u-1")]))
            #expect(third.replayed)
            #expect(try store.log.headPosition() == 3)
            #expect(throws: AppendError.self) {
                try store.append(AppendRequest(events: [event("usage-1", data: ["n": 2], key: "u-1")]))
            }
        }
    }

    @Test("invalid requests are refused before they reach the log", arguments: [
        AppendRequest(events: []),
        AppendRequest(event("bad stream")),
        AppendRequest(event("-leading-dash")),
        AppendRequest(event("org-1", "type with space")),
        AppendRequest(event("org-1", data: "not an object")),
        AppendRequest(event("org-1", data: ["s": .string("nul\u{0}char")])),
        AppendRequest(event("org-1"), idempotencyKey: "has space"),
        AppendRequest(event("org-1"), idempotencyKey: ""),
        AppendRequest(events: [event("org-1", key: "k")], idempotencyKey: "k2"),
        AppendRequest(events: [event("org-1", key: "k"), event("org-1", key: "k")]),
    ])
    func invalidRequests(_ request: AppendRequest) throws {
        try withStore { store, _ in
            do {
                _ = try store.append(request)
                Issue.record("accepted an invalid request")
            } catch let error as AppendError {
                #expect(error.code == .invalidEvent)
            }
            #expect(try store.log.headPosition() == 0)
        }
    }

    @Test("metadata and business time are stored as given")
    func metadataAndTime() throws {
        try withStore { store, _ in
            var e = event("org-1")
            e.metadata = EventMetadata(actor: Actor(.operator, "alice"), requestID: "r-1", causationID: "c-1",
                                       correlationID: "k-1", reason: "demo", extra: ["ticket": "OPS-7"])
            e.occurredAt = Timestamp(iso8601: "2025-03-01T10:00:00.123456Z")
            _ = try store.append(AppendRequest(e))
            let stored = try store.log.read(after: 0, limit: 1)[0]
            #expect(stored.occurredAt == e.occurredAt)
            #expect(stored.recordedAt > stored.occurredAt)
            let metadata = try #require(try stored.metadata())
            #expect(metadata == e.metadata)
        }
    }

    @Test("a correction names an earlier position and only an earlier one")
    func corrections() throws {
        try withStore { store, _ in
            _ = try store.append(AppendRequest(event("project-1", "credit.granted")))
            var correction = event("project-1", "entry.corrected")
            correction.correctsPosition = 1
            let result = try store.append(AppendRequest(correction))
            #expect(try store.log.read(after: 1, limit: 1)[0].correctsPosition == 1)
            correction.correctsPosition = result.position + 5
            #expect(throws: AppendError.self) { try store.append(AppendRequest(correction)) }
        }
    }
}

import LedgerDomain
