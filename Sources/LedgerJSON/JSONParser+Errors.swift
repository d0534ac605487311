extension JSONParser {
    /// An error at the current byte: `unexpected_end_of_input` at the end, else
    /// `unexpected_character` naming the byte.
    func unexpected(_ expectation: String) -> JSONParseError {
        if index >= input.count {
            return error(.unexpectedEndOfInput, at: index, "\(expectation), found the end of the input")
        }
        return error(.unexpectedCharacter, at: index, "\(expectation), found \(describeByte(at: index))")
    }

    func error(_ code: JSONParseError.Code, at offset: Int, _ reason: String) -> JSONParseError {
        // Line and column are worked out only here: errors are rare, parsing is not.
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, input.count) where input[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        if lineStart < offset {
            for i in lineStart..<min(offset, input.count) where input[i] & 0xC0 != 0x80 { column += 1 }
        }
        return JSONParseError(code: code, offset: offset, line: line, column: column, reason: reason)
    }

    /// A byte as people read it: `'x'` for printable ASCII, else its code.
    func describeByte(at offset: Int) -> String {
        let b = input[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "U+\(hex(b, width: 4))" }
        return "byte 0x\(hex(b, width: 2))"
    }
}

/// `value` in uppercase hexadecimal, zero-padded to `width` digits.
func hex(_ value: some BinaryInteger, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
