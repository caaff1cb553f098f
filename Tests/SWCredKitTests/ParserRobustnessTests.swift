import SWCredKit
import Testing

/// The two small parsers of the SWC layer take untrusted strings (app arguments, entitlements):
/// they must never trap and must respect their size limits.
@Suite("Parsers never trap (fqdn, webcredentials entries)")
struct ParserRobustnessTests {
    /// A deterministic generator (SplitMix64), so a failure can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let alphabet: [Character] = Array("aZ09-._~:/?#@[]*%+=&!$'(),; \t\n\u{0}é€😀") + ["webcredentials:", "mode=", ":8443", "*."]
        .flatMap { Array($0) }

    @Test("SWC-6.4 / AD-2.3: 20 000 random strings parse or are refused, never trap", arguments: [1, 2, 3, 4] as [UInt64])
    func randomInputs(seed: UInt64) {
        var random = SplitMix(state: seed)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...40, using: &random)
            let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &random) ?? "a" })
            if let domain = SWCDomain(parsing: text) {
                #expect(!domain.host.isEmpty && !domain.host.contains("*") && domain.host == domain.host.lowercased())
                #expect(domain.port.map { (1...65535).contains($0) } ?? true)
            }
            if let entry = WebCredentialsEntry(parsing: "webcredentials:" + text) {
                #expect(!entry.host.isEmpty && entry.host.utf8.allSatisfy { $0 < 0x80 })
                #expect(entry.port.map { (1...65535).contains($0) } ?? true)
            }
        }
    }

    @Test("Size limits: an fqdn over 2 048 bytes and an entry over 1 024 bytes are refused")
    func sizeLimits() {
        #expect(SWCDomain(parsing: String(repeating: "a", count: 2_049)) == nil)
        #expect(WebCredentialsEntry(parsing: "webcredentials:" + String(repeating: "a.", count: 600) + "com") == nil)
        #expect(SWCDomain(parsing: String(repeating: "a", count: 254)) == nil)  // host over 253 bytes
        #expect(SWCDomain(parsing: "[::1]:443")?.port == 443)
        #expect(SWCDomain(parsing: "[::1") == nil)
    }
}
