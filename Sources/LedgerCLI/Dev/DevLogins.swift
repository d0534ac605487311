import Crypto
import Postgres

/// The logins `ledger dev` makes on its cluster, one per surface (docs/security.md,
/// "Database roles"): `ledger` in ledger_service for the API, `console` in ledger_console
/// for the console, `projector` in ledger_projector for the projector, and the developer's
/// own login in ledger_operator for the commands they type, whose acts the log records
/// under that name. Their passwords are derived from the cluster's superuser password
/// (HMAC-SHA256), so they need no file of their own and stay the same across restarts,
/// while nobody who lacks the superuser's can work them out.
struct DevLogins {
    enum Login: CaseIterable {
        case service
        case console
        case `operator`
        case projector

        var role: String {
            switch self {
            case .service: return "ledger_service"
            case .console: return "ledger_console"
            case .operator: return "ledger_operator"
            case .projector: return "ledger_projector"
            }
        }
    }

    let superuserPassword: String
    /// The developer's login: their account's name when it makes a plain role name.
    let operatorName: String

    init(superuserPassword: String, user: String?) {
        self.superuserPassword = superuserPassword
        self.operatorName = Self.operatorName(forUser: user)
    }

    /// `user` (the account running `ledger dev`) when it is a plain lower-case role name
    /// that is not one of the other logins' or a built-in one; else `developer`.
    static func operatorName(forUser user: String?) -> String {
        guard let user, let first = user.unicodeScalars.first, ("a"..."z").contains(first), user.utf8.count <= 63,
              user.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }),
              !["ledger", "console", "projector", "postgres"].contains(user), !user.hasPrefix("pg_"), !user.hasPrefix("ledger_")
        else { return "developer" }
        return user
    }

    func name(_ login: Login) -> String {
        switch login {
        case .service: return "ledger"
        case .console: return "console"
        case .operator: return operatorName
        case .projector: return "projector"
        }
    }

    func password(_ login: Login) -> String {
        Hex.encode(HMAC.sha256(key: Array(superuserPassword.utf8), data: Array("ledger dev login \(name(login))".utf8)))
    }

    /// `adminURL` (the superuser's) as `login`.
    func url(_ login: Login, on adminURL: String) -> String {
        PostgresURL.with(user: name(login), password: password(login), adminURL) ?? adminURL
    }

    /// Creates each login when missing, makes it a member of its role alone, and sets its
    /// password. A cluster made before the roles were separate had `ledger` run the
    /// projector, the console and the commands too: it stays in ledger_service only.
    func ensure(on admin: PostgresConnection) throws {
        for login in Login.allCases {
            let name = admin.quoteIdentifier(self.name(login))
            if try admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [self.name(login)]).rowCount == 0 {
                do {
                    try admin.query("CREATE ROLE \(name) LOGIN IN ROLE \(login.role)")
                } catch let error as PostgresError where error.sqlState == "42710" {
                    // Another `ledger dev` of another data directory on this cluster made it meanwhile.
                }
            }
            try admin.query("GRANT \(login.role) TO \(name)")
            try admin.setPassword(role: self.name(login), password: password(login))
        }
    }
}
