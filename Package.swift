// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ledger",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ledger", targets: ["ledger"]),
        .executable(name: "ledger-bench", targets: ["ledger-bench"]),
    ],
    targets: [
        // System libraries: each wrapped by a small safe Swift layer and used nowhere else.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
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
        // The projection engine (the projector, checkpoints, rebuilds, the protocol) apart from
        // the projections, each a folder of Projections with its fold and its read model.
        .target(name: "ProjectionEngine", dependencies: ["EventStore", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto"]),
        .target(name: "Projections", dependencies: ["ProjectionEngine", "EventStore", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto"]),
        .target(name: "Outbound", dependencies: ["CCurl", "Crypto"]),
        .target(name: "WebhookSigning", dependencies: ["Crypto"]),
        // A client of Apple's App Store Server API: the In-App Purchase key's JWT,
        // retries, paging, and every signed value verified before it is returned.
        .target(name: "AppStoreServerAPI", dependencies: ["Outbound", "AppStore", "Crypto", "LedgerJSON", "LedgerDomain"]),
        // A stand-in for Apple's App Store Server API on loopback, for tests and `ledger dev`.
        .target(name: "AppStoreServerStandIn", dependencies: ["AppStore", "HTTP", "Outbound", "Crypto", "LedgerJSON", "LedgerDomain", "Observability"]),
        // Stripe's webhooks: the signature checked as Stripe documents it, the event read.
        .target(name: "Stripe", dependencies: ["WebhookSigning", "LedgerJSON", "LedgerDomain"]),
        // A client of Stripe's API (List all events, paged), within Stripe's documented limits:
        // the secret key as a bearer token, a pinned Stripe-Version, retries with backoff.
        .target(name: "StripeAPI", dependencies: ["Outbound", "LedgerJSON"]),
        // A stand-in for Stripe on loopback, for tests and `ledger dev`: its events API, signed
        // webhook deliveries with faults on demand, and scenarios that make realistic events.
        .target(name: "StripeStandIn", dependencies: ["HTTP", "Outbound", "WebhookSigning", "LedgerJSON", "Observability"]),
        .target(name: "Workers", dependencies: ["LedgerServices", "AppStoreServerAPI", "WebhookSigning", "Outbound", "EventStore", "ProjectionEngine", "Projections", "Postgres", "LedgerDomain", "Crypto"]),
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "CSocket", "Crypto", "LedgerJSON", "Observability"]),
        // A minimal HTTP/1.1 client of our own, for benchmarks and tests only: it re-sends a
        // request whose idle connection failed, which is unsafe for a product's POSTs.
        // Outbound requests of the product go through libcurl (Outbound).
        .target(name: "BenchHTTP", dependencies: ["HTTP"]),
        // The application layer: billing views and the acts every front end shares, below the
        // API, the console and the CLI alike (docs/architecture.md).
        .target(name: "LedgerServices", dependencies: ["AppStore", "AppStoreServerAPI", "Stripe", "StripeAPI", "EventStore", "ProjectionEngine", "Projections", "Postgres", "LedgerDomain", "LedgerJSON", "Observability", "Crypto"]),
        .target(name: "API", dependencies: ["LedgerServices", "HTTP", "EventStore", "ProjectionEngine", "Projections", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto", "AppStore", "Stripe"]),
        .target(name: "LedgerCLI", dependencies: ["LedgerServices", "API", "HTTP", "Outbound", "WebhookSigning", "Stripe", "StripeAPI", "StripeStandIn", "Workers", "EventStore", "ProjectionEngine", "Projections", "Postgres", "LedgerJSON", "LedgerDomain", "Observability", "Crypto", "Threads", "AppStore", "AppStoreServerAPI", "AppStoreServerStandIn"]),
        .executableTarget(name: "ledger", dependencies: ["LedgerCLI"]),
        // The benchmarks, apart from the service's binary: they link the test-only client
        // (BenchHTTP) and write into databases of their own only (BenchDatabase).
        .target(name: "LedgerBench", dependencies: ["LedgerCLI", "LedgerServices", "API", "HTTP", "BenchHTTP", "EventStore", "ProjectionEngine", "Projections", "Postgres",
                                                    "LedgerJSON", "LedgerDomain", "Observability", "Crypto", "Threads", "AppStore",
                                                    "AppStoreServerAPI", "AppStoreServerStandIn", "Workers", "Stripe", "StripeAPI", "StripeStandIn", "WebhookSigning"]),
        .executableTarget(name: "ledger-bench", dependencies: ["LedgerBench"], path: "Sources/ledger-bench"),

        .target(name: "TestSupport", dependencies: ["Postgres", "EventStore", "ProjectionEngine", "Projections", "Crypto", "Threads", "COpenSSL", "LedgerJSON", "LedgerDomain", "AppStore", "HTTP", "Observability", "WebhookSigning"], path: "Tests/TestSupport"),
        .testTarget(name: "LedgerJSONTests", dependencies: ["LedgerJSON", "TestSupport", "Postgres"]),
        .testTarget(name: "LedgerDomainTests", dependencies: ["LedgerDomain", "TestSupport"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport", "Threads"]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "Crypto", "TestSupport", "Threads"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["ProjectionEngine", "Projections", "EventStore", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "BenchHTTP", "Observability", "LedgerJSON", "TestSupport"]),
        .testTarget(name: "APITests", dependencies: ["LedgerServices", "API", "HTTP", "BenchHTTP", "TestSupport", "LedgerCLI", "Postgres", "ProjectionEngine", "Projections", "Workers", "WebhookSigning", "Threads", "AppStoreServerAPI", "AppStoreServerStandIn", "Outbound", "Stripe", "StripeAPI", "StripeStandIn"]),
        .testTarget(name: "LedgerServicesTests", dependencies: ["LedgerServices", "Projections", "ProjectionEngine", "EventStore", "Postgres", "LedgerDomain", "TestSupport"]),
        .testTarget(name: "AppStoreTests", dependencies: ["AppStore", "TestSupport", "LedgerJSON", "LedgerDomain", "Crypto"]),
        .testTarget(name: "AppStoreServerAPITests", dependencies: ["AppStoreServerAPI", "AppStoreServerStandIn", "AppStore", "Outbound", "TestSupport",
                                                                   "LedgerJSON", "LedgerDomain", "Crypto"]),
        .testTarget(name: "StripeTests", dependencies: ["Stripe", "WebhookSigning", "LedgerJSON", "LedgerDomain", "TestSupport"]),
        .testTarget(name: "StripeAPITests", dependencies: ["StripeAPI", "StripeStandIn", "Stripe", "WebhookSigning", "HTTP", "Observability",
                                                           "LedgerJSON", "LedgerDomain", "TestSupport"]),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "TestSupport", "HTTP", "Observability", "Crypto"]),
        .testTarget(name: "WebhooksTests", dependencies: ["WebhookSigning", "Outbound", "TestSupport", "Crypto", "LedgerCLI"]),
        .testTarget(name: "LedgerBenchTests", dependencies: ["LedgerBench", "TestSupport", "LedgerCLI", "Postgres", "Stripe"]),
        // A database with a projector and `ledger admin` in-process (AdminFixture), shared by the
        // tests of the surfaces below: the command line, the console, the workers.
        .target(name: "LedgerFixtures", dependencies: ["TestSupport", "LedgerCLI", "EventStore", "ProjectionEngine", "Projections", "LedgerDomain", "LedgerJSON",
                                                       "Postgres", "WebhookSigning"], path: "Tests/LedgerFixtures"),
        .testTarget(name: "AdminCLITests", dependencies: ["LedgerFixtures", "LedgerCLI", "LedgerServices", "API", "BenchHTTP", "EventStore", "ProjectionEngine", "Projections",
                                                          "LedgerDomain", "LedgerJSON", "TestSupport", "Postgres", "Crypto", "WebhookSigning", "HTTP", "Workers", "Observability"]),
        .testTarget(name: "ConsoleTests", dependencies: ["LedgerFixtures", "LedgerCLI", "LedgerServices", "API", "BenchHTTP", "EventStore", "Projections", "LedgerDomain",
                                                         "LedgerJSON", "TestSupport", "Postgres", "Crypto", "HTTP", "Observability", "Threads"]),
        .testTarget(name: "WorkersTests", dependencies: ["Workers", "LedgerFixtures", "API", "LedgerServices", "EventStore", "ProjectionEngine", "Projections", "LedgerDomain",
                                                         "LedgerJSON", "TestSupport", "Outbound", "WebhookSigning", "HTTP", "Observability", "Crypto"]),
    ],
    swiftLanguageModes: [.v6]
)
