import Crypto
import HTTP
import LedgerDomain
import LedgerServices

/// Secret keys: `Authorization: Bearer sk_…`, looked up by their SHA-256, once a request.
enum Authentication {
    /// Whom the request's key speaks for, as of `position` (a read's `min_position`; nil:
    /// the log's head), looked up once (`SecretKeys`); 401 for a missing, unknown or
    /// revoked key. Nothing waits before this: a stranger is answered at once.
    static func principal(of request: HTTPRequest, context: ServiceContext, at position: Int64? = nil) throws -> KeyPrincipal {
        guard let principal = try context.keys.principal(sha256: try keyDigest(of: request), through: position) else {
            throw unauthenticated("unknown or revoked key")
        }
        return principal
    }

    /// The request's key as a query's reader.
    static func reader(of request: HTTPRequest, context: ServiceContext, at position: Int64?) throws -> Reader {
        .key(try principal(of: request, context: context, at: position))
    }

    /// The SHA-256 (hex) of the request's `Bearer sk_…` key; 401 without one.
    static func keyDigest(of request: HTTPRequest) throws -> String {
        guard let header = request.headers["authorization"] else {
            throw unauthenticated("missing Authorization header: send `Authorization: Bearer <secret key>`")
        }
        guard let digest = bearerDigest(header) else { throw unauthenticated("the Authorization header must be `Bearer sk_…`") }
        return digest
    }

    /// The SHA-256 (hex) of the key in an `Authorization` value of the form `Bearer sk_…`;
    /// nil for any other form.
    static func bearerDigest(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].hasPrefix("sk_"), parts[1].utf8.count <= 200 else { return nil }
        return Hex.encode(SHA256.hash(Array(parts[1].utf8)))
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

    /// A page's `limit`: from 1 to `JournalQuery.maximumLimit`, `JournalQuery.defaultLimit` when absent.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return JournalQuery.defaultLimit }
        guard let n = Int(text), String(n) == text, (1...JournalQuery.maximumLimit).contains(n) else {
            throw invalidParameter("limit must be an integer from 1 to \(JournalQuery.maximumLimit), got \(text.debugDescription)")
        }
        return n
    }
}
