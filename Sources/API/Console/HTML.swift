import HTTP

/// Server-rendered HTML for the console: every value is escaped where it is written, and
/// every page is the same accessible frame (a skip link, landmarks, labelled forms,
/// contrast above 7:1), usable without JavaScript.
public enum HTML {
    /// Text for an element's content or a quoted attribute value.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A query string's value.
    public static func query(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fff}
        header,main,footer{padding:0 1.5rem}header{background:#0b2545;color:#fff;display:flex;gap:1.5rem;align-items:center}
        header a{color:#fff}a{color:#0b3d91}a:focus,button:focus,input:focus,select:focus{outline:3px solid #e36c09;outline-offset:2px}
        .skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #bbb;vertical-align:top}
        code,pre{font-family:ui-monospace,monospace;font-size:.9rem}pre{white-space:pre-wrap;word-break:break-all}
        .error{background:#fdecea;color:#611a15;padding:.5rem 1rem;border-left:4px solid #b00020}
        label{display:block;margin:.5rem 0 .2rem}input,select,button{font:inherit;padding:.3rem .5rem}
        """

    /// A whole page. `operator` names who is signed in (with the form that signs out).
    /// `refresh`: seconds after which the browser loads the page again (the progress of
    /// the console's long work, without script).
    public static func page(title: String, body: String, signedIn: (name: String, role: String, csrf: String)? = nil,
                            status: Int = 200, refresh: Int? = nil) -> HTTPResponse {
        var nav = ""
        if let signedIn {
            nav = """
                <nav aria-label="Console"><a href="/">Search</a> · <a href="/browse/payers">Payers</a> · <a href="/browse/projects">Projects</a> · <a href="/browse/orgs">Organizations</a> · <a href="/browse/apps">Apps</a> · <a href="/browse/users">Users</a> · <a href="/apps">Catalog</a> · <a href="/projections">Projections</a>\(signedIn.role == "viewer" ? "" : " · <a href=\"/corrections\">Corrections</a> · <a href=\"/chain\">Chain</a>")</nav>
                <form method="post" action="/logout" style="margin-left:auto"><input type="hidden" name="csrf" value="\(escape(signedIn.csrf))">
                <span>\(escape(signedIn.name)) (\(escape(signedIn.role)))</span> <button type="submit">Sign out</button></form>
                """
        }
        let text = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            \(refresh.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? "")<title>\(escape(title)) · ledger console</title><style>\(style)</style></head>
            <body><a class="skip" href="#main">Skip to content</a>
            <header><p><strong>ledger console</strong></p>\(nav)</header>
            <main id="main"><h1>\(escape(title))</h1>
            \(body)
            </main></body></html>
            """
        var response = HTTPResponse(status: status, body: Array(text.utf8))
        response.headers = HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "private, no-store"),
            // Nothing but this origin's own pages and forms; no script at all.
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ])
        return response
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
