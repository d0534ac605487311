import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Postgres

/// `POST /v1/usage/events`: batches of usage from the platform's metering services.
/// The batch is validated as a whole and appended as a whole, or not at all.
enum UsageIngestionEndpoint {
    static let maximumBatch = 1_000
    /// How far ahead of the service's clock an `occurred_at` may be (clock skew).
    static let futureTolerance: Int64 = 5 * 60 * 1_000_000

    struct Body { var events: [JSONValue] }

    /// With the project's own parser rather than Foundation's decoder, which took two thirds
    /// of the handler's time on a batch of 1,000.
    static func parseBody(_ request: HTTPRequest) throws -> Body {
        if let type = request.headers["content-type"], !HTTPRequest.isJSONMediaType(type) {
            throw Problem(status: 415, code: "unsupported_media_type", detail: "send the batch as application/json, not \(type)")
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(request.body)
        } catch {
            throw Problem(status: 400, code: "malformed_json", detail: "the body is not JSON: \(error.message)")
        }
        guard let object = document.objectValue, let events = object["events"]?.arrayValue else {
            throw Problem(status: 400, code: "invalid_body", detail: "expected an object {\"events\": [...]}")
        }
        if let unknown = object.keys.first(where: { $0 != "events" }) {
            throw Problem(status: 400, code: "invalid_body", detail: "unknown member \(unknown.debugDescription); expected only \"events\"")
        }
        return Body(events: events)
    }

    struct Accepted: Codable, Sendable {
        var accepted: Int
        var duplicates: Int
        var position: Int64
    }

