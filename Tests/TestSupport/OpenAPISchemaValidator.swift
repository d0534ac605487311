import Foundation
import LedgerJSON

/// Checks JSON values against the schemas of an OpenAPI 3.0 document, so that tests can
/// hold responses to a published contract field by field.
///
/// Only the schema keywords the ZeroSettle catalog document and the service's own document
/// use are understood: `type` (a name, or the 3.1 list of names), `properties`,
/// `required`, `enum`, `const`, `nullable`, `allOf`, `oneOf`, `items`, `pattern`,
/// `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems` and `$ref` to
/// `#/components/schemas/...`. Any other keyword in a schema that is reached is reported
/// as a violation (only `description`, `example`, `examples`, `default` and `format` are
/// ignored, `format` being an annotation in 3.1), so that a schema this validator does not
/// understand can never pass by default.
///
/// Stricter than JSON Schema where the contract is meant to be exhaustive: a property not
/// declared in `properties` is a violation, unless the schema declares no `properties`
/// at all (a free-form object). `type: 'null'` is accepted as the 3.1 spelling of null.
public struct OpenAPISchemaValidator: Sendable {
    /// The whole OpenAPI document, as `YAMLSubset.parse` or a JSON parser returns it.
    public let document: JSONValue

    private static let keywords: Set<String> = [
        "type", "properties", "required", "enum", "const", "nullable", "allOf", "oneOf", "items", "$ref",
        "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
    ]
    private static let annotations: Set<String> = ["description", "example", "examples", "default", "format"]
    private static let types: Set<String> = ["object", "array", "string", "integer", "number", "boolean", "null"]
    /// Beyond this many nested schemas a `$ref` cycle is assumed.
    private static let maximumDepth = 64

    /// A validator for the schemas in `document`.
    public init(document: JSONValue) {
        self.document = document
    }

    /// The violations of `schema` by `value`, each starting with the JSON path of the
    /// offending part (`$.products[2].trial.mode: ...`); empty when `value` is valid.
    /// `path` names `value` itself.
    public func validate(_ value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        check(value, schema, path, depth: 0).map(\.text)
    }

    /// The violations of `#/components/schemas/<name>` by `value`.
    public func validate(_ value: JSONValue, component name: String) -> [String] {
        guard document["components"]?["schemas"]?[name] != nil else { return ["$: no schema \(name) in components/schemas"] }
        return validate(value, against: ["$ref": .string("#/components/schemas/" + name)])
    }

    /// The violations of the JSON schema declared for `status` answers to `method path`
    /// (`paths[path][method].responses[status]`, through a `$ref` to
    /// `#/components/responses/...`, then `content.application/json.schema`) by `body`.
    /// An operation or status the document does not declare is itself a violation.
    public func validateResponse(_ body: JSONValue, path: String, method: String, status: Int) -> [String] {
        let operation = "\(method.uppercased()) \(path)"
        guard let declared = document["paths"]?[path]?[method.lowercased()] else { return ["\(operation) is not in the document"] }
        guard var response = declared["responses"]?[String(status)] else { return ["\(operation) declares no \(status) response"] }
        if let ref = response["$ref"] {
            guard let target = resolve(ref, in: "responses") else { return ["\(operation) \(status): unresolvable $ref \(Self.plain(ref))"] }
            response = target
        }
        guard let schema = response["content"]?["application/json"]?["schema"] else {
            return ["\(operation) \(status) declares no application/json schema"]
        }
        return validate(body, against: schema)
    }

    // MARK: Checking

    /// A violation, and whether it is the schema's fault rather than the value's: those
    /// must surface even from a `oneOf` branch that another branch outvotes.
    private struct Violation: Error {
        let text: String
        let isSchemaProblem: Bool

