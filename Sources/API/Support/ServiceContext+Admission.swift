import HTTP

extension ServiceContext {
    /// The client the server counts a request against, when its credential proves one
    /// at once: a secret key (`Authorization: Bearer sk_…`) that verified in the last
    /// minute (`VerifiedKeys`), so that a backend with a real key has a share of its own
    /// whatever address it shares. Everything else is counted by address: a key nobody
    /// verified names nobody, and an app's publishable key is shared by every install of
    /// the app, so it names no one client either. Runs on a network thread: a hash and a
    /// lookup in memory, no I/O.
    public var admissionClient: @Sendable (HTTPHeaders) -> String? {
        { [verifiedKeys] headers in
            guard let header = headers["authorization"], let digest = Authentication.bearerDigest(header) else { return nil }
            return verifiedKeys.contains(digest) ? "key:" + digest : nil
        }
    }
}
