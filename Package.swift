// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ledger",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ledger", targets: ["ledger"]),
    ],
    targets: [
        // System libraries: each wrapped by a small safe Swift layer and used nowhere else.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .target(name: "COpenSSL", path: "Sources/COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CSocket", path: "Sources/CSocket"),

        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        .target(name: "Crypto", dependencies: ["COpenSSL"]),
        .target(name: "LedgerJSON"),
        .target(name: "Observability"),
        .target(name: "Threads"),
        .target(name: "LedgerDomain", dependencies: ["LedgerJSON", "Crypto"]),
        .target(name: "AppStore", dependencies: ["COpenSSL", "Crypto", "LedgerJSON", "LedgerDomain"]),
        .target(name: "EventStore", dependencies: ["Postgres", "Crypto", "LedgerJSON", "LedgerDomain", "Observability"]),
        .target(name: "Projections", dependencies: ["EventStore", "Postgres", "LedgerJSON", "LedgerDomain", "Observability"]),
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "CSocket", "Crypto", "LedgerJSON", "Observability"]),
        .target(name: "API", dependencies: ["HTTP", "EventStore", "Projections", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto", "AppStore"]),
        .target(name: "LedgerCLI", dependencies: ["API", "HTTP", "EventStore", "Projections", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto", "Threads", "AppStore"]),
        .executableTarget(name: "ledger", dependencies: ["LedgerCLI"]),

        .target(name: "TestSupport", dependencies: ["Postgres", "EventStore", "Projections", "Crypto", "Threads", "COpenSSL", "LedgerJSON", "LedgerDomain", "AppStore"], path: "Tests/TestSupport"),
        .testTarget(name: "LedgerJSONTests", dependencies: ["LedgerJSON", "TestSupport", "Postgres"]),
        .testTarget(name: "LedgerDomainTests", dependencies: ["LedgerDomain", "TestSupport"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "Crypto", "TestSupport", "Threads"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventStore", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Observability", "LedgerJSON", "TestSupport"]),
        .testTarget(name: "APITests", dependencies: ["API", "HTTP", "TestSupport", "LedgerCLI", "Postgres", "Projections"]),
        .testTarget(name: "AppStoreTests", dependencies: ["AppStore", "TestSupport", "LedgerJSON", "LedgerDomain", "Crypto"]),
        .testTarget(name: "AdminTests", dependencies: ["LedgerCLI", "API", "EventStore", "Projections", "LedgerDomain", "LedgerJSON", "TestSupport", "Postgres", "Crypto"]),
    ],
    swiftLanguageModes: [.v6]
)
