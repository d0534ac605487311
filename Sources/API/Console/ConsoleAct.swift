import LedgerDomain

/// An act the console offers (role `operator`): the fields of its form and the decision
/// they make, with the same decider as the matching `ledger admin` command. The console
/// runs every act the same way: form, confirmation showing the events, append.
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
    /// Decides on the read models as they are; a refusal is a 422 `Problem`.
    var decide: @Sendable (Console, [String: String]) throws -> Decision

    static let all: [ConsoleAct] = [.correct, .credit, .setPlan, .revokeKey, .releaseHold, .decideEducation]

    static func named(_ name: String) -> ConsoleAct? { all.first { $0.name == name } }
}
