/// The request target of the request line (`/path?query`), split and percent-decoded.
struct RequestTarget: Sendable {
    /// The path as received, still percent-encoded; the router splits this one, so that an
    /// encoded `/` (`%2F`) inside a path parameter does not create a segment.
    var encodedPath: String
    var path: String
    var queryItems: [(name: String, value: String)]

    /// Parses an origin-form target. Rejects, as 400 `invalid_request_target`, anything
    /// that is not `/…`, a broken `%` escape, bytes that are not UTF-8 once decoded, and
    /// an encoded NUL (PostgreSQL text cannot hold one, and nothing legitimate sends it).
    init(parsing target: String) throws(Problem) {
        guard target.hasPrefix("/") else {
            throw Self.invalid("The request target must be a path starting with \"/\".")
        }
        let rawPath: Substring
        let rawQuery: Substring?
        if let mark = target.firstIndex(of: "?") {
            rawPath = target[..<mark]
            rawQuery = target[target.index(after: mark)...]
        } else {
            rawPath = target[...]
            rawQuery = nil
        }
        guard let path = Self.percentDecode(rawPath, plusIsSpace: false) else {
            throw Self.invalid("The path has an invalid percent-encoding.")
        }
        var items: [(name: String, value: String)] = []
        for pair in rawQuery?.split(separator: "&", omittingEmptySubsequences: true) ?? [] {
            let equals = pair.firstIndex(of: "=")
            let rawName = equals.map { pair[..<$0] } ?? pair
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let name = Self.percentDecode(rawName, plusIsSpace: true),
                let value = Self.percentDecode(rawValue, plusIsSpace: true)
            else {
                throw Self.invalid("The query string has an invalid percent-encoding.")
            }
            items.append((name: name, value: value))
        }
        self.encodedPath = String(rawPath)
        self.path = path
        self.queryItems = items
    }

    /// Decodes `%XX` escapes (and `+` as a space in queries, as HTML forms encode it);
    /// `nil` for a malformed escape, an encoded NUL or a result that is not UTF-8.
    static func percentDecode(_ text: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
                let decoded = h << 4 | l
                guard decoded != 0 else { return nil }
                bytes.append(decoded)
                index = utf8.index(after: low)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func invalid(_ detail: String) -> Problem {
        Problem(status: 400, code: "invalid_request_target", detail: detail)
    }
}
