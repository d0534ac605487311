import LedgerJSON

extension JSONValue {
    /// This object with `members` set (added or replaced).
    func replacing(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(var all) = self else { return self }
        for (key, value) in members { all[key] = value }
        return .object(all)
    }

    /// This object without `key`.
    func removing(_ key: String) -> JSONValue {
        guard case .object(var all) = self else { return self }
        all[key] = nil
        return .object(all)
    }
}
