import HTTP

/// The pages every problem's `type` resolves to: `/problems` (every code, by group) and
/// `/problems/{code}` (one code), small self-contained HTML rendered once from
/// `ProblemTypes`. Links are relative, so the pages work wherever the API is mounted.
enum ProblemPages {
    /// Served with every page: the same for every client, and changed only by a release.
    static let cacheControl = "public, max-age=86400"

    /// The index page's body.
    static func index() -> String {
        var body = """
            <p>Every error the ledger answers carries a stable <code>code</code>. Each page says what it means, \
            whether anything was recorded, and what to do. A problem's <code>type</code> is the page of its code.</p>
            <nav aria-label="Groups"><ul>
            """
        for group in ProblemTypes.groups {
            body += "<li><a href=\"#\(group.anchor)\">\(inline(group.name))</a></li>"
        }
        body += "</ul></nav>\n"
        for group in ProblemTypes.groups {
            body += """
                <section aria-labelledby="\(group.anchor)"><h2 id="\(group.anchor)">\(inline(group.name))</h2>
                <p>\(inline(group.summary))</p>
                <table><caption>\(inline(group.name))</caption><thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Title</th></tr></thead><tbody>
                """
            for type in group.types {
                body += "<tr><th scope=\"row\"><a href=\"problems/\(HTML.escape(type.code))\"><code>\(HTML.escape(type.code))</code></a></th>"
                    + "<td>\(HTML.escape(type.statusText))</td><td>\(inline(type.title))</td></tr>\n"
            }
            body += "</tbody></table></section>\n"
        }
        return page(title: "Error codes", body: body)
    }

    /// The page of one code.
    static func page(for type: ProblemType) -> String {
        let group = ProblemTypes.group(of: type.code)
        let status = type.statuses.isEmpty ? "Not an HTTP answer (operators only)" : type.statusText
        let body = """
            <p><strong>\(inline(type.title))</strong></p>
            <dl>
            <dt>Status</dt><dd>\(HTML.escape(status))</dd>
            <dt>What it means</dt><dd>\(inline(type.meaning))</dd>
            <dt>What to do</dt><dd>\(inline(type.action))</dd>
            \(group.map { "<dt>Where</dt><dd><a href=\"../problems#\($0.anchor)\">\(inline($0.name))</a>. \(inline($0.summary))</dd>" } ?? "")
            </dl>
            <p><a href="../problems">All error codes</a></p>
            """
        return page(title: type.code, body: body)
    }

    /// A whole document: no script, no outside resource.
    static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
        <title>\(HTML.escape(title)) · ledger</title><style>\(style)</style></head>
        <body><main><h1>\(HTML.escape(title))</h1>
        \(body)
        </main></body></html>

        """
    }

    static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fff}main{max-width:60rem;padding:0 1.5rem}
        a{color:#0b3d91}a:focus{outline:3px solid #e36c09;outline-offset:2px}code{font-family:ui-monospace,monospace;font-size:.9rem}
        table{border-collapse:collapse;width:100%}caption{text-align:left;position:absolute;left:-999px}
        th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #bbb;vertical-align:top}dt{font-weight:bold;margin-top:.75rem}dd{margin-left:0}
        """

    /// `text` escaped, with the registry's two marks of Markdown: `code` and **strong**.
    static func inline(_ text: String) -> String {
        var out = ""
        var code = false
        var strong = false
        var rest = Substring(text)
        while let c = rest.first {
            if c == "`" {
                out += code ? "</code>" : "<code>"
                code.toggle()
                rest = rest.dropFirst()
            } else if !code, rest.hasPrefix("**") {
                out += strong ? "</strong>" : "<strong>"
                strong.toggle()
                rest = rest.dropFirst(2)
            } else {
                out += HTML.escape(String(c))
                rest = rest.dropFirst()
            }
        }
        if code { out += "</code>" }
        if strong { out += "</strong>" }
        return out
    }

    /// An HTML answer with the pages' headers.
    static func response(_ html: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Cache-Control": cacheControl,
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
            "Referrer-Policy": "no-referrer",
        ], body: Array(html.utf8))
    }
}
