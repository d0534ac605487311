import Crypto
import Foundation
import LedgerDomain
import Workers

extension LedgerEnvironment {
    /// The checkpoint key: LEDGER_CHECKPOINT_KEY_FILE, else (outside production) the one
    /// `ledger dev` keeps in LEDGER_DATA_DIR; nil when there is none.
    public func checkpointKey() throws -> Ed25519SigningKey? {
        guard let path = checkpointKeyPath()?.path else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(setting: .checkpointKeyFile, problem: "names \(path), which cannot be read")
        }
        guard let key = Ed25519SigningKey(pem: text) else {
            throw ConfigurationError(setting: .checkpointKeyFile, problem: "names \(path), which holds no Ed25519 PRIVATE KEY block (make one with `ledger checkpoint-key create`)")
        }
        return key
    }

    /// The file `ledger dev` keeps its checkpoint key in, under LEDGER_DATA_DIR.
    public static let devCheckpointKeyFile = "checkpoint-key.pem"

    /// Where the checkpoint key is: LEDGER_CHECKPOINT_KEY_FILE, else (outside production)
    /// `ledger dev`'s (LEDGER_DATA_DIR, or `.ledger` found from any folder of the clone) when it exists (`dev` true); nil when neither.
    /// The projector and `ledger checkpoint-key public` look in the same places.
    public func checkpointKeyPath() -> (path: String, dev: Bool)? {
        if let path = string(.checkpointKeyFile) { return (path, false) }
        guard !isProduction else { return nil }
        let path = devDataDirectory() + "/" + Self.devCheckpointKeyFile
        return FileManager.default.fileExists(atPath: path) ? (path, true) : nil
    }

    /// How the projector signs checkpoints, when it has a key.
    public func checkpointConfiguration(now: @escaping LedgerClock) throws -> Checkpointer.Configuration? {
        guard let key = try checkpointKey() else { return nil }
        let origin = string(.checkpointOrigin) ?? "ledger"
        guard LogCheckpoint.isValidOrigin(origin) else {
            throw ConfigurationError(setting: .checkpointOrigin, problem: "must be 1 to 100 printable ASCII characters without spaces")
        }
        let events = try positiveInt(.checkpointEvents)
        let seconds = try positiveSeconds(.checkpointSeconds)
        if let directory = string(.checkpointDirectory) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ConfigurationError(setting: .checkpointDirectory, problem: "names \(directory), which is not a directory")
            }
        }
        return Checkpointer.Configuration(key: key, origin: origin, policy: .init(events: Int64(events), seconds: seconds),
                                          interval: min(1, seconds), directory: string(.checkpointDirectory), now: now)
    }

    /// LEDGER_PUBLIC_CHECKPOINTS.
    public func publicCheckpoints() throws -> Bool {
        switch string(.publicCheckpoints) ?? "false" {
        case "true": return true
        case "false": return false
        case let other: throw ConfigurationError(setting: .publicCheckpoints, problem: "must be true or false, got \(other)")
        }
    }
}
