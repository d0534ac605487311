import Foundation

/// PEM text (RFC 7468): base64 DER between `-----BEGIN label-----` and `-----END label-----`.
public enum PEM {
    /// `der` as one PEM block, lines of 64 characters.
    public static func encode(_ der: [UInt8], label: String) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    /// The DER of every `label` block in `text`, in order; nil when a block is unterminated
    /// or its base64 is not strict.
    public static func blocks(_ label: String, in text: String) -> [[UInt8]]? {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var found: [[UInt8]] = []
        var rest = text[...]
        while let start = rest.range(of: begin) {
            guard let stop = rest[start.upperBound...].range(of: end) else { return nil }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = StrictBase64.decode(String(body), .standard) else { return nil }
            found.append(der)
            rest = rest[stop.upperBound...]
        }
        return found
    }
}
