/// Limits and policies of `JSONValue.parse`.
///
/// The defaults accept the documents PostgreSQL's `jsonb` accepts, except for nesting
/// deeper than 256 levels and numbers whose exponent inflates them by more than 64 bytes
/// (both would let hostile input cost far more stack or memory than its size suggests),
/// and plus `\u0000`, which is valid JSON (see `allowsNUL`).
public struct JSONParseOptions: Sendable, Hashable {
    /// What to do when an object repeats a key.
    public enum DuplicateKeys: Sendable, Hashable {
        /// Keep the last value, as PostgreSQL's `jsonb` does.
        case lastWins
        /// Refuse the document with `JSONParseError.Code.duplicateKey`.
        case reject
    }

    /// The deepest nesting of arrays and objects accepted; deeper input fails with
    /// `too_deep` before it can exhaust the stack.
    public var maxDepth: Int
    /// What to do when an object repeats a key; `jsonb` keeps the last value.
    public var duplicateKeys: DuplicateKeys
    /// How many bytes longer than its literal a number's canonical text may be. Only an
    /// exponent makes it longer (`1e100000` is 8 bytes in and 100001 out), so this bounds
    /// amplification without limiting plainly written numbers: the text PostgreSQL prints
    /// never has an exponent and always parses back. `Int.max` leaves only `numeric`'s own
    /// limits.
    public var maxNumberGrowth: Int
    /// Whether `\u0000` is accepted. It is valid JSON, so by default it is, and
    /// `validateForJSONB()` refuses the value later; `false` refuses it while parsing, as
    /// PostgreSQL does, even inside a value that a repeated key then discards.
    public var allowsNUL: Bool
    /// Whether every number must be written as a plain integer (`-`, digits): no
    /// fraction, no exponent, so that `1e3` is not silently 1000 and `1.0` not 1.
    public var plainIntegersOnly: Bool

    public init(maxDepth: Int = 256, duplicateKeys: DuplicateKeys = .lastWins, maxNumberGrowth: Int = 64, allowsNUL: Bool = true,
                plainIntegersOnly: Bool = false) {
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
        self.maxNumberGrowth = maxNumberGrowth
        self.allowsNUL = allowsNUL
        self.plainIntegersOnly = plainIntegersOnly
    }

    /// Depth 256, last key wins, numbers may grow by at most 64 bytes.
    public static let `default` = JSONParseOptions()

    /// What every request body is held to: a key given twice is refused (two readers of
    /// the same document must never see different values), numbers are plain integers
    /// (no amount or count here has a fraction), `\u0000` is refused (PostgreSQL cannot
    /// store it), and nesting stops at 64 levels.
    public static let request = JSONParseOptions(maxDepth: 64, duplicateKeys: .reject, allowsNUL: false, plainIntegersOnly: true)

    /// Like `default`, but any number PostgreSQL's `numeric` accepts is accepted, however
    /// far its exponent inflates it; for trusted input.
    public static let unboundedNumbers = JSONParseOptions(maxNumberGrowth: .max)
}
