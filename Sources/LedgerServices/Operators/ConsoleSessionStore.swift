import Crypto
import Foundation
import Postgres

/// The rows of `console_sessions` (migration 0012), which only this type names.
public struct ConsoleSessionStore: Sendable {
    let connections: PostgresPool

    /// How long a session's row is kept after it can no longer be used: long enough for a
    /// security review to see who was signed in, from where, in the last quarter.
    public static let retention: Int64 = 90 * 24 * 3600 * 1_000_000

    public init(connections: PostgresPool) { self.connections = connections }

    private static let columns = """
        session_id, operator, credential::text, epoch, created_us, last_seen_us, expires_us, ended_us, ended_reason,
        address, user_agent
        """

    /// Opens a session and returns it with the token its cookie carries (kept nowhere
    /// else: the row holds its SHA-256). Rows long over are forgotten on the way.
    public func open(operator name: String, credential: String, epoch: Int64, now: Int64, lifetime: Double,
                     address: String, userAgent: String) throws -> (session: ConsoleSession, token: String) {
        let token = ConsoleSession.newToken()
        let session = ConsoleSession(id: ConsoleSession.newID(), operatorName: name, credential: credential, epoch: epoch, created: now,
                                     lastSeen: now, expires: now + Int64(lifetime * 1e6), ended: nil, endedReason: nil,
                                     address: String(address.prefix(64)), userAgent: Self.printable(userAgent, limit: 256))
        try connections.withConnection { conn in
            try conn.query("""
                INSERT INTO console_sessions (session_id, token_sha256, operator, credential, epoch, created_us, last_seen_us,
                                              expires_us, address, user_agent)
                VALUES ($1, $2::bytea, $3, $4::uuid, $5, $6, $6, $7, $8, $9)
                """, [session.id, "\\x" + Hex.encode(ConsoleSession.digest(of: token)), name, credential, epoch, now, session.expires,
                      session.address, session.userAgent])
            _ = try conn.query("DELETE FROM console_sessions WHERE expires_us < $1 AND (ended_us IS NULL OR ended_us < $1)",
                           [now - Self.retention])
        }
        return (session, token)
    }

    /// The session whose cookie carries `token`, whatever its state.
    public func find(token: String) throws -> ConsoleSession? {
        try connections.read { conn in
            try conn.query("SELECT \(Self.columns) FROM console_sessions WHERE token_sha256 = $1::bytea",
                           ["\\x" + Hex.encode(ConsoleSession.digest(of: token))]).rows.first.map(Self.session)
        }
    }

    /// Records that the session was used at `now`, when it was last recorded more than
    /// `ConsoleSession.touchInterval` before.
    public func touch(_ session: ConsoleSession, now: Int64) throws {
        guard Double(now - session.lastSeen) >= ConsoleSession.touchInterval * 1e6 else { return }
        _ = try connections.withConnection { conn in
            try conn.query("UPDATE console_sessions SET last_seen_us = $2 WHERE session_id = $1 AND last_seen_us < $2", [session.id, now])
        }
    }

    /// Ends a session (signed out, say); one already ended keeps its first reason.
    public func end(_ id: String, reason: String, now: Int64) throws {
        _ = try connections.withConnection { conn in
            try conn.query("UPDATE console_sessions SET ended_us = $2, ended_reason = $3 WHERE session_id = $1 AND ended_us IS NULL",
                           [id, now, String(reason.prefix(64))])
        }
    }

    /// Ends every open session of the operator; returns how many.
    @discardableResult
    public func endAll(operator name: String, reason: String, now: Int64) throws -> Int {
        try connections.withConnection { conn in
            try conn.query("""
                UPDATE console_sessions SET ended_us = $2, ended_reason = $3 WHERE operator = $1 AND ended_us IS NULL
                RETURNING session_id
                """, [name, now, String(reason.prefix(64))]).rowCount
        }
    }

    /// The sessions of `name` (every operator's when nil), newest first.
    public func list(operator name: String?, limit: Int = 200) throws -> [ConsoleSession] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM console_sessions WHERE $1::text IS NULL OR operator = $1
                ORDER BY created_us DESC, session_id LIMIT $2
                """, [name, limit]).rows.map(Self.session)
        }
    }

    /// The session `id` names.
    public func session(_ id: String) throws -> ConsoleSession? {
        try connections.read { conn in
            try conn.query("SELECT \(Self.columns) FROM console_sessions WHERE session_id = $1", [id]).rows.first.map(Self.session)
        }
    }

    private static func session(_ r: PostgresRow) throws -> ConsoleSession {
        ConsoleSession(id: try r.requireString(0), operatorName: try r.requireString(1), credential: try r.requireString(2),
                       epoch: try r.requireInt64(3), created: try r.requireInt64(4), lastSeen: try r.requireInt64(5),
                       expires: try r.requireInt64(6), ended: r.int64(7), endedReason: r.string(8), address: try r.requireString(9),
                       userAgent: try r.requireString(10))
    }

    /// At most `limit` characters, control characters and non-ASCII replaced: a user agent is
    /// whatever a client sent, and listings print it.
    static func printable(_ text: String, limit: Int) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map { $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }))
    }
}
