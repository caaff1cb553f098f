import Crypto
import Foundation
import SWCredCore
import Testing
@testable import SWCredPasskeys

/// `PasskeyKeyDER` walks a P-256 PKCS#8 key itself, so that only the scalar reaches swift-crypto
/// (from guarded memory): every layout real browsers and libraries write is read, anything else is
/// refused.
@Suite("Passkey PKCS#8 keys (cli.md Browser tests: a P-256 PKCS#8 key)")
struct PasskeyKeyDERTests {
    /// A PKCS#8 `PrivateKeyInfo` around an RFC 5915 `ECPrivateKey`, with or without the optional
    /// parameters and public key, every length computed.
    static func pkcs8(_ scalar: [UInt8], parameters: Bool, point: [UInt8]?, version: UInt8 = 1) -> [UInt8] {
        var ec: [UInt8] = [0x02, 0x01, version, 0x04, UInt8(scalar.count)] + scalar
        if parameters { ec += PasskeyKeyDER.ecParameters }
        if let point { ec += [0xA1, UInt8(point.count + 3), 0x03, UInt8(point.count + 1), 0x00] + point }
        let octets: [UInt8] = [0x30, UInt8(ec.count)] + ec
        let body = Array(PasskeyKeyDER.p256PrivateKeyInfoPrefix) + [UInt8(octets.count)] + octets
        return body.count < 0x80 ? [0x30, UInt8(body.count)] + body : [0x30, 0x81, UInt8(body.count)] + body
    }

    @Test("cli Browser tests: export writes swift-crypto's PKCS#8 layout; it, and the same key without the public key, with the parameters, with both, give the scalar and the SPKI")
    func layouts() throws {
        let key = P256.Signing.PrivateKey()
        let scalar = [UInt8](key.rawRepresentation)
        let point = [UInt8](key.publicKey.x963Representation)
        let spki = [UInt8](key.publicKey.derRepresentation)
        #expect(Self.pkcs8(scalar, parameters: false, point: point) == [UInt8](key.derRepresentation))
        #expect(try PasskeyKeyDER.pkcs8(raw: scalar) == [UInt8](key.derRepresentation))
        for parameters in [false, true] {
            for withPoint in [false, true] {
                let der = Self.pkcs8(scalar, parameters: parameters, point: withPoint ? point : nil)
                let read = try PasskeyKeyDER.scalar(pkcs8: der, field: "k")
                #expect(read.raw == scalar && read.spki == spki, "parameters \(parameters), point \(withPoint)")
            }
        }
    }

    @Test("cli Browser tests: another key's public point, a bad version, a short key, a zero or out-of-range scalar, a byte more or less, a non-minimal length: 65, naming the field")
    func refusals() throws {
        let key = P256.Signing.PrivateKey()
        let scalar = [UInt8](key.rawRepresentation)
        let other = [UInt8](P256.Signing.PrivateKey().publicKey.x963Representation)
        let good = Self.pkcs8(scalar, parameters: false, point: [UInt8](key.publicKey.x963Representation))
        var nonMinimal = Self.pkcs8(scalar, parameters: false, point: nil)
        nonMinimal.insert(0x81, at: 1)
        let cases: [(String, [UInt8])] = [
            ("another key's public point", Self.pkcs8(scalar, parameters: false, point: other)),
            ("a compressed point", Self.pkcs8(scalar, parameters: false, point: [0x02] + other[1..<33])),
            ("ECPrivateKey version 2", Self.pkcs8(scalar, parameters: true, point: nil, version: 2)),
            ("a 31-byte key", Self.pkcs8(Array(scalar.dropFirst()), parameters: false, point: nil)),
            ("a zero scalar", Self.pkcs8(Array(repeating: 0, count: 32), parameters: false, point: nil)),
            ("a scalar above the order", Self.pkcs8(Array(repeating: 0xFF, count: 32), parameters: false, point: nil)),
            ("a byte more", good + [0x00]),
            ("a byte less", Array(good.dropLast())),
            ("the outer length one short", [good[0], good[1], good[2] - 1] + good[3...]),
            ("a non-minimal length", nonMinimal),
            ("nothing", []),
        ]
        for (label, der) in cases {
            do {
                _ = try PasskeyKeyDER.scalar(pkcs8: der, field: "credentials[3].privateKey")
                Issue.record("\(label): read")
            } catch {
                #expect(error.code == .malformedInput && error.message.contains("credentials[3].privateKey"), "\(label)")
            }
        }
    }

    @Test("cli Browser tests: 5,000 mutations and truncations of a key never trap, and any that reads gives the original scalar")
    func mutations() throws {
        let key = P256.Signing.PrivateKey()
        let scalar = [UInt8](key.rawRepresentation)
        let good = Self.pkcs8(scalar, parameters: true, point: [UInt8](key.publicKey.x963Representation))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var read = 0
        for round in 0..<5_000 {
            var der = good
            if round % 5 == 0 {
                der = Array(der.prefix(next(der.count)))
            } else {
                for _ in 0...next(3) { der[next(der.count)] = UInt8(next(256)) }
            }
            guard let result = try? PasskeyKeyDER.scalar(pkcs8: der, field: "k") else { continue }
            read += 1
            #expect(result.raw == scalar, "round \(round) read another scalar")
        }
        #expect(read < 100, "\(read) mutated keys read")
    }
}
