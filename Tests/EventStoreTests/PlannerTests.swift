@testable import EventStore
import TestSupport
import Crypto
import Foundation
import LedgerDomain
import LedgerJSON
import Testing

/// The planner decides outcomes without a database, so it can be checked against a
/// reference model over many generated batches.
@Suite("Append planning", .bounded)
struct PlannerTests {
    /// The model: what a log that applies appends one at a time would answer.
    struct Model {
        var versions: [String: Int64] = [:]
        var head: Int64 = 0
        var keys: [String: (hash: String, position: Int64, count: Int)] = [:]

        enum Answer: Equatable {
            case appended([Int64])
            case replayOf(Int64)
            case conflict
            case wrongVersion
        }

        mutating func apply(_ r: AppendRequest) -> Answer {
            let hash = "\(r.events.map { "\($0.stream)|\($0.data)" })|\(r.expectedVersions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
            if let key = r.idempotencyKey, let known = keys[key] {
                return known.hash == hash ? .replayOf(known.position) : .conflict
            }
            for (stream, expected) in r.expectedVersions {
                let v = versions[stream] ?? 0
                let ok: Bool
                switch expected {
                case .any: ok = true
                case .noStream: ok = v == 0
                case .streamExists: ok = v > 0
                case .exactly(let e): ok = v == e
                }
                if !ok { return .wrongVersion }
            }
            var positions: [Int64] = []
            for e in r.events {
                head += 1
                versions[e.stream, default: 0] += 1
                positions.append(head)
            }
            if let key = r.idempotencyKey { keys[key] = (hash, positions[0], r.events.count) }
            return .appended(positions)
        }
    }

    @Test("outcomes match a one-at-a-time reference model over generated batches")
    func matchesModel() throws {
        for seed in 0..<200 as Range<UInt64> {
            var random = SeededRandom(seed: seed)
            var model = Model()
            var planner = AppendPlanner(headPosition: 0, headHash: HashChain.genesis,
                                        recordedAt: Timestamp(microseconds: 1_700_000_000_000_000)!, versions: [:], keys: [:])
            for _ in 0..<40 {
                let request = Self.request(&random)
                let expected = model.apply(request)
                let prepared = try PreparedAppend(request)
                let outcome = planner.plan(prepared)
                switch (expected, outcome) {
                case (.appended(let positions), .appended(let result)):
                    #expect(result.events.map(\.position) == positions, "seed \(seed)")
                case (.replayOf(let first), .replay(let p, let count)):
                    #expect(p == first && count == request.events.count, "seed \(seed)")
                case (.conflict, .failed(let e)):
                    #expect(e.code == .idempotencyConflict, "seed \(seed)")
                case (.wrongVersion, .failed(let e)):
                    #expect(e.code == .wrongExpectedVersion, "seed \(seed)")
                default:
                    Issue.record("seed \(seed): model says \(expected), planner says \(outcome)")
                }
            }
            // The rows form one chain from the genesis hash.
            var previous = HashChain.genesis
            for (i, row) in planner.rows.enumerated() {
                let t = row.texts
                #expect(t.position == Int64(i + 1))
                #expect(row.prevHash == previous)
                // The appender's pre-rendered texts hash like the public fields verify uses.
                let fields = HashChain.Fields(position: t.position, eventID: row.eventID, stream: t.stream,
                    streamVersion: t.streamVersion, type: t.type, occurredAt: row.occurredAt, recordedAt: planner.recordedAt,
                    correctsPosition: t.correctsPosition, idempotencyKey: t.idempotencyKey, dataText: t.dataText,
                    metadataText: t.metadataText)
                #expect(row.hash == HashChain.hash(previous: previous, fields: fields))
                previous = row.hash
            }
        }
    }

    static func request(_ random: inout SeededRandom) -> AppendRequest {
        let streams = ["a", "b", "c"]
        let events = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            event(streams.randomElement(using: &random)!, data: ["v": .integer(Int64.random(in: 0...1, using: &random))])
        }
        var expected: [String: ExpectedVersion] = [:]
        if Bool.random(using: &random) {
            let options: [ExpectedVersion] = [.any, .noStream, .streamExists, .exactly(Int64.random(in: 0...4, using: &random))]
            expected[streams.randomElement(using: &random)!] = options.randomElement(using: &random)!
        }
        let key = Int.random(in: 0..<3, using: &random) == 0 ? "k\(Int.random(in: 0..<4, using: &random))" : nil
        return AppendRequest(events: events, expectedVersions: expected, idempotencyKey: key)
    }
}

@Suite("Event ids", .bounded)
struct EventIDTests {
    @Test("generated event ids are random version-4 UUIDs, rendered as PostgreSQL prints them")
    func uuids() {
        var seen = Set<UUID>()
        for _ in 0..<10_000 {
            let id = SecureRandom.uuid()
            #expect(seen.insert(id).inserted)
            let text = id.lowercaseText
            #expect(text == id.uuidString.lowercased())
            #expect(Array(text)[14] == "4")
            #expect("89ab".contains(Array(text)[19]))
        }
    }
}
