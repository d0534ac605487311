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

    @Test("an app's publishable key reads its own app only; a person reads organizations only, and nothing else")
    func appsAndPeople() {
        let person = Reader.person(AppStoreReader(personID: "alice", activeOrg: "acme", email: nil, emailVerified: false,
                                                  isStaff: false, resellerID: nil))
        let subjects: [QuerySubject] = [.account(.payer("acme")), .ledger, .proofs, .checkpoints(public: false), .app("acme-app"),
                                        .app("other-app"), .organization("acme")]
        for subject in subjects {
            #expect(Reader.app("acme-app").mayRead(subject) == (subject == .app("acme-app")), "the app key reading \(subject)")
            // Membership is the organization's state: the query answers nothing to a stranger.
            #expect(person.mayRead(subject) == (subject == .organization("acme")), "a person reading \(subject)")
            #expect(Reader.operator("omar").mayRead(subject))
            if case .app = subject { #expect(!Reader.anybody.mayRead(subject)) }
            if case .organization = subject {
                #expect(!Reader.anybody.mayRead(subject))
                #expect(!Reader.key(KeyPrincipal(kind: .project, id: "acme")).mayRead(subject))
            }
        }
    }
}
