import Crypto
import EventStore
import HTTP
import LedgerDomain
import Postgres
import Projections

/// Secret keys: `Authorization: Bearer sk_…`, looked up by their SHA-256.
enum Authentication {
    /// `pool`: where the key is looked up, the same as the request's read (a replica or the
    /// primary, `ServiceContext.reading`).
    static func principal(of request: HTTPRequest, context: ServiceContext, pool: PostgresPool? = nil) throws -> KeyPrincipal {
        let digest = try keyDigest(of: request)
        guard let principal = try known(digest, context: context, pool: pool ?? context.pool) else {
            throw unauthenticated("unknown or revoked key")
        }
        return principal
    }

    /// The principal of the key with SHA-256 `digest`, from the cache or the billing
    /// projection on `pool`; nil for a key the projection does not know; 401 for a revoked
    /// one. `caching`: kept in the cache when found. Not before a wait: the read after it must
    /// see a revocation at the position it waited for.
    private static func known(_ digest: String, context: ServiceContext, pool: PostgresPool, caching: Bool = true) throws -> KeyPrincipal? {
        if let cached = context.keyCache.lookup(digest) { return cached }
        guard let key = try BillingReadModel(pool: pool).key(sha256: digest) else { return nil }
        guard !key.revoked else { throw unauthenticated("unknown or revoked key") }
        if caching { context.keyCache.store(digest, key.principal) }
        return key.principal
    }

    /// The SHA-256 (hex) of the request's `Bearer sk_…` key; 401 without one.
    static func keyDigest(of request: HTTPRequest) throws -> String {
        guard let header = request.headers["authorization"] else {
            throw unauthenticated("missing Authorization header: send `Authorization: Bearer <secret key>`")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].hasPrefix("sk_"), parts[1].utf8.count <= 200 else {
            throw unauthenticated("the Authorization header must be `Bearer sk_…`")
        }
        return Hex.encode(SHA256.hash(Array(parts[1].utf8)))
    }

    /// Before a read waits for its `min_position` (`ReadYourWrites`), its key must be one
    /// that may read `account` there: one the billing projection knows and has not revoked,
    /// or one the log issued after what the projection has folded and no later than
    /// `target` (read through the log's index of key events, 0010), so that a key issued
    /// a moment ago waits for its first read as before. Anybody else is answered at once,
    /// and learns nothing about the log (docs/security.md): no wait, no head position.
    /// The read itself authenticates again where it runs, after the wait.
    static func authorizeBeforeWaiting(_ request: HTTPRequest, account: BillingAccount, target: Int64,
                                       context: ServiceContext) throws {
        let digest = try keyDigest(of: request)
        // What the projection has folded is read before the projection is asked: a key it
        // folds in between is then in the log's range searched below, never in neither.
        var after = context.progress.position(BillingProjection().name) ?? 0
        var principal = try known(digest, context: context, pool: context.pool, caching: false)
        if principal == nil {
            search: while after < target {
                let page = try context.store.log.events(ofType: KeyIssued.type, after: after, through: target, limit: 500)
                for event in page {
                    let issued = try event.decode(KeyIssued.self)
                    if issued.sha256 == digest { principal = issued.principal; break search }
                }
                guard let last = page.last, page.count == 500 else { break }
                after = last.position
            }
        }
        guard let principal else { throw unauthenticated("unknown or revoked key") }
        try authorize(principal, toRead: account)
    }

    /// The principal may read `account`; anybody else gets the same 404 as for an account
    /// that does not exist (never 403: existence is not revealed).
    static func authorize(_ principal: KeyPrincipal, toRead account: BillingAccount) throws {
        let allowed: Bool
        switch (principal.kind, account) {
        case (.project, .project(let id)), (.payer, .payer(let id)): allowed = principal.id == id
        default: allowed = false
        }
        guard allowed else { throw BillingProblems.notFound(account) }
    }

    static func unauthenticated(_ detail: String) -> HTTPError {
        var response = HTTPResponse.problem(Problem(status: 401, code: "unauthenticated", detail: detail))
        response.headers.replaceOrAdd(name: "WWW-Authenticate", value: #"Bearer realm="ledger""#)
        return HTTPError(response: response)
    }
}

/// The problems of the billing surface, by code.
enum BillingProblems {
    static func notFound(_ account: BillingAccount) -> Problem {
        Problem(status: 404, code: "not_found", detail: "no \(account.kind) \(account.id) for this key")
    }

    static func invalidParameter(_ detail: String) -> Problem {
        Problem(status: 400, code: "invalid_parameter", detail: detail)
    }
}
