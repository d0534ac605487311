import LedgerDomain

/// The option forms of the IAP catalog's commands (`app`, `product`, `checkout`,
/// `campaign`, `purchase`): ids that come from outside the ledger, choices, integers,
/// booleans and prices. Like the rest of `AdminOptions`, they check form only.
extension AdminOptions {
    /// Characters of the ids Apple and web checkouts choose: App Store product ids are
    /// letters, digits, `.`, `_` and `-`, which leaves `,` and `:` free to separate lists.
    private static let catalogIDExtra = Set("._-".utf8)
    /// User and purchase ids may name streams and idempotency keys, so they may use the
    /// characters a stream name allows (an email address or a UUID fits).
    private static let externalIDExtra = Set("._-:@+=".utf8)

    /// A product or campaign id: 1 to `maximumLength` letters, digits, `.`, `_` and `-`,
    /// starting with a letter or digit.
    func catalogID(_ name: String, _ what: String, maximumLength: Int = 200) throws -> String {
        try Self.checkCatalogID(try arguments.require(name), option: name, what, maximumLength: maximumLength)
    }

    /// A user or purchase id: as `catalogID`, and `:`, `@`, `+` and `=` too.
    func externalID(_ name: String, _ what: String, maximumLength: Int = 100) throws -> String {
        guard let value = try optionalExternalID(name, what, maximumLength: maximumLength) else {
            throw UsageError("--\(name) is required")
        }
        return value
    }

    func optionalExternalID(_ name: String, _ what: String, maximumLength: Int = 100) throws -> String? {
        guard let value = arguments.value(name) else { return nil }
        return try Self.checkID(value, option: name, what, extra: Self.externalIDExtra, maximumLength)
    }

    /// A comma-separated list of product ids, in order; repeats are refused.
    func catalogIDList(_ name: String, _ what: String) throws -> [String] {
        let items = try arguments.require(name).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for item in items { _ = try Self.checkCatalogID(item, option: name, what) }
        guard Set(items).count == items.count else { throw UsageError("--\(name) names a \(what) more than once") }
        return items
    }

    /// `value` if it is a valid product or campaign id, else a usage error naming `--name`.
    static func checkCatalogID(_ value: String, option name: String, _ what: String, maximumLength: Int = 200) throws -> String {
        try checkID(value, option: name, what, extra: catalogIDExtra, maximumLength)
    }

    private static func checkID(_ value: String, option name: String, _ what: String, extra: Set<UInt8>, _ maximumLength: Int) throws -> String {
        let u = value.utf8
        let isAlnum = { (c: UInt8) in (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c) }
        guard let first = u.first, u.count <= maximumLength, isAlnum(first), u.allSatisfy({ isAlnum($0) || extra.contains($0) }) else {
            let allowed = String(decoding: extra.sorted(), as: UTF8.self).map { String($0) }.joined(separator: " ")
            throw UsageError("--\(name) \(value.debugDescription) is not a valid \(what) id: use 1-\(maximumLength) characters of A-Z, a-z, 0-9 and \(allowed), starting with a letter or digit")
        }
        return value
    }

    /// One of a type's raw values, e.g. `--mode test|live`.
    func choice<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws -> Value where Value.RawValue == String {
        guard let value = try optionalChoice(name, type) else { throw UsageError("--\(name) is required") }
        return value
    }

    func optionalChoice<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws -> Value? where Value.RawValue == String {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw UsageError("--\(name) must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")), got \(text.debugDescription)")
        }
        return value
    }

    /// `true` or `false`, written out.
    func boolean(_ name: String) throws -> Bool {
        switch try arguments.require(name) {
        case "true": return true
        case "false": return false
        case let text: throw UsageError("--\(name) must be true or false, got \(text.debugDescription)")
        }
    }

    /// A canonical integer that fits in 32 bits (days, percents, cents). A sign is allowed,
    /// so that the domain's own checks can say what is wrong with a negative one.
    func integer(_ name: String) throws -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let n = Millicredits(canonical: text)?.value, let value = Int32(exactly: n) else {
            throw UsageError("--\(name) must be an integer such as 7 (no +, no leading zeros, at most \(Int32.max)), got \(text.debugDescription)")
        }
        return Int(value)
    }

    /// A decimal amount of a currency, in micros (`4.99` is 4990000).
    func micros(_ name: String) throws -> Int64? {
        guard let text = arguments.value(name) else { return nil }
        guard let micros = DecimalMicros.parse(text) else {
            throw UsageError("--\(name) \(text.debugDescription) is not a price: write a decimal such as 4.99 or 10, with at most \(DecimalMicros.fractionDigits) digits after the point (no sign, no exponent, no leading zeros)")
        }
        return micros
    }

    /// A price from `--NAME DECIMAL` and `--currency CODE`. The currency is checked by
    /// `Price.isValid` where the caller wants all problems listed together.
    func price(_ name: String, required: Bool) throws -> Price? {
        let amount = try micros(name)
        let currency = arguments.value("currency")
        switch (amount, currency) {
        case let (amount?, currency?): return Price(amountMicros: amount, currencyCode: currency)
        case (nil, nil) where !required: return nil
        case (nil, _): throw UsageError("--\(name) is required\(required ? "" : " with --currency")")
        case (_, nil): throw UsageError("--currency is required with --\(name)")
        }
    }

    /// Refuses a request the domain finds fault with, naming every problem at once.
    static func refuse(_ problems: [String], in what: String) throws {
        guard !problems.isEmpty else { return }
        throw UsageError("\(what) is not valid: " + problems.joined(separator: "; "))
    }
}
