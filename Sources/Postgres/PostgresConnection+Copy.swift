import CLibPQ

extension PostgresConnection {
    /// Runs `COPY … FROM STDIN` (text format) with the given rows; returns the rows copied.
    @discardableResult
    public func copyIn(_ sql: String, rows: PostgresTextCopyRows) throws -> Int {
        guard rows.rowCount > 0 else { return 0 }
        return try copyIn(sql, data: rows.bytes)
    }

    /// Runs `COPY … FROM STDIN WITH (FORMAT binary)` with `rows` (finished here).
    @discardableResult
    public func copyIn(_ sql: String, rows: PostgresBinaryCopyRows) throws -> Int {
        guard rows.rowCount > 0 else { return 0 }
        var rows = rows
        rows.finish()
        return try copyIn(sql, data: rows.bytes)
    }

    /// Runs `COPY … FROM STDIN WITH (FORMAT binary)` with the rows `body` writes, sent to
    /// the server whenever `threshold` bytes have gathered (at `flushIfFull`), so that the
    /// server inserts the first rows while the caller still makes the next ones. An error
    /// thrown by `body` aborts the COPY and is rethrown: nothing of it is inserted.
    @discardableResult
    public func copyIn(_ sql: String, flushingAt threshold: Int = 256 << 10,
                       _ body: (inout PostgresCopyInStream) throws -> Void) throws -> Int {
        try withUnsafeConnection { connection in
            try query(sql)
            var stream = PostgresCopyInStream(connection: connection, threshold: threshold)
            var bodyError: (any Error)?
            var failure: String?
            do {
                try body(&stream)
                stream.rows.finish()
                try stream.send()
            } catch {
                bodyError = error
                failure = "the rows could not be sent: \(error)"
            }
            do {
                let copied = try endCopy(connection, failure: failure)
                if let bodyError { throw bodyError }
                return copied
            } catch {
                // The server's "COPY aborted" says less than what made it abort.
                throw bodyError ?? error
            }
        }
    }

    /// Starts `COPY … FROM STDIN` and leaves it open, for rows sent as they are made
    /// (`sendCopyData`) between other work of the caller; `endCopyIn` ends it. Until then
    /// the connection runs nothing else: libpq refuses any other statement.
    public func beginCopyIn(_ sql: String) throws {
        try withUnsafeConnection { connection in
            let result = PQexec(connection, sql)
            defer { PQclear(result) }
            guard let result, PQresultStatus(result) == PGRES_COPY_IN else {
                throw result.map { Self.error(from: $0, connection: connection) }
                    ?? PostgresError(code: isOpen ? .serverError : .connectionLost, message: Self.trimmed(PQerrorMessage(connection)))
            }
        }
    }

    /// Sends rows of the COPY `beginCopyIn` opened.
    public func sendCopyData(_ data: [UInt8]) throws {
        try withUnsafeConnection { connection in
            if let message = Self.putCopyData(data, on: connection) {
                throw PostgresError(code: isOpen ? .serverError : .connectionLost, message: message)
            }
        }
    }

    /// Ends the COPY `beginCopyIn` opened and returns the rows copied; with `failure`,
    /// aborts it instead (nothing of it is inserted, the transaction is in error) and
    /// throws.
    @discardableResult
    public func endCopyIn(failure: String? = nil) throws -> Int {
        try withUnsafeConnection { connection in try endCopy(connection, failure: failure) }
    }

    private func copyIn(_ sql: String, data: [UInt8]) throws -> Int {
        try withUnsafeConnection { connection in
            try query(sql)
            let failure = Self.putCopyData(data, on: connection)
            return try endCopy(connection, failure: failure)
        }
    }

    /// Sends `data` in pieces of at most 1 MiB; the connection's error message on failure.
    static func putCopyData(_ data: [UInt8], on connection: OpaquePointer) -> String? {
        data.withUnsafeBufferPointer { buffer -> String? in
            var offset = 0
            let chunk = 1 << 20
            while offset < buffer.count {
                let n = min(chunk, buffer.count - offset)
                let ok = buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: n) {
                    PQputCopyData(connection, $0, Int32(n))
                }
                if ok != 1 { return trimmed(PQerrorMessage(connection)) }
                offset += n
            }
            return nil
        }
    }

    /// Ends the COPY (aborting it with `failure` if given) and reads its outcome.
    private func endCopy(_ connection: OpaquePointer, failure: String?) throws -> Int {
        var failure = failure
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

/// A binary COPY in progress (`PostgresConnection.copyIn(_:flushingAt:_:)`): rows are
/// written to `rows` and reach the server at each `flushIfFull` past the threshold. It
/// lives only inside that call, which owns the connection meanwhile.
public struct PostgresCopyInStream: ~Copyable {
    public var rows: PostgresBinaryCopyRows
    private let connection: OpaquePointer
    private let threshold: Int

    init(connection: OpaquePointer, threshold: Int) {
        self.connection = connection
        self.threshold = threshold
        self.rows = PostgresBinaryCopyRows(reservingCapacity: threshold + (64 << 10))
    }

    /// Sends what has gathered if it is past the threshold.
    public mutating func flushIfFull() throws {
        if rows.bytes.count >= threshold { try send() }
    }

    mutating func send() throws {
        let data = rows.drain()
        guard !data.isEmpty else { return }
        if let message = PostgresConnection.putCopyData(data, on: connection) {
            throw PostgresError(code: .connectionLost, message: message)
        }
    }
}
