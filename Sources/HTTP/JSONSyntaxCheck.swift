/// Finds the first syntax error in a JSON text and says where it is.
///
/// Foundation's decoder reports every syntax error (and, on Linux, some shape errors
/// too) as "not valid JSON" with no position; checking the syntax first lets a 400 say
/// exactly where the body stops being JSON, and lets any later decoding error be
/// reported as a shape error.
struct JSONSyntaxCheck {
    struct Failure: Error, Equatable {
        /// 0-based byte offset of the offending byte (or the end of input).
        var offset: Int
        /// 1-based line and column (in bytes) of that position.
        var line: Int
        var column: Int
        var reason: String

        var message: String { "\(reason) at line \(line), column \(column) (byte \(offset))" }
    }

    /// Deeper nesting than this is refused rather than risking the stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0

    /// `nil` when `bytes` is one well-formed JSON value (surrounded by optional whitespace).
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var checker = JSONSyntaxCheck(bytes: bytes)
        do throws(Failure) {
            checker.skipWhitespace()
            guard checker.position < bytes.count else { throw checker.failure("empty body, expected a JSON value") }
            try checker.value(depth: 0)
            checker.skipWhitespace()
            if checker.position < bytes.count { throw checker.failure("unexpected \(checker.describeCurrent()) after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value(depth: Int) throws(Failure) {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
        guard position < bytes.count else { throw failure("unexpected end of input, expected a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("unexpected \(describeCurrent()), expected a JSON value")
        }
    }

    private mutating func object(depth: Int) throws(Failure) {
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("unexpected \(describeCurrent()), expected an object key in double quotes") }
            try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("unexpected \(describeCurrent()), expected ':' after an object key") }
            position += 1
            skipWhitespace()
            try value(depth: depth + 1)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "}"): position += 1; return
            default: throw failure("unexpected \(describeCurrent()), expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) {
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            try value(depth: depth + 1)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "]"): position += 1; return
            default: throw failure("unexpected \(describeCurrent()), expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(Failure) {
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 1
                guard let escaped = peek() else { break }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    position += 1
                    for _ in 0..<4 {
                        guard let hex = peek(), hex.isHexDigit else { throw failure("invalid \\u escape in a string") }
                        position += 1
                    }
                default:
                    throw failure("invalid escape \\\(Character(Unicode.Scalar(escaped))) in a string")
                }
            case 0..<0x20:
                throw failure("unescaped control character in a string")
            default:
                position += 1
            }
        }
        throw failure("unexpected end of input inside a string")
    }

    private mutating func number() throws(Failure) {
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), first.isDigit else { throw failure("invalid number, expected a digit") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek(), digit.isDigit else { throw failure("invalid number, expected a digit after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), digit.isDigit else { throw failure("invalid number, expected a digit in the exponent") }
            skipDigits()
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let start = position
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard peek() == expected else {
                position = start
                throw failure("unexpected \(describeCurrent()), expected a JSON value")
            }
            position += 1
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), byte.isDigit { position += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private func describeCurrent() -> String {
        guard let byte = peek() else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func failure(_ reason: String) -> Failure {
        var line = 1
        var lineStart = 0
        for index in 0..<min(position, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return Failure(offset: position, line: line, column: position - lineStart + 1, reason: reason)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
