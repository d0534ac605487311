import LedgerJSON

/// What a reader may see of an event's data: the one place that decides it for every
/// surface that shows an event to someone, so that no surface cuts it its own way.
///
/// - A **tenant** (a project, a payer, an organization, an app: the subject of a webhook
///   message or of a pull feed) sees an event only through an allow-list written per event
///   type, and only the parts that are its own: a funded project sees its own line of its
///   payer's month close (U6), never its siblings' (U7). A type without an entry here
///   shows a tenant nothing (`{}`): a new event type is private until someone decides what
///   of it a tenant may see, and adds it here and to `TenantDisclosureTests`.
/// - **Staff** (operators and auditors, on the console, `ledger log` and `ledger export`)
///   see every event whole: the log is theirs to audit, and it holds no secret (keys and
///   passwords are kept as hashes, outside the log or as SHA-256).
public enum EventDisclosure {
    /// Who reads.
    public enum Audience: Sendable, Hashable {
        case tenant(WebhookSubject)
        case staff
    }

    /// `data`, of an event of `type` on `stream`, as `audience` may see it.
    public static func data(ofType type: String, stream: String, _ data: JSONValue, for audience: Audience) -> JSONValue {
        switch audience {
        case .staff: return data
        case .tenant(let subject): return rules[type]?(Event(stream: stream, data: data), subject) ?? .object([:])
        }
    }

    private struct Event {
        var stream: String
        var data: JSONValue
        subscript(key: String) -> JSONValue? { data[key] }
    }

    /// The event types a tenant may see something of: exactly those that make webhook
    /// messages (`WebhookMessages.sources`).
    public static var typesShownToTenants: Set<String> { Set(rules.keys) }

    private typealias Rule = @Sendable (Event, WebhookSubject) -> JSONValue?

    /// Per type: the fields a tenant sees, when the event is about it.
    private static let rules: [String: Rule] = [
        PlanSet.type: { data, subject in
            guard data["pool"]?.stringValue == subject.description else { return nil }
            return .object(pick(data, ["pool", "plan", "allowance_storage_bytes"]))
        },
        // On the owner stream of the corrected entry's pool: that owner's alone.
        EntryCorrected.type: { event, subject in
            guard WebhookMessages.owner(ofStream: event.stream) == subject else { return nil }
            return .object(pick(event, ["entry_id", "amount", "reason"]))
        },
        MonthClosed.type: { data, subject in
            var view = pick(data, ["pool", "month", "allowance_storage_bytes", "storage_price_per_gib_month"])
            let charges = data["charges"]?.arrayValue ?? []
            if data["pool"]?.stringValue == subject.description {
                view["charges"] = .array(charges)      // U7: the pool's owner reads every project
            } else if subject.kind == .project {
                let own = charges.filter { $0["project_id"]?.stringValue == subject.id }
                guard !own.isEmpty else { return nil }
                view["charges"] = .array(own)          // U6: a funded project, its own line only
            } else {
                return nil
            }
            return .object(view)
        },
        StaffPlanDecided.type: { data, subject in orgField(data, subject, ["org_id", "plan"]) },
        BillingPlanChanged.type: { data, subject in orgField(data, subject, ["org_id", "plan"]) },
        AppStoreTransactionRecorded.type: { data, subject in
            orgField(data, subject, ["org_id", "original_transaction_id", "transaction_id", "product_id", "plan", "purchase_date",
                                     "expires_date", "revocation_date", "signed_date", "environment", "via",
                                     "expired_when_recorded", "in_app_ownership_type", "offer_type", "offer_identifier",
                                     "offer_discount_type"])   // not person_id: who bought is the app's to know
        },
        AppStoreSubscriptionEnded.type: { data, subject in
            orgField(data, subject, ["org_id", "original_transaction_id", "reason", "signed_date"])
        },
        WebhookBalanceThresholdCrossed.type: { data, subject in
            guard data["subject"]?.stringValue == subject.description else { return nil }
            return .object(pick(data, ["subject", "threshold", "available", "below"]))
        },
    ]

    private static func orgField(_ data: Event, _ subject: WebhookSubject, _ fields: [String]) -> JSONValue? {
        guard subject.kind == .org, data["org_id"]?.stringValue == subject.id else { return nil }
        return .object(pick(data, fields))
    }

    /// The members of `data` named by `fields` that it has.
    private static func pick(_ data: Event, _ fields: [String]) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for field in fields { if let value = data[field] { out[field] = value } }
        return out
    }
}
