import LedgerDomain
import Projections

/// A webhook subscription of a project, on a new `webhook-<id>` stream, for subjects the
/// projections know (payers and projects in billing, organizations, apps of the catalog).
/// The front end checks the URL against its outbound policy before.
public struct WebhookAddAct: LedgerAct {
    public var id: String
    public var project: String
    public var url: String
    public var subjects: [WebhookSubject]
    public var types: [String]
    public var balanceLowThreshold: Millicredits?

    public init(id: String, project: String, url: String, subjects: [WebhookSubject], types: [String], balanceLowThreshold: Millicredits?) {
        self.id = id
        self.project = project
        self.url = url
        self.subjects = subjects
        self.types = types
        self.balanceLowThreshold = balanceLowThreshold
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let accounts = try reads.accountsState(payers: subjects.filter { $0.kind == .payer }.map(\.id),
                                               projects: [project] + subjects.filter { $0.kind == .project }.map(\.id))
        var known = Set(accounts.payers.map { WebhookSubject(.payer, $0) } + accounts.projects.map { WebhookSubject(.project, $0) })
        for subject in subjects where subject.kind == .org {
            if try !reads.organizations.organizations(id: subject.id).isEmpty { known.insert(subject) }
        }
        for subject in subjects where subject.kind == .app {
            if try !(CatalogSnapshot.apps(id: subject.id, connections: reads.connections) ?? []).isEmpty { known.insert(subject) }
        }
        return try WebhookDecider.add(id: id, project: project, url: url, subjects: subjects, types: types,
                                      balanceLowThreshold: balanceLowThreshold, projectExists: accounts.projects.contains(project),
                                      known: known)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == WebhookDecider.stream(id) && (actualVersion ?? 0) > 0 ? Refusal(.alreadyExists, "webhook \(id) already exists") : nil
    }
}
