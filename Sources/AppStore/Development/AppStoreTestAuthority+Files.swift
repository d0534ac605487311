import Crypto
import Foundation

extension AppStoreTestAuthority {
    /// The files an authority is kept in, inside its directory: PEM, so that `openssl`
    /// reads them too. `root.pem` is what `LEDGER_APPSTORE_EXTRA_ROOTS` names.
    public enum File {
        public static let root = "root.pem"
        public static let intermediate = "intermediate.pem"
        public static let leaf = "leaf.pem"
        /// The leaf's private key (mode 0600).
        public static let leafKey = "leaf-key.pem"
    }

    /// A failure to read an authority's files.
    public struct FilesError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Writes the four files into `directory` (created if missing).
    public func save(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        func write(_ name: String, _ text: String, mode: Int = 0o644) throws {
            let path = directory + "/" + name
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
                throw FilesError(description: "cannot write \(path)")
            }
        }
        try write(File.leafKey, PEM.encode(leafKey.pkcs8DER, label: "PRIVATE KEY"), mode: 0o600)
        try write(File.root, PEM.encode(rootDER, label: "CERTIFICATE"))
        try write(File.intermediate, PEM.encode(intermediateDER, label: "CERTIFICATE"))
        try write(File.leaf, PEM.encode(leafDER, label: "CERTIFICATE"))
    }

    /// The authority `save(to:)` wrote into `directory`.
    public static func load(from directory: String) throws -> AppStoreTestAuthority {
        func block(_ name: String, _ label: String) throws -> [UInt8] {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw FilesError(description: "cannot read \(path)") }
            guard let blocks = PEM.blocks(label, in: String(decoding: data, as: UTF8.self)), blocks.count == 1 else {
                throw FilesError(description: "\(path) does not hold one PEM \(label)")
            }
            return blocks[0]
        }
        let keyPath = directory + "/" + File.leafKey
        guard let key = AppStoreSigningKey(pkcs8DER: try block(File.leafKey, "PRIVATE KEY")) else {
            throw FilesError(description: "\(keyPath) is not a P-256 private key")
        }
        let certificates = try [File.root, File.intermediate, File.leaf].map { name in
            let der = try block(name, "CERTIFICATE")
            guard Certificate(der: der) != nil else { throw FilesError(description: "\(directory)/\(name) is not a certificate") }
            return der
        }
        return AppStoreTestAuthority(rootDER: certificates[0], intermediateDER: certificates[1], leafDER: certificates[2], leafKey: key)
    }

    /// The authority kept in `directory`, made and saved there first if there is none.
    public static func loadOrCreate(in directory: String) throws -> AppStoreTestAuthority {
        if FileManager.default.fileExists(atPath: directory + "/" + File.leafKey) { return try load(from: directory) }
        let authority = AppStoreTestAuthority()
        try authority.save(to: directory)
        return authority
    }
}
