/// Why an export stopped before writing anything wrong: exit status 1, the message on stderr.
struct ExportError: Error, CustomStringConvertible {
    let code: String
    let message: String
    var description: String { "\(message) (\(code))" }

    static func notFound(_ message: String) -> ExportError { ExportError(code: "not_found", message: message) }
}
