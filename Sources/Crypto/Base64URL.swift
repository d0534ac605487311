/// Base64url without padding (RFC 4648 §5), as cursors, keys and JWS use it.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        StrictBase64.encode(bytes, .url)
    }

    /// Nil for anything that is not canonical unpadded base64url (unused bits set, `=`,
    /// or any byte outside the alphabet), so that one value has one text.
    public static func decode(_ text: String) -> [UInt8]? {
        StrictBase64.decode(text, .url)
    }
}