    struct Usage: Hashable {
        var id: String
        var projectID: String
        var meter: Meter
        var quantity: Int64
        var occurredAt: Timestamp
    }

    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let principal = try Authentication.principal(of: request, context: context)
        guard principal.kind == .service else {
            throw Problem(status: 403, code: "forbidden", detail: "usage ingestion needs an internal service key")
        }
        let body = try parseBody(request)
        guard (1...maximumBatch).contains(body.events.count) else {
            throw Problem(status: 422, code: "invalid_usage_batch",
                          detail: "a batch carries 1 to \(maximumBatch) events, this one \(body.events.count)")
        }
        var errors: [String] = []
        var usages: [Usage] = []
        let now = context.now()
        for (i, value) in body.events.enumerated() {
            switch parse(value, now: now) {
            case .success(let u): usages.append(u)
            case .failure(let message): errors.append("events[\(i)]: \(message)")
            }
        }
        var unique: [String: Usage] = [:]
        for (i, u) in usages.enumerated() {
            if let earlier = unique[u.id], earlier != u {
                errors.append("events[\(i)]: id \(u.id) appears twice in the batch with different content")
            }
            unique[u.id] = u
        }
        if errors.isEmpty { errors += try checkAgainstLedger(usages, context: context) }
        guard errors.isEmpty else {
            throw Problem(status: 422, code: "invalid_usage_batch",
                          detail: "\(errors.count) of the batch's events are invalid; nothing was recorded", errors: errors)
        }
        var seen = Set<String>()
        let deduplicated = usages.filter { seen.insert($0.id).inserted }
        let metadata = EventMetadata(actor: Actor(.service, principal.id), requestID: request.requestID)
        let events = try deduplicated.map { u in
            EventToAppend(stream: "usage-" + u.projectID, type: UsageRecorded.type,
                          data: try JSONValueEncoder().encode(UsageRecorded(usageID: u.id, projectID: u.projectID, meter: u.meter, quantity: u.quantity)),
                          metadata: metadata, occurredAt: u.occurredAt, idempotencyKey: "usage:" + u.id)
        }
        let result: AppendResult
        switch appendAll(events, context: context) {
        case .success(let r): result = r
        case .failure(let error) where error.code == .idempotencyConflict:
            throw Problem(status: 409, code: "usage_id_conflict",
                          detail: "a usage id of this batch was recorded before with different content: \(error.message); nothing was recorded")
        case .failure(let error): throw error
        }
        let duplicates = result.events.filter(\.alreadyRecorded).count + (usages.count - deduplicated.count)
        return .json(Accepted(accepted: usages.count - duplicates, duplicates: duplicates, position: result.position))
    }

    private static func appendAll(_ events: [EventToAppend], context: ServiceContext) -> Result<AppendResult, AppendError> {
        Result { () throws(AppendError) -> AppendResult in try context.appendAndWait(AppendRequest(events: events)) }
    }

    enum Parsed { case success(Usage), failure(String) }

    static func parse(_ value: JSONValue, now: Timestamp) -> Parsed {
        guard let object = value.objectValue else { return .failure("must be an object") }
        let known: Set<String> = ["id", "project_id", "meter", "quantity", "occurred_at"]
        if let unknown = object.keys.filter({ !known.contains($0) }).sorted().first {
            return .failure("unknown member \(unknown.debugDescription)")
        }
        guard let id = object["id"]?.stringValue, (1...128).contains(id.utf8.count),
              id.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            return .failure("id must be 1-128 printable ASCII characters without spaces")
        }
        guard let project = object["project_id"]?.stringValue, Identifier.isValid(project) else {
            return .failure("project_id must be a project id")
        }
        guard let meterText = object["meter"]?.stringValue else { return .failure("meter is required") }
        guard let meter = Meter(rawValue: meterText) else {
            return .failure("unknown meter \(meterText.debugDescription); known: \(Meter.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let quantity: Int64
        switch object["quantity"] {
        case .integer(let n)?: quantity = n
        case .string(let s)?:
            guard let n = Millicredits(canonical: s)?.value else { return .failure("quantity \(s.debugDescription) is not a canonical integer") }
            quantity = n
        case nil: return .failure("quantity is required")
        default: return .failure("quantity must be an integer")
        }
        guard quantity >= 0 else { return .failure("quantity must not be negative, got \(quantity)") }
        guard let text = object["occurred_at"]?.stringValue, let occurredAt = Timestamp(iso8601: text) else {
            return .failure("occurred_at must be an RFC 3339 instant such as 2026-11-29T12:00:00Z")
        }
        guard occurredAt.microseconds <= now.microseconds + futureTolerance else {
            return .failure("occurred_at \(text) is in the future")
        }
        return .success(Usage(id: id, projectID: project, meter: meter, quantity: quantity, occurredAt: occurredAt))
    }

    /// Unknown projects, and months that are closing or closed for the pool that will be billed.
    static func checkAgainstLedger(_ usages: [Usage], context: ServiceContext) throws -> [String] {
        let projects = Array(Set(usages.map(\.projectID)))
        return try context.pool.read { conn in
            var funding: [String: [(effective: Int64, position: Int64, pool: String)]] = [:]
            for row in try conn.query("""
                SELECT project_id, effective_us, position, pool FROM proj_billing.funding WHERE project_id = ANY($1::text[])
                """, [PostgresTextArray(projects)]).rows {
                funding[try row.requireString(0), default: []].append((try row.requireInt64(1), try row.requireInt64(2), try row.requireString(3)))
            }
            let pools = Set(funding.values.flatMap { $0.map(\.pool) })
            var closed: Set<String> = []
            for row in try conn.query("""
                SELECT pool || '|' || month FROM proj_billing.pool_months WHERE status <> 'open' AND pool = ANY($1::text[])
                """, [PostgresTextArray(Array(pools))]).rows {
                closed.insert(try row.requireString(0))
            }
            var errors: [String] = []
            for (i, u) in usages.enumerated() {
                guard let history = funding[u.projectID], !history.isEmpty else {
                    errors.append("events[\(i)]: no project \(u.projectID)")
                    continue
                }
                let sorted = history.sorted { ($0.effective, $0.position) < ($1.effective, $1.position) }
                let pool = sorted.last { $0.effective <= u.occurredAt.microseconds }?.pool ?? sorted[0].pool
                let month = UTCMonth(containing: u.occurredAt).description
                if closed.contains(pool + "|" + month) {
                    errors.append("events[\(i)]: \(month) is closed for \(pool)")
                }
            }
            return errors
        }
    }
}
