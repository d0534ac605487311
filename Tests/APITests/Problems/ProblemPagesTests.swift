import API
import Foundation
import HTTP
import LedgerJSON
import Testing
import TestSupport

/// A problem's `type` resolves: against the URL of the request that got it, it is a page
/// of the same API about the code, public and cacheable; `/problems` lists every code; a
/// code the ledger never answers is a 404 problem.
@Suite("A problem's type is a page of the API about its code", .bounded)
struct ProblemPagesTests {
    static func text(_ body: [UInt8]) -> String { String(decoding: body, as: UTF8.self) }

    @Test("a problem's type, resolved against the request's URL, is the page of its code")
    func typeResolves() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let requested = "/v1/payers/nosuch/balance?min_position=1"
        let answer = try service.get(requested)
        #expect(answer.status == 401)
        let problem = try JSONValue.parse(answer.body)
        let type = try #require(problem["type"]?.stringValue)
        #expect(type == "/problems/unauthenticated")
        let base = try #require(URL(string: "http://127.0.0.1:\(service.server.port)\(requested)"))
        let resolved = try #require(URL(string: type, relativeTo: base)?.absoluteURL)
        #expect(resolved.host == "127.0.0.1" && resolved.port == Int(service.server.port))
        let page = try service.get(resolved.path)
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Cache-Control"] == "public, max-age=86400")
        let html = Self.text(page.body)
        #expect(html.contains("<h1>unauthenticated</h1>"))
        #expect(html.contains("401"))
        #expect(html.contains("<a href=\"../problems\">"))
    }

    @Test("every code has its page, listed by /problems, with its status, meaning and what to do")
    func everyCode() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let index = try service.get("/problems")
        #expect(index.status == 200)
        #expect(index.headers["Cache-Control"] == "public, max-age=86400")
        #expect(index.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
        let listing = Self.text(index.body)
        for type in ProblemTypes.all {
            #expect(listing.contains("<a href=\"problems/\(type.code)\"><code>\(type.code)</code></a>"), "\(type.code) is not listed")
            let page = try service.get(type.path)
            #expect(page.status == 200, "\(type.code)")
            let html = Self.text(page.body)
            #expect(html.contains("<h1>\(type.code)</h1>"))
            #expect(html.contains(HTML.escape(type.statusText == "—" ? "Not an HTTP answer" : type.statusText)), "\(type.code)")
            #expect(html.contains("What it means") && html.contains("What to do"))
        }
        // Marked text becomes markup, and nothing else does.
        let page = Self.text(try service.get("/problems/append_outcome_unknown").body)
        #expect(page.contains("<strong>The request may be recorded.</strong>"))
        #expect(page.contains("<code>Retry-After</code>"))
        #expect(!page.contains("`"))
    }

    @Test("a code the ledger never answers is a 404 problem, not a page")
    func unknownCode() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let response = try service.get("/problems/no_such_code")
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["Cache-Control"] == "private, no-store")
        let problem = try JSONValue.parse(response.body)
        #expect(problem["code"] == "not_found")
        #expect(problem["type"] == "/problems/not_found")
        #expect(try service.get("/problems/%3Cscript%3E").status == 404)
    }
}
