import Foundation
import LedgerDomain
import LedgerJSON

/// Typed reads of a payload's members, each failure a `malformed_payload` error naming the
/// field. Apple adds fields over time, so unknown ones are ignored; a known field with
/// the wrong type is refused. `null` counts as absent.
struct PayloadFields {
    let members: [String: JSONValue]
    /// "transaction", "renewal info", "notification data": for messages.
    let kind: String

    init(_ value: JSONValue, kind: String) throws(AppStoreError) {
        guard case .object(let members) = value else { throw AppStoreError(.malformedPayload, "the \(kind) is not a JSON object") }
        self.members = members
        self.kind = kind
    }

    func has(_ key: String) -> Bool { members[key].map { $0 != .null } ?? false }

    private func missing(_ key: String) -> AppStoreError {
        AppStoreError(.malformedPayload, "the \(kind) has no \(key)")
    }

    private func wrong(_ key: String, _ expected: String) -> AppStoreError {
        AppStoreError(.malformedPayload, "\(key) of the \(kind) is not \(expected)")
    }

    func string(_ key: String) throws(AppStoreError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) throws(AppStoreError) -> String? {
        guard let value = members[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw wrong(key, "a string") }
        return text
    }

    /// Apple writes instants as whole milliseconds since 1970.
    func timestamp(_ key: String) throws(AppStoreError) -> Timestamp {
        guard let value = try optionalTimestamp(key) else { throw missing(key) }
        return value
    }

    func optionalTimestamp(_ key: String) throws(AppStoreError) -> Timestamp? {
        guard let value = members[key], value != .null else { return nil }
        guard let milliseconds = value.int64Value, let instant = Timestamp(milliseconds: milliseconds) else {
            throw wrong(key, "a whole number of milliseconds since 1970")
        }
        return instant
    }

    func optionalInt64(_ key: String) throws(AppStoreError) -> Int64? {
        guard let value = members[key], value != .null else { return nil }
        guard let number = value.int64Value else { throw wrong(key, "an integer") }
        return number
    }

    func optionalInt(_ key: String) throws(AppStoreError) -> Int? {
        guard let number = try optionalInt64(key) else { return nil }
        guard let small = Int(exactly: number) else { throw wrong(key, "an integer") }
        return small
    }

    func optionalBool(_ key: String) throws(AppStoreError) -> Bool? {
        guard let value = members[key], value != .null else { return nil }
        guard let flag = value.boolValue else { throw wrong(key, "true or false") }
        return flag
    }

    /// A UUID in any letter case; an empty string counts as absent.
    func optionalUUID(_ key: String) throws(AppStoreError) -> UUID? {
        guard let text = try optionalString(key), !text.isEmpty else { return nil }
        guard let uuid = UUID(uuidString: text) else { throw wrong(key, "a UUID") }
        return uuid
    }

    func object(_ key: String) throws(AppStoreError) -> PayloadFields? {
        guard let value = members[key], value != .null else { return nil }
        return try PayloadFields(value, kind: "\(key) of the \(kind)")
    }
}
