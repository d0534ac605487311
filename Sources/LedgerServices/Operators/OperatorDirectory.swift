import Crypto
import EventStore
import Foundation
import LedgerDomain
import Postgres

/// Console operators: their state from their streams in the log, and their password
/// hashes from `console_credentials` (migration 0006), which only this type names.
public struct OperatorDirectory: Sendable {
    let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// The operator as their stream says; nil when there is none.
    public func state(of name: String) throws -> OperatorDecider.State? {
        guard OperatorDecider.isValidName(name) else { return nil }
        let events = try LogReader(connections: connections).readStream(OperatorDecider.stream(name))
        return try OperatorDecider.State.fold(try events.map { (type: $0.type, data: try $0.data()) })
    }

    /// Stores the hash of a new password and returns the credential id that the event
    /// naming it must carry. Rows are only ever added.
    public func storeCredential(operator name: String, password: String) throws -> String {
        let credential = SecureRandom.uuid().uuidString.lowercased()
        try connections.withConnection { conn in
            try conn.query("INSERT INTO console_credentials (operator, credential, password_hash) VALUES ($1, $2::uuid, $3)",
                           [name, credential, Scrypt.hash(password: password)])
        }
        return credential
    }

    /// The operator, when `password` is their current one and they are not disabled. The
    /// hash is computed even for an unknown name, so that timing does not tell names apart.
    public func authenticate(name: String, password: String) throws -> OperatorDecider.State? {
        let state = try self.state(of: name)
        var stored = Self.decoy
        if let state, !state.disabled {
            stored = try connections.read { conn in
                try conn.query("SELECT password_hash FROM console_credentials WHERE operator = $1 AND credential = $2::uuid",
                               [name, state.credential]).rows.first?.string(0)
            } ?? Self.decoy
        }
        let matches = Scrypt.verify(password: password, stored: stored)
        guard let state, !state.disabled, matches, stored != Self.decoy else { return nil }
        return state
    }

    /// A hash no password matches (its key is random), with the real parameters.
    static let decoy = Scrypt.hash(password: Base64URL.encode(SecureRandom.bytes(24)))

    /// A password to hand out: 120 random bits in base64url, 20 characters.
    public static func generatePassword() -> String { Base64URL.encode(SecureRandom.bytes(15)) }
}
