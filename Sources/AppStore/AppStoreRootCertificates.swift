import Crypto
import Foundation

/// Reading root certificates from files, for `AppStoreEnvironmentPolicy.development(extraRoots:)`.
public enum AppStoreRootCertificates {
    /// The DER certificates in a file's bytes: one DER certificate, or PEM text with one
    /// or more `CERTIFICATE` blocks. Nil when there is none or any block does not parse.
    public static func certificates(in bytes: [UInt8]) -> [[UInt8]]? {
        if Certificate(der: bytes) != nil { return [bytes] }
        guard let found = PEM.blocks("CERTIFICATE", in: String(decoding: bytes, as: UTF8.self)), !found.isEmpty,
              found.allSatisfy({ Certificate(der: $0) != nil }) else { return nil }
        return found
    }
}
