import LedgerJSON

/// A reader for the small part of YAML 1.2 that the ZeroSettle OpenAPI seed is written in,
/// so that tests can load that document without a YAML library.
///
/// Accepted: block mappings and sequences by indentation (a sequence may sit at the same
/// indentation as its key), `- key: value` items, plain scalars, single-quoted scalars
/// (multi-line ones folded as YAML folds them), single-quoted keys and the empty flow
/// sequence `[]`. Everything else is refused with the line it is on rather than read
/// approximately: a schema read wrongly would make the tests built on it vouch for nothing.
public enum YAMLSubset {
    /// Why a text was refused, and where (1-based line).
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line the problem is on (for an unclosed quote, the line it opened on).
        public let line: Int
        /// What is wrong there, in words.
        public let message: String

        /// A refusal of `line` for the reason `message`.
        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// `YAML line N: message`.
        public var description: String { "YAML line \(line): \(message)" }
    }

    /// The document in `text` as a JSON value. Plain scalars become `null` (`null`, `~`),
    /// booleans (`true`, `false`), integers (decimal digits that fit in `Int64`) or
    /// strings; `3.0.3` and `1.0.0` are strings. Mapping keys are always strings.
    public static func parse(_ text: String) throws -> JSONValue {
        var reader = try Reader(text)
        return try reader.document()
    }
}

private typealias Scalars = ArraySlice<Unicode.Scalar>

/// One source line, its indentation counted and removed.
private struct Line {
    let number: Int
    var indent: Int
    var text: Scalars
}

private struct Reader {
    var lines: [Line] = []
    var at = 0

    init(_ text: String) throws {
        for (offset, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if raw.contains("\r") { throw fail(number, "carriage return; only LF line endings are supported") }
            let indent = raw.prefix { $0 == " " }.count
            let rest = Array(raw.dropFirst(indent))
            // Tabs never count as indentation in YAML; treating them as spaces would
            // silently re-nest the document.
            if rest.first == "\t" { throw fail(number, "tab character in indentation") }
            lines.append(Line(number: number, indent: indent, text: rest[...]))
        }
    }

    mutating func document() throws -> JSONValue {
        skipBlankLines()
        guard at < lines.count else { throw fail(lines.count, "the document is empty") }
        let root = try node(indent: lines[at].indent)
        skipBlankLines()
        if at < lines.count { throw fail(lines[at].number, "content outside the root node (indentation?)") }
        return root
    }

    // MARK: Block structure

    private mutating func skipBlankLines() {
        while at < lines.count, lines[at].text.isEmpty { at += 1 }
    }

    private mutating func node(indent: Int) throws -> JSONValue {
        isSequenceItem(lines[at].text) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private mutating func mapping(indent: Int) throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        while true {
            skipBlankLines()
            guard at < lines.count, lines[at].indent >= indent else { break }
            let line = lines[at]
            if line.indent > indent { throw fail(line.number, "unexpected indentation: \(line.indent) spaces where \(indent) were expected") }
            if isSequenceItem(line.text) { throw fail(line.number, "a sequence item where a mapping key was expected") }
            let (key, rest) = try splitEntry(line)
            if members[key] != nil { throw fail(line.number, "duplicate key '\(key)'") }
            at += 1
            members[key] = try value(rest, line: line.number, parentIndent: indent)
        }
        return .object(members)
    }

    private mutating func sequence(indent: Int) throws -> JSONValue {
        var items: [JSONValue] = []
        while true {
            skipBlankLines()
            // A line at this indentation that is not an item ends the sequence: it is the
            // next key of a mapping whose sequence was written at the key's own indentation.
            guard at < lines.count, lines[at].indent >= indent else { break }
            let line = lines[at]
            if line.indent > indent { throw fail(line.number, "unexpected indentation: \(line.indent) spaces where \(indent) were expected") }
            guard isSequenceItem(line.text) else { break }
            let afterDash = line.text.dropFirst()
            let rest = afterDash.drop { $0 == " " }
            if rest.isEmpty {
                at += 1
                skipBlankLines()
                guard at < lines.count, lines[at].indent > indent else { throw fail(line.number, "empty sequence item") }
                items.append(try node(indent: lines[at].indent))
            } else if isSequenceItem(rest) {
                throw fail(line.number, "a nested sequence on the same line as its parent item is not supported")
            } else if startsEntry(rest) {
                // `- key: value` opens a mapping whose keys line up with `key`: read it as
                // though the dash were indentation.
                lines[at] = Line(number: line.number, indent: indent + 1 + (afterDash.count - rest.count), text: rest)
                items.append(try mapping(indent: lines[at].indent))
            } else {
                at += 1
                items.append(try inlineValue(rest, line: line.number, parentIndent: indent))
            }
        }
        return .array(items)
    }

