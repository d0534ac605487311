extension HTTPResponse {
    /// The response as HTTP/1.1 bytes, with `Content-Length` and `Connection: close`.
    ///
    /// Used only where libmicrohttpd cannot send a response for us (a request that timed
    /// out half-sent, a connection over the limit, a body still streaming past the limit):
    /// the bytes are written straight to the socket, which is then closed.
    func wireBytes() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))\r\n"
        for (name, value) in headers where !HTTPHeaders.sameName(name, "Content-Length") && !HTTPHeaders.sameName(name, "Connection") {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
