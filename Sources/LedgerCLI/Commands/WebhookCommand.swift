import Foundation
import HTTP
import LedgerJSON
import Observability
import WebhookSigning

/// `ledger webhook listen`: a local receiver that checks each message's signature and
/// prints it, as `stripe listen` does for Stripe's, to develop a backend against.
public enum WebhookCommand: LedgerCommand {
    public static let name = "webhook"
    public static let summary = "Receive webhook messages locally: verify each signature and print the message."
    public static let usage = """
        usage: ledger webhook listen --secret SECRET [--port P] [--host H] [--tolerance SECONDS] [--answer STATUS]

        Serves http://H:P/ (default 127.0.0.1:8095, clear of the API's 8080 and of the 8090
        docs give a second one; any path) and, for each POST, checks its
        Ledger-Signature header (HMAC-SHA256 of "t.body" with SECRET, t within --tolerance
        seconds of this clock, default 300) and prints one line per message: verified or
        refused, with the reason, then the body. A verified message is answered --answer
        (default 200; give 500 to watch the sender retry), a refused one 400.
        Stops on Ctrl-C. SECRET may also be given as LEDGER_WEBHOOK_LISTEN_SECRET.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard arguments.first == "listen" else { throw UsageError("ledger webhook needs a subcommand: listen") }
        let args = try Arguments(Array(arguments.dropFirst()), valued: ["secret", "port", "host", "tolerance", "answer"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument \(args.positionals[0])") }
        guard let secret = args.value("secret") ?? ProcessInfo.processInfo.environment[LedgerEnvironment.Setting.webhookListenSecret.name],
              !secret.isEmpty else {
            throw UsageError("--secret is required: the subscription's secret, as `ledger admin webhook add` printed it")
        }
        guard let port = Int(args.value("port") ?? "8095"), (0...65_535).contains(port) else { throw UsageError("--port takes 0 to 65535") }
        guard let tolerance = Double(args.value("tolerance") ?? String(WebhookSignature.defaultTolerance)), tolerance > 0 else {
            throw UsageError("--tolerance takes a positive number of seconds")
        }
        guard let answer = Int(args.value("answer") ?? "200"), (200...599).contains(answer) else {
            throw UsageError("--answer takes an HTTP status, 200 to 599")
        }
        let listener = WebhookListener(secret: secret, tolerance: tolerance, answer: answer)
        SignalWatcher.shared.install()
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: args.value("host") ?? "127.0.0.1", port: port, threads: 4),
                                router: listener.router, logger: Logger(minimumLevel: .error))
        try server.start()
        WebhookListener.emit("listening on http://\(args.value("host") ?? "127.0.0.1"):\(server.port)/ (Ctrl-C to stop)")
        SignalWatcher.shared.waitForStop()
        server.shutdown(gracePeriod: 1)
        return 0
    }
}

/// What `ledger webhook listen` does with each request.
struct WebhookListener: Sendable {
    let secret: String
    let tolerance: Double
    let answer: Int

    var router: Router {
        var router = Router()
        let handle: HTTPHandler = { request in self.receive(request) }
        router.add("POST", "/", handle)
        router.add("POST", "/{path}", handle)
        return router
    }

    func receive(_ request: HTTPRequest) -> HTTPResponse {
        let header = request.headers[WebhookSignature.header]
        var lines: [String] = []
        let response: HTTPResponse
        do {
            let t = try WebhookSignature.verify(header, body: request.body, secret: secret, now: Date().timeIntervalSince1970,
                                                tolerance: tolerance)
            var summary = "verified t=\(t)"
            for name in ["Ledger-Message-Id", "Ledger-Sequence", "Ledger-Event-Type"] {
                if let value = request.headers[name] { summary += " \(name.dropFirst(7).lowercased())=\(value)" }
            }
            lines.append(summary)
            response = .text("ok\n", status: answer)
        } catch {
            lines.append("refused (\(error.code.rawValue)): \(error.message)")
            response = .text("\(error.code.rawValue): \(error.message)\n", status: 400)
        }
        lines.append(String(decoding: request.body, as: UTF8.self))
        Self.emit(lines.joined(separator: "\n"))
        return response
    }

    /// One write per message, unbuffered: whole messages, at once, even into a pipe.
    static func emit(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
