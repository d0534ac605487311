import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `POST /v1/usage/events`: batches of usage from the platform's metering services.
/// Decode → `UsageRecordAct` (the projects' state, `UsageDecider`, an append holding no
/// thread) → encode. The batch is accepted as a whole or refused as a whole.
enum UsageIngestionEndpoint {
    struct Accepted: Codable, Sendable {
        var accepted: Int
        var duplicates: Int
        var position: Int64
    }

    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let principal = try Authentication.principal(of: request, context: context)
        guard principal.kind == .service else {
            throw Problem(status: 403, code: "forbidden", detail: "usage ingestion needs an internal service key")
        }
        let act = UsageRecordAct(batch: try decode(request))
        let metadata = EventMetadata(actor: Actor(.service, principal.id), requestID: request.requestID)
        return try context.perform(act, metadata: metadata) { outcome, _ in
            switch outcome {
            case .appended(let result):
                let (accepted, duplicates) = act.counts(result)
                return .json(Accepted(accepted: accepted, duplicates: duplicates, position: result.position))
            case .alreadyRecorded(let recorded):
                return .json(Accepted(accepted: 0, duplicates: act.batch.count, position: recorded.position ?? 0))
            default:
                throw outcome.failure
            }
        }
    }

    /// `{"events": [...]}`, each event's members of the right JSON kinds; what their values
    /// may be is the decider's to say.
    static func decode(_ request: HTTPRequest) throws -> [UsageDecider.Measurement] {
        let body = try request.jsonBody()
        guard let object = body.objectValue, let events = object["events"]?.arrayValue else {
            throw Problem(status: 400, code: "invalid_body", detail: "expected an object {\"events\": [...]}")
        }
        if let unknown = object.keys.first(where: { $0 != "events" }) {
            throw Problem(status: 400, code: "invalid_body", detail: "unknown member \(unknown.debugDescription); expected only \"events\"")
        }
        do {
            try UsageDecider.checkSize(events.count)
        } catch {
            throw Problem(error)
        }
        var errors: [String] = []
        var batch: [UsageDecider.Measurement] = []
        for (i, value) in events.enumerated() {
            switch measurement(value) {
            case .success(let m): batch.append(m)
            case .failure(let problem): errors.append("events[\(i)]: \(problem.message)")
            }
        }
        guard errors.isEmpty else { throw Problem(UsageDecider.invalid(errors)) }
        return batch
    }

    struct Invalid: Error { var message: String }

    static func measurement(_ value: JSONValue) -> Result<UsageDecider.Measurement, Invalid> {
        guard let object = value.objectValue else { return .failure(Invalid(message: "must be an object")) }
        let known: Set<String> = ["id", "project_id", "meter", "quantity", "occurred_at"]
        if let unknown = object.keys.filter({ !known.contains($0) }).sorted().first {
            return .failure(Invalid(message: "unknown member \(unknown.debugDescription)"))
        }
        guard let id = object["id"]?.stringValue else { return .failure(Invalid(message: "id must be a string")) }
        guard let project = object["project_id"]?.stringValue else { return .failure(Invalid(message: "project_id must be a string")) }
        guard let meter = object["meter"]?.stringValue else { return .failure(Invalid(message: "meter must be a string")) }
        let quantity: Int64
        switch object["quantity"] {
        case .integer(let n)?: quantity = n
        case .string(let s)?:
            // B2's canonical decimal string, as amounts are written.
            guard let n = Millicredits(canonical: s)?.int64 else {
                return .failure(Invalid(message: "quantity \(s.debugDescription) is not a canonical integer"))
            }
            quantity = n
        case .decimal(let text)?: return .failure(Invalid(message: "quantity \(text) is out of range"))
        case nil: return .failure(Invalid(message: "quantity is required"))
        default: return .failure(Invalid(message: "quantity must be an integer"))
        }
        guard let text = object["occurred_at"]?.stringValue, let occurredAt = Timestamp(iso8601: text) else {
            return .failure(Invalid(message: "occurred_at must be an RFC 3339 instant such as 2026-11-29T12:00:00Z"))
        }
        return .success(UsageDecider.Measurement(id: id, projectID: project, meter: meter, quantity: quantity, occurredAt: occurredAt))
    }
}
