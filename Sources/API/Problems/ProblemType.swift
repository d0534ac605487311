/// What one stable error code means, for the developer whose client received it: the
/// registry entry behind `/problems/{code}` and docs/errors.md (`ProblemTypes`).
public struct ProblemType: Sendable, Hashable {
    /// The code as the answer carries it (`code` of a problem or of the catalog's `Error`).
    public var code: String
    /// The HTTP statuses it comes with; empty when no HTTP surface answers it (an operator
    /// command's refusal, a background job's).
    public var statuses: [Int]
    /// One line, in words.
    public var title: String
    /// What happened, and whether anything was recorded.
    public var meaning: String
    /// What the client (or its operator) does next.
    public var action: String

    /// An entry: the code, its statuses (none for an operator's refusal), a one-line title,
    /// then what it means and what to do, in sentences. The texts may mark `code` and
    /// **strong** as Markdown does; the pages render those two marks and nothing else.
    public init(_ code: String, _ statuses: [Int], _ title: String, meaning: String, action: String) {
        self.code = code
        self.statuses = statuses
        self.title = title
        self.meaning = meaning
        self.action = action
    }

    /// The page about this code, relative to the API's root: what every problem's `type` is.
    public var path: String { ProblemTypes.pathPrefix + code }

    /// The statuses as a reader sees them: `409`, `400, 404`, or `—` for none.
    public var statusText: String {
        statuses.isEmpty ? "—" : statuses.map(String.init).joined(separator: ", ")
    }
}
