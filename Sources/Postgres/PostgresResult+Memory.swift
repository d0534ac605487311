import CLibPQ

extension PostgresResult {
    /// A text result built in memory, as if a server had sent `rows` (nil for NULL) under
    /// `columns`: for testing what a read model makes of a statement's rows without a
    /// server. nil when a row has the wrong number of values or libpq cannot allocate.
    public convenience init?(columns: [String], rows: [[String?]]) {
        guard rows.allSatisfy({ $0.count == columns.count }),
              let result = PQmakeEmptyPGresult(nil, PGRES_TUPLES_OK) else { return nil }
        var ok = PostgresConnection.withCStrings(columns) { names in
            // libpq copies the names and values into the result's own memory.
            var descriptions = (0..<columns.count).map {
                PGresAttDesc(name: UnsafeMutablePointer(mutating: names[$0]), tableid: 0, columnid: 0, format: 0,
                             typid: 25, typlen: -1, atttypmod: -1)
            }
            return PQsetResultAttrs(result, Int32(columns.count), &descriptions) == 1
        }
        for (r, row) in rows.enumerated() where ok {
            for (c, value) in row.enumerated() where ok {
                guard let value else {
                    ok = PQsetvalue(result, Int32(r), Int32(c), nil, -1) == 1
                    continue
                }
                // A terminating byte keeps the pointer non-nil for an empty value (nil is NULL).
                var bytes = Array(value.utf8) + [0]
                ok = bytes.withUnsafeMutableBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        PQsetvalue(result, Int32(r), Int32(c), $0, Int32(buffer.count - 1)) == 1
                    }
                }
            }
        }
        guard ok else {
            PQclear(result)
            return nil
        }
        self.init(taking: result)
    }
}
