/// What `/readyz` on the public port answers: ready or not, and why in words.
///
/// A load balancer needs the status (and the 200 or 503 that goes with it); a person
/// reading a 503 needs to know whether the database, a migration or the projector is the
/// matter. Nobody on the internet needs the log's head, the projections' positions, the
/// last checkpoint or where the replicas are: those are on the operations listener
/// (`LEDGER_METRICS_ADDRESS`), and the head is otherwise shown only to a caller allowed
/// the read (docs/security.md, "Health without the map").
public struct PublicReadiness: Sendable, Encodable, Equatable {
    /// `ready` or `not_ready`.
    public var status: String
    /// One of `Readiness.Reason`'s fixed sentences: never a number, a name or an error's text.
    public var reason: String

    /// The public face of `readiness`.
    public init(_ readiness: Readiness) {
        status = readiness.ready ? "ready" : "not_ready"
        reason = readiness.reason
    }

    /// Whether the service is ready (the answer is 200, else 503).
    public var ready: Bool { status == "ready" }
}
