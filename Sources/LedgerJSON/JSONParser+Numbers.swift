extension JSONParser {
    /// Parses the number at the current index (a `-` or a digit).
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let literal = try scanNumber()
        let literalLength = index - start
        if options.plainIntegersOnly && literal.integerDigits.upperBound != index {
            throw self.error(.invalidNumber, at: start, "numbers must be plain integers here, without a fraction or an exponent")
        }
        // Plain integers (no fraction, no exponent) of up to 18 digits cannot overflow
        // Int64: the common case.
        if literal.integerDigits.upperBound == index && literal.integerDigits.count <= 18 {
            var value: Int64 = 0
            for i in literal.integerDigits { value = value &* 10 &+ Int64(input[i] &- 48) }
            return .integer(literal.negative ? -value : value)
        }
        let (maxLength, overflow) = literalLength.addingReportingOverflow(options.maxNumberGrowth)
        do {
            return try literal.value(in: input, maxLength: overflow ? .max : maxLength, preferInteger: true)
        } catch {
            switch error {
            case .outOfRange:
                throw self.error(.numberOutOfRange, at: start, "number is outside the range of PostgreSQL's numeric type")
            case .tooLong:
                throw self.error(.numberTooLong, at: start, "number's exponent makes it more than \(options.maxNumberGrowth) bytes longer than written")
            }
        }
    }

    /// Scans a number per the RFC 8259 grammar and leaves `index` after it.
    mutating func scanNumber() throws(JSONParseError) -> NumberLiteral {
        var negative = false
        if index < input.count && input[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let intStart = index
        guard index < input.count, isDigit(input[index]) else {
            throw numberError("expected a digit after '-'")
        }
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < input.count && isDigit(input[index]) {
                throw error(.invalidNumber, at: intStart, "leading zeros are not allowed in numbers")
            }
        } else {
            skipDigits()
        }
        let integerDigits = intStart..<index
        var fractionDigits = index..<index
        if index < input.count && input[index] == UInt8(ascii: ".") {
            index += 1
            let fracStart = index
            guard index < input.count, isDigit(input[index]) else { throw numberError("expected a digit after the decimal point") }
            skipDigits()
            fractionDigits = fracStart..<index
        }
        var exponent = 0
        if index < input.count && (input[index] | 0x20) == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < input.count && (input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-")) {
                exponentNegative = input[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < input.count, isDigit(input[index]) else { throw numberError("expected a digit in the exponent") }
            while index < input.count && isDigit(input[index]) {
                // Saturate: anything past the limit is out of range whatever follows.
                if exponent < 1 << 40 { exponent = exponent * 10 + Int(input[index] &- 48) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        return NumberLiteral(negative: negative, integerDigits: integerDigits, fractionDigits: fractionDigits, exponent: exponent)
    }

    private func numberError(_ expectation: String) -> JSONParseError {
        if index >= input.count { return error(.invalidNumber, at: index, "\(expectation), found the end of the input") }
        return error(.invalidNumber, at: index, "\(expectation), found \(describeByte(at: index))")
    }

    private mutating func skipDigits() {
        while index < input.count && isDigit(input[index]) { index += 1 }
    }

    @inline(__always)
    private func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
}
