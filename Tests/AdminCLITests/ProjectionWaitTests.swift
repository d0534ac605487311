import LedgerCLI
import LedgerDomain
import LedgerFixtures
import Testing
import TestSupport

@Suite("Operator commands and the projector", .bounded)
struct ProjectionWaitTests {
    @Test("a command that must read the projection says when the projector is not running, and appends nothing")
    func projectorStopped() throws {
        let f = try AdminFixture(projectionTimeout: 0.5)
        defer { f.shutdown() }
        try f.payer("acme")
        try f.settle()   // the projection exists and has seen acme before the projector stops
        f.stopProjector()
        // An event the projection has not seen: the command may not judge without it.
        try f.append(PayerCreated(payerID: "beta", name: "Beta"), stream: "payer-beta")
        let head = try f.head()
        let outcome = f.admin(["project", "create", "--id", "web", "--name", "Web", "--payer", "beta"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("projection_behind"))
        #expect(outcome.errors.contains("the projector has not caught up with the log: is `ledger project` running?"))
        #expect(try f.head() == head)

        f.startProjector()
        #expect(f.admin(["project", "create", "--id", "web", "--name", "Web", "--payer", "beta"]).status == 0)
    }

    @Test("before the projector ever ran, the command says to start it")
    func noProjection() throws {
        let f = try AdminFixture(projector: false, projectionTimeout: 0.5)
        defer { f.shutdown() }
        let outcome = f.admin(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1", "--description", "d"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("the billing projection does not exist yet: start the projector (`ledger project`)"))
        // Commands that need no projection work without it.
        #expect(f.admin(["payer", "create", "--id", "acme", "--name", "Acme"]).status == 0)
        #expect(f.admin(["price", "set", "--unit-price", "1", "--storage-price-per-gib-month", "1"]).status == 0)
    }
}
