import API
import Foundation

/// `ledger errors`: every stable error code and what it means, from the registry the API
/// serves at `/problems` (`ProblemTypes`); `--markdown` prints docs/errors.md exactly.
public enum ErrorsCommand: LedgerCommand {
    public static let name = "errors"
    public static let summary = "List every error code with its status and meaning; --markdown prints docs/errors.md."
    public static let usage = """
        usage: ledger errors [CODE] [--markdown]

        Every stable error code the ledger answers with (a problem's `code`, the catalog's
        `Error.code`, an operator command's refusal), grouped by surface, with its HTTP
        status and title. The same registry is served by the API at /problems/{code}, the
        page every problem's `type` resolves to. Needs no database.

          CODE         print what this one code means and what to do (exit 1 if unknown)
          --markdown   print docs/errors.md as generated from the registry:
                       `ledger errors --markdown > docs/errors.md`
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["markdown"])
        guard args.positionals.count <= 1 else { throw UsageError("unexpected argument \(args.positionals[1])") }
        if let code = args.positionals.first {
            guard !args.flag("markdown") else { throw UsageError("--markdown prints every code; give no CODE with it") }
            guard let type = ProblemTypes.type(of: code) else {
                FileHandle.standardError.write(Data("ledger errors: no error code \(code.debugDescription); `ledger errors` lists every one\n".utf8))
                return 1
            }
            print("\(type.code) (\(type.statuses.isEmpty ? "not an HTTP answer" : "HTTP " + type.statusText)): \(type.title)\n\n"
                  + "\(type.meaning)\n\nWhat to do: \(type.action)")
            return 0
        }
        if args.flag("markdown") {
            print(ProblemTypes.markdown(), terminator: "")
            return 0
        }
        let width = ProblemTypes.all.map(\.code.count).max() ?? 0
        var text = ""
        for group in ProblemTypes.groups {
            text += "\(group.name)\n"
            for type in group.types {
                text += "  " + type.code.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + type.statusText.padding(toLength: 6, withPad: " ", startingAt: 0) + type.title + "\n"
            }
            text += "\n"
        }
        print(text, terminator: "")
        return 0
    }
}
