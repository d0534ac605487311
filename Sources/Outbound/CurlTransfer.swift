import CCurl
import Crypto
import Foundation

/// One request on a libcurl easy handle: owns the handle, the header list and the body
/// (libcurl reads them until the transfer ends) and collects the answer. Used only on the
/// client's driver thread; libcurl's callbacks reach it through an unretained pointer that
/// is valid while the client holds the transfer.
final class CurlTransfer {
    let easy: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let body: UnsafeMutableBufferPointer<UInt8>
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    let scheme: OutboundPolicy.Scheme
    let policy: OutboundPolicy
    let completion: @Sendable (Result<OutboundResponse, OutboundError>) -> Void
    let started = DispatchTime.now().uptimeNanoseconds

    /// The answer's SHA-256 so far. The answer's bytes themselves are not kept: what a
    /// receiver says is not ours to record (docs/webhooks.md), only that it said it.
    var digest = SHA256Hasher()
    var received = 0
    /// The answer's bytes, when the request keeps them (nil otherwise).
    var kept: [UInt8]?
    /// The answer's headers to keep, by name (only with `kept`).
    let keptHeaderNames: [String]
    /// Set by the open-socket callback when it refused an address.
    var refusal: OutboundError?

    init(_ request: OutboundRequest, policy: OutboundPolicy,
         completion: @escaping @Sendable (Result<OutboundResponse, OutboundError>) -> Void) throws(OutboundError) {
        scheme = try policy.check(url: request.url)
        self.policy = policy
        self.completion = completion
        kept = request.keepsAnswer ? [] : nil
        keptHeaderNames = request.keepsAnswer ? request.keptAnswerHeaders : []
        guard let easy = curl_easy_init() else { throw OutboundError(.failed, "libcurl could not make a handle") }
        self.easy = easy
        body = .allocate(capacity: max(request.body.count, 1))
        _ = body.initialize(from: request.body)
        for header in request.headers {
            headers = curl_slist_append(headers, "\(header.name): \(header.value)")
        }
        // libcurl adds "Expect: 100-continue" to larger POSTs, a round trip a webhook
        // receiver gains nothing from.
        headers = curl_slist_append(headers, "Expect:")
        try configure(request)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headers)
        body.deallocate()
    }

    private func configure(_ request: OutboundRequest) throws(OutboundError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let timeout = Int(max(0.001, request.timeout) * 1000)
        var codes: [CURLcode] = [
            ledger_curl_setopt_string(easy, CURLOPT_URL, request.url),
            ledger_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, scheme == .https ? "https" : "http"),
            // No redirects: a 3xx is an answer, and following one would leave the policy's checks.
            ledger_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            // An empty proxy disables the *_proxy variables, which would send the request
            // to a proxy that connects wherever the name points.
            ledger_curl_setopt_string(easy, CURLOPT_PROXY, ""),
            ledger_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ledger_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout),
            ledger_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, min(timeout, 5_000)),
            ledger_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method),
            ledger_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headers),
            ledger_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, &errorBuffer),
            ledger_curl_setopt_pointer(easy, CURLOPT_PRIVATE, me),
            ledger_curl_setopt_write(easy, curlWrite),
            ledger_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me),
            ledger_curl_setopt_opensocket(easy, curlOpenSocket),
            ledger_curl_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, me),
        ]
        if request.method == "POST" || !request.body.isEmpty {
            codes.append(ledger_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, body.baseAddress))
            codes.append(ledger_curl_setopt_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
        }
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw OutboundError(.failed, "libcurl refused an option: \(String(cString: curl_easy_strerror(failed)))")
        }
    }

    /// The answer, or why there is none, once libcurl finished with `code`.
    func outcome(_ code: CURLcode) -> Result<OutboundResponse, OutboundError> {
        guard code == CURLE_OK else {
            // One refused address fails the transfer only if no other address answered.
            if let refusal { return .failure(refusal) }
            let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            switch code {
            case CURLE_OPERATION_TIMEDOUT: return .failure(OutboundError(.timedOut, message))
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
                return .failure(OutboundError(.connectionFailed, message))
            case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
                return .failure(OutboundError(.tlsFailed, message))
            case CURLE_WRITE_ERROR: return .failure(OutboundError(.answerTooLarge, "the answer was over \(OutboundClient.maximumAnswerBytes) bytes"))
            case CURLE_UNSUPPORTED_PROTOCOL: return .failure(OutboundError(.refusedURL, message))
            default: return .failure(OutboundError(.failed, message))
            }
        }
        var status = 0
        ledger_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var ip: UnsafeMutablePointer<CChar>?
        ledger_curl_getinfo_string(easy, CURLINFO_PRIMARY_IP, &ip)
        let latency = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var keptHeaders: [String: String] = [:]
        for name in keptHeaderNames { keptHeaders[name] = header(name) }
        return .success(OutboundResponse(status: status, bodySHA256: Hex.encode(digest.digestAndRestart()), bodyBytes: received,
                                         latency: latency, remoteAddress: ip.map { String(cString: $0) }, body: kept,
                                         retryAfter: kept == nil ? nil : header("Retry-After"), keptHeaders: keptHeaders))
    }
}

extension CurlTransfer {
    /// The value of the last response's header `name`, if it sent one.
    func header(_ name: String) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        // Origin 1 is CURLH_HEADER (a plain server header); request -1 is the last response.
        guard curl_easy_header(easy, name, 0, 1, -1, &found) == CURLHE_OK, let value = found?.pointee.value else { return nil }
        return String(cString: value)
    }
}

/// libcurl's write callback: hashes and counts the answer, and stops a receiver that sends
/// more than the client reads.
private func curlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let bytes = size * count
    transfer.received += bytes
    guard transfer.received <= OutboundClient.maximumAnswerBytes else { return 0 }
    let chunk = UnsafeRawBufferPointer(start: data, count: bytes)
    transfer.digest.update(chunk)
    transfer.kept?.append(contentsOf: chunk)
    return bytes
}

/// libcurl's open-socket callback, called for every address it tries: the policy's check
/// on the address itself, after DNS, so that no name can lead past it.
private func curlOpenSocket(_ clientp: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
                            _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let clientp, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(clientp).takeUnretainedValue()
    var raw = [UInt8](repeating: 0, count: 16)
    let length = Int(ledger_curl_address_bytes(address, &raw))
    let kind = IPAddressClass(bytes: Array(raw.prefix(length)))
    guard transfer.policy.allows(kind, scheme: transfer.scheme) else {
        transfer.refusal = OutboundError(.refusedAddress,
            "the URL's host resolves to a \(kind.rawValue) address, which outbound requests may not reach")
        return CURL_SOCKET_BAD
    }
    return ledger_curl_open_socket(address)
}
