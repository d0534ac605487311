import Observability
import ProjectionEngine

extension Logger {
    /// Adapts the logger to the projector's reporting callback.
    var projectorLog: ProjectorLog {
        let logger = self
        return { level, message, fields in
            let mapped: Logger.Level = switch level {
            case .debug: .debug
            case .info: .info
            case .warning: .warning
            case .error: .error
            }
            logger.log(mapped, message, fields: fields.sorted { $0.key < $1.key }.map { (key: $0.key, value: .string($0.value)) })
        }
    }
}
