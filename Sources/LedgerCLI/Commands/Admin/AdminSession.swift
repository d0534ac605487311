import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections

/// One run of an operator command: who runs it and why, the injected services, and the
/// steps every command shares (catching up with the log, checking that what a request
/// names exists, appending with the operator's metadata).
struct AdminSession {
    /// The operator and the reason of an operator act; nil for read-only commands.
    struct Identity {
        var actor: Actor
        var reason: String
    }

    let services: AdminServices
    let identity: Identity?
    /// Recorded as every event's `request_id`: the events of one invocation share it.
    let requestID: String
    /// The key of the command's append (`--idempotency-key`, or one made up for this run
    /// and printed): running the command again with it never appends twice.
    let idempotencyKey: String

    var now: Timestamp { services.now() }
    var connections: PostgresPool { services.connections }

    /// `query`'s answer for the operator running the command (operators read every
    /// account), read at once; nil when its subject does not exist.
    func answer<Q: LedgerQuery>(_ query: Q) throws -> Q.Answer? {
        try QueryRunner(connections: connections, clock: services.now).answer(query, as: .operator(identity?.actor.id ?? "ledger admin"))
    }

    // MARK: Appending

    func metadata(correlationID: String?) throws -> EventMetadata {
        guard let identity else {
            // A read-only command never appends; reaching this is a programming error.
            throw AdminError(.appendFailed, "this command does not append events")
        }
        return EventMetadata(actor: identity.actor, requestID: requestID, correlationID: correlationID, reason: identity.reason)
    }

    // MARK: Reading the projection

    /// Waits until the billing projection has applied everything in the log now, so that
    /// the checks that follow see every event recorded before the command started.
    func catchUp() throws {
        try waitForBilling(position: try services.store.log.headPosition())
    }

    /// Waits until the billing projection has applied `target`; a projection that stopped
    /// on a poison event is reported at once rather than after the timeout.
    func waitForBilling(position target: Int64) throws {
        try waitFor(BillingProjection(), position: target)
    }

    /// Waits until `projection` has applied everything in the log now: what a read-only
    /// command prints then includes every event recorded before it started.
    func catchUp(_ projection: any Projection) throws {
        try waitFor(projection, position: try services.store.log.headPosition())
    }

    func waitFor(_ projection: any Projection, position target: Int64) throws {
        let name = projection.name
        do {
            if try ProjectionWait.until(projection, reaches: target, connections: connections, timeout: services.projectionTimeout) { return }
        } catch let stopped as ProjectionWait.Stopped {
            throw AdminError(.projectionUnavailable,
                "the \(name) projection stopped at position \(stopped.position) (\(stopped.error)); set the event aside or fix the code before operating on the ledger (docs/operations.md)")
        }
        guard let checkpoint = try connections.read({ try ProjectionSchema.progress(projection.schema, on: $0) }) else {
            throw AdminError(.projectionUnavailable, "the \(name) projection does not exist yet: start the projector (`ledger project`) and retry")
        }
        throw AdminError(.projectionBehind,
            "the projector has not caught up with the log: is `ledger project` running? (the \(name) projection is at position \(checkpoint.position), the log at \(target), after waiting \(Int(services.projectionTimeout.rounded())) s)")
    }

    /// The billing projection's reads.
    var billing: BillingReadModel { BillingReadModel(connections: connections) }

    /// What the account deciders need to judge `pool` as a pool.
    func accountsState(_ pool: Pool) throws -> AccountsDecider.State {
        try catchUp()
        return try billing.accountsState(of: pool)
    }
}
