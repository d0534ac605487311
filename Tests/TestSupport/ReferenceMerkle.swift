import Crypto

/// RFC 9162 §2.1 written out as its text defines it, recursively over the leaves' data:
/// the tests' independent implementation, against which the production tree (built from
/// stored perfect subtrees, verified iteratively) is checked. Slow on purpose: no cache,
/// no stored nodes, no shortcut.
public enum ReferenceMerkle {
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { SHA256.hash(bytes) }

    /// MTH(D[n]).
    public static func mth(_ d: ArraySlice<[UInt8]>) -> [UInt8] {
        if d.isEmpty { return sha256([]) }
        if d.count == 1 { return sha256([0x00] + d.first!) }
        let k = largestPowerOfTwoBelow(d.count)
        let left = d.prefix(k), right = d.dropFirst(k)
        return sha256([0x01] + mth(left) + mth(right))
    }

    /// PATH(m, D[n]).
    public static func path(_ m: Int, _ d: ArraySlice<[UInt8]>) -> [[UInt8]] {
        if d.count <= 1 { return [] }
        let k = largestPowerOfTwoBelow(d.count)
        let left = d.prefix(k), right = d.dropFirst(k)
        if m < k { return path(m, left) + [mth(right)] }
        return path(m - k, right) + [mth(left)]
    }

    /// PROOF(m, D[n]).
    public static func proof(_ m: Int, _ d: ArraySlice<[UInt8]>) -> [[UInt8]] { subproof(m, d, true) }

    static func subproof(_ m: Int, _ d: ArraySlice<[UInt8]>, _ b: Bool) -> [[UInt8]] {
        if m == d.count { return b ? [] : [mth(d)] }
        let k = largestPowerOfTwoBelow(d.count)
        let left = d.prefix(k), right = d.dropFirst(k)
        if m <= k { return subproof(m, left, b) + [mth(right)] }
        return subproof(m - k, right, false) + [mth(left)]
    }

    static func largestPowerOfTwoBelow(_ n: Int) -> Int {
        var k = 1
        while k * 2 < n { k *= 2 }
        return k
    }
}
