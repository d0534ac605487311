import API

extension TimelineSubject {
    /// The subject named by exactly one of `--stream`, `--payer`, `--project`, `--org`, `--app`.
    init(_ args: Arguments) throws {
        let given = Self.options.filter { args.value($0) != nil }
        guard given.count == 1, let name = given.first, let value = args.value(name), !value.isEmpty else {
            throw UsageError("give exactly one of --stream, --payer, --project, --org, --app")
        }
        switch name {
        case "stream": self = .stream(value)
        case "payer": self = .payer(value)
        case "project": self = .project(value)
        case "org": self = .org(value)
        default: self = .app(value)
        }
    }
}
