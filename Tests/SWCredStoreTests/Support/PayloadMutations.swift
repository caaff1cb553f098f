import Foundation
import SWCredCore
import Testing
@testable import SWCredStore

/// 3,000 seeded mutations of a valid payload (a flipped byte, a truncation, a replaced byte, in
/// turn): each one is refused with a payload error, or decodes to contents that encode back to
/// exactly those bytes (canonical decoding). Shared by the passkey schema tests (2 and 4).
func checkPayloadMutations(_ payload: [UInt8], seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    var accepted = 0
    for round in 0..<3000 {
        var mutated = payload
        switch round % 3 {
        case 0: mutated[Int(rng.next() % UInt64(mutated.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
        case 1: mutated = Array(mutated.prefix(Int(rng.next() % UInt64(mutated.count))))
        default: mutated[Int(rng.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: rng.next())
        }
        do {
            let decoded = try StoreContents(payload: mutated)
            accepted += 1
            #expect(decoded.encodedPayload() == mutated)
        } catch {
            #expect([.corruptPayload, .unsupportedFormat, .limitExceeded].contains(error.code))
        }
    }
    #expect(accepted < 3000)
}
