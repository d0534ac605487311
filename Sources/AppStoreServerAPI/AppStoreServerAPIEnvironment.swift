import AppStore

/// Where the client sends its requests, and which `environment` the signed values it gets
/// back must name: Apple's production or sandbox host, or a local stand-in.
public struct AppStoreServerAPIEnvironment: Sendable, Equatable {
    /// The scheme and host (and port) requests go to, without a trailing slash.
    public var baseURL: String
    /// The `environment` every signed transaction, renewal info and notification in an
    /// answer must name: an answer from the sandbox host is never taken for production.
    public var signedEnvironment: String
    /// Whether this is one of Apple's hosts (https to public addresses only) rather than a
    /// stand-in on loopback.
    public var isApple: Bool

    /// `https://api.storekit.itunes.apple.com`: real purchases.
    public static let production = AppStoreServerAPIEnvironment(
        baseURL: "https://api.storekit.itunes.apple.com", signedEnvironment: AppStoreEnvironmentPolicy.Environment.production, isApple: true)
    /// `https://api.storekit-sandbox.itunes.apple.com`: sandbox accounts (development,
    /// TestFlight, App Review).
    public static let sandbox = AppStoreServerAPIEnvironment(
        baseURL: "https://api.storekit-sandbox.itunes.apple.com", signedEnvironment: AppStoreEnvironmentPolicy.Environment.sandbox, isApple: true)

    /// A stand-in (the tests', `ledger dev`'s) at `baseURL`, whose signed values name
    /// `signedEnvironment` (`Sandbox` by default, as Apple's sandbox does).
    public static func local(baseURL: String, signedEnvironment: String = AppStoreEnvironmentPolicy.Environment.sandbox) -> Self {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return AppStoreServerAPIEnvironment(baseURL: base, signedEnvironment: signedEnvironment, isApple: false)
    }

    init(baseURL: String, signedEnvironment: String, isApple: Bool) {
        self.baseURL = baseURL
        self.signedEnvironment = signedEnvironment
        self.isApple = isApple
    }
}
