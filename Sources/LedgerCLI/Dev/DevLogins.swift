import Crypto
import Postgres

/// The two logins `ledger dev` makes on its cluster (docs/security.md): `ledger`, in
/// ledger_service, for the API and the admin commands, and `projector`, in
/// ledger_projector, for the projector. Their passwords are derived from the cluster's
/// superuser password (HMAC-SHA256), so they need no file of their own and stay the same
/// across restarts, while nobody who lacks the superuser's can work them out.
struct DevLogins {
    enum Login: String, CaseIterable {
        case service = "ledger"
        case projector = "projector"

        var role: String {
            switch self {
            case .service: return "ledger_service"
            case .projector: return "ledger_projector"
            }
        }
    }

    let superuserPassword: String

    func password(_ login: Login) -> String {
        Hex.encode(HMAC.sha256(key: Array(superuserPassword.utf8), data: Array("ledger dev login \(login.rawValue)".utf8)))
    }

    /// `adminURL` (the superuser's) as `login`.
    func url(_ login: Login, on adminURL: String) -> String {
        PostgresURL.with(user: login.rawValue, password: password(login), adminURL) ?? adminURL
    }

    /// Creates each login when missing, makes it a member of its role alone, and sets its
    /// password. A cluster made before the roles were separate had `ledger` run the
    /// projector too: it stays in ledger_service only.
    func ensure(on admin: PostgresConnection) throws {
        for login in Login.allCases {
            let name = admin.quoteIdentifier(login.rawValue)
            if try admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [login.rawValue]).rowCount == 0 {
                do {
                    try admin.query("CREATE ROLE \(name) LOGIN IN ROLE \(login.role)")
                } catch let error as PostgresError where error.sqlState == "42710" {
                    // Another `ledger dev` of another data directory on this cluster made it meanwhile.
                }
            }
            try admin.query("GRANT \(login.role) TO \(name)")
            try admin.setPassword(role: login.rawValue, password: password(login))
        }
    }
}
