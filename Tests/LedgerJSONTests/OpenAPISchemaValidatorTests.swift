import LedgerJSON
import Testing
import TestSupport

@Suite("OpenAPISchemaValidator", .bounded)
struct OpenAPISchemaValidatorTests {
    static func seedValidator() throws -> OpenAPISchemaValidator { OpenAPISchemaValidator(document: try ZeroSettleSeed.document()) }

    static func catalog(_ body: JSONValue) throws -> [String] {
        try seedValidator().validateResponse(body, path: "/iap/products", method: "GET", status: 200)
    }

    // MARK: Sample catalog responses

    static let checkoutConfig: JSONValue = [
        "sheet_type": "native", "is_enabled": true, "apple_merchant_id": "merchant.io.zerosettle.demo",
        "jurisdictions": [
            "us": ["sheet_type": "native", "is_enabled": true],
            "eu": ["sheet_type": "webview", "is_enabled": false],
            "other": ["sheet_type": "webview", "is_enabled": true],
        ],
    ]

    static func product(_ id: String, _ type: String, eligible: JSONValue, trial: JSONValue? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "display_name": "Premium", "product_description": "Everything, unlocked.", "type": .string(type),
            "web_price": ["amount_micros": 4_990_000, "currency_code": "USD"],
            "storekit_price": type == "consumable" ? nil : ["amount_micros": 5_990_000, "currency_code": "USD"],
            "subscription_group_id": type == "auto_renewable_subscription" ? 21_482_234 : nil,
            "free_trial_duration": trial == nil ? nil : "P7D",
            "is_trial_eligible": eligible,
        ]
        fields["trial"] = trial
        return .object(fields)
    }

    static let anonymous: JSONValue = [
        "products": [
            product("com.app.premium.monthly", "auto_renewable_subscription", eligible: nil),
            product("com.app.coins.100", "consumable", eligible: nil),
        ],
        "checkout_config": checkoutConfig,
        "migration_campaign": nil,
        "offer": nil,
    ]

    static let withUser: JSONValue = [
        "products": [
            product("com.app.coins.100", "consumable", eligible: false),
            product("com.app.premium.monthly", "auto_renewable_subscription", eligible: true, trial: [
                "mode": "paid", "duration": "1_week", "upfront_amount_cents": 99, "hold_amount_cents": 0, "validates_card": true,
            ]),
            product("com.app.premium.yearly", "auto_renewable_subscription", eligible: false, trial: .null),
        ],
        "checkout_config": ["sheet_type": "webview", "is_enabled": false, "apple_merchant_id": nil],
    ]

    static let withCampaignAndOffer: JSONValue = {
        var body = withUser.objectValue!
        body["checkout_config"] = checkoutConfig
        body["migration_campaign"] = [
            "should_show": true, "product_id": "com.app.premium.yearly", "discount_percent": 20, "min_subscription_days": 30,
            "max_subscription_days": 365, "free_trial_days": 7, "title": "Switch & Save", "message": "Save 20% forever.", "variant_id": 3,
        ]
        body["offer"] = [
            "flow_type": "upgrade", "product_id": "com.app.premium.yearly",
            "eligible_product_ids": ["com.app.premium.monthly", "com.app.premium.weekly"],
            "savings_percent": 0, "free_trial_days": 0, "min_subscription_days": 0, "max_subscription_days": nil, "rollout_percent": 100,
            "display": [
                "offer_title": "Thanks for being with us!", "offer_message": "", "offer_cta": "Save 20% Forever",
                "accepted_title": "", "accepted_message": "", "accepted_cta": "Cancel Apple Billing",
                "completed_title": "Congratulations!", "completed_message": "You are now saving 20% forever.",
            ],
            "upgrade_type": "storekit_to_web", "from_product_id": "com.app.premium.monthly", "to_product_id": "com.app.premium.yearly",
            "variant_id": 7, "checkout_presentation": "sheet",
            "per_product_prompts": ["com.app.premium.monthly": ["title": "Go yearly", "anything": [1, true]]],
        ]
        return .object(body)
    }()

    @Test(.needsSharedData)
    func validSamplesPass() throws {
        #expect(try Self.catalog(Self.anonymous) == [])
        #expect(try Self.catalog(Self.withUser) == [])
        #expect(try Self.catalog(Self.withCampaignAndOffer) == [])
        // Optional top-level members may be absent as well as null.
        #expect(try Self.catalog(["products": [], "checkout_config": [:]]) == [])
    }

    @Test(.needsSharedData)
    func violationsNameTheirPath() throws {
        let weekly = JSONMutation.replacing(Self.withUser, at: [.key("products"), .index(1), .key("trial"), .key("mode")], with: "weekly")
        #expect(try Self.catalog(weekly) == [#"$.products[1].trial.mode: "weekly" is not one of free, paid, auth_hold"#])
        let offer = JSONMutation.replacing(Self.withCampaignAndOffer, at: [.key("offer"), .key("flow_type")], with: "downgrade")
        let violations = try Self.catalog(offer)
        #expect(violations.count == 1)
        #expect(violations.first?.hasPrefix("$.offer: matches none of the 2 oneOf alternatives") == true)
        #expect(violations.first?.contains(#"$.offer.flow_type: "downgrade" is not one of migration, upgrade"#) == true)
        let price = JSONMutation.replacing(Self.anonymous, at: [.key("products"), .index(0), .key("web_price"), .key("amount_micros")], with: "4990000")
        #expect(try Self.catalog(price) == [#"$.products[0].web_price.amount_micros: expected integer, got string "4990000""#])
    }

    // Paths with [*] for any index, read off the document by hand.
    static let required: Set<String> = [
        "$.products", "$.checkout_config", "$.offer.flow_type", "$.offer.product_id", "$.offer.eligible_product_ids",
        "$.offer.savings_percent", "$.offer.display", "$.offer.free_trial_days", "$.offer.min_subscription_days",
        "$.offer.max_subscription_days", "$.offer.rollout_percent", "$.offer.display.offer_title", "$.offer.display.offer_message",
        "$.offer.display.offer_cta", "$.offer.display.accepted_title", "$.offer.display.accepted_message",
        "$.offer.display.accepted_cta", "$.offer.display.completed_title", "$.offer.display.completed_message",
    ]
    static let nullable: Set<String> = [
        "$.migration_campaign", "$.offer", "$.checkout_config.apple_merchant_id", "$.products[*].web_price",
        "$.products[*].storekit_price", "$.products[*].subscription_group_id", "$.products[*].free_trial_duration",
        "$.products[*].is_trial_eligible", "$.products[*].trial", "$.migration_campaign.variant_id",
        "$.offer.max_subscription_days", "$.offer.upgrade_type", "$.offer.from_product_id", "$.offer.to_product_id",
        "$.offer.variant_id", "$.offer.per_product_prompts", "$.offer.checkout_presentation",
    ]
    static let enums: Set<String> = [
        "$.products[*].type", "$.products[*].trial.mode", "$.checkout_config.sheet_type",
        "$.checkout_config.jurisdictions.us.sheet_type", "$.checkout_config.jurisdictions.eu.sheet_type",
        "$.checkout_config.jurisdictions.other.sheet_type", "$.offer.flow_type", "$.offer.upgrade_type", "$.offer.checkout_presentation",
    ]
    static let freeForm: Set<String> = ["$.offer.per_product_prompts"]

    /// Every mutation of a valid response the contract forbids must be caught at the
    /// mutated path, and every mutation it allows (dropping an optional field, null where
    /// nullable) must pass. The expectations come from this table, written from the
    /// document by hand, not from the validator's own reading of it.
    @Test(.needsSharedData)
    func generatedMutationsAreJudgedAtTheRightPath() throws {
        let validator = try Self.seedValidator()
        let mutations = JSONMutation.all(of: Self.withCampaignAndOffer, required: Self.required, nullable: Self.nullable,
                                         enums: Self.enums, freeForm: Self.freeForm)
        #expect(mutations.count > 250)
        #expect(Set(mutations.map(\.kind)) == Set(JSONMutation.Kind.allCases))
        for mutation in mutations {
            let violations = validator.validateResponse(mutation.body, path: "/iap/products", method: "get", status: 200)
            if let path = mutation.expectedPath {
                #expect(violations.contains { $0.hasPrefix(path + ": ") || $0.contains(" " + path + ": ") },
                        "\(mutation.kind) at \(mutation.path) not reported at \(path): \(violations)")
            } else {
                #expect(violations == [], "\(mutation.kind) at \(mutation.path) is allowed by the contract")
            }
        }
    }

    // MARK: Errors and lookup

    @Test(.needsSharedData)
    func errorResponses() throws {
        let validator = try Self.seedValidator()
        for status in [401, 403] {
            #expect(validator.validateResponse(["error": "Invalid API key", "code": "invalid_key"], path: "/iap/products", method: "GET", status: status) == [])
            #expect(validator.validateResponse(["error": "Invalid API key"], path: "/iap/products", method: "GET", status: status) == [])
            #expect(validator.validateResponse(["message": "x"], path: "/iap/products", method: "GET", status: status)
                    == ["$.error: required property is missing", "$.message: unexpected property"])
        }
        #expect(validator.validate(["error": 401], component: "Error") == ["$.error: expected string, got integer 401"])
        #expect(validator.validate([:], component: "Nope") == ["$: no schema Nope in components/schemas"])
        #expect(validator.validateResponse([:], path: "/iap/products", method: "GET", status: 500) == ["GET /iap/products declares no 500 response"])
        #expect(validator.validateResponse([:], path: "/iap/nothing", method: "GET", status: 200) == ["GET /iap/nothing is not in the document"])
    }

    // MARK: Keyword semantics on small schemas

    static let small = OpenAPISchemaValidator(document: [
        "components": ["schemas": ["P": ["type": "object", "properties": ["n": ["type": "integer"]]]]],
    ])

    @Test func nullNeedsNullableOrANullType() {
        let v = Self.small
        #expect(v.validate(nil, against: ["type": "string"]) == ["$: null is not allowed (not nullable)"])
        #expect(v.validate(nil, against: ["type": "string", "nullable": true]) == [])
        #expect(v.validate(nil, against: ["allOf": [["$ref": "#/components/schemas/P"]], "nullable": true]) == [])
        #expect(v.validate(nil, against: ["allOf": [["$ref": "#/components/schemas/P"]]]) == ["$: null is not allowed (not nullable)"])
        #expect(v.validate(nil, against: ["oneOf": [["type": "string"], ["type": "null"]]]) == [])
        #expect(v.validate(nil, against: ["description": "anything"]) == ["$: null is not allowed (not nullable)"])
        #expect(v.validate(["n": nil], against: ["$ref": "#/components/schemas/P"], at: "$.x") == ["$.x.n: null is not allowed (not nullable)"])
    }

    @Test func typesAreExact() {
        let v = Self.small
        #expect(v.validate(.decimal("1.5"), against: ["type": "integer"]) == ["$: expected integer, got number 1.5"])
        #expect(v.validate(.decimal("1.5"), against: ["type": "number"]) == [])
        #expect(v.validate(1, against: ["type": "boolean"]) == ["$: expected boolean, got integer 1"])
        #expect(v.validate(["a", 2], against: ["type": "array", "items": ["type": "string"]]) == ["$[1]: expected string, got integer 2"])
        #expect(v.validate(["any": [1], "thing": nil], against: ["type": "object"]) == [], "no properties: free-form")
        #expect(v.validate(["odd key": 1], against: ["type": "object", "properties": [:]]) == [#"$["odd key"]: unexpected property"#])
        #expect(v.validate("b", against: ["oneOf": [["type": "string"], ["enum": ["b"]]]]) == ["$: matches 2 oneOf alternatives; exactly one must match"])
    }

    @Test func typeListsConstAndBounds() {
        let v = Self.small
        let nullableInteger: JSONValue = ["type": ["integer", "null"], "minimum": 0, "maximum": 10]
        #expect(v.validate(nil, against: nullableInteger) == [])
        #expect(v.validate(3, against: nullableInteger) == [])
        #expect(v.validate("3", against: nullableInteger) == [#"$: expected integer or null, got string "3""#])
        #expect(v.validate(-1, against: nullableInteger) == ["$: -1 is below minimum 0"])
        #expect(v.validate(11, against: nullableInteger) == ["$: 11 is above maximum 10"])
        #expect(v.validate(.decimal("10.5"), against: ["type": "number", "maximum": 10]) == ["$: 10.5 is above maximum 10"])
        #expect(v.validate("millicredits", against: ["type": "string", "const": "millicredits"]) == [])
        #expect(v.validate("credits", against: ["type": "string", "const": "millicredits"]) == [#"$: "credits" is not the constant "millicredits""#])
        #expect(v.validate(true, against: ["type": "boolean", "const": false]) == ["$: true is not the constant false"])
        let month: JSONValue = ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$", "minLength": 7, "maxLength": 7, "format": "month"]
        #expect(v.validate("2026-11", against: month) == [])
        #expect(v.validate("2026-1", against: month) == [#"$: 6 characters, fewer than minLength 7"#, #"$: "2026-1" does not match pattern ^[0-9]{4}-[0-9]{2}$"#])
        #expect(v.validate("x2026-11", against: ["type": "string", "pattern": "[0-9]{4}"]) == [], "a pattern is not anchored")
        let list: JSONValue = ["type": "array", "items": ["type": "integer"], "minItems": 1, "maxItems": 2]
        #expect(v.validate([1], against: list) == [])
        #expect(v.validate([], against: list) == ["$: 0 items, fewer than minItems 1"])
        #expect(v.validate([1, 2, 3], against: list) == ["$: 3 items, more than maxItems 2"])
    }

    @Test func schemasItCannotReadFailLoudly() {
        let v = Self.small
        #expect(v.validate("x", against: ["type": "string", "contentEncoding": "base64", "example": "2025-01-01"]) == ["$: unsupported keyword contentEncoding"])
        // A branch that loses the vote still may not hide a keyword nobody checked.
        #expect(v.validate("x", against: ["oneOf": [["type": "string"], ["type": "integer", "exclusiveMinimum": 0]]]) == ["$: unsupported keyword exclusiveMinimum"])
        #expect(v.validate(["n": 1, "m": 2], against: ["type": "object", "properties": ["m": ["type": "integer", "maxLength": 3]], "additionalProperties": false])
                == ["$: unsupported keyword additionalProperties"])
        #expect(v.validate("x", against: ["type": "string", "pattern": "(["]) == ["$: pattern ([ does not compile"])
        #expect(v.validate("x", against: ["type": "string", "maxLength": "3"]) == ["$: maxLength is not an integer"])
        #expect(v.validate(1, against: ["type": ["integer", "decimal"]]) == [#"$: unsupported type ["integer","decimal"]"#])
        #expect(v.validate(1, against: ["$ref": "#/components/schemas/Q"]) == ["$: unresolvable $ref #/components/schemas/Q"])
        #expect(v.validate(1, against: ["$ref": "#/components/schemas/P", "nullable": true]) == ["$: keyword nullable beside $ref is ignored by OpenAPI 3.0"])
        #expect(v.validate(1, against: ["type": "decimal"]) == ["$: unsupported type decimal"])
    }
}

