extension JSONBytes {
    /// The members of an object in `jsonb` key order, as dictionary indices: shorter keys
    /// first, then bytewise (`memcmp`) among keys of equal length, as
    /// `lengthCompareJsonbStringValue` in PostgreSQL's `jsonb_util.c` orders them.
    ///
    /// Sorting indices moves no strings or values around, and comparing the lengths first
    /// settles most comparisons without touching the bytes.
    static func jsonbOrderedIndices(_ members: [String: JSONValue]) -> [Dictionary<String, JSONValue>.Index] {
        let keys = members.keys
        var entries = members.indices.map { (length: keys[$0].utf8.count, index: $0) }
        entries.sort { a, b in
            if a.length != b.length { return a.length < b.length }
            return keys[a.index].utf8.lexicographicallyPrecedes(keys[b.index].utf8)
        }
        return entries.map(\.index)
    }

    /// The members of an object in code point order (bytewise over UTF-8), as dictionary
    /// indices.
    static func bytewiseOrderedIndices(_ members: [String: JSONValue]) -> [Dictionary<String, JSONValue>.Index] {
        let keys = members.keys
        var order = Array(members.indices)
        order.sort { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        return order
    }
}
