import FoundationEssentials
import SWCredCore

// The head of a payload (its fields before the items) and the store flags read from a plaintext
// before the payload is decoded (schema 3, rollback protection: store.md §5).
extension PayloadCodec {
    /// Whether the plaintext payload `bytes[payload]` has rollback protection on (schema 3 or 4,
    /// store flag bit 0), read before the payload is decoded; the decode checks the flags in full.
    static func rollbackProtection(in bytes: [UInt8], payload: Range<Int>) -> Bool {
        let flags = payload.lowerBound + Head.storeFlagsOffset
        guard payload.lowerBound >= 0, flags < payload.upperBound, payload.upperBound <= bytes.count else {
            return false
        }
        let schema = UInt16(bytes[payload.lowerBound]) | UInt16(bytes[payload.lowerBound + 1]) << 8
        return schema >= 3 && bytes[flags] & Head.rollbackProtectionFlag != 0
    }

    /// The fields before the items: schema, creation date, settings, the store flags (schema 3)
    /// and the item count.
    struct Head {
        var schema: UInt16
        var created: Date
        var settings: DeviceSettings
        /// Store flag bit 0 (schema 3; always `false` before).
        var rollbackProtection: Bool
        var itemCount: Int
        /// Where the item count lies in the payload (a u32): after the store flags in schema 3.
        var itemCountOffset: Int { Self.itemCountOffset(schema: schema) }

        static func itemCountOffset(schema: UInt16) -> Int { schema >= 3 ? 14 : 13 }
        /// Where the store flags lie in a schema 3 payload (a u8).
        static let storeFlagsOffset = 13
        /// Bit 0 of the store flags.
        static let rollbackProtectionFlag: UInt8 = 1

        static func storeFlags(rollbackProtection: Bool) -> UInt8 { rollbackProtection ? rollbackProtectionFlag : 0 }

        init(_ r: inout ByteReader, limits: StoreLimits) throws(SWCredError) {
            schema = try r.u16()
            guard schema != 0 else { throw r.fail("payload schema 0") }
            guard schema <= StoreContents.currentSchemaVersion else {
                throw SWCredError(
                    .unsupportedFormat,
                    "payload schema \(schema) is newer than this swcred (\(StoreContents.currentSchemaVersion)); the file is left as it is"
                )
            }
            created = try date(&r)
            settings = DeviceSettings(autoFillEnabled: try r.bool(), developerMode: try r.bool(), managedDevice: try r.bool())
            rollbackProtection = false
            if schema >= 3 {
                // Canonical: schema 3 is written only for a set flag, and no unknown bit is set;
                // schema 4 (sign counts) carries the flags byte whether a flag is set or not.
                let flags = try r.u8()
                let allowed: Set<UInt8> = schema == 3 ? [Self.rollbackProtectionFlag] : [0, Self.rollbackProtectionFlag]
                guard allowed.contains(flags) else {
                    throw r.fail("store flags \(flags) in a schema \(schema) payload")
                }
                rollbackProtection = flags == Self.rollbackProtectionFlag
            }
            itemCount = Int(try r.u32())
            guard itemCount <= limits.maxItems else {
                throw SWCredError(.limitExceeded, "the file holds \(itemCount) items; the limit is \(limits.maxItems)")
            }
            // Each item takes at least 39 bytes: refuse counts the data cannot hold before reserving.
            guard itemCount <= r.remaining / 39 else { throw r.fail("the item count exceeds the data") }
        }
    }
}
