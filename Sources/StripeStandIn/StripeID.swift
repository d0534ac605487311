/// Ids shaped as Stripe's: a prefix (`evt_`, `cs_test_`, `sub_`, `in_`, `pi_`, `ch_`,
/// `dp_`, `cus_`, …) and 24 letters and digits, drawn at random so that two stand-ins, or
/// two runs, never name the same object.
public enum StripeID {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// `prefix` and 24 random letters and digits.
    public static func make(_ prefix: String, length: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        let tail = (0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return prefix + String(decoding: tail, as: UTF8.self)
    }
}
