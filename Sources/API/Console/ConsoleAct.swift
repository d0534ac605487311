import LedgerDomain
import LedgerServices

/// An act the console offers (role `operator`): the fields of its form and the shared
/// act they make (LedgerServices), the one the matching `ledger admin` command runs. The
/// console runs every act the same way: form, confirmation showing the events, append.
struct ConsoleAct: Sendable {
    struct Field: Sendable {
        var name: String
        var label: String
        var hint: String
    }

    /// Its path segment: `/acts/<name>`.
    var name: String
    var title: String
    /// The reason, recorded with the operator's name, is always asked last.
    var fields: [Field]
    /// Parses the form into the act (the reason is in `reason`); a field that does not
    /// parse is a 422 `Problem` naming it.
    var parse: @Sendable (_ fields: [String: String], _ reason: String) throws -> any LedgerAct

    static let all: [ConsoleAct] = [.correct, .credit, .setPlan, .revokeKey, .releaseHold, .decideEducation]

    static func named(_ name: String) -> ConsoleAct? { all.first { $0.name == name } }
}
