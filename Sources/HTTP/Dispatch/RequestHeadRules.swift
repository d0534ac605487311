/// The checks of RFC 9112 (message syntax and framing) and RFC 9110 (methods, fields)
/// that the server makes on a request head, after libmicrohttpd has split it and before
/// any body is read. Each failure closes the connection: a head that breaks them cannot
/// be trusted to say where the next request starts (RFC 9112 §6.3, request smuggling).
enum RequestHeadRules {
    /// The methods this server knows (RFC 9110 §9). A token outside this set is a 501; a
    /// known method that a route does not take is a 405.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    /// `tchar` of RFC 9110 §5.6.2: what a method or a field name is made of. Methods are
    /// case-sensitive, so `get` is a token but not `GET`.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    static func isTokenByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }

    /// The first rule the head breaks, as the problem to answer; nil when it keeps them all.
    /// `credentialFields`: header fields that carry a credential, of which a request may
    /// carry at most one each.
    static func check(method: String, version: String, headers: HTTPHeaders, credentialFields: [String] = ["Authorization"]) -> Problem? {
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return Problem(status: 505, code: "http_version_not_supported",
                           detail: "This server speaks HTTP/1.1 (and HTTP/1.0), not \(printable(version)).")
        }
        guard isToken(method) else {
            return Problem(status: 400, code: "invalid_method", detail: "The method \(printable(method)) is not an HTTP token.")
        }
        guard knownMethods.contains(method) else {
            return Problem(status: 501, code: "method_not_implemented",
                           detail: "The method \(printable(method)) is not implemented (methods are case-sensitive).")
        }
        for (name, value) in headers {
            guard isToken(name) else {
                return Problem(status: 400, code: "invalid_header_field",
                               detail: "The header field name \(printable(name)) is not an HTTP token.")
            }
            guard value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return Problem(status: 400, code: "invalid_header_field",
                               detail: "The value of the header field \(name) holds a control character.")
            }
        }
        let hosts = headers.values(for: "Host")
        if version == "HTTP/1.1" && hosts.isEmpty {
            return Problem(status: 400, code: "missing_host", detail: "An HTTP/1.1 request must carry a Host header field.")
        }
        if hosts.count > 1 {
            return Problem(status: 400, code: "invalid_host", detail: "The request carries \(hosts.count) Host header fields; one is allowed.")
        }
        // A credential is one value (RFC 9110 §11.6.2: Authorization is a singleton field):
        // with two, which one a surface believes would depend on which it reads first.
        for name in credentialFields where headers.values(for: name).count > 1 {
            return Problem(status: 400, code: "conflicting_credentials",
                           detail: "The request carries \(headers.values(for: name).count) \(name) header fields; send exactly one credential.")
        }
        let lengths = headers.values(for: "Content-Length")
        let encodings = headers.values(for: "Transfer-Encoding")
        if !encodings.isEmpty {
            if version == "HTTP/1.0" {
                return Problem(status: 400, code: "invalid_framing", detail: "Transfer-Encoding is not defined in HTTP/1.0.")
            }
            if !lengths.isEmpty {
                return Problem(status: 400, code: "invalid_framing",
                               detail: "The request carries both Transfer-Encoding and Content-Length; it must carry one.")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmed.lowercased() }
            guard codings == ["chunked"] else {
                return Problem(status: 501, code: "unsupported_transfer_encoding",
                               detail: "Only Transfer-Encoding: chunked is supported, not \(printable(encodings.joined(separator: ", "))).")
            }
        }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0.trimmed == first.trimmed }) else {
                return Problem(status: 400, code: "invalid_framing",
                               detail: "The request carries Content-Length header fields with different values.")
            }
            guard !first.trimmed.isEmpty, first.trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return Problem(status: 400, code: "invalid_framing", detail: "Content-Length must be a decimal number of bytes.")
            }
        }
        return nil
    }

    /// `text` quoted for a problem's detail, with anything unprintable escaped and long
    /// text cut, so that a hostile value cannot forge log lines or bloat the answer.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(64) {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        if text.unicodeScalars.count > 64 { out += "…" }
        return "\"" + out + "\""
    }
}

extension String {
    /// Without the spaces and tabs (HTTP's optional whitespace) around it.
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

private extension Substring {
    var trimmed: String { String(self).trimmed }
}
