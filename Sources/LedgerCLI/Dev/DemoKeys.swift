import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON

/// The secrets of the demo's keys, kept in `LEDGER_DATA_DIR/demo-keys.json` (0600).
///
/// Each is 256 random bits, made once per data directory: nothing in the code or the clone
/// can work one out, so the only way to a demo key is to read that file (or `demo.json`,
/// also 0600), as docs/security.md promises. They are kept in a file of their own, written
/// before the first key is appended, rather than in `demo.json`, because `demo.json` is
/// written only once the API answers: a start that fails after seeding would otherwise
/// leave keys in the log whose secrets nobody holds.
///
/// A key is reused while the database holds it unrevoked under the same secret, so a
/// restart appends nothing (the seed's appends are idempotent). A key the file lacks (a
/// data directory from before the demo keys were random, whose keys anyone could compute,
/// or a deleted file) or whose key the database has revoked is replaced: a fresh secret
/// under the next key id (`demo-acme-2`, `demo-acme-3`, …), and every earlier demo key of
/// that name is revoked, since no one should hold its secret. A file whose secret differs
/// from the database's for the same key id belongs to another database: that start fails,
/// saying so, rather than revoke keys another data directory may still use.
struct DemoKeys: Sendable {
    static let fileName = "demo-keys.json"

    /// One demo key: its id in the log and its secret.
    struct Key: Sendable, Equatable {
        var keyID: String
        var secret: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The billing keys, by their name in `demo.json`'s `keys`.
    static let accounts: [(name: String, principal: KeyPrincipal)] = [
        ("acme", KeyPrincipal(kind: .payer, id: "acme")),
        ("acme-web", KeyPrincipal(kind: .project, id: "acme-web")),
        ("acme-mobile", KeyPrincipal(kind: .project, id: "acme-mobile")),
        ("solo", KeyPrincipal(kind: .project, id: "solo")),
        ("metering", KeyPrincipal(kind: .service, id: "metering")),
        ("auditor", KeyPrincipal(kind: .auditor, id: "demo-auditor")),
    ]
    /// The name of the catalog app's publishable test key in the file.
    static let catalog = "catalog"

    /// The prefix of a demo billing key: the kinds `ledger admin key issue` uses, but
    /// `sk_test_` for projects and payers (theirs is `sk_live_`), so a demo key never passes
    /// for a production one. Services and auditors keep `sk_svc_` and `sk_aud_`.
    static func prefix(of kind: KeyPrincipal.Kind) -> String {
        switch kind {
        case .project, .payer: return "sk_test_"
        case .service: return "sk_svc_"
        case .auditor: return "sk_aud_"
        }
    }

    /// The key id of the `generation`th key after `first`: `first` itself (the ids the demo
    /// always had: `demo-acme`, `screenrig-ios-test-key`), then `first-2`, `first-3`, ….
    static func keyID(_ first: String, generation: Int) -> String {
        generation == 1 ? first : "\(first)-\(generation)"
    }

    /// The generation of `keyID` among the ids after `first`; nil for an id `ledger dev`
    /// would not make.
    static func generation(of keyID: String, first: String) -> Int? {
        if keyID == first { return 1 }
        guard keyID.hasPrefix(first + "-"), let n = Int(keyID.dropFirst(first.count + 1)), n >= 2,
              Self.keyID(first, generation: n) == keyID else { return nil }
        return n
    }

    /// The first key id of each demo key.
    static func firstKeyID(_ name: String) -> String {
        name == catalog ? DemoData.catalogApp + "-test-key" : "demo-" + name
    }

    /// The billing keys and the catalog's publishable key, by name.
    let keys: [String: Key]

    func account(_ name: String) -> Key { keys[name]! }
    var catalogKey: Key { keys[Self.catalog]! }

    /// The keys of `directory`: those of its file the database still accepts, and fresh
    /// ones for the rest, written to the file (0600) before anything is appended.
    static func loadOrIssue(in directory: String, store: EventStore) throws -> DemoKeys {
        let path = directory + "/" + fileName
        var kept = try read(path)
        var changed = false
        let app = try catalogState(store)
        // Billing keys as `ledger admin key issue` writes them, the publishable key as
        // `ledger admin app key issue` does.
        let wanted = accounts.map { (name: $0.name, prefix: prefix(of: $0.principal.kind)) } + [(catalog, KeyMode.test.prefix)]
        for (name, prefix) in wanted {
            let random = SecureRandom.bytes(32)
            let state = { (keyID: String) throws -> IssuedKey? in name == catalog ? app[keyID] : try accountState(store, keyID) }
            if let key = kept[name], try usable(key, name: name, prefix: prefix, issued: try state(key.keyID), path: path) {
                continue
            }
            var generation = 1
            while try state(keyID(firstKeyID(name), generation: generation)) != nil { generation += 1 }
            kept[name] = Key(keyID: keyID(firstKeyID(name), generation: generation), secret: prefix + (name == catalog ? Hex.encode(random) : Base64URL.encode(random)))
            changed = true
        }
        if changed { try write(kept, to: path) }
        return DemoKeys(keys: kept)
    }

