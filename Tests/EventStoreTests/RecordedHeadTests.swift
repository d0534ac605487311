import EventStore
import Postgres
import Testing
import TestSupport

/// A head written down outside the database (docs/backup.md) catches what the chain alone
/// cannot: a superuser who rewrites history and re-hashes everything after the change.
@Suite("A recorded head holds the chain to its past", .bounded)
struct RecordedHeadTests {
    @Test("a history rewritten and re-hashed verifies alone, and fails against the head recorded before")
    func rewriteAndRehash() throws {
        try withStore { store, db in
            for i in 0..<6 { _ = try store.append(AppendRequest(event("org-\(i)", data: ["amount": "100"]))) }
            let superuser = try db.connect()
            let recorded = try ChainVerifier().verify(on: superuser)
            #expect(recorded.isValid && recorded.headPosition == 6)
            let head = ChainVerifier.Expectation(position: recorded.headPosition, hash: recorded.headHash)
            #expect(try ChainVerifier().verify(on: superuser, expecting: [head]).isValid)

            try superuser.query("SET session_replication_role = replica")
            try superuser.query(#"UPDATE events SET data = '{"amount": "1000000"}' WHERE position = 2"#)
            for position in 2...6 {
                try superuser.query("""
                    UPDATE events e SET prev_hash = p.hash FROM events p WHERE p.position = e.position - 1 AND e.position = $1
                    """, [Int64(position)])
                try superuser.query("UPDATE events SET hash = sha256(prev_hash || event_canonical_bytes(events)) WHERE position = $1",
                                    [Int64(position)])
            }
            #expect(try ChainVerifier().verify(on: superuser).isValid, "the re-hashed chain holds together on its own")
            let report = try ChainVerifier().verify(on: superuser, expecting: [head])
            #expect(report.failure?.position == 6)
            #expect(report.failure?.reason.contains("not the hash recorded") == true)
        }
    }

    @Test("a log cut short of the recorded head fails, naming the missing position")
    func truncatedLog() throws {
        try withStore { store, db in
            for i in 0..<4 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
            let superuser = try db.connect()
            let recorded = try ChainVerifier().verify(on: superuser)
            try superuser.query("SET session_replication_role = replica")
            try superuser.query("DELETE FROM events WHERE position = 4")
            let report = try ChainVerifier().verify(on: superuser, expecting: [.init(position: 4, hash: recorded.headHash)])
            #expect(report.failure?.position == 4)
            #expect(report.failure?.reason.contains("ends at position 3") == true)
            #expect(report.verified == 3)
        }
    }
}
