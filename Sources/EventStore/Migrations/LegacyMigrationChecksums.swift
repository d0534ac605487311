/// The checksums `ledger migrate` recorded before a checksum left comments out: SHA-256 of
/// each whole file as it was then. A database migrated before that records these, and they
/// are accepted when the file's statements are still the ones of that time (`statements`,
/// the checksum `Migration` computes for that very file): `Migrator.status` accepts such a
/// row as it is, `Migrator.migrate` rewrites it to the file's checksum.
///
/// Frozen: a migration added later is checksummed the new way from its first application,
/// and has no entry here.
public enum LegacyMigrationChecksums {
    public struct Entry: Sendable, Equatable {
        /// SHA-256 of the whole file, comments included, as recorded then.
        public let wholeFile: String
        /// `Migration.checksum` of that same file.
        public let statements: String
    }

    public static let byVersion: [Int: Entry] = [
        1: Entry(wholeFile: "8a65f7ff1fce50e230860a93a11bb4003027c78a8d08af41bd8f84165cf2a26b",
                 statements: "8b7debb870a37ee33cbd955beb843b154fe7981a77c01db7e41755b8b9ba36c2"),  // 0001_event_log.sql
        2: Entry(wholeFile: "ca9a71605d01702eca52f1f64f2733efbf57392f57e1e0d987c8f17a08b5d025",
                 statements: "7704380ee73e1d1bb4548834536e056c7684122958d959d22d7ebd05326b6371"),  // 0002_service_role.sql
        3: Entry(wholeFile: "1d45851642850bebfa188d15e2d90d54ec7ed25eccd22122c79f884d422cd12e",
                 statements: "6cdc6ff135024b9c078edd658737b8d0bd16adec9b299779a734b5ba2df2ac77"),  // 0003_set_aside_index.sql
        4: Entry(wholeFile: "a4ad0bc13ea3ad70af9807f7b371a9bd38604d05313aba77bddf7b8c77f5546e",
                 statements: "d7e17f73e3eb10843a05d7d1e6da4aa408dcdafe5027a0795a973151e4127acf"),  // 0004_append_checks_by_index.sql
        5: Entry(wholeFile: "397ba2a38a8a1b44622b8dc331451e365f92c6a55abd77b16977bf0a2646cb22",
                 statements: "f28d6c8161bbaf0949df6fb49bb209a630b9e4ed37377388ccc974100d53b390"),  // 0005_partitioned_log.sql
        6: Entry(wholeFile: "cb17d24225b531ba18ee1df8fa17e770055a53a7c8673338da41e8f2515af18d",
                 statements: "64aa5224f766c90ba05b549f4876e6f00e67884cfe91c2de001dd8e59f011571"),  // 0006_console_credentials.sql
        7: Entry(wholeFile: "aa68bd00d89c9da0aaf93064e921f2b9a9b17272e01f574d06d7e0d3fdfeb2d7",
                 statements: "58746a547f2398a2b9380b5ed874f0e182ad8cf49b0e419b1923bafcbeb1d3a5"),  // 0007_stream_versions_by_update.sql
        8: Entry(wholeFile: "59ca2954d20afd29d77b86d0106ee540e886adcb736c0193740e557d6dfc329c",
                 statements: "f65fca0521bde26bb664319d447bb44466eb264446c3128b7e85d285ac091853"),  // 0008_append_without_jit.sql
        9: Entry(wholeFile: "296fb73e4b2cb121bc94a8ac14822fb912569693d5c6d0ab0bebc91b78025d82",
                 statements: "c36cf98efe98c2abcbd2697795ab5307ec036752b08ea6f080467afa28635aee"),  // 0009_stream_versions_planned_per_append.sql
        10: Entry(wholeFile: "c93325beab30ada4479c4682c4ffbb2478d0878ac45a56d52f2171f9b2ec63ac",
                  statements: "356be22d41cd9444da3f30ddd0ebca2ed26c2b6eb981d7a2b66167acd8d5b27e"),  // 0010_key_events_index.sql
        11: Entry(wholeFile: "133cdc66e41ae9048c717fe69c1cce16c8b076fc23bf480f07219c90601c83b1",
                  statements: "7400ad1c642f4d08e1d71745eb8fa63ca31952d0b2c2175862990786cf64700a"),  // 0011_projector_role.sql
        12: Entry(wholeFile: "a34e7a2223ed58c1b40539309116f603e89c5e16bc95a1a9db3124c1d4c5ff74",
                  statements: "7e0299c774332e0b0b3f5f7312d3d4c1151526b3728184185b70939f614c7bda"),  // 0012_console_sessions.sql
    ]

    /// Whether `recorded`, the checksum a database has for `migration`, is the whole-file
    /// checksum of a file with the same statements.
    public static func accepts(_ recorded: String, for migration: Migration) -> Bool {
        guard let entry = byVersion[migration.version] else { return false }
        return recorded == entry.wholeFile && migration.checksum == entry.statements
    }
}
