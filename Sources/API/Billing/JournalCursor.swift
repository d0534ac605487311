import Crypto
import HTTP
import LedgerDomain

/// The journal's opaque cursor: the last entry returned, bound to the account it was
/// issued for and signed, so that a malformed, altered or foreign cursor is a 400, never
/// a 500 and never another account's data.
struct JournalCursor {
    static let version: UInt8 = 1

    static func encode(_ last: JournalEntryID, account: String, secret: [UInt8]) -> String {
        var payload: [UInt8] = [version]
        withUnsafeBytes(of: UInt64(bitPattern: last.position).bigEndian) { payload.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(bitPattern: last.index).bigEndian) { payload.append(contentsOf: $0) }
        return Base64URL.encode(payload + tag(payload, account: account, secret: secret))
    }

    static func decode(_ text: String, account: String, secret: [UInt8]) throws(Problem) -> JournalEntryID {
        let invalid = Problem(status: 400, code: "invalid_cursor",
                              detail: "the cursor is not one this service issued for this account: start again without `cursor`")
        guard text.utf8.count <= 64, let bytes = Base64URL.decode(text), bytes.count == 1 + 8 + 4 + 16, bytes[0] == version else { throw invalid }
        let payload = Array(bytes[0..<13])
        guard constantTimeEquals(Array(bytes[13...]), tag(payload, account: account, secret: secret)) else { throw invalid }
        let position = bytes[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let index = bytes[9..<13].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard position > 0, position <= UInt64(Int64.max), index <= UInt32(Int32.max) else { throw invalid }
        return JournalEntryID(position: Int64(position), index: Int32(index))
    }

    private static func tag(_ payload: [UInt8], account: String, secret: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: secret, data: Array("ledger-journal-cursor|\(account)|".utf8) + payload).prefix(16))
    }
}