    /// The value after `key:`; `at` is on the line after the key.
    private mutating func value(_ rest: Scalars, line: Int, parentIndent: Int) throws -> JSONValue {
        if !rest.isEmpty { return try inlineValue(rest, line: line, parentIndent: parentIndent) }
        skipBlankLines()
        if at < lines.count, lines[at].indent > parentIndent { return try node(indent: lines[at].indent) }
        if at < lines.count, lines[at].indent == parentIndent, isSequenceItem(lines[at].text) {
            return try sequence(indent: parentIndent)
        }
        throw fail(line, "missing value (empty values are not supported; write null)")
    }

    private func isSequenceItem(_ text: Scalars) -> Bool {
        text.first == "-" && (text.count == 1 || text.dropFirst().first == " ")
    }

    /// Whether `text` is `key: ...` rather than a scalar.
    private func startsEntry(_ text: Scalars) -> Bool {
        if text.first == "'" {
            // A quote left open is a multi-line scalar, never a key.
            guard let (_, after) = quotedOnOneLine(text) else { return false }
            return after.drop { $0 == " " }.first == ":"
        }
        return colonIndex(text) != nil
    }

    private func colonIndex(_ text: Scalars) -> Int? {
        text.indices.first { text[$0] == ":" && ($0 + 1 == text.endIndex || text[$0 + 1] == " ") }
    }

    private func splitEntry(_ line: Line) throws -> (key: String, rest: Scalars) {
        let text = line.text
        var key: String
        var after: Scalars
        if text.first == "'" {
            guard let quoted = quotedOnOneLine(text) else { throw fail(line.number, "a quoted key must close on its own line") }
            (key, after) = quoted
            after = after.drop { $0 == " " }
            guard after.first == ":", after.count == 1 || after.dropFirst().first == " " else {
                throw fail(line.number, "expected ':' after the quoted key '\(key)'")
            }
            after = after.dropFirst()
        } else {
            if let problem = indicatorProblem(text) { throw fail(line.number, problem) }
            guard let colon = colonIndex(text) else {
                let shown = String(String.UnicodeScalarView(text))
                if shown == "---" || shown == "..." { throw fail(line.number, "document markers are not supported") }
                throw fail(line.number, "expected 'key: value' or '- item', found \(shown)")
            }
            key = String(String.UnicodeScalarView(text[..<colon]))
            if key.hasSuffix(" ") { throw fail(line.number, "space before ':' after key '\(key)'") }
            if key.contains(" #") { throw fail(line.number, "comments are not supported") }
            after = text[(colon + 1)...]
        }
        return (key, after.drop { $0 == " " })
    }

    // MARK: Scalars

    private mutating func inlineValue(_ text: Scalars, line: Int, parentIndent: Int) throws -> JSONValue {
        if text.first == "'" {
            let (string, after) = try singleQuoted(text, line: line, parentIndent: parentIndent)
            let trailing = after.drop { $0 == " " }
            if trailing.first == "#" { throw fail(line, "comments are not supported") }
            if !trailing.isEmpty { throw fail(line, "unexpected text after a quoted scalar") }
            return .string(string)
        }
        let plain = String(String.UnicodeScalarView(text.reversed().drop { $0 == " " }.reversed()))
        if plain == "[]" { return .array([]) }
        if isSequenceItem(text) { throw fail(line, "a sequence cannot start on the line of its key") }
        if let problem = indicatorProblem(text) { throw fail(line, problem) }
        if plain.contains(" #") { throw fail(line, "comments are not supported") }
        if colonIndex(text) != nil { throw fail(line, "a mapping cannot start on the line of its key") }
        return try resolvePlain(plain, line: line)
    }

