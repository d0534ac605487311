extension JSONParser {
    /// Parses the string starting at the current `"`.
    ///
    /// The common case (no escapes) is one scan and one `String` copy; UTF-8 is checked
    /// as the scan meets non-ASCII bytes, so the error can name the exact offset.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        let start = index
        while true {
            guard index < input.count else { throw error(.unterminatedString, at: open, "string is not terminated") }
            let b = input[index]
            if b == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw controlCharacter(at: index) }
            if b < 0x80 { index += 1 } else { index = try utf8SequenceEnd(at: index) }
        }
        // Escapes: copy what was scanned, then continue byte by byte.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        while true {
            guard index < input.count else { throw error(.unterminatedString, at: open, "string is not terminated") }
            let b = input[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw controlCharacter(at: index)
            case 0x20..<0x80:
                scratch.append(b)
                index += 1
            default:
                let end = try utf8SequenceEnd(at: index)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<end]))
                index = end
            }
        }
    }

    private func controlCharacter(at offset: Int) -> JSONParseError {
        error(.unescapedControlCharacter, at: offset, "control character U+\(hex(input[offset], width: 4)) must be escaped in a string")
    }

    /// Decodes the escape at the current backslash into `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let backslash = index
        guard index + 1 < input.count else { throw error(.unterminatedString, at: backslash, "string ends inside an escape") }
        let c = input[index + 1]
        index += 2
        switch c {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeAt: backslash)
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed at once by an escaped low one.
                guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u") else {
                    throw error(.loneSurrogate, at: backslash, "\\u\(hex(unit, width: 4)) is a high surrogate not followed by a low surrogate")
                }
                let lowAt = index
                index += 2
                let low = try hexQuad(escapeAt: lowAt)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.loneSurrogate, at: backslash, "\\u\(hex(unit, width: 4)) is a high surrogate not followed by a low surrogate")
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error(.loneSurrogate, at: backslash, "\\u\(hex(unit, width: 4)) is a low surrogate without a high surrogate before it")
            }
            if scalar == 0 && !options.allowsNUL {
                throw error(.nulCharacter, at: backslash, "\\u0000 is not allowed: PostgreSQL text cannot hold U+0000")
            }
            appendUTF8(scalar)
        default:
            throw error(.invalidEscape, at: backslash, "invalid escape '\\\(c >= 0x20 && c < 0x7F ? String(Character(Unicode.Scalar(c))) : "U+" + hex(c, width: 4))'")
        }
    }

    /// Reads the four hex digits after `\u` at the current index.
    private mutating func hexQuad(escapeAt backslash: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < input.count, let d = hexDigitValue(input[index]) else {
                throw error(.invalidUnicodeEscape, at: backslash, "\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | UInt16(d)
            index += 1
        }
        return value
    }

    private func hexDigitValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - 55
        default: return nil
        }
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The end of the well-formed UTF-8 sequence starting at `offset` (a byte >= 0x80),
    /// per the Unicode table of well-formed sequences: no overlong forms, no surrogates,
    /// nothing above U+10FFFF.
    func utf8SequenceEnd(at offset: Int) throws(JSONParseError) -> Int {
        let lead = input[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            throw error(.invalidUTF8, at: offset, "invalid UTF-8: byte 0x\(hex(lead, width: 2)) cannot start a character")
        }
        for i in 1..<length {
            let at = offset + i
            let allowed = i == 1 ? secondRange : 0x80...0xBF
            guard at < input.count, allowed.contains(input[at]) else {
                throw error(.invalidUTF8, at: offset, "invalid UTF-8: malformed \(length)-byte sequence starting with 0x\(hex(lead, width: 2))")
            }
        }
        return offset + length
    }
}
