import CLibPQ
import Foundation
import Glibc

/// One libpq connection.
///
/// Not safe for concurrent use: a connection belongs to one thread at a time, which the
/// pool guarantees by lending it only inside `withConnection`. The `PGconn` is freed in
/// `deinit` and never leaves this type.
public final class PostgresConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    /// Statements prepared on this session, by their SQL: parsed and planned once instead
    /// of on every execution (planning was as costly as running the projector's writes).
    private var prepared: [String: String] = [:]
    private static let maximumPrepared = 1_000
    /// The URL or keyword/value string it was opened with.
    public let conninfo: String
    /// Whether statements are prepared once per session or sent as the unnamed statement
    /// (through a pooler in transaction mode).
    public let statements: PostgresStatements

    /// Opens a connection; `conninfo` is a `postgresql://` URL or a libpq keyword string.
    /// `statements: .unnamed` when `conninfo` names a pooler in transaction mode.
    public init(conninfo: String, statements: PostgresStatements = .prepared) throws {
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgresError(code: .connectionFailed, message: "libpq could not allocate a connection")
        }
        self.connection = connection
        self.conninfo = conninfo
        self.statements = statements
        guard PQstatus(connection) == CONNECTION_OK else {
            throw PostgresError(code: .connectionFailed, message: Self.trimmed(PQerrorMessage(connection)))
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        _ = try query(sessionSettings)
    }

    /// Text results whose format does not depend on the server's defaults. Through a
    /// pooler in transaction mode only the settings the pooler tracks for each client and
    /// sets again on whichever server connection serves it (PgBouncer: client_encoding,
    /// DateStyle, TimeZone): any other `SET` would stay on one server connection and miss
    /// the next. `extra_float_digits` is one; from PostgreSQL 12 its default already prints
    /// floats exactly (the shortest text that reads back the same), as 3 does.
    private var sessionSettings: String {
        let tracked = "SET client_encoding = 'UTF8'; SET DateStyle = 'ISO'; SET TimeZone = 'UTC'"
        return statements == .unnamed ? tracked : tracked + "; SET extra_float_digits = 3"
    }

    deinit { PQfinish(connection) }

    /// Whether libpq still considers the connection usable.
    public var isOpen: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Whether the connection is inside a transaction block (or a failed one).
    public var inTransaction: Bool {
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The server's process id, e.g. to cancel or terminate it from another session.
    public var backendPID: Int32 { PQbackendPID(connection) }

    /// Runs one statement with parameters (`$1`, `$2`, …) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> PostgresResult {
        try query(sql, texts: parameters.map { $0.postgresText })
    }

    /// Runs one statement with parameters and returns its rows in `format`: `.binary`
    /// for reads of many rows whose columns are costly to print and parse as text (a
    /// `uuid`, a `bytea`, a `timestamptz`), read with `PostgresRow`'s binary accessors.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable], format: PostgresResult.Format) throws -> PostgresResult {
        try query(sql, texts: parameters.map { $0.postgresText }, format: format)
    }

    /// Runs one statement with parameters already in text form.
    @discardableResult
    public func query(_ sql: String, texts parameters: [String?], format: PostgresResult.Format = .text) throws -> PostgresResult {
        guard !parameters.isEmpty || format == .binary else { return try check(PQexec(connection, sql)) }
        if statements == .unnamed { return try executeUnnamed(sql, parameters, format: format) }
        do {
            return try executePrepared(sql, parameters, format: format)
        } catch let error as PostgresError where error.sqlState == "26000" || error.sqlState == "0A000" {
            // The session lost the statement, or a table it reads changed shape (a
            // projection rebuilt with new columns): prepare it afresh, once.
            forget(sql)
            return try executePrepared(sql, parameters, format: format)
        }
    }

    /// Runs one statement planned afresh with its values, as the unnamed statement: for the
    /// few whose best plan depends on a value, such as a partial index whose predicate names
    /// it (`WHERE type = $1` on an index `WHERE type = 'x'`). A prepared statement's generic
    /// plan, used from its sixth run, cannot prove such a predicate and reads past the index.
    @discardableResult
    public func queryPlannedWithValues(_ sql: String, _ parameters: [any PostgresBindable],
                                       format: PostgresResult.Format = .text) throws -> PostgresResult {
        try executeUnnamed(sql, parameters.map { $0.postgresText }, format: format)
    }

    /// Parse, bind and execute of the unnamed statement, then Sync: one round trip, which
    /// a pooler in transaction mode serves on one server connection.
    private func executeUnnamed(_ sql: String, _ parameters: [String?], format: PostgresResult.Format) throws -> PostgresResult {
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, format.rawValue)
        }
        return try check(result)
    }

    private func executePrepared(_ sql: String, _ parameters: [String?], format: PostgresResult.Format) throws -> PostgresResult {
        let name = try preparedName(for: sql)
        let result = Self.withCStrings(parameters) { values in
            PQexecPrepared(connection, name, Int32(parameters.count), values, nil, nil, format.rawValue)
        }
        return try check(result)
    }

    /// The name of `sql` prepared on this session, preparing it on first use.
    func preparedName(for sql: String) throws -> String {
        if let name = prepared[sql] { return name }
        if prepared.count >= Self.maximumPrepared {
            _ = try check(PQexec(connection, "DEALLOCATE ALL"))
            prepared.removeAll()
        }
        let name = "ledger_\(prepared.count)"
        _ = try check(PQprepare(connection, name, sql, 0, nil))
        prepared[sql] = name
        return name
    }

    private func forget(_ sql: String) {
        guard let name = prepared.removeValue(forKey: sql) else { return }
        _ = try? check(PQexec(connection, "DEALLOCATE " + quoteIdentifier(name)))
    }

    /// Lends the raw `PGconn` pointer for the few calls this file does not wrap.
    func withUnsafeConnection<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try body(connection)
    }

    /// Reconnects with the same parameters; used by the pool after a server restart.
    public func reset() throws {
        prepared.removeAll()
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            throw PostgresError(code: .connectionFailed, message: Self.trimmed(PQerrorMessage(connection)))
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        _ = try query(sessionSettings)
    }

    /// Detects, without blocking, a connection the server has closed while it sat idle
    /// (a restart sends a termination message and closes the socket).
    public func isAliveWithoutBlocking() -> Bool {
        guard isOpen else { return false }
        let socket = PQsocket(connection)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        if ready <= 0 { return true }
        // Readable while idle: either an async notification or the server going away.
        if PQconsumeInput(connection) == 0 { return false }
        return isOpen
    }

    /// Quotes an identifier (a schema or channel name chosen by the code, never by a user).
    public func quoteIdentifier(_ identifier: String) -> String {
        guard let quoted = PQescapeIdentifier(connection, identifier, identifier.utf8.count) else {
            return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// Sets `role`'s password, as psql's `\password` does: libpq turns it into a SCRAM
    /// verifier here (`PQencryptPasswordConn`), so that the password itself never reaches
    /// the server, its log or `pg_stat_statements`; the statement carries the verifier,
    /// escaped by libpq (`ALTER ROLE` takes no parameters).
    public func setPassword(role: String, password: String) throws {
        guard let verifier = PQencryptPasswordConn(connection, password, role, "scram-sha-256") else {
            throw PostgresError(code: .serverError, message: "cannot encrypt the password of \(role): \(Self.trimmed(PQerrorMessage(connection)))")
        }
        defer { PQfreemem(verifier) }
        let text = String(cString: verifier)
        guard let literal = PQescapeLiteral(connection, text, text.utf8.count) else {
            throw PostgresError(code: .serverError, message: "cannot quote the verifier of \(role): \(Self.trimmed(PQerrorMessage(connection)))")
        }
        defer { PQfreemem(literal) }
        try query("ALTER ROLE \(quoteIdentifier(role)) PASSWORD \(String(cString: literal))")
    }

    private func check(_ result: OpaquePointer?) throws -> PostgresResult {
        guard let result else {
            throw PostgresError(code: isOpen ? .serverError : .connectionLost, message: Self.trimmed(PQerrorMessage(connection)))
        }
        let status = PQresultStatus(result)
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return PostgresResult(taking: result)
        default:
            let error = Self.error(from: result, connection: connection)
            PQclear(result)
            throw error
        }
    }

    static func error(from result: OpaquePointer, connection: OpaquePointer) -> PostgresError {
        func field(_ code: UInt8) -> String? {
            guard let value = PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: value)
        }
        let sqlState = field(UInt8(ascii: "C"))
        let lost = PQstatus(connection) != CONNECTION_OK
        let message = field(UInt8(ascii: "M")) ?? trimmed(PQresultErrorMessage(result))
        return PostgresError(
            code: lost ? .connectionLost : (sqlState == nil ? .connectionLost : .serverError),
            sqlState: sqlState,
            message: message.isEmpty ? trimmed(PQerrorMessage(connection)) : message,
            detail: field(UInt8(ascii: "D")),
            constraint: field(UInt8(ascii: "n"))
        )
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Lays the parameters out in one buffer and lends libpq an array of pointers into it.
    static func withCStrings<T>(_ values: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        // One buffer for every value, each copied whole (a byte at a time, and an array per
        // value, cost more than the statement's own work for a projection's batch).
        var storage = [CChar]()
        storage.reserveCapacity(values.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 })
        var offsets = [Int?]()
        offsets.reserveCapacity(values.count)
        for value in values {
            guard var value else { offsets.append(nil); continue }
            offsets.append(storage.count)
            value.withUTF8 { utf8 in utf8.withMemoryRebound(to: CChar.self) { storage.append(contentsOf: $0) } }
            storage.append(0)
        }
        return storage.withUnsafeBufferPointer { buffer in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.map { buffer.baseAddress! + $0 }
            }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
}
