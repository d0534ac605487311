/// Command-line arguments after the subcommand: `--name value`, `--name=value`, boolean
/// `--flag`, and positionals. Parsing is strict: an unknown option is an error.
public struct Arguments: Sendable {
    public private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value.
    ///   - boolean: options that do not.
    public init(_ raw: [String], valued: Set<String>, boolean: Set<String> = []) throws {
        var i = 0
        while i < raw.count {
            let arg = raw[i]
            i += 1
            guard arg.hasPrefix("--"), arg.count > 2 else { positionals.append(arg); continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if boolean.contains(name) {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inline { options[name, default: []].append(inline); continue }
                guard i < raw.count else { throw UsageError("--\(name) needs a value") }
                options[name, default: []].append(raw[i])
                i += 1
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    public func value(_ name: String) -> String? { options[name]?.last }
    public func values(_ name: String) -> [String] { options[name] ?? [] }

    public func int(_ name: String, default fallback: Int) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let n = Int(text) else { throw UsageError("--\(name) must be an integer, got \(text)") }
        return n
    }

    /// A log position (0 or more), nil when the option is absent.
    public func position(_ name: String) throws -> Int64? {
        guard let text = value(name) else { return nil }
        guard let n = Int64(text), n >= 0 else { throw UsageError("--\(name) takes a position (0 or more), got \(text)") }
        return n
    }

    public func require(_ name: String) throws -> String {
        guard let v = value(name) else { throw UsageError("--\(name) is required") }
        return v
    }
}

/// A mistake on the command line; printed with the command's usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
