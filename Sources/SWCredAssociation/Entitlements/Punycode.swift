/// RFC 3492 Punycode, written for swcred, and the per-label IDNA ACE form (`xn--…`).
///
/// Apple requires internationalised domain names in the entitlement to be written in Punycode
/// [S717]; swcred uses this encoder to suggest the A-label for a non-ASCII host (AD-2.3) and to
/// turn a non-ASCII URL host into the ASCII form the rules are evaluated for.
///
/// Only the Punycode transform is implemented, not Nameprep: a label is lowercased with Unicode's
/// default case mapping before encoding, which matches IDNA for the common scripts.
package enum Punycode {
    // RFC 3492 §5: parameter values for Punycode.
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128
    /// Labels longer than this are refused (DNS labels are at most 63 octets; this bounds work).
    static let maximumInputLength = 256

    /// Encodes a string of Unicode scalars as Punycode (RFC 3492 §6.3), without the `xn--` prefix.
    ///
    /// - Parameter input: the label to encode, as written (no case mapping is applied here).
    /// - Returns: the basic-code-point string, or `nil` on overflow or input longer than
    ///   ``maximumInputLength`` scalars.
    ///
    /// ```swift
    /// Punycode.encode("bücher") // "bcher-kva"
    /// ```
    package static func encode(_ input: String) -> String? {
        let scalars = input.unicodeScalars.map { Int($0.value) }
        guard scalars.count <= maximumInputLength else { return nil }
        // Step 1: copy the basic code points, in order, then a delimiter if there were any.
        var output: [UInt8] = scalars.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        // Step 2: insertion unsort coding of the remaining code points (§6.3).
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < scalars.count {
            // The smallest code point not yet handled that is >= n.
            guard let m = scalars.filter({ $0 >= n }).min() else { return nil }
            // delta += (m - n) * (handled + 1), with overflow check (§6.4).
            let (product, overflow1) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow1 else { return nil }
            let (sum, overflow2) = delta.addingReportingOverflow(product)
            guard !overflow2, sum <= Int(Int32.max) else { return nil }
            delta = sum
            n = m
            for c in scalars {
                if c < n {
                    delta += 1
                    guard delta <= Int(Int32.max) else { return nil }
                }
                if c == n {
                    // Emit delta as a generalized variable-length integer (§3.3).
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, numPoints: handled + 1, firstTime: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes a host name label by label: ASCII labels are kept, others become `xn--` + Punycode
    /// of the lowercased label.
    ///
    /// - Returns: the ASCII (A-label) form, or `nil` when a label cannot be encoded.
    package static func asciiHost(_ host: String) -> String? {
        var labels: [String] = []
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(label.lowercased())
            } else {
                guard let encoded = encode(label.lowercased()) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    // RFC 3492 §6.1: bias adaptation.
    private static func adapt(delta: Int, numPoints: Int, firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (((base - tMin + 1) * delta) / (delta + skew))
    }

    // RFC 3492 §5: digit values 0–25 are a–z, 26–35 are 0–9.
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }
}
