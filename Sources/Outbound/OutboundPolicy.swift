import Foundation

/// Where outbound requests may go. In production: `https` only, to public addresses only,
/// checked on the address actually connected to (after DNS, at connect time, for every
/// address tried), so that a name which resolves, or later re-resolves, to 10.0.0.5 or
/// 169.254.169.254 is refused. In development, plain `http` to loopback as well, for
/// `ledger webhook listen` and tests.
public struct OutboundPolicy: Sendable, Equatable {
    /// Plain `http` is allowed, to loopback addresses only.
    public var allowsHTTPToLoopback: Bool
    /// `https` may go to loopback addresses too.
    public var allowsLoopback: Bool

    public static let production = OutboundPolicy(allowsHTTPToLoopback: false, allowsLoopback: false)
    public static let development = OutboundPolicy(allowsHTTPToLoopback: true, allowsLoopback: true)

    public init(allowsHTTPToLoopback: Bool, allowsLoopback: Bool) {
        self.allowsHTTPToLoopback = allowsHTTPToLoopback
        self.allowsLoopback = allowsLoopback
    }

    /// A URL is checked before anything is resolved; the address, at connect time.
    public enum Scheme: Sendable { case https, http }

    /// The URL's scheme when this policy sends to it, or why not.
    public func check(url text: String) throws(OutboundError) -> Scheme {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty else {
            throw OutboundError(.refusedURL, "\(text.debugDescription) is not an absolute URL with a host")
        }
        guard url.user == nil, url.password == nil else {
            throw OutboundError(.refusedURL, "a URL with credentials in it is refused; sign the request instead")
        }
        switch scheme {
        case "https": return .https
        case "http" where allowsHTTPToLoopback: return .http
        case "http": throw OutboundError(.refusedURL, "only https URLs are allowed (plain http only to loopback, outside production)")
        default: throw OutboundError(.refusedURL, "scheme \(scheme) is not allowed: use https")
        }
    }

    /// Whether a connection to an address of `kind` may be opened for a URL of `scheme`.
    public func allows(_ kind: IPAddressClass, scheme: Scheme) -> Bool {
        switch (scheme, kind) {
        case (.http, .loopback): return allowsHTTPToLoopback
        case (.http, _): return false
        case (.https, .public): return true
        case (.https, .loopback): return allowsLoopback
        case (.https, _): return false
        }
    }
}
