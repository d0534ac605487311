import Crypto
import Foundation
import LedgerDomain

/// `ledger checkpoint-key`: the Ed25519 key the projector signs the log's checkpoints with.
public enum CheckpointKeyCommand: LedgerCommand {
    public static let name = "checkpoint-key"
    public static let summary = "Create the key that signs the log's checkpoints, or print its public key."
    public static let usage = """
        usage: ledger checkpoint-key create --out FILE
               ledger checkpoint-key public [--key FILE]

        create   writes a new Ed25519 private key to FILE (PEM, mode 0600; refused when FILE
                 exists) and prints its public key (PEM) and key id. Point
                 LEDGER_CHECKPOINT_KEY_FILE at FILE for the projector; give the public key
                 to auditors, who check checkpoints with it (docs/audit.md).
        public   prints the public key and key id of FILE (default LEDGER_CHECKPOINT_KEY_FILE;
                 else, outside production, the key `ledger dev` keeps in
                 LEDGER_DATA_DIR/checkpoint-key.pem, as the projector finds it).

        Exit 0 done, 1 refused, 2 usage error.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let verb = arguments.first else { throw UsageError("say create or public") }
        let args = try Arguments(Array(arguments.dropFirst()), valued: ["out", "key"])
        switch verb {
        case "create":
            guard let out = args.value("out") else { throw UsageError("create needs --out FILE") }
            let key = Ed25519SigningKey()
            // O_EXCL: an existing key is never overwritten, and the file is private from its first byte.
            let fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard fd >= 0 else {
                FileHandle.standardError.write(Data("ledger checkpoint-key: cannot create \(out): \(String(cString: strerror(errno)))\n".utf8))
                return 1
            }
            let bytes = Array(key.privateKeyPEM.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == bytes.count, synced else {
                FileHandle.standardError.write(Data("ledger checkpoint-key: could not write \(out)\n".utf8))
                return 1
            }
            print(describe(key))
            return 0
        case "public":
            var path = args.value("key")
            if path == nil, let found = environment.checkpointKeyPath() {
                path = found.path
                if found.dev {
                    FileHandle.standardError.write(Data("ledger checkpoint-key: LEDGER_CHECKPOINT_KEY_FILE is unset; using the key `ledger dev` keeps, \(found.path)\n".utf8))
                }
            }
            guard let path else {
                let directory = environment.devDataDirectory()
                throw UsageError("public needs --key FILE or LEDGER_CHECKPOINT_KEY_FILE ("
                                 + (environment.isProduction ? "`ledger dev`'s key is not looked for under the production profile)"
                                                             : "and there is no `ledger dev` key at \(directory)/\(LedgerEnvironment.devCheckpointKeyFile))"))
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let key = Ed25519SigningKey(pem: text) else {
                FileHandle.standardError.write(Data("ledger checkpoint-key: \(path) holds no Ed25519 private key\n".utf8))
                return 1
            }
            print(describe(key))
            return 0
        default:
            throw UsageError("unknown verb \(verb.debugDescription): say create or public")
        }
    }

    static func describe(_ key: Ed25519SigningKey) -> String {
        "key id: \(LogCheckpoint.keyID(key.publicKey))\n" + key.publicKeyPEM
    }
}
