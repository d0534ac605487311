/// K-12 school e-mail domains (O7, O8): a configurable list of suffixes. An address
/// matches when its domain is a suffix or ends with "." + a suffix.
public struct SchoolDomains: Sendable, Equatable {
    public var suffixes: [String]

    public init(suffixes: [String]) {
        self.suffixes = suffixes.map { $0.lowercased().trimmingPrefix(".") }.filter { !$0.isEmpty }
    }

    /// US public school districts (`<district>.k12.<state>.us`) for every state and DC,
    /// and UK schools (`sch.uk`).
    public static let defaults = SchoolDomains(suffixes:
        ["al", "ak", "az", "ar", "ca", "co", "ct", "de", "dc", "fl", "ga", "hi", "id", "il", "in", "ia", "ks", "ky", "la",
         "me", "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh", "nj", "nm", "ny", "nc", "nd", "oh", "ok", "or",
         "pa", "ri", "sc", "sd", "tn", "tx", "ut", "vt", "va", "wa", "wv", "wi", "wy"].map { "k12.\($0).us" } + ["sch.uk"])

    /// The matched suffix for an e-mail address, or nil.
    public func match(email: String) -> String? {
        guard let at = email.lastIndex(of: "@") else { return nil }
        let domain = email[email.index(after: at)...].lowercased()
        guard !domain.isEmpty else { return nil }
        return suffixes.first { domain == $0 || domain.hasSuffix("." + $0) }
    }
}

private extension String {
    func trimmingPrefix(_ prefix: Character) -> String {
        var s = Substring(self)
        while s.first == prefix { s = s.dropFirst() }
        return String(s)
    }
}
