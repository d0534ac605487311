import Foundation
import LedgerJSON
import Testing
import TestSupport

@Suite("YAMLSubset", .bounded)
struct YAMLSubsetTests {
    // MARK: The seed document

    @Test(.needsSharedData)
    func seedTopLevelAndVersions() throws {
        let document = try ZeroSettleSeed.document()
        #expect(document.objectValue.map { Set($0.keys) } == ["openapi", "info", "servers", "security", "tags", "paths", "components"])
        // Dotted numbers are strings, as a YAML 1.2 reader sees them.
        #expect(document["openapi"] == "3.0.3")
        #expect(document["info"]?["version"] == "1.0.0")
        #expect(document["info"]?["contact"]?["url"] == "https://zerosettle.io")
        #expect(document["servers"]?[0]?["url"] == "https://api.zerosettle.io/v1")
        #expect(document["servers"]?[0]?["description"] == "Production")
        #expect(document["security"] == [["ApiKeyAuth": []]])
        #expect(document["tags"] == [["name": "Products", "description": "Fetch the product catalog for your app"]])
        let description = try #require(document["info"]?["description"]?.stringValue)
        #expect(description.hasPrefix("The ZeroSettle IAP API powers the iOS, Android, and Flutter SDKs."))
        #expect(description.hasSuffix("authenticated via the `X-ZeroSettle-Key` header."))
    }

    @Test(.needsSharedData)
    func seedOperation() throws {
        let get = try #require(try ZeroSettleSeed.document()["paths"]?["/iap/products"]?["get"])
        #expect(get["operationId"] == "getProducts")
        #expect(get["tags"] == ["Products"])
        #expect(get["parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["user_id", "demo"])
        #expect(get["parameters"]?[0]?["required"] == false)
        #expect(get["parameters"]?[0]?["schema"] == ["type": "string"])
        let responses = try #require(get["responses"]?.objectValue)
        #expect(Set(responses.keys) == ["200", "401", "403"])
        #expect(responses["401"] == ["$ref": "#/components/responses/Unauthorized"])
        let properties = try #require(responses["200"]?["content"]?["application/json"]?["schema"]?["properties"])
        #expect(properties["products"]?["items"] == ["$ref": "#/components/schemas/Product"])
        // `type: 'null'` is the string "null", not a YAML null.
        #expect(properties["offer"]?["oneOf"]?[1] == ["type": "null"])
        #expect(properties["offer"]?["nullable"] == true)
        #expect(properties["migration_campaign"]?["allOf"] == [["$ref": "#/components/schemas/MigrationCampaign"]])
    }

    @Test(.needsSharedData)
    func seedDemoParameterFoldsItsMultiLineDescription() throws {
        let parameters = try #require(try ZeroSettleSeed.document()["paths"]?["/iap/products"]?["get"]?["parameters"]?.arrayValue)
        let demo = try #require(parameters.first { $0["name"] == "demo" })
        #expect(demo["in"] == "query")
        #expect(demo["schema"]?["enum"] == ["migration", "upgrade"])
        let text = try #require(demo["description"]?.stringValue)
        #expect(text.contains("Honored **only** on test-mode"))
        #expect(text.hasPrefix("**Debug-only.** Surfaces a dashboard-configured campaign"))
        #expect(text.hasSuffix("the normal user-state resolver runs."))
        // Two empty lines are two newlines, one empty line is one.
        #expect(text.contains("without crafting a specific test account.\n\n- `migration` returns"))
        #expect(text.contains("`flow_type=migration`).\n- `upgrade` returns"))
        #expect(text.contains("a real billing cycle.\n- Honored"))
        #expect(text.components(separatedBy: "\n").count == 5)
    }

    @Test(.needsSharedData)
    func seedComponents() throws {
        let components = try #require(try ZeroSettleSeed.document()["components"])
        let schemas = try #require(components["schemas"]?.objectValue)
        #expect(Set(schemas.keys) == ["CheckoutConfig", "Product", "MigrationCampaign", "Price", "OfferDisplay", "JurisdictionConfig", "Error", "Offer"])
        #expect(schemas["Offer"]?["required"]?.arrayValue?.count == 9)
        #expect(schemas["Offer"]?["required"]?[0] == "flow_type")
        #expect(schemas["OfferDisplay"]?["required"]?.arrayValue?.count == 8)
        #expect(schemas["Error"]?["required"] == ["error"])
        #expect(schemas["Product"]?["properties"]?["trial"]?["properties"]?["mode"]?["enum"] == ["free", "paid", "auth_hold"])
        #expect(schemas["Product"]?["properties"]?["trial"]?["nullable"] == true)
        // A plain scalar keeps the quotes inside it; a quoted one starting with ` keeps it.
        #expect(schemas["OfferDisplay"]?["properties"]?["offer_title"]?["description"] == "Title for the offer card (e.g., 'Thanks for being with us!').")
        #expect(schemas["Product"]?["properties"]?["trial"]?["properties"]?["validates_card"]?["description"]?.stringValue?.hasPrefix("`true` for `paid`") == true)
        #expect(schemas["Price"]?["properties"]?["amount_micros"]?["description"] == "Price in micros. For example, $4.99 = 4990000.")
        #expect(components["responses"]?["Forbidden"]?["content"]?["application/json"]?["schema"] == ["$ref": "#/components/schemas/Error"])
        #expect(components["securitySchemes"]?["ApiKeyAuth"]?["name"] == "X-ZeroSettle-Key")
    }

