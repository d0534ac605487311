import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import Testing
import TestSupport

/// Migration 0013: PostgreSQL itself decides which event types each surface's role may
/// append, and under whose name an operator's act is recorded (docs/security.md,
/// "Database roles" and "Operators").
@Suite("The log's writers, by surface", .bounded)
struct EventWritersTests {
    static func act(_ type: String, by actor: Actor, stream: String = "payer-acme") -> AppendRequest {
        AppendRequest(events: [EventToAppend(stream: stream, type: type, data: ["n": 1], metadata: EventMetadata(actor: actor))])
    }

    /// Appends `request` through a store on `url`; the refusal's message, or nil when appended.
    static func refusal(_ request: AppendRequest, url: String) -> String? {
        let store = EventStore(conninfo: url)
        defer { store.close() }
        do {
            _ = try store.append(request)
            return nil
        } catch {
            return error.message
        }
    }

    static func sqlState(url: String, _ sql: String) -> String? {
        do {
            _ = try PostgresConnection(conninfo: url).query(sql)
            return nil
        } catch let error as PostgresError {
            return error.sqlState
        } catch {
            return "\(error)"
        }
    }

    @Test("the API's login appends the API's facts and is refused an operator act; the refusal appends nothing")
    func apiAppendsOnlyItsOwn() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let service = Actor(.service, "metering")
        #expect(Self.refusal(Self.act(UsageRecorded.type, by: service, stream: "usage-p1"), url: db.apiURL) == nil)
        for type in [KeyIssued.type, CreditPosted.type, OperatorAdded.type, LogCheckpointSigned.type, "test.happened"] {
            let message = Self.refusal(Self.act(type, by: service), url: db.apiURL)
            #expect(message?.contains("role \(TestDatabase.apiLogin) may not append \(type) events") == true, "\(type): \(message ?? "appended")")
        }
        #expect(try EventStore(conninfo: db.superuserURL).log.headPosition() == 1)
    }

    @Test("migration 0016: the API's login and the projector's may append the lifecycle's facts (price increases, failed renewal extensions)")
    func lifecycleWriters() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let apple = Actor(.apple, "app-store-server-notifications")
        for url in [db.apiURL, db.projectorURL] {
            for type in [AppStorePriceIncreaseReported.type, AppStoreRenewalExtensionFailed.type] {
                let message = Self.refusal(Self.act(type, by: apple, stream: "appstore-sub-o1"), url: url)
                #expect(message == nil, "\(type): \(message ?? "")")
            }
        }
    }

    @Test("migration 0017: refund requests are recorded by the API's login and the projector's; only the projector's records their answers")
    func consumptionWriters() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let apple = Actor(.apple, "app-store-server-notifications")
        for url in [db.apiURL, db.projectorURL] {
            let message = Self.refusal(Self.act(AppStoreConsumptionRequested.type, by: apple, stream: "appstore-sub-o1"), url: url)
            #expect(message == nil, "\(message ?? "")")
        }
        let worker = Actor(.system, "appstore-consumption")
        #expect(Self.refusal(Self.act(AppStoreConsumptionAnswered.type, by: worker, stream: "appstore-sub-o1"), url: db.projectorURL) == nil)
        let message = Self.refusal(Self.act(AppStoreConsumptionAnswered.type, by: worker, stream: "appstore-sub-o1"), url: db.apiURL)
        #expect(message?.contains("may not append \(AppStoreConsumptionAnswered.type) events") == true, "\(message ?? "appended")")
    }

    @Test("the API's login can neither read nor write console credentials and sessions")
    func apiKeepsOutOfTheConsole() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let denied = PostgresError.SQLState.insufficientPrivilege
        #expect(Self.sqlState(url: db.apiURL, "SELECT count(*) FROM console_sessions") == denied)
        #expect(Self.sqlState(url: db.apiURL, "SELECT count(*) FROM console_credentials") == denied)
        #expect(Self.sqlState(url: db.apiURL, "DELETE FROM console_sessions") == denied)
        #expect(Self.sqlState(url: db.apiURL, """
            INSERT INTO console_credentials (operator, credential, password_hash) VALUES ('eve', gen_random_uuid(), 'scrypt$x')
            """) == denied)
        // The console's login keeps sessions but adds no credential; an operator's adds them.
        #expect(Self.sqlState(url: db.consoleURL, "DELETE FROM console_sessions") == nil)
        #expect(Self.sqlState(url: db.consoleURL, """
            INSERT INTO console_credentials (operator, credential, password_hash) VALUES ('eve', gen_random_uuid(), 'scrypt$x')
            """) == denied)
        #expect(Self.sqlState(url: try db.operatorURL("olivia"), """
            INSERT INTO console_credentials (operator, credential, password_hash) VALUES ('eve', gen_random_uuid(), 'scrypt$x')
            """) == nil)
    }

    @Test("an operator's act is recorded under their own login: another name, or no operator, is refused")
    func operatorsAreTheirLogin() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let olivia = try db.operatorURL("olivia")
        #expect(Self.refusal(Self.act(CreditPosted.type, by: Actor(.operator, "olivia")), url: olivia) == nil)
        #expect(Self.refusal(Self.act(OperatorAdded.type, by: Actor(.operator, "olivia"), stream: "operator-x"), url: olivia) == nil)
        for actor in [Actor(.operator, "mallory"), Actor(.system, "olivia"), Actor(.service, "metering")] {
            let message = Self.refusal(Self.act(CreditPosted.type, by: actor), url: olivia)
            #expect(message?.contains("not the operator olivia who is signed in to the database") == true, "\(actor): \(message ?? "appended")")
        }
        #expect(try EventStore(conninfo: db.superuserURL).log.headPosition() == 2)
    }

    @Test("the console acts only for an operator with an open console session, and only the acts its pages offer")
    func consoleActsForSignedInOperators() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let ivy = Actor(.operator, "ivy")
        #expect(Self.refusal(Self.act(CreditPosted.type, by: ivy), url: db.consoleURL)?.contains("has no open console session") == true)
        let console = try PostgresConnection(conninfo: db.consoleURL)
        try console.query("""
            INSERT INTO console_sessions (session_id, token_sha256, operator, credential, epoch, created_us, last_seen_us,
                                          expires_us, address, user_agent)
            VALUES ('cs_00000000000000aa', decode(repeat('ab', 32), 'hex'), 'ivy', gen_random_uuid(), 1, 1, 1, 9000000000000000,
                    '127.0.0.1', 'tests')
            """)
        #expect(Self.refusal(Self.act(CreditPosted.type, by: ivy), url: db.consoleURL) == nil)
        #expect(Self.refusal(Self.act(OperatorAdded.type, by: ivy, stream: "operator-x"), url: db.consoleURL)?
            .contains("may not append operator.added events") == true)
        #expect(Self.refusal(Self.act(CreditPosted.type, by: Actor(.operator, "mallory")), url: db.consoleURL)?
            .contains("has no open console session") == true)
        try console.query("UPDATE console_sessions SET ended_us = 2, ended_reason = 'signed_out' WHERE operator = 'ivy'")
        #expect(Self.refusal(Self.act(CreditPosted.type, by: ivy), url: db.consoleURL)?.contains("has no open console session") == true)
    }

    @Test("the projector appends its own records and nothing else")
    func projectorAppendsItsOwn() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let system = Actor(.system, "checkpointer")
        #expect(Self.refusal(Self.act(LogCheckpointSigned.type, by: system, stream: "log"), url: db.projectorURL) == nil)
        #expect(Self.refusal(Self.act(KeyIssued.type, by: system), url: db.projectorURL)?
            .contains("role \(TestDatabase.projectorLogin) may not append key.issued events") == true)
    }
}
