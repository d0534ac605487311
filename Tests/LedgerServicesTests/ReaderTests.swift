import LedgerDomain
import LedgerServices
import Projections
import Testing
import TestSupport

@Suite("Who may read what", .bounded)
struct ReaderTests {
    @Test("a key reads its own payer or project only; operators read every account and the ledger")
    func access() {
        let accounts: [BillingAccount] = [.payer("acme"), .project("acme"), .project("acme-web"), .payer("solo")]
        let kinds: [KeyPrincipal.Kind] = [.project, .payer, .service, .auditor]
        for kind in kinds {
            for account in accounts {
                let reader = Reader.key(KeyPrincipal(kind: kind, id: "acme"))
                let own: Bool
                switch (kind, account) {
                case (.payer, .payer("acme")), (.project, .project("acme")): own = true
                default: own = false
                }
                #expect(reader.mayRead(.account(account)) == own, "\(kind) key acme reading \(account)")
                #expect(Reader.operator("omar").mayRead(.account(account)))
            }
            #expect(!Reader.key(KeyPrincipal(kind: kind, id: "acme")).mayRead(.ledger))
        }
        #expect(Reader.operator("omar").mayRead(.ledger))
    }
}
