extension HTTPRequest {
    /// The fields of an HTML form's body (`application/x-www-form-urlencoded`), the last
    /// value of a repeated name winning. A body of another type, or with a broken escape,
    /// is a 400 naming what was wrong.
    public func formFields() throws(Problem) -> [String: String] {
        let type = headers["content-type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/x-www-form-urlencoded" else {
            throw Problem(status: 415, code: "unsupported_media_type", title: "Unsupported media type",
                          detail: "A form is sent as application/x-www-form-urlencoded.")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw Problem(status: 400, code: "invalid_form", title: "Invalid form", detail: "The form is not UTF-8.")
        }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            guard let name = RequestTarget.percentDecode(equals.map { pair[..<$0] } ?? pair, plusIsSpace: true),
                  let value = RequestTarget.percentDecode(equals.map { pair[pair.index(after: $0)...] } ?? "", plusIsSpace: true) else {
                throw Problem(status: 400, code: "invalid_form", title: "Invalid form", detail: "The form has an invalid percent-encoding.")
            }
            fields[name] = value
        }
        return fields
    }
}
