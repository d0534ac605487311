import CMicroHTTPD

/// One libmicrohttpd response object, destroyed when this is released. libmicrohttpd
/// keeps its own reference while the response is queued, so releasing it right after
/// queueing is the intended use.
final class MicroHTTPDResponse {
    private let response: OpaquePointer

    /// A response whose body is copied into libmicrohttpd's memory; `nil` if it cannot
    /// allocate one.
    init?(body: [UInt8]) {
        let pointer = body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let pointer else { return nil }
        response = pointer
    }

    deinit { MHD_destroy_response(response) }

    /// Adds a header field; `false` when libmicrohttpd refuses it (a name or value with a
    /// line break, or a field it manages itself such as `Content-Length`).
    func addHeader(name: String, value: String) -> Bool {
        MHD_add_response_header(response, name, value) == MHD_Result.YES
    }

    /// Queues the response on `connection`; `false` when the connection is not in a
    /// state that accepts one.
    func queue(on connection: OpaquePointer, status: Int) -> Bool {
        MHD_queue_response(connection, UInt32(status), response) == MHD_Result.YES
    }
}