    /// The billing key `name` as the database will hold it, after revoking the earlier demo
    /// keys of that name, whose secrets nobody should hold.
    func issueAccount(_ name: String, principal: KeyPrincipal, store: EventStore, metadata: EventMetadata) throws {
        let key = account(name)
        let first = Self.firstKeyID(name)
        for generation in 1..<(Self.generation(of: key.keyID, first: first) ?? 1) {
            let earlier = Self.keyID(first, generation: generation)
            guard let issued = try Self.accountState(store, earlier), !issued.revoked else { continue }
            var request = AppendRequest(try AccountsDecider.revokeKey(keyID: earlier), metadata: Self.replacing(metadata))
            request.idempotencyKey = "demo:revoke-" + earlier
            _ = try store.append(request)
        }
        // `demo:key-acme` for the first key, as the demo always had: a database seeded
        // before keeps its appends.
        try DemoData.appendDemo(KeyIssued(keyID: key.keyID, principal: principal, sha256: Self.sha256(key.secret),
                                          prefix: String(key.secret.prefix(KeyIssueAction.prefixLength))),
                                AccountsDecider.keyStream(key.keyID), key: "key-" + key.keyID.dropFirst("demo-".count),
                                store: store, metadata: metadata)
    }

    /// Revokes the catalog app's demo keys that came before `key`: `key` itself is among
    /// the app's events (`DemoData.catalogApp(_:name:key:keyID:)`), appended first.
    static func revokeCatalogKeys(before key: Key, store: EventStore, metadata: EventMetadata) throws {
        let first = firstKeyID(catalog)
        guard let current = generation(of: key.keyID, first: first) else { return }
        for (keyID, issued) in try catalogState(store).sorted(by: { $0.key < $1.key }) where !issued.revoked {
            guard let older = generation(of: keyID, first: first), older < current else { continue }
            try DemoData.appendDemo(AppKeyRevoked(appID: DemoData.catalogApp, keyID: keyID), CatalogDecider.stream(DemoData.catalogApp),
                                    key: "catalog-revoke-" + keyID, store: store, metadata: replacing(metadata))
        }
    }

    // MARK: - The file

    private static func read(_ path: String) throws -> [String: Key] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let damaged = { (why: String) in
            Failure(description: "\(path) \(why): delete it, and the next `ledger dev` issues new demo keys (revoking the old ones)")
        }
        guard let data = FileManager.default.contents(atPath: path),
              let json = try? JSONValue.parse(Array(data)), let entries = json["keys"]?.objectValue else {
            throw damaged("is not the demo keys file `ledger dev` writes")
        }
        var keys: [String: Key] = [:]
        for (name, entry) in entries {
            guard let keyID = entry["key_id"]?.stringValue, let secret = entry["secret"]?.stringValue else {
                throw damaged("has no key_id or secret for \(name)")
            }
            keys[name] = Key(keyID: keyID, secret: secret)
        }
        return keys
    }

    private static func write(_ keys: [String: Key], to path: String) throws {
        let document: JSONValue = [
            "about": """
                The secrets of `ledger dev`'s demo keys: random, made once for this data directory, and \
                reused by every start. Delete this file to have new ones issued (the old ones are then revoked).
                """,
            "keys": .object(keys.mapValues { ["key_id": .string($0.keyID), "secret": .string($0.secret)] }),
        ]
        do {
            try PrivateFile.write(document.prettyText() + "\n", to: path)
        } catch {
            throw Failure(description: error.description)
        }
    }

    // MARK: - The database

    /// What the log holds of a key: its SHA-256, and whether it was revoked.
    struct IssuedKey {
        var sha256: String
        var revoked: Bool
    }

    /// Whether the file's `key` can be used as it is: it has the right form, and the
    /// database has either not issued it yet or issued it, unrevoked, with this secret.
    private static func usable(_ key: Key, name: String, prefix: String, issued: IssuedKey?, path: String) throws -> Bool {
        guard generation(of: key.keyID, first: firstKeyID(name)) != nil, key.secret.hasPrefix(prefix) else {
            throw Failure(description: "\(path) holds a key \(key.keyID) for \(name) that `ledger dev` does not make: delete the file, and the next start issues new demo keys (revoking the old ones)")
        }
        guard let issued else { return true }
        guard issued.sha256 == sha256(key.secret) else {
            throw Failure(description: "\(path) does not belong to this database: it has another secret for demo key \(key.keyID). Use the data directory that made this database, or delete the file to issue new demo keys (the database's are then revoked)")
        }
        return !issued.revoked
    }

    static func accountState(_ store: EventStore, _ keyID: String) throws -> IssuedKey? {
        let events = try store.log.readStream(AccountsDecider.keyStream(keyID), limit: 2)
        guard let first = events.first else { return nil }
        return IssuedKey(sha256: try first.decode(KeyIssued.self).sha256, revoked: events.contains { $0.type == KeyRevoked.type })
    }

    /// The publishable keys of the demo's catalog app, by key id.
    static func catalogState(_ store: EventStore) throws -> [String: IssuedKey] {
        var keys: [String: IssuedKey] = [:]
        var from: Int64 = 1
        while true {
            let events = try store.log.readStream(CatalogDecider.stream(DemoData.catalogApp), from: from)
            for event in events {
                if event.type == AppKeyIssued.type {
                    let issued = try event.decode(AppKeyIssued.self)
                    keys[issued.keyID] = IssuedKey(sha256: issued.sha256, revoked: false)
                } else if event.type == AppKeyRevoked.type {
                    keys[try event.decode(AppKeyRevoked.self).keyID]?.revoked = true
                }
            }
            guard let last = events.last, events.count == 10_000 else { return keys }
            from = last.streamVersion + 1
        }
    }

    static func sha256(_ secret: String) -> String { Hex.encode(SHA256.hash(Array(secret.utf8))) }

    private static func replacing(_ metadata: EventMetadata) -> EventMetadata {
        EventMetadata(actor: metadata.actor, reason: "ledger dev replaces a demo key whose secret this data directory does not hold")
    }
}
