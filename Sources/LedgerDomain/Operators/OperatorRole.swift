/// What a console operator may do (docs/console.md, "Operators"). Each role includes the ones before it.
public enum OperatorRole: String, Codable, Sendable, CaseIterable, Comparable {
    /// Reads every page: search, timelines, journals, usage, plans, the catalog.
    case viewer
    /// And the auditor's tools: corrections across accounts and their export, the chain.
    case auditor
    /// And the acts: credit, correction, hold release, plan set, education decision, key revoke.
    case `operator`

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }

    /// Whether this role includes `other`.
    public func includes(_ other: Self) -> Bool { self >= other }
}
