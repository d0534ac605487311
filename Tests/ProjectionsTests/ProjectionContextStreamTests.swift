import Postgres
@testable import ProjectionEngine
import TestSupport
import Testing

/// A COPY a fold leaves open while it makes more rows (`ProjectionContext.stream`): any
/// other statement ends it first, the next rows open another, and a fold that fails
/// aborts it so that its transaction can be rolled back.
@Suite("Rows streamed while a batch folds", .bounded)
struct ProjectionContextStreamTests {
    private static func rows(_ numbers: ClosedRange<Int64>) -> PostgresBinaryCopyRows {
        var rows = PostgresBinaryCopyRows()
        append(numbers, to: &rows)
        return rows
    }

    private static func append(_ numbers: ClosedRange<Int64>, to rows: inout PostgresBinaryCopyRows) {
        for n in numbers {
            rows.startRow(fields: 2)
            rows.int8(n)
            rows.text("row \(n)")
        }
    }

    /// Runs `body` in a transaction of a fresh database that has an empty table `streamed`
    /// (`seq` numbers its rows in the order they were inserted).
    private static func withStreamedTable(_ body: (PostgresConnection) throws -> Void) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let connection = try PostgresConnection(conninfo: db.superuserURL)
        try connection.transaction { tx in
            try tx.query("CREATE TEMP TABLE streamed (seq bigserial, n bigint NOT NULL, s text NOT NULL)")
            try body(tx)
        }
    }

    @Test("a read between two streamed parts sees the first, and the table ends with every row once")
    func readBetweenParts() throws {
        try Self.withStreamedTable { tx in
            try ProjectionContext.folding(on: tx) { context in
                var rows = Self.rows(1...3)
                try context.stream(into: "streamed", columns: ["n", "s"], binary: &rows)
                #expect(try context.execute("SELECT count(*) FROM streamed")[0].requireInt64(0) == 3)
                Self.append(4...5, to: &rows)
                try context.stream(into: "streamed", columns: ["n", "s"], binary: &rows)
                Self.append(6...6, to: &rows)
                try context.copy(into: "streamed", columns: ["n", "s"], binary: rows)
            }
            let totals = try tx.query("SELECT count(*), sum(n)::bigint, count(DISTINCT s) FROM streamed")[0]
            #expect(try totals.requireInt64(0) == 6)
            #expect(try totals.requireInt64(1) == 21)
            #expect(try totals.requireInt64(2) == 6)
        }
    }

    @Test("a write queued between two streamed parts lands between them, as it was made")
    func queuedWriteKeepsItsPlace() throws {
        try Self.withStreamedTable { tx in
            try ProjectionContext.folding(on: tx) { context in
                var rows = Self.rows(1...2)
                try context.stream(into: "streamed", columns: ["n", "s"], binary: &rows)
                context.enqueue("INSERT INTO streamed (n, s) VALUES ($1, $2)", [Int64(100), "queued"])
                Self.append(3...4, to: &rows)
                try context.stream(into: "streamed", columns: ["n", "s"], binary: &rows)
                try context.copy(into: "streamed", columns: ["n", "s"], binary: rows)
            }
            #expect(try tx.query("SELECT n FROM streamed ORDER BY seq").rows.map { try $0.requireInt64(0) } == [1, 2, 100, 3, 4])
        }
    }

    @Test("rows never streamed go in one COPY at the end; none at all sends nothing")
    func notStreamed() throws {
        try Self.withStreamedTable { tx in
            try ProjectionContext.folding(on: tx) { context in
                try context.copy(into: "streamed", columns: ["n", "s"], binary: PostgresBinaryCopyRows())
                try context.copy(into: "streamed", columns: ["n", "s"], binary: Self.rows(1...4))
            }
            #expect(try tx.query("SELECT count(*) FROM streamed")[0].requireInt64(0) == 4)
        }
    }

    @Test("a fold that fails with a COPY open leaves a transaction that rolls back, and nothing of it")
    func failureAborts() throws {
        struct Refused: Error {}
        let db = try TestDatabase.create()
        defer { db.drop() }
        let connection = try PostgresConnection(conninfo: db.superuserURL)
        try connection.query("CREATE TABLE streamed (n bigint NOT NULL, s text NOT NULL)")
        #expect(throws: Refused.self) {
            try connection.transaction { tx in
                try ProjectionContext.folding(on: tx) { context in
                    var rows = Self.rows(1...3)
                    try context.stream(into: "streamed", columns: ["n", "s"], binary: &rows)
                    throw Refused()
                }
            }
        }
        #expect(try connection.query("SELECT count(*) FROM streamed")[0].requireInt64(0) == 0)
    }
}