        static func value(_ path: String, _ message: String) -> Violation { Violation(text: "\(path): \(message)", isSchemaProblem: false) }
        static func schema(_ path: String, _ message: String) -> Violation { Violation(text: "\(path): \(message)", isSchemaProblem: true) }
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, depth: Int) -> [Violation] {
        guard depth < Self.maximumDepth else { return [.schema(path, "schemas nested deeper than \(Self.maximumDepth) (a $ref cycle?)")] }
        guard case .object(let keys) = schema else { return [.schema(path, "schema is not an object: \(schema)")] }
        let unsupported = keys.keys.filter { !Self.keywords.contains($0) && !Self.annotations.contains($0) }.sorted()
        if !unsupported.isEmpty { return unsupported.map { .schema(path, "unsupported keyword \($0)") } }
        if let nullable = keys["nullable"], nullable.boolValue == nil { return [.schema(path, "nullable is not a boolean")] }
        if value.isNull, keys["nullable"] == true { return [] }
        if let ref = keys["$ref"] {
            // OpenAPI 3.0 ignores everything beside a $ref: a sibling would be a silent no-op.
            let siblings = keys.keys.filter { $0 != "$ref" && !Self.annotations.contains($0) }.sorted()
            if !siblings.isEmpty { return siblings.map { .schema(path, "keyword \($0) beside $ref is ignored by OpenAPI 3.0") } }
            guard let target = resolve(ref, in: "schemas") else { return [.schema(path, "unresolvable $ref \(Self.plain(ref))")] }
            return check(value, target, path, depth: depth + 1)
        }
        if let type = keys["type"] {
            let names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let list): names = list.compactMap(\.stringValue).count == list.count ? list.compactMap(\.stringValue) : []
            default: names = []
            }
            guard !names.isEmpty, names.allSatisfy(Self.types.contains) else { return [.schema(path, "unsupported type \(Self.plain(type))")] }
            guard names.contains(where: { Self.value(value, hasType: $0) }) else {
                let expected = names.joined(separator: " or ")
                return [.value(path, value.isNull ? "null is not allowed (not nullable)" : "expected \(expected), got \(Self.describe(value))")]
            }
        } else if value.isNull, keys["allOf"] == nil, keys["oneOf"] == nil {
            return [.value(path, "null is not allowed (not nullable)")]
        }
        var found: [Violation] = []
        if let options = keys["enum"] {
            guard case .array(let allowed) = options else { return [.schema(path, "enum is not an array")] }
            if !allowed.contains(value) {
                let listed = allowed.map(Self.plain).joined(separator: ", ")
                found.append(.value(path, "\(value.compactText()) is not one of \(listed)"))
            }
        }
        if let constant = keys["const"], constant != value {
            found.append(.value(path, "\(value.compactText()) is not the constant \(constant.compactText())"))
        }
        switch checkBounds(value, keys, path) {
        case .success(let violations): found += violations
        case .failure(let problem): return [problem]
        }
        if case .object(let members) = value {
            found += checkMembers(members, keys, path, depth: depth)
        }
        if case .array(let elements) = value, let items = keys["items"] {
            for (index, element) in elements.enumerated() {
                found += check(element, items, "\(path)[\(index)]", depth: depth + 1)
            }
        }
        if let all = keys["allOf"] {
            guard case .array(let parts) = all else { return [.schema(path, "allOf is not an array")] }
            for part in parts { found += check(value, part, path, depth: depth + 1) }
        }
        if let one = keys["oneOf"] {
            guard case .array(let alternatives) = one else { return [.schema(path, "oneOf is not an array")] }
            found += checkOneOf(value, alternatives, path, depth: depth)
        }
        return found
    }

    private func checkMembers(_ members: [String: JSONValue], _ keys: [String: JSONValue], _ path: String, depth: Int) -> [Violation] {
        var found: [Violation] = []
        if let required = keys["required"] {
            guard case .array(let names) = required else { return [.schema(path, "required is not an array")] }
            for entry in names {
                guard let name = entry.stringValue else { return [.schema(path, "required lists a non-string \(entry)")] }
                if members[name] == nil { found.append(.value(Self.child(path, name), "required property is missing")) }
            }
        }
        guard let declared = keys["properties"] else { return found }
        guard case .object(let properties) = declared else { return found + [.schema(path, "properties is not an object")] }
        for name in members.keys.sorted() {
            let memberPath = Self.child(path, name)
            if let schema = properties[name] {
                found += check(members[name]!, schema, memberPath, depth: depth + 1)
            } else {
                found.append(.value(memberPath, "unexpected property"))
            }
        }
        return found
    }

    /// `pattern`, the length and count bounds, and `minimum`/`maximum`; a bound that is not
    /// a number (or a pattern that does not compile) is the schema's fault.
    private func checkBounds(_ value: JSONValue, _ keys: [String: JSONValue], _ path: String) -> Result<[Violation], Violation> {
        var found: [Violation] = []
        func bound(_ name: String) -> Result<Int?, Violation> {
            guard let raw = keys[name] else { return .success(nil) }
            guard case .integer(let number) = raw, let limit = Int(exactly: number) else { return .failure(.schema(path, "\(name) is not an integer")) }
            return .success(limit)
        }
        if case .string(let text) = value {
            let length = text.count
            switch (bound("minLength"), bound("maxLength")) {
            case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
            case (.success(let low), .success(let high)):
                if let low, length < low { found.append(.value(path, "\(length) characters, fewer than minLength \(low)")) }
                if let high, length > high { found.append(.value(path, "\(length) characters, more than maxLength \(high)")) }
            }
            if let pattern = keys["pattern"] {
                guard let source = pattern.stringValue, let expression = try? NSRegularExpression(pattern: source) else {
                    return .failure(.schema(path, "pattern \(Self.plain(pattern)) does not compile"))
                }
                let whole = NSRange(text.startIndex..., in: text)
                if expression.firstMatch(in: text, range: whole) == nil {
                    found.append(.value(path, "\(value.compactText()) does not match pattern \(source)"))
                }
            }
        }
        if case .array(let elements) = value {
            switch (bound("minItems"), bound("maxItems")) {
            case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
            case (.success(let low), .success(let high)):
                if let low, elements.count < low { found.append(.value(path, "\(elements.count) items, fewer than minItems \(low)")) }
                if let high, elements.count > high { found.append(.value(path, "\(elements.count) items, more than maxItems \(high)")) }
            }
        }
        if let number = Self.number(value) {
            for (name, isLow) in [("minimum", true), ("maximum", false)] {
                guard let raw = keys[name] else { continue }
                guard let limit = Self.number(raw) else { return .failure(.schema(path, "\(name) is not a number")) }
                if isLow ? number < limit : number > limit {
                    found.append(.value(path, "\(value.compactText()) is \(isLow ? "below minimum" : "above maximum") \(raw.compactText())"))
                }
            }
        }
        return .success(found)
    }

    /// A JSON number as a `Decimal`, exactly; nil for anything else.
    private static func number(_ value: JSONValue) -> Decimal? {
        switch value {
        case .integer, .decimal: Decimal(string: value.compactText(), locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }

    private func checkOneOf(_ value: JSONValue, _ alternatives: [JSONValue], _ path: String, depth: Int) -> [Violation] {
        let outcomes = alternatives.map { check(value, $0, path, depth: depth + 1) }
        let schemaProblems = outcomes.flatMap { $0.filter(\.isSchemaProblem) }
        if !schemaProblems.isEmpty { return schemaProblems }
        let matching = outcomes.filter(\.isEmpty).count
        if matching == 1 { return [] }
        if matching > 1 { return [.value(path, "matches \(matching) oneOf alternatives; exactly one must match")] }
        // Each alternative's reasons keep the paths of the fields that sank it.
        let reasons = outcomes.enumerated().map { "#\($0.offset + 1): " + $0.element.map(\.text).joined(separator: "; ") }
        return [.value(path, "matches none of the \(alternatives.count) oneOf alternatives (\(reasons.joined(separator: " | ")))")]
    }

    // MARK: Helpers

    /// `#/components/<section>/<name>`; nil for any other reference.
    private func resolve(_ ref: JSONValue, in section: String) -> JSONValue? {
        let prefix = "#/components/\(section)/"
        guard let text = ref.stringValue, text.hasPrefix(prefix) else { return nil }
        let name = String(text.dropFirst(prefix.count))
        guard !name.contains("/"), !name.contains("~") else { return nil }
        return document["components"]?[section]?[name]
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("string", .string),
             ("array", .array), ("object", .object), ("number", .integer), ("number", .decimal): true
        default: false
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean \(value.compactText())"
        case .integer: "integer \(value.compactText())"
        case .decimal: "number \(value.compactText())"
        case .string: "string \(value.compactText())"
        case .array: "array"
        case .object: "object"
        }
    }

    /// A string as its text, anything else as JSON: for naming schema parts in messages.
    private static func plain(_ value: JSONValue) -> String { value.stringValue ?? value.compactText() }

    /// `path.name`, or `path["name"]` when the name is not identifier-like.
    private static func child(_ path: String, _ name: String) -> String {
        let plain = !name.isEmpty && name.first?.isNumber == false
            && name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        return plain ? "\(path).\(name)" : "\(path)[\(JSONValue.string(name).compactText())]"
    }
}
