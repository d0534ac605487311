import Crypto
import Foundation
import LedgerDomain
import LedgerJSON

/// Runs one operator command from its arguments: picks the action by its words, parses
/// the options, resolves who acts and why, performs it, and renders the receipt. Output
/// is returned rather than printed, so that tests run commands in-process.
enum AdminDispatcher {
    /// The options every operator act takes, besides its own.
    static let commonValued: Set<String> = ["reason", "operator", "idempotency-key"]

    /// Runs a command for `ledger admin` or `ledger audit` as a process: connects only once
    /// the arguments have parsed, prints the outcome, and closes the store.
    static func runAsProcess(program: String, actions: [any AdminAction.Type], arguments: [String],
                             environment: LedgerEnvironment) -> Int32 {
        var opened: AdminServices?
        let outcome = execute(program: program, actions: actions, arguments: arguments, environment: environment.values) {
            let services = try AdminServices.connect(environment)
            opened = services
            return services
        }
        opened?.store.close()
        FileHandle.standardOutput.write(Data(outcome.output.utf8))
        FileHandle.standardError.write(Data(outcome.errors.utf8))
        return outcome.status
    }

    static func execute(program: String, actions: [any AdminAction.Type], arguments: [String],
                        environment: [String: String], services: () throws -> AdminServices) -> AdminOutcome {
        guard let action = actions.first(where: { arguments.starts(with: $0.words) }) else {
            let given = arguments.prefix(2).joined(separator: " ")
            guard !given.isEmpty else {
                return AdminOutcome(status: 2, output: "", errors: "\(program): a command is required\n\n\(usage(program: program, actions: actions))\n")
            }
            // A typo gets one line that points at the command meant, not the whole list.
            let nearest = Suggestion.nearest(actions.map {
                (arguments.prefix($0.words.count).joined(separator: " "), $0.words.joined(separator: " "))
            })
            let hint = nearest.map { "; did you mean `\(program) \($0)`?" } ?? ""
            return AdminOutcome(status: 2, output: "",
                                errors: "\(program): unknown command \(given.debugDescription)\(hint)\nusage: \(program) COMMAND [OPTIONS] (`\(program) --help` lists every command)\n")
        }
        let name = "\(program) \(action.words.joined(separator: " "))"
        var json = false
        do {
            let options = try AdminOptions(Array(arguments.dropFirst(action.words.count)),
                                           valued: action.valued.union(action.isOperatorAct ? commonValued : []),
                                           boolean: action.boolean.union(["json"]), repeatable: action.repeatable)
            json = options.flag("json")
            let reason = action.isOperatorAct ? try options.text("reason", maximumLength: 2_000) : nil
            let claimed = try claimedOperator(options, environment: environment)
            let givenKey = try idempotencyKey(options)
            let request = try action.init(options)
            let connected = try services()
            let identity = try reason.map { try self.identity(reason: $0, claimed: claimed, login: try connected.login()) }
            let session = AdminSession(services: connected, identity: identity,
                                       requestID: "cli-" + Hex.encode(SecureRandom.bytes(8)),
                                       idempotencyKey: givenKey ?? "adm-" + Hex.encode(SecureRandom.bytes(12)))
            var receipt: AdminReceipt
            if let givenKey, action.appendsUnderSessionKey, let earlier = try AppendedRecord.recorded(key: givenKey, session: session) {
                receipt = AdminReceipt(events: earlier)
                receipt.notes = ["an earlier run with --idempotency-key \(givenKey) recorded this; nothing was appended now"]
            } else {
                receipt = try request.perform(session)
            }
            return AdminOutcome(status: 0, output: render(receipt, command: action.words, session: session, json: json), errors: "")
        } catch let error as UsageError {
            return AdminOutcome(status: 2, output: "", errors: "\(name): \(error)\n\nusage: \(usageLine(program: program, action))\n")
        } catch let error as AdminError {
            let object: JSONValue = ["error": .string(error.code.rawValue), "message": .string(error.message)]
            return AdminOutcome(status: 1, output: json ? object.compactText() + "\n" : "",
                                errors: "\(name): refused (\(error.code)): \(error.message)\n")
        } catch {
            let object: JSONValue = ["error": "failed", "message": .string("\(error)")]
            return AdminOutcome(status: 1, output: json ? object.compactText() + "\n" : "", errors: "\(name): \(error)\n")
        }
    }

    /// `--idempotency-key`: 1–150 printable ASCII characters without spaces.
    static func idempotencyKey(_ options: AdminOptions) throws -> String? {
        guard let key = options.arguments.value("idempotency-key") else { return nil }
        guard (1...150).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw UsageError("--idempotency-key must be 1-150 printable ASCII characters without spaces")
        }
        return key
    }

    /// The operator named by `--operator`, else LEDGER_OPERATOR: no longer who acts (that
    /// is the database login), only a name the login must match, so that a script written
    /// for one operator does not run as another.
    static func claimedOperator(_ options: AdminOptions, environment: [String: String]) throws -> String? {
        guard let name = [options.arguments.value("operator"), environment["LEDGER_OPERATOR"]].compactMap({ $0 })
            .first(where: { !$0.isEmpty }) else { return nil }
        try AdminOptions.checkText(name, option: "operator", maximumLength: 100)
        return name
    }

    /// Who acts: the operator signed in to the database (`session_user`), whom the log's
    /// trigger also checks every act against (migration 0013); never a typed name.
    static func identity(reason: String, claimed: String?, login: String) throws -> AdminSession.Identity {
        if let claimed, claimed != login {
            throw AdminError(.operatorNotLogin, "acts are recorded under the database login that makes them, and this one is \(login.debugDescription), not \(claimed.debugDescription) (--operator, LEDGER_OPERATOR): connect as your own login (docs/security.md, \"Operators\")")
        }
        return AdminSession.Identity(actor: Actor(.operator, login), reason: reason)
    }

    static func render(_ receipt: AdminReceipt, command: [String], session: AdminSession, json: Bool) -> String {
        if json {
            var object = receipt.fields
            object["command"] = .string(command.joined(separator: " "))
            if let identity = session.identity {
                object["events"] = .array(receipt.events.map(\.json))
                object["operator"] = .string(identity.actor.id)
                object["reason"] = .string(identity.reason)
                object["request_id"] = .string(session.requestID)
                object["idempotency_key"] = .string(session.idempotencyKey)
            }
            return JSONValue.object(object).compactText() + "\n"
        }
        var lines = receipt.notes + receipt.events.flatMap(\.text) + receipt.lines
        if session.identity != nil && !receipt.events.isEmpty {
            lines.append("idempotency key \(session.idempotencyKey): running the command again with --idempotency-key \(session.idempotencyKey) appends nothing more")
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    static func usageLine(program: String, _ action: any AdminAction.Type) -> String {
        var line = "\(program) \(action.words.joined(separator: " "))" + (action.synopsis.isEmpty ? "" : " " + action.synopsis)
        line += action.isOperatorAct ? " --reason TEXT [--operator NAME] [--idempotency-key KEY] [--json]" : " [--json]"
        return line
    }

    static func usage(program: String, actions: [any AdminAction.Type]) -> String {
        var text = "usage:\n"
        for action in actions {
            text += "  \(usageLine(program: program, action))\n      \(action.summary)\n"
        }
        return text
    }
}
