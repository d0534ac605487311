import CLibPQ

extension PostgresConnection {
    /// Runs statements whose results are not needed in libpq's pipeline mode: sent together,
    /// answered together, one network round trip per chunk instead of one per statement.
    ///
    /// Statements run in order; the first failure throws its error and the server skips
    /// the rest of its chunk (inside a transaction, the transaction is aborted as it would
    /// be after any failed statement). Chunks stay small so that neither side's socket
    /// buffer can fill while the other waits, which would deadlock a blocking connection.
    public func pipeline(_ statements: [(sql: String, parameters: [String?])], chunkSize: Int = 256) throws {
        var start = 0
        while start < statements.count {
            let end = min(start + chunkSize, statements.count)
            try runPipelineChunk(statements[start..<end])
            start = end
        }
    }

    private func runPipelineChunk(_ chunk: ArraySlice<(sql: String, parameters: [String?])>) throws {
        // Prepared before the pipeline starts: preparing is a round trip of its own. Behind a
        // pooler in transaction mode each is sent as the unnamed statement instead: the
        // chunk ends in one Sync, so it runs on one server connection.
        let names = statements == .unnamed ? chunk.map { _ in String?.none } : try chunk.map { try preparedName(for: $0.sql) }
        try withUnsafeConnection { connection in
            guard PQenterPipelineMode(connection) == 1 else {
                throw PostgresError(code: .serverError, message: "libpq could not enter pipeline mode: \(Self.trimmed(PQerrorMessage(connection)))")
            }
            var sent = 0
            var failure: PostgresError?
            for (statement, name) in zip(chunk, names) {
                let ok = Self.withCStrings(statement.parameters) { values in
                    if let name {
                        PQsendQueryPrepared(connection, name, Int32(statement.parameters.count), values, nil, nil, 0)
                    } else {
                        PQsendQueryParams(connection, statement.sql, Int32(statement.parameters.count), nil, values, nil, nil, 0)
                    }
                }
                guard ok == 1 else {
                    failure = PostgresError(code: isOpen ? .serverError : .connectionLost, message: Self.trimmed(PQerrorMessage(connection)))
                    break
                }
                sent += 1
            }
            if PQpipelineSync(connection) != 1 && failure == nil {
                failure = PostgresError(code: .connectionLost, message: Self.trimmed(PQerrorMessage(connection)))
            }
            // One group of results per statement sent, each ended by NULL, then the sync.
            var remaining = sent
            var synced = false
            while !synced {
                guard let result = PQgetResult(connection) else {
                    if remaining > 0 { remaining -= 1; continue }
                    if !isOpen { break }
                    continue
                }
                switch PQresultStatus(result) {
                case PGRES_PIPELINE_SYNC:
                    synced = true
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_ABORTED:
                    break
                default:
                    if failure == nil { failure = Self.error(from: result, connection: connection) }
                }
                PQclear(result)
            }
            if synced { PQexitPipelineMode(connection) }
            if let failure { throw failure }
            if !synced {
                throw PostgresError(code: .connectionLost, message: "the connection broke during a pipeline: \(Self.trimmed(PQerrorMessage(connection)))")
            }
        }
    }
}