    /// The core schema's reading of a plain scalar; spellings it would read as something
    /// this reader does not produce (floats, other bases, `True`) are refused, not kept as text.
    private func resolvePlain(_ text: String, line: Int) throws -> JSONValue {
        switch text {
        case "null", "~": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "Null", "NULL", "True", "TRUE", "False", "FALSE":
            throw fail(line, "'\(text)': write true, false or null in lower case")
        default: break
        }
        if text.wholeMatch(of: #/[-+]?[0-9]+/#) != nil {
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if digits.count > 1, digits.first == "0" { throw fail(line, "integer with a leading zero: \(text)") }
            guard let n = Int64(text) else { throw fail(line, "integer out of range: \(text)") }
            return .integer(n)
        }
        if text.wholeMatch(of: #/[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|0x[0-9a-fA-F]+|0o[0-7]+/#) != nil {
            throw fail(line, "floating-point, hexadecimal and octal numbers are not supported: \(text)")
        }
        return .string(text)
    }

    private func indicatorProblem(_ text: Scalars) -> String? {
        switch text.first {
        case "#": "comments are not supported"
        case "&", "*": "anchors and aliases are not supported"
        case "!": "tags are not supported"
        case "|", ">": "block scalars are not supported"
        case "{", "}", "[", "]", ",": "flow collections are not supported (only the empty sequence [] is)"
        case "\"": "double-quoted scalars are not supported"
        case "?": "complex keys are not supported"
        case "%", "@", "`": "reserved indicator \(String(text.first!)) cannot start a plain scalar"
        default: nil
        }
    }

    /// The single-quoted run starting at `text` (on the quote) up to its closing quote on
    /// this line, and what follows; nil when the quote stays open past the line's end.
    private func quotedOnOneLine(_ text: Scalars) -> (String, Scalars)? {
        let (content, after) = scanQuoted(text.dropFirst())
        guard let after else { return nil }
        return (String(String.UnicodeScalarView(content)), after)
    }

    /// The content of `segment` up to an unpaired `'` (with `''` read as a quote), and the
    /// text after that quote; `after` is nil when the line ends first.
    private func scanQuoted(_ segment: Scalars) -> (content: [Unicode.Scalar], after: Scalars?) {
        var content: [Unicode.Scalar] = []
        var i = segment.startIndex
        while i < segment.endIndex {
            if segment[i] == "'" {
                guard i + 1 < segment.endIndex, segment[i + 1] == "'" else { return (content, segment[(i + 1)...]) }
                i += 1
            }
            content.append(segment[i])
            i += 1
        }
        return (content, nil)
    }

    /// A single-quoted scalar starting at `text` (on the quote), continuing on following
    /// lines if it does not close: a single line break folds to a space, each empty line
    /// becomes a newline, and white space around line breaks is dropped.
    private mutating func singleQuoted(_ text: Scalars, line: Int, parentIndent: Int) throws -> (String, Scalars) {
        var out: [Unicode.Scalar] = []
        var segment = text.dropFirst()
        while true {
            let (content, after) = scanQuoted(segment)
            out += content
            if let after { return (String(String.UnicodeScalarView(out)), after) }
            while let last = out.last, last == " " || last == "\t" { out.removeLast() }
            var emptyLines = 0
            while at < lines.count, lines[at].text.isEmpty {
                emptyLines += 1
                at += 1
            }
            guard at < lines.count else { throw fail(line, "single-quoted scalar is not closed") }
            guard lines[at].indent > parentIndent else {
                throw fail(lines[at].number, "continuation of the quoted scalar from line \(line) must be indented more than its parent")
            }
            out += emptyLines == 0 ? [" "] : Array(repeating: "\n", count: emptyLines)
            segment = lines[at].text
            at += 1
        }
    }

    private func fail(_ line: Int, _ message: String) -> YAMLSubset.ParseError {
        YAMLSubset.ParseError(line: line, message: message)
    }
}
