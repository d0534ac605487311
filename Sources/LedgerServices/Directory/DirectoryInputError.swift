/// A list or search asked in a way that cannot be answered: a cursor that is not one of
/// this list's, an unknown sort or kind. Each front end makes it a 400 or a usage error.
public struct DirectoryInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable: `invalid_cursor`, `invalid_sort`, `invalid_kind`, `invalid_limit`.
    public var code: String
    public var description: String

    public init(_ code: String, _ description: String) {
        self.code = code
        self.description = description
    }
}
