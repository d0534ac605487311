import LedgerDomain

/// The options of one operator command, parsed strictly: every value is checked for
/// form here, before anything reads the ledger, so that a malformed request is a usage
/// error (exit 2) and never reaches the log.
struct AdminOptions {
    let arguments: Arguments

    init(_ raw: [String], valued: Set<String>, boolean: Set<String>, repeatable: Set<String> = []) throws {
        arguments = try Arguments(raw, valued: valued, boolean: boolean)
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument \(extra.debugDescription)")
        }
        // Arguments keeps the last of repeated options; for a money command a repeated
        // option is more likely a mistake than an override, so it is refused.
        for name in valued.subtracting(repeatable).sorted() where arguments.values(name).count > 1 {
            throw UsageError("--\(name) is given more than once")
        }
    }

    func flag(_ name: String) -> Bool { arguments.flag(name) }

    func has(_ name: String) -> Bool { arguments.value(name) != nil || arguments.flag(name) }

    /// Free text (names, descriptions, reasons): required, not blank, no control characters.
    func text(_ name: String, maximumLength: Int = 500) throws -> String {
        guard let value = try optionalText(name, maximumLength: maximumLength) else {
            throw UsageError("--\(name) is required")
        }
        return value
    }

    func optionalText(_ name: String, maximumLength: Int = 500) throws -> String? {
        guard let value = arguments.value(name) else { return nil }
        try Self.checkText(value, option: name, maximumLength: maximumLength)
        return value
    }

    static func checkText(_ value: String, option name: String, maximumLength: Int) throws {
        guard !value.allSatisfy(\.isWhitespace) else { throw UsageError("--\(name) must not be empty") }
        guard value.count <= maximumLength else {
            throw UsageError("--\(name) is \(value.count) characters long; at most \(maximumLength) are allowed")
        }
        // Control characters would garble listings and logs; U+0000 cannot even be stored in jsonb.
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError("--\(name) must not contain control characters")
        }
    }

    /// An operator-chosen id (docs/billing.md): 1–64 of `a-z 0-9 _ -`, starting with a letter or digit.
    func identifier(_ name: String, _ what: String) throws -> String {
        guard let value = try optionalIdentifier(name, what) else { throw UsageError("--\(name) is required") }
        return value
    }

    func optionalIdentifier(_ name: String, _ what: String) throws -> String? {
        guard let value = arguments.value(name) else { return nil }
        guard Identifier.isValid(value) else {
            throw UsageError("--\(name) \(value.debugDescription) is not a valid \(what) id: use 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit")
        }
        return value
    }

    /// An amount of millicredits as a canonical decimal string (B2).
    func amount(_ name: String, _ rule: AmountRule) throws -> Millicredits {
        guard let value = try optionalAmount(name, rule) else { throw UsageError("--\(name) is required") }
        return value
    }

    func optionalAmount(_ name: String, _ rule: AmountRule) throws -> Millicredits? {
        guard let text = arguments.value(name) else { return nil }
        guard let amount = Millicredits(canonical: text) else {
            throw UsageError("--\(name) \(text.debugDescription) is not an amount of millicredits: write a canonical integer such as 1500 or -25 (no +, no leading zeros, no fraction, no exponent)")
        }
        switch rule {
        case .positive where amount.value <= 0: throw UsageError("--\(name) must be positive, got \(text)")
        case .nonNegative where amount.value < 0: throw UsageError("--\(name) must not be negative, got \(text)")
        case .nonZero where amount.value == 0: throw UsageError("--\(name) must not be 0")
        default: return amount
        }
    }

    enum AmountRule { case positive, nonNegative, nonZero }

    /// A count (bytes): a canonical non-negative integer.
    func count(_ name: String) throws -> Int64? {
        guard let text = arguments.value(name) else { return nil }
        guard let n = Millicredits(canonical: text)?.int64, n >= 0 else {
            throw UsageError("--\(name) must be a non-negative integer without sign or leading zeros, got \(text.debugDescription)")
        }
        return n
    }

    /// A required positive integer (a position, a size).
    func positiveInteger(_ name: String) throws -> Int64 {
        let text = try arguments.require(name)
        guard let n = Int64(text), n > 0, String(n) == text else {
            throw UsageError("--\(name) must be a positive integer, got \(text.debugDescription)")
        }
        return n
    }

    func pool(_ name: String) throws -> Pool {
        let text = try arguments.require(name)
        guard let pool = Pool(text) else {
            throw UsageError("--\(name) \(text.debugDescription) is not a pool: write payer:<id> or project:<id>")
        }
        return pool
    }

    func month(_ name: String) throws -> UTCMonth {
        let text = try arguments.require(name)
        guard let month = UTCMonth(text) else { throw UsageError("--\(name) \(text.debugDescription) is not a month YYYY-MM") }
        return month
    }

    func timestamp(_ name: String) throws -> Timestamp? {
        guard let text = arguments.value(name) else { return nil }
        guard let instant = Timestamp(iso8601: text) else {
            throw UsageError("--\(name) \(text.debugDescription) is not an RFC 3339 instant such as 2026-12-01T00:00:00Z")
        }
        return instant
    }

    /// A plan: `--plan NAME` and `--allowance-storage-bytes N`, both or (when optional) neither.
    func plan(required: Bool) throws -> (name: String, allowance: Int64)? {
        let name = try optionalIdentifier("plan", "plan")
        let allowance = try count("allowance-storage-bytes")
        switch (name, allowance) {
        case let (name?, allowance?): return (name, allowance)
        case (nil, nil) where !required: return nil
        case (nil, _): throw UsageError("--plan is required\(required ? "" : " with --allowance-storage-bytes")")
        case (_, nil): throw UsageError("--allowance-storage-bytes is required\(required ? "" : " with --plan")")
        }
    }

    /// Exactly one of `names` (flags or valued options); returns the one given.
    func exactlyOne(of names: [String]) throws -> String {
        let given = names.filter(has)
        guard given.count == 1 else {
            let list = names.map { "--" + $0 }.joined(separator: ", ")
            throw UsageError(given.isEmpty ? "one of \(list) is required" : "give only one of \(list)")
        }
        return given[0]
    }

    /// The funding of a project: `--self-paying` or `--payer ID`.
    func funding() throws -> Funding {
        switch try exactlyOne(of: ["self-paying", "payer"]) {
        case "payer": return .payer(try identifier("payer", "payer"))
        default: return .selfPaying
        }
    }
}
