/// Where the projector and replay report what they do (the CLI writes it as JSON lines).
public typealias ProjectorLog = @Sendable (_ level: ProjectorLogLevel, _ message: String, _ fields: [String: String]) -> Void

public enum ProjectorLogLevel: String, Sendable {
    case debug, info, warning, error
}
