import Foundation

/// Where a list page ends: the sort key of its last record, with the list it belongs to
/// (kind, sort, direction), written as opaque base64url text. The next page starts after
/// that key (keyset paging), so a record added or removed meanwhile moves no other.
public struct DirectoryCursor: Sendable, Equatable, CustomStringConvertible {
    public var kind: DirectoryKind
    public var sort: DirectoryListQuery.Sort
    public var descending: Bool
    /// The key's fields: (name key, id) or (position, id) for named records; (app, user)
    /// or (position, app, user) for users.
    public var key: [String]

    init(kind: DirectoryKind, sort: DirectoryListQuery.Sort, descending: Bool, key: [String]) {
        self.kind = kind
        self.sort = sort
        self.descending = descending
        self.key = key
    }

    /// The cursor `text` writes, for the list it must belong to; anything else (another
    /// list's cursor, a cursor edited by hand) is refused.
    public init(_ text: String, for kind: DirectoryKind, sort: DirectoryListQuery.Sort, descending: Bool) throws(DirectoryInputError) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 4096, let data = Data(base64Encoded: base64),
              let fields = try? JSONDecoder().decode([String].self, from: data), fields.count >= 5, fields[0] == "1",
              fields[1] == kind.rawValue, fields[2] == sort.rawValue, fields[3] == (descending ? "desc" : "asc") else {
            throw DirectoryInputError("invalid_cursor", "cursor is not one of this list's (\(kind.plural) by \(sort.rawValue), \(descending ? "desc" : "asc")): start from the first page")
        }
        let key = Array(fields[4...])
        let shape = 2 + (kind == .user && sort == .activity ? 1 : 0)
        guard key.count == shape, sort == .name || (Int64(key[0]).map { $0 >= 0 } ?? false) else {
            throw DirectoryInputError("invalid_cursor", "cursor is damaged: start from the first page")
        }
        self.init(kind: kind, sort: sort, descending: descending, key: key)
    }

    /// The opaque text.
    public var description: String {
        let fields = ["1", kind.rawValue, sort.rawValue, descending ? "desc" : "asc"] + key
        let data = (try? JSONEncoder().encode(fields)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The position a key by activity starts with.
    var position: Int64 { Int64(key[0]) ?? 0 }
}
