import LedgerServices

extension TimelineSubject {
    /// The subject named by exactly one of `--stream`, `--payer`, `--project`, `--org`, `--app`.
    init(_ args: Arguments) throws {
        let given = Self.options.filter { args.value($0) != nil }
        guard given.count == 1, let name = given.first, let value = args.value(name),
              let subject = TimelineSubject(kind: name, id: value) else {
            throw UsageError("give exactly one of --stream, --payer, --project, --org, --app")
        }
        self = subject
    }
}
