/// The codes of one surface or subsystem, in the order docs/errors.md and `/problems`
/// list them.
public struct ProblemTypeGroup: Sendable {
    /// The heading.
    public var name: String
    /// The fragment the heading is linked by (`#billing`).
    public var anchor: String
    /// One or two sentences: who answers these codes, in which shape.
    public var summary: String
    /// Its codes, in reading order.
    public var types: [ProblemType]

    /// A group of `types` under the heading `name`, linked by `anchor`.
    public init(name: String, anchor: String, summary: String, types: [ProblemType]) {
        self.name = name
        self.anchor = anchor
        self.summary = summary
        self.types = types
    }
}
