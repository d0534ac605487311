import LedgerDomain

/// Who asks a query: the API's secret key, or an operator (a console session, `ledger
/// admin`). The rule of who may read what is written here once, for every surface.
public enum Reader: Sendable, Hashable {
    /// A secret key of the API, by whom it speaks for.
    case key(KeyPrincipal)
    /// An operator: reads every account and the ledger as a whole.
    case `operator`(String)
    /// Nobody in particular (a request without a credential): reads only what the service
    /// makes public.
    case anybody

    /// A key reads its own payer or project only; anybody else is answered as for a
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
        case (.key, .ledger), (.anybody, .account), (.anybody, .ledger), (.anybody, .proofs):
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