/// A change to a valid JSON value, and the path at which a validator must object to it
/// (nil: the change is allowed and the value must stay valid).
struct JSONMutation {
    enum Kind: CaseIterable { case wrongType, integerAsString, nullValue, dropped, outsideEnum, unexpectedProperty }

    enum Step { case key(String), index(Int) }

    let kind: Kind
    /// The mutated member.
    let path: String
    let body: JSONValue
    let expectedPath: String?

    /// Every mutation of every member of `valid` (outside free-form objects). The sets hold
    /// paths with `[*]` for any index.
    static func all(of valid: JSONValue, required: Set<String>, nullable: Set<String>, enums: Set<String>, freeForm: Set<String>) -> [JSONMutation] {
        var found: [JSONMutation] = []
        for (steps, value) in members(of: valid, at: []) {
            let path = text(steps)
            let pattern = path.replacing(#/\[[0-9]+\]/#, with: "[*]")
            if freeForm.contains(where: { pattern.hasPrefix($0 + ".") }) { continue }
            func add(_ kind: Kind, at target: [Step], _ new: JSONValue?, expected: String?) {
                found.append(JSONMutation(kind: kind, path: path, body: replacing(valid, at: target, with: new), expectedPath: expected))
            }
            if case .object = value {
                add(.unexpectedProperty, at: steps + [.key("surprise")], 1, expected: freeForm.contains(pattern) ? nil : path + ".surprise")
            }
            if steps.isEmpty { continue }
            switch value {
            case .integer(let n): add(.integerAsString, at: steps, .string(String(n)), expected: path)
            case .string: add(.wrongType, at: steps, 7, expected: path)
            case .bool(let b): add(.wrongType, at: steps, .string(String(b)), expected: path)
            case .object, .array: add(.wrongType, at: steps, "x", expected: path)
            case .null, .decimal: break
            }
            if value != .null { add(.nullValue, at: steps, .null, expected: nullable.contains(pattern) ? nil : path) }
            if case .key = steps.last { add(.dropped, at: steps, nil, expected: required.contains(pattern) ? path : nil) }
            if enums.contains(pattern) { add(.outsideEnum, at: steps, "weekly", expected: path) }
        }
        return found
    }

    /// `value` with the member at `steps` set to `new`, or removed when `new` is nil.
    static func replacing(_ value: JSONValue, at steps: [Step], with new: JSONValue?) -> JSONValue {
        guard let first = steps.first else { return new ?? .null }
        let rest = Array(steps.dropFirst())
        switch (first, value) {
        case (.key(let key), .object(var members)):
            // Not `members[key] = nil`: JSONValue is ExpressibleByNilLiteral, so that would store null.
            if rest.isEmpty, new == nil {
                members.removeValue(forKey: key)
            } else {
                members[key] = replacing(members[key] ?? .null, at: rest, with: new)
            }
            return .object(members)
        case (.index(let index), .array(var items)):
            items[index] = replacing(items[index], at: rest, with: new)
            return .array(items)
        default:
            preconditionFailure("no \(first) in \(value)")
        }
    }

    private static func members(of value: JSONValue, at steps: [Step]) -> [([Step], JSONValue)] {
        var found = [(steps, value)]
        switch value {
        case .object(let members):
            for key in members.keys.sorted() { found += Self.members(of: members[key]!, at: steps + [.key(key)]) }
        case .array(let items):
            for (index, item) in items.enumerated() { found += members(of: item, at: steps + [.index(index)]) }
        default: break
        }
        return found
    }

    private static func text(_ steps: [Step]) -> String {
        steps.reduce("$") { path, step in
            switch step {
            case .key(let key): "\(path).\(key)"
            case .index(let index): "\(path)[\(index)]"
            }
        }
    }
}
