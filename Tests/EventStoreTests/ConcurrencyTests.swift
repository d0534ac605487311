import Dispatch
import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport
import Threads

@Suite("Concurrent appends", .bounded)
struct ConcurrencyTests {
    /// Sixteen writers, each a process-like store with its own appender and connection, so
    /// their transactions really compete for the append lock; a quarter of the
    /// transactions abort after inserting. A reader tails the log the whole time.
    @Test("16 writers with aborted transactions: positions 1…N without a hole, and a tailing reader never skips")
    func gaplessUnderContention() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let writers = 16
        let appendsPerWriter = 60
        let succeeded = Mutex<[UUID: Int64]>([:])
        let failed = Mutex<Set<UUID>>([])
        let writing = Atomic<Int>(writers)
        let seen = Mutex<[Int64]>([])
        let readerError = Mutex<String?>(nil)

        let readerDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { readerDone.signal() }
            do {
                let connection = try PostgresConnection(conninfo: db.writerURL)
                var last: Int64 = 0
                while true {
                    let done = writing.load(ordering: .acquiring) == 0
                    let events = try LogReader(connection).read(after: last, limit: 200)
                    for e in events {
                        if e.position != last + 1 {
                            readerError.withLock { $0 = "reader saw \(e.position) right after \(last)" }
                            return
                        }
                        last = e.position
                        seen.withLock { $0.append(e.position) }
                    }
                    if done && events.isEmpty { return }
                }
            } catch {
                readerError.withLock { $0 = "\(error)" }
            }
        }
        reader.start()

        ThreadGroup.run(writers, name: "test-writer") { w in
            var random = SeededRandom(seed: UInt64(w))
            // Seeded too: which commits abort follows the writer's seed (the interleaving does not).
            let faults = Mutex(SeededRandom(seed: UInt64(w) &+ 0xFA_0175))
            let store = EventStore(conninfo: db.writerURL, faults: AppendFaults(abortAfterInsert: {
                faults.withLock { $0.int(0...3) } == 0
            }))
            defer { store.close() }
            for i in 0..<appendsPerWriter {
                let count = Int.random(in: 1...3, using: &random)
                let request = AppendRequest(events: (0..<count).map { k in
                    event("writer-\(w)", data: ["i": .integer(Int64(i)), "k": .integer(Int64(k))], id: UUID())
                })
                do {
                    let result = try store.append(request)
                    succeeded.withLock { s in for e in result.events { s[e.eventID] = e.position } }
                } catch {
                    failed.withLock { f in for e in request.events { f.insert(e.eventID!) } }
                }
            }
            writing.subtract(1, ordering: .releasing)
        }
        readerDone.wait()

        #expect(readerError.withLock { $0 } == nil)
        let written = succeeded.withLock { $0 }
        let lost = failed.withLock { $0 }
        #expect(!lost.isEmpty, "the fault injection should have aborted some transactions")
        #expect(!written.isEmpty)

        let connection = try db.connect()
        let rows = try connection.query("SELECT position, event_id FROM events ORDER BY position")
        let positions = try rows.rows.map { try $0.requireInt64(0) }
        #expect(positions == Array(1...Int64(written.count)), "positions must be exactly 1…N")
        let stored = Set(rows.rows.compactMap { $0.string(1).flatMap(UUID.init(uuidString:)) })
        #expect(stored == Set(written.keys), "exactly the acknowledged events are in the log")
        #expect(stored.isDisjoint(with: lost), "no event of a failed append is in the log")
        #expect(seen.withLock { $0 } == positions, "the tailing reader saw every position, in order")
        let report = try ChainVerifier().verify(on: connection)
        #expect(report.isValid, "\(String(describing: report.failure))")
        // Stream versions stay dense per writer.
        let gaps = try connection.query("""
            SELECT count(*) FROM (SELECT stream, stream_version, row_number() OVER (PARTITION BY stream ORDER BY position) AS n
            FROM events) x WHERE stream_version <> n
            """)[0].requireInt64(0)
        #expect(gaps == 0)
    }

    @Test("one failing append in a group commit does not fail its neighbours")
    func failingNeighbour() throws {
        try withStore { store, _ in
            let existing = try store.append(AppendRequest(event("org-0")))
            let reusedID = existing.events[0].eventID
            let results = Mutex<[Int: Result<AppendResult, AppendError>]>([:])
            let group = DispatchGroup()
            // Submitted without waiting, so they queue behind each other and share commits.
            for i in 0..<200 {
                group.enter()
                let request: AppendRequest
                switch i {
                case 50: request = AppendRequest(event("org-x", id: reusedID))        // the server refuses it (duplicate event id)
                case 120: request = AppendRequest(event("org-0"), expected: .noStream) // refused by its expectation
                default: request = AppendRequest(event("org-\(i % 7 + 1)"))
                }
                store.submit(request) { result in
                    results.withLock { $0[i] = result }
                    group.leave()
                }
            }
            group.wait()
            let all = results.withLock { $0 }
            for i in 0..<200 {
                switch (i, all[i]) {
                case (50, .failure(let e)?): #expect(e.code == .invalidEvent)
                case (120, .failure(let e)?): #expect(e.code == .wrongExpectedVersion)
                case (_, .success?) where i != 50 && i != 120: break
                default: Issue.record("append \(i): unexpected \(String(describing: all[i]))")
                }
            }
            let stats = store.appendStatistics
            #expect(stats.transactions < stats.appends, "appends should have shared transactions")
            #expect(try store.log.headPosition() == 199)
        }
    }
}
