import HTTP

/// Every stable error code the ledger answers with, and what each means: the one source
/// of truth that the API serves (`GET /problems`, `GET /problems/{code}`, the pages every
/// problem's `type` resolves to) and that `ledger errors --markdown` prints as
/// docs/errors.md. A test scans Sources/ for the codes the code emits and holds this
/// registry to them, both ways, so the pages cannot fall behind the code.
///
/// One entry per code, however many routes give it: a client branches on the code, so the
/// page says every way it arises. Entries are grouped by the surface that mostly gives
/// them; the groups' files are `ProblemTypes+<Group>.swift`.
public enum ProblemTypes {
    /// Where the pages live on the public port; `Problem.typeBase` is the same.
    public static let pathPrefix = Problem.typeBase

    /// The groups, in reading order: the edge and the dependencies first (any route may
    /// answer them), then each surface, then what only operators see.
    public static let groups: [ProblemTypeGroup] = [
        edge, dependencies, billing, catalog, appStore, promotionalOffers, stripe, operators,
    ]

    /// Every entry, in reading order.
    public static var all: [ProblemType] { groups.flatMap(\.types) }

    private static let byCode: [String: ProblemType] = Dictionary(
        groups.flatMap(\.types).map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The entry for `code`, if the ledger answers with it.
    public static func type(of code: String) -> ProblemType? { byCode[code] }

    /// The group `code` is listed in.
    public static func group(of code: String) -> ProblemTypeGroup? {
        groups.first { $0.types.contains { $0.code == code } }
    }
}
