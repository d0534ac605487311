import API
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
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
    var pool: PostgresPool { services.pool }

    // MARK: Appending

    func metadata(correlationID: String? = nil) throws -> EventMetadata {
        guard let identity else {
            // A read-only command never appends; reaching this is a programming error.
            throw AdminError(.appendFailed, "this command does not append events")
        }
        return EventMetadata(actor: identity.actor, requestID: requestID, correlationID: correlationID, reason: identity.reason)
    }

    func event<E: DomainEvent>(_ event: E, on stream: String, correctsPosition: Int64? = nil,
                               correlationID: String? = nil) throws -> EventToAppend {
        EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                      metadata: try metadata(correlationID: correlationID), correctsPosition: correctsPosition)
    }

    /// Appends atomically, under the command's idempotency key unless the command names
    /// a key of its own (a month close, whose keys say which month). `refusal` turns an
    /// append error it recognises (typically a stream that is not at the expected
    /// version) into the command's own message.
    func append(_ events: [EventToAppend], expecting expected: [String: ExpectedVersion] = [:], idempotencyKey: String? = nil,
                refusal: (AppendError) -> AdminError? = { _ in nil }) throws -> [AppendedRecord] {
        let result: AppendResult
        do {
            result = try services.store.append(AppendRequest(events: events, expectedVersions: expected,
                                                             idempotencyKey: idempotencyKey ?? self.idempotencyKey))
        } catch {
            if let mapped = refusal(error) { throw mapped }
            let rerun = "re-run the same command with --idempotency-key \(self.idempotencyKey)"
            switch error.code {
            case .wrongExpectedVersion:
                throw AdminError(.conflict, "\(error.stream ?? "a stream") changed while the command ran (\(error.message)); nothing was appended: check and retry")
            case .idempotencyConflict:
                throw AdminError(.conflict, "\(error.message); nothing was appended")
            case .outcomeUnknown:
                throw AdminError(.outcomeUnknown,
                    "the database failed while committing and whether the command was recorded is unknown (\(error.message)): \(rerun), which records it at most once")
            case .unavailable, .closed:
                throw AdminError(.appendFailed, "the event log could not be written, nothing was appended (\(error.message)): \(rerun) once the database is back")
            default:
                throw AdminError(.appendFailed, "the event store did not take the append: \(error)")
            }
        }
        return zip(events, result.events).map { event, appended in
            AppendedRecord(type: event.type, stream: appended.stream, streamVersion: appended.streamVersion,
                           position: appended.position, eventID: appended.eventID, data: event.data,
                           correctsPosition: event.correctsPosition, alreadyRecorded: appended.alreadyRecorded || result.replayed)
        }
    }

    // MARK: Reading the projection

    /// Waits until the billing projection has applied everything in the log now, so that
    /// the checks that follow see every event recorded before the command started.
    func catchUp() throws {
        try waitForBilling(position: try services.store.headPosition())
    }

    /// Waits until the billing projection has applied `target`; a projection that stopped
    /// on a poison event is reported at once rather than after the timeout.
    func waitForBilling(position target: Int64) throws {
        let deadline = Date().addingTimeInterval(services.projectionTimeout)
        while true {
            // A missing schema is waited for too: a projector that has just started creates it.
            let checkpoint = try pool.read { try ProjectionSchema.checkpoint(BillingProjection().schema, on: $0) }
            if let checkpoint, checkpoint.position >= target { return }
            if let checkpoint, let failed = checkpoint.failedPosition {
                throw AdminError(.projectionUnavailable,
                    "the billing projection stopped at position \(failed) (\(checkpoint.error ?? "no error recorded")); fix it before operating on the ledger (docs/operations.md)")
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                guard let checkpoint else {
                    throw AdminError(.projectionUnavailable, "the billing projection does not exist yet: start the projector (`ledger project`) and retry")
                }
                throw AdminError(.projectionBehind,
                    "the projector has not caught up with the log: is `ledger project` running? (the billing projection is at position \(checkpoint.position), the log at \(target), after waiting \(Int(services.projectionTimeout.rounded())) s)")
            }
            if checkpoint == nil {
                Thread.sleep(forTimeInterval: min(0.05, remaining))
            } else if try BillingAdminQueries.waitForProjection(pool, position: target, timeout: min(1, remaining)) {
                // In slices, so that a projection that stops meanwhile is noticed.
                return
            }
        }
    }

    func requirePayer(_ id: String) throws {
        guard try BillingAdminQueries.payerExists(pool, id) else { throw AdminError(.notFound, "payer \(id) does not exist") }
    }

    func requireProject(_ id: String) throws {
        guard try BillingAdminQueries.projectExists(pool, id) else { throw AdminError(.notFound, "project \(id) does not exist") }
    }

    /// The payer or project that owns `pool` must exist.
    func requireOwner(of pool: Pool) throws {
        switch pool {
        case .payer(let id): try requirePayer(id)
        case .project(let id): try requireProject(id)
        }
    }

    /// A pool the billing projection knows: one that funded a project, or was credited or given a plan.
    func requireKnownPool(_ owner: Pool) throws {
        try requireOwner(of: owner)
        let known = try pool.read { conn in
            try conn.query("SELECT 1 FROM proj_billing.pools WHERE pool = $1", [owner.description]).rowCount == 1
        }
        guard known else {
            throw AdminError(.notFound, "\(owner) is not a pool: the project has never been self-paying, credited or given a plan")
        }
    }

    /// A refusal for a stream that was expected to be absent (a create) but exists.
    static func whenExists(_ stream: String, _ error: AdminError) -> (AppendError) -> AdminError? {
        { $0.code == .wrongExpectedVersion && $0.stream == stream && ($0.actualVersion ?? 0) > 0 ? error : nil }
    }
}
