/// Deterministic assignment of users to rollouts and experiment variants: the same app,
/// campaign and user always land in the same bucket, and buckets are uniform across users.
///
/// FNV-1a over the fields (each followed by a zero byte, so that `("ab", "c")` and
/// `("a", "bc")` differ), then a 64-bit finalizer so that near-identical inputs spread.
/// Not a cryptographic hash: nobody gains by predicting their own bucket.
public enum RolloutBucket {
    /// A number in 0..<`modulo` for these fields.
    public static func bucket(_ fields: [String], modulo: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields {
            for byte in field.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash = hash &* 0x0000_0100_0000_01b3   // the zero separator
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash % modulo
    }

    /// Whether the user is inside a rollout of `percent` (0–100), in steps of 0.01 %.
    public static func isInRollout(app: String, campaign: String, user: String, percent: Int) -> Bool {
        bucket([app, campaign, user, "rollout"], modulo: 10_000) < UInt64(max(0, min(100, percent)) * 100)
    }

    /// The variant a user is assigned to, in proportion to the weights; nil without variants.
    public static func variant(app: String, campaign: String, user: String, among variants: [CampaignVariant]) -> CampaignVariant? {
        let total = variants.reduce(0) { $0 + max(0, $1.weight) }
        guard total > 0 else { return nil }
        var point = Int(bucket([app, campaign, user, "variant"], modulo: UInt64(total)))
        for variant in variants where variant.weight > 0 {
            if point < variant.weight { return variant }
            point -= variant.weight
        }
        return nil
    }
}
