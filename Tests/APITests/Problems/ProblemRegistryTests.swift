@testable import API
import Foundation
import LedgerServices
import Testing
import TestSupport

/// The registry of error codes (`ProblemTypes`) says what the code does: every code the
/// sources can answer with is in it, every code in it is one the sources answer with, the
/// statuses written beside a code are among those it lists, and docs/errors.md is exactly
/// what it generates. Read from the package's own sources, so a new code without a page
/// (or a page left behind by a removed code) fails here, naming it.
@Suite("Every error code the ledger answers has one page, and only those", .bounded)
struct ProblemRegistryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A code where the sources write one: what it matched, where.
    struct Found: Hashable {
        var code: String
        var status: Int?
        var file: String
    }

    /// Where codes are written, and how. Left out on purpose: the console (its answers are
    /// pages that show `detail`, never a code), the stand-ins of Apple's and Stripe's APIs
    /// (test servers, not the ledger), the benchmarks, and the error codes that only ever
    /// travel inside another code's `detail` or in logs (`AppStoreError`, the JSON parser's,
    /// PostgreSQL's, the HTTP server's start-up errors).
    static let sources: [(directory: String, excluding: [String], patterns: [String])] = [
        // HTTP problems and the catalog's errors: `Problem(status: 404, code: "not_found"`,
        // `CatalogError(status: 401, error: "…", code: "missing_api_key")`,
        // `badRequest("…", code: "invalid_body")`, `identifier(…, code: "invalid_offer_id", …)`,
        // and a fallback, `code: refusal?.code.rawValue ?? "stripe_webhook_invalid"`.
        ("Sources/HTTP", [], problemCodes),
        ("Sources/API", ["Sources/API/Console/", "Sources/API/Problems/"], problemCodes),
        // The deciders' refusals (`Refusal.Code("already_exists")`), the promotional offer
        // signature's (`PromotionalOfferRefusal.Code`) and the Stripe webhook's
        // (`StripeWebhookError.Code`).
        ("Sources/LedgerDomain", [], [#"Code\("([a-z0-9_]+)"\)"#]),
        ("Sources/LedgerServices", [], [#"Code\("([a-z0-9_]+)"\)"#]),
        ("Sources/Stripe", [], [#"Code\("([a-z0-9_]+)"\)"#]),
        // `ledger admin`'s own refusals.
        ("Sources/LedgerCLI/Commands/Admin", [], [#"Code\(rawValue:\s*"([a-z0-9_]+)"\)"#]),
    ]

    static let problemCodes = [#"code:\s*"([a-z0-9_]+)""#, #"code:[^\n]*\?\?\s*"([a-z0-9_]+)""#]

    /// Codes written through a constant rather than a literal at the place they are answered.
    static let constants = [ActOutcome.outcomeUnknownCode]

    static func swiftFiles(under directory: String) throws -> [URL] {
        let url = root.appendingPathComponent(directory)
        let files = try #require(FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil))
        return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// Every code the sources write, with the status beside it when the call names one.
    static func emitted() throws -> Set<Found> {
        var found = Set<Found>()
        for source in sources {
            for file in try swiftFiles(under: source.directory) {
                let relative = String(file.path.dropFirst(root.path.count + 1))
                guard !source.excluding.contains(where: relative.hasPrefix) else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for pattern in source.patterns {
                    for match in text.matches(of: try Regex<(Substring, Substring)>(pattern)) {
                        found.insert(Found(code: String(match.output.1), status: status(before: match.range.lowerBound, in: text),
                                           file: relative))
                    }
                }
            }
        }
        for code in constants { found.insert(Found(code: code, status: nil, file: "(a constant)")) }
        return found
    }

    /// The status a `Problem(status: N, code:` or `CatalogError(status: N, error: "…", code:`
    /// names for the code written at `index`; 400 for `CatalogError.badRequest`.
    static func status(before index: String.Index, in text: String) -> Int? {
        let lineStart = text[..<index].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let line = text[lineStart..<index]
        let call = text[text.index(index, offsetBy: -min(200, text.distance(from: text.startIndex, to: index)))..<index]
        if line.contains("badRequest(") { return 400 }
        if let m = call.firstMatch(of: /(?:Problem|CatalogError)\(\s*status:\s*(\d+),\s*(?:error:[^\n]*,\s*)?$/) {
            return Int(m.output.1)
        }
        return nil
    }

    @Test("every code the sources answer with is in the registry, and every registry code is answered somewhere")
    func registryIsTheSourcesCodes() throws {
        let found = try Self.emitted()
        let emittedCodes = Set(found.map(\.code))
        #expect(emittedCodes.count > 80, "the scan found only \(emittedCodes.count) codes under \(Self.root.path)")
        let registered = Set(ProblemTypes.all.map(\.code))
        let undocumented = found.filter { !registered.contains($0.code) }.map { "\($0.code) (\($0.file))" }.sorted()
        #expect(undocumented.isEmpty, "codes without a page in ProblemTypes: \(undocumented)")
        let stale = registered.subtracting(emittedCodes).sorted()
        #expect(stale.isEmpty, "registry codes nothing answers with: \(stale)")
    }

    @Test("a status written beside a code is one its page lists")
    func statusesAgree() throws {
        let withStatus = try Self.emitted().filter { $0.status != nil }
        #expect(withStatus.count > 40)
        let wrong = withStatus.compactMap { found -> String? in
            guard let type = ProblemTypes.type(of: found.code), !type.statuses.contains(found.status!) else { return nil }
            return "\(found.code): \(found.status!) in \(found.file), the registry says \(type.statusText)"
        }
        #expect(wrong.isEmpty, "\(wrong.sorted())")
    }

    @Test("one entry per code, each with a status of 4xx/5xx or none, a one-line title, a meaning and what to do")
    func entriesAreWellFormed() {
        var seen = Set<String>()
        for type in ProblemTypes.all {
            #expect(seen.insert(type.code).inserted, "\(type.code) is listed twice")
            #expect(type.code.wholeMatch(of: /[a-z][a-z0-9_]*/) != nil, "\(type.code)")
            #expect(type.statuses.allSatisfy { (400...599).contains($0) }, "\(type.code): \(type.statuses)")
            for text in [type.title, type.meaning, type.action] {
                #expect(!text.isEmpty && !text.contains("\n") && text.filter { $0 == "`" }.count % 2 == 0, "\(type.code): \(text)")
            }
            #expect(type.title.count <= 80, "\(type.code)'s title is more than a line")
            #expect(type.path == "/problems/" + type.code)
        }
        #expect(Set(ProblemTypes.groups.map(\.anchor)).count == ProblemTypes.groups.count)
    }

    @Test("`ledger errors --markdown` prints the registry's page; `ledger errors CODE` one code; an unknown code exits 1")
    func command() throws {
        let markdown = try LedgerBinary.start(["errors", "--markdown"])
        #expect(markdown.wait() == 0)
        #expect(markdown.output == ProblemTypes.markdown())
        let one = try LedgerBinary.start(["errors", "usage_id_conflict"])
        #expect(one.wait() == 0)
        let type = try #require(ProblemTypes.type(of: "usage_id_conflict"))
        #expect(one.output.hasPrefix("usage_id_conflict (HTTP 409): \(type.title)") && one.output.contains(type.action))
        let unknown = try LedgerBinary.start(["errors", "no_such_code"])
        #expect(unknown.wait() == 1)
        #expect(unknown.errors.contains("no error code \"no_such_code\""))
        let list = try LedgerBinary.start(["errors"])
        #expect(list.wait() == 0)
        #expect(ProblemTypes.all.allSatisfy { list.output.contains("  \($0.code) ") })
    }

    @Test("docs/errors.md is exactly what `ledger errors --markdown` prints")
    func docsAreGenerated() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        let generated = ProblemTypes.markdown()
        let differing = zip(committed.split(separator: "\n", omittingEmptySubsequences: false),
                            generated.split(separator: "\n", omittingEmptySubsequences: false)).enumerated()
            .first { $0.element.0 != $0.element.1 }
        #expect(committed == generated,
                "docs/errors.md differs from the registry (first at line \((differing?.offset ?? 0) + 1)): run `ledger errors --markdown > docs/errors.md`")
    }
}