    // MARK: Small documents

    @Test func scalarsMappingsAndSequences() throws {
        let accepted = """
            a: 1
            b: -20
            c: true
            d: false
            e: null
            f: ~
            g: 3.0.3
            'i': 'it''s'
            j: '123'
            url: https://a.b/c
            list:
            - x
            -   k: v
                k2:
                  deep: 0
            -
              nested: [] 
            nested:
              inner:
                - 1
                - 'two'

              after: yes
            """
        let expected: JSONValue = [
            "a": 1, "b": -20, "c": true, "d": false, "e": nil, "f": nil, "g": "3.0.3", "i": "it's", "j": "123",
            "url": "https://a.b/c",
            "list": ["x", ["k": "v", "k2": ["deep": 0]], ["nested": []]],
            "nested": ["inner": [1, "two"], "after": "yes"],
        ]
        #expect(try YAMLSubset.parse(accepted) == expected)
    }

    @Test func multiLineSingleQuotedScalarsFold() throws {
        let text = "k: 'one  \n    two\n\n    three\n  \n\n    four '' five'\nnext: 'a\n  b'\n"
        #expect(try YAMLSubset.parse(text) == ["k": "one two\nthree\n\nfour ' five", "next": "a b"])
        #expect(try YAMLSubset.parse("- 'a\n  b'\n- c") == ["a b", "c"])
        #expect(try YAMLSubset.parse("'200':\n  x: 'y'") == ["200": ["x": "y"]])
    }

    static let refused: [(text: String, line: Int, mentions: String)] = [
        ("a:\n\tb: 1", 2, "tab"),
        ("a:\n  b: 1\n \tc: 2", 3, "tab"),
        ("a: {}", 1, "flow"),
        ("a: [1, 2]", 1, "flow"),
        ("a:\n  - [x]", 2, "flow"),
        ("a: &x 1\nb: *x", 1, "anchor"),
        ("a: 1\nb: *x", 2, "alias"),
        ("# hello\na: 1", 1, "comment"),
        ("a: 1 # hello", 1, "comment"),
        ("a: 'x' # hello", 1, "comment"),
        ("a: \"x\"", 1, "double-quoted"),
        ("a: |\n  x", 1, "block scalar"),
        ("a: !!str 1", 1, "tag"),
        ("a: 1\na: 2", 2, "duplicate key"),
        ("a: 1\nb:\nc: 2", 2, "missing value"),
        ("a: 1.5", 1, "floating-point"),
        ("a: 0x1F", 1, "hexadecimal"),
        ("a: 012", 1, "leading zero"),
        ("a: 99999999999999999999", 1, "out of range"),
        ("a: True", 1, "lower case"),
        ("a:\n  b: 1\n   c: 2", 3, "indentation"),
        ("a:\n  b: 1\n c: 2", 3, "indentation"),
        ("a: b: c", 1, "mapping cannot start"),
        ("a:\n  b: 'open\nc: 1", 3, "indented more"),
        ("a: 'never closed\n  still open", 1, "not closed"),
        ("'key\n  more': 1", 1, "must close on its own line"),
        ("---\na: 1", 1, "document marker"),
        ("a: 1\r\nb: 2", 1, "carriage return"),
        ("just text", 1, "expected 'key: value'"),
        ("a:\n- 1\n  - 2", 3, "indentation"),
        ("", 1, "empty"),
        ("- - a", 1, "nested sequence"),
    ]

    @Test(arguments: refused.indices)
    func refusedInput(_ index: Int) {
        let (text, line, mentions) = Self.refused[index]
        do {
            let value = try YAMLSubset.parse(text)
            Issue.record("accepted \(text.debugDescription) as \(value)")
        } catch let error as YAMLSubset.ParseError {
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            #expect(error.message.lowercased().contains(mentions.lowercased()), "\(text.debugDescription): \(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}

/// The ZeroSettle catalog contract, `../shared/seeds/zerosettle-products-openapi.yaml` beside
/// the repository; the tests that need it carry `.needsSharedData`. The schema
/// validator's tests read it from here too.
enum ZeroSettleSeed {
    static func document() throws -> JSONValue {
        try YAMLSubset.parse(String(contentsOfFile: try SharedData.path("seeds/zerosettle-products-openapi.yaml"), encoding: .utf8))
    }
}
