import LedgerDomain

/// Who asks a query: the API's secret key, an app's publishable key (the catalog's SDK
/// surface), a signed-in person of an organization (the App Store surfaces), or an
/// operator (a console session, `ledger admin`). The rule of who may read what is written
/// here once, for every surface.
public enum Reader: Sendable, Hashable {
    /// A secret key of the API, by whom it speaks for.
    case key(KeyPrincipal)
    /// An app's publishable key (`X-ZeroSettle-Key`), by the app it belongs to.
    case app(String)
    /// A signed-in person of the App Store surfaces.
    case person(AppStoreReader)
    /// An operator: reads every account and the ledger as a whole.
    case `operator`(String)
    /// Nobody in particular (a request without a credential): reads only what the service
    /// makes public.
    case anybody

    /// A key reads its own payer or project only, an app's key its own app only, a person
    /// the organizations they belong to only (membership is the organization's state, so
    /// a query of one answers nothing to a stranger); anybody else is answered as for a
    /// subject that does not exist (existence is not revealed, docs/security.md).
    public func mayRead(_ subject: QuerySubject) -> Bool {
        switch (self, subject) {
        case (.operator, _):
            return true
        case (.key(let principal), .account(let account)):
            switch (principal.kind, account) {
            case (.project, .project(let id)), (.payer, .payer(let id)): return principal.id == id
            default: return false
            }
        case (.app(let reader), .app(let app)):
            return reader == app
        case (.person, .organization):
            return true
        case (.key, .ledger), (.anybody, .account), (.anybody, .ledger), (.anybody, .proofs),
             (.key, .app), (.key, .organization), (.app, .account), (.app, .ledger), (.app, .proofs), (.app, .checkpoints),
             (.app, .organization), (.person, .account), (.person, .ledger), (.person, .proofs), (.person, .checkpoints),
             (.person, .app), (.anybody, .app), (.anybody, .organization):
            return false
        case (.key(let principal), .proofs):
            return principal.kind == .auditor
        case (.key(let principal), .checkpoints(let isPublic)):
            return isPublic || principal.kind == .auditor
        case (.anybody, .checkpoints(let isPublic)):
            return isPublic
        }
    }
}
