import CLibPQ

extension PostgresConnection {
    /// Runs `COPY … FROM STDIN WITH (FORMAT binary)` with the given rows; returns the rows
    /// copied. `sql` names the table and columns and is fixed by the code; the rows are data.
    @discardableResult
    public func copyIn(_ sql: String, rows: PostgresBinaryCopyRows) throws -> Int {
        var rows = rows
        rows.finish()
        return try copyIn(sql, data: rows.bytes)
    }

    /// Runs `COPY … FROM STDIN` (text format) with the given rows; returns the rows copied.
    @discardableResult
    public func copyIn(_ sql: String, rows: PostgresTextCopyRows) throws -> Int {
        guard rows.rowCount > 0 else { return 0 }
        return try copyIn(sql, data: rows.bytes)
    }

    private func copyIn(_ sql: String, data: [UInt8]) throws -> Int {
        try withUnsafeConnection { connection in
            try query(sql)
            var failure: String?
            data.withUnsafeBufferPointer { buffer in
                var offset = 0
                let chunk = 1 << 20
                while offset < buffer.count {
                    let n = min(chunk, buffer.count - offset)
                    let ok = buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: n) {
                        PQputCopyData(connection, $0, Int32(n))
                    }
                    if ok != 1 { failure = Self.trimmed(PQerrorMessage(connection)); return }
                    offset += n
                }
            }
            if PQputCopyEnd(connection, failure) != 1 {
                failure = failure ?? Self.trimmed(PQerrorMessage(connection))
            }
            var error: PostgresError?
            var copied = 0
            while let result = PQgetResult(connection) {
                let status = PQresultStatus(result)
                if status == PGRES_COMMAND_OK {
                    copied = Int(String(cString: PQcmdTuples(result))) ?? 0
                } else if error == nil {
                    error = Self.error(from: result, connection: connection)
                }
                PQclear(result)
            }
            if let error { throw error }
            if let failure { throw PostgresError(code: isOpen ? .serverError : .connectionLost, message: failure) }
            return copied
        }
    }
}
