import Foundation

/// PostgreSQL connection URLs as they may be shown: logs, banners and errors print a URL
/// without its password (docs/security.md: secrets are never logged).
public enum PostgresURL {
    /// `url` with its password, if it has one, replaced by `***`; anything that does not
    /// parse as a URL is shown as a placeholder, since it may hold one in another form.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.scheme != nil else { return "(a database URL that does not parse)" }
        if components.password != nil { components.password = "***" }
        var items = components.queryItems ?? []
        for i in items.indices where items[i].name.lowercased() == "password" { items[i].value = "***" }
        if components.queryItems != nil { components.queryItems = items }
        return components.string ?? "(a database URL that does not parse)"
    }

    /// `url` with `user` and `password` as its credentials.
    public static func with(user: String, password: String?, _ url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.user = user
        components.password = password
        return components.string
    }
}
