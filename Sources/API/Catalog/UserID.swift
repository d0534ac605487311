/// An app's user ids (`user_id`): the app's own, so any text of at most 256 bytes, but no
/// control characters (they cannot be stored, or would garble listings and logs).
enum UserID {
    static func check(_ id: String) throws(CatalogError) {
        guard !id.isEmpty, id.utf8.count <= 256 else {
            throw CatalogError.badRequest("user_id must be a non-empty string of at most 256 bytes", code: "invalid_request")
        }
        guard !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CatalogError.badRequest("user_id must not contain control characters", code: "invalid_request")
        }
    }
}
