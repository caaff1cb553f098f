import Foundation
import SWCredCore

/// The canonical binary encoding of ``StoreContents`` (payload schema 1). See ``StoreFormat``.
///
/// Every integer is fixed-width little-endian, every Boolean is exactly 0 or 1, strings are
/// valid UTF-8 with a 16-bit length, dates are milliseconds since 1970 (signed 64-bit, at most
/// 2^50 in magnitude), sets are bit masks, and nothing may follow the last record. A decoder
/// that accepts a byte string therefore re-encodes it to the same bytes (T13).
enum PayloadCodec {
    /// The largest date magnitude, in milliseconds (about ±35,000 years; covers distant past/future).
    static let maxMilliseconds: Int64 = 1 << 50

    // MARK: Encode

    static func encode(_ contents: StoreContents) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + contents.items.count * 160 + contents.associationRecords.count * 128)
        w.u16(contents.schemaVersion)
        w.i64(milliseconds(contents.creationDate))
        w.bool(contents.settings.autoFillEnabled)
        w.bool(contents.settings.developerMode)
        w.bool(contents.settings.managedDevice)
        w.u32(UInt32(contents.items.count))
        for item in contents.items { encode(item, into: &w) }
        w.u32(UInt32(contents.associationRecords.count))
        for record in contents.associationRecords { encode(record, into: &w) }
        if !contents.passkeys.isEmpty { PasskeyCodec.encode(contents.passkeys, into: &w) }  // schema 2
        return w.bytes
    }

    private static func encode(_ item: InternetPasswordItem, into w: inout ByteWriter) {
        w.string16(item.server)
        w.string16(item.account)
        w.u16(item.port)
        w.string8(item.protocolCode)
        w.string8(item.authenticationType)
        w.string16(item.path)
        w.string16(item.securityDomain)
        w.string16(item.label)
        w.string16(item.comment)
        w.string8(item.creator)
        w.string16(item.accessGroup)
        w.bool(item.synchronizable)
        w.bool(item.isNegative)
        w.i64(milliseconds(item.creationDate))
        w.i64(milliseconds(item.modificationDate))
        if let secret = item.secret {
            w.u8(1)
            w.bytes16(secret)
        } else {
            w.u8(0)
        }
    }

    private static func encode(_ record: AssociationRecord, into w: inout ByteWriter) {
        w.u8(serviceID(record.service))
        w.string16(record.appID)
        w.string16(record.host)
        w.u16(record.port ?? 0)
        w.bool(record.isWildcard)
        var modes: UInt8 = 0
        if record.modes.contains(.developer) { modes |= 1 }
        if record.modes.contains(.managed) { modes |= 2 }
        w.u8(modes)
        w.u8(approvalID(record.userApproval))
        w.u8(approvalID(record.siteApproval))
        w.i64(milliseconds(record.lastChecked))
        w.i64(milliseconds(record.nextCheck))
        w.u32(record.retryCount)
        if let error = record.lastError {
            w.u8(1)
            w.string16(error.domain)
            w.i64(error.code)
            w.string16(error.message)
        } else {
            w.u8(0)
        }
        w.u8(sourceID(record.source))
        if let file = record.lastFile {
            w.u8(1)
            w.u8(UInt8(file.digest.count))
            w.raw(file.digest)
            w.u64(file.size)
            w.i64(milliseconds(file.retrievedAt))
        } else {
            w.u8(0)
        }
    }

    // MARK: Decode

    /// Decodes a payload, applying `limits`.
    /// - Throws: `unsupportedFormat` for a newer schema; `limitExceeded` for more items or records
    ///   than the limits allow; `corruptPayload` for anything else that is not a canonical encoding.
    static func decode(_ bytes: [UInt8], limits: StoreLimits) throws(SWCredError) -> StoreContents {
        var r = ByteReader(bytes, errorCode: .corruptPayload)
        let schema = try r.u16()
        guard schema != 0 else { throw r.fail("payload schema 0") }
        guard schema <= StoreContents.currentSchemaVersion else {
            throw SWCredError(
                .unsupportedFormat,
                "payload schema \(schema) is newer than this swcred (\(StoreContents.currentSchemaVersion)); the file is left as it is"
            )
        }
        let created = try date(&r)
        let settings = DeviceSettings(autoFillEnabled: try r.bool(), developerMode: try r.bool(), managedDevice: try r.bool())
        let itemCount = Int(try r.u32())
        guard itemCount <= limits.maxItems else {
            throw SWCredError(.limitExceeded, "the file holds \(itemCount) items; the limit is \(limits.maxItems)")
        }
        // Each item takes at least 39 bytes: refuse counts the data cannot hold before reserving.
        guard itemCount <= r.remaining / 39 else { throw r.fail("the item count exceeds the data") }
        var items: [InternetPasswordItem] = []
        items.reserveCapacity(itemCount)
        for _ in 0..<itemCount { items.append(try decodeItem(&r, limits: limits)) }
        let recordCount = Int(try r.u32())
        guard recordCount <= limits.maxAssociationRecords else {
            throw SWCredError(
                .limitExceeded,
                "the file holds \(recordCount) association records; the limit is \(limits.maxAssociationRecords)"
            )
        }
        guard recordCount <= r.remaining / 30 else { throw r.fail("the record count exceeds the data") }
        var records: [AssociationRecord] = []
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount { records.append(try decodeRecord(&r, limits: limits)) }
        let passkeys: [PasskeyItem] = try schema >= 2 ? PasskeyCodec.decode(&r, limits: limits, itemCount: itemCount) : []
        try r.expectEnd()
        var contents = try StoreContents(
            schemaVersion: schema, creationDate: created, settings: settings, items: items,
            associationRecords: records, passkeys: passkeys
        )
        contents.limits = limits
        return contents
    }

    private static func decodeItem(_ r: inout ByteReader, limits: StoreLimits) throws(SWCredError)
        -> InternetPasswordItem
    {
        let server = try r.string16("server", min: 1, max: limits.maxServerBytes)
        let account = try r.string16("account", max: limits.maxAccountBytes)
        let port = try r.u16()
        let protocolCode = try r.fourCharacterCode("protocol")
        let authenticationType = try r.fourCharacterCode("authenticationType")
        let path = try r.string16("path", max: limits.maxPathBytes)
        let securityDomain = try r.string16("securityDomain", max: limits.maxSecurityDomainBytes)
        let label = try r.string16("label", max: limits.maxLabelBytes)
        let comment = try r.string16("comment", max: limits.maxCommentBytes)
        let creator = try r.fourCharacterCode("creator")
        let accessGroup = try r.string16("accessGroup", max: limits.maxAccessGroupBytes)
        let synchronizable = try r.bool()
        let isNegative = try r.bool()
        let created = try date(&r)
        let modified = try date(&r)
        let secret: [UInt8]?
        switch try r.u8() {
        case 0: secret = nil
        case 1:
            guard !isNegative else { throw r.fail("a negative entry carries a secret") }
            secret = try r.bytes16(max: limits.maxSecretBytes)
        default: throw r.fail("bad secret marker")
        }
        return InternetPasswordItem(
            server: server, account: account, port: port, protocolCode: protocolCode,
            authenticationType: authenticationType, path: path, securityDomain: securityDomain, label: label,
            comment: comment, creator: creator, accessGroup: accessGroup, synchronizable: synchronizable,
            isNegative: isNegative, creationDate: created, modificationDate: modified, secret: secret
        )
    }

    private static func decodeRecord(_ r: inout ByteReader, limits: StoreLimits) throws(SWCredError)
        -> AssociationRecord
    {
        let service = try enumValue(try r.u8(), AssociationRecord.Service.allCases, &r, "service")
        let appID = try r.string16("appID", min: 1, max: limits.maxAppIDBytes)
        let host = try r.string16("host", min: 1, max: limits.maxHostBytes)
        let portValue = try r.u16()
        let isWildcard = try r.bool()
        let modeBits = try r.u8()
        guard modeBits & ~3 == 0 else { throw r.fail("unknown mode bits") }
        var modes = Set<AssociationRecord.Mode>()
        if modeBits & 1 != 0 { modes.insert(.developer) }
        if modeBits & 2 != 0 { modes.insert(.managed) }
        let userApproval = try enumValue(try r.u8(), AssociationRecord.Approval.allCases, &r, "user approval")
        let siteApproval = try enumValue(try r.u8(), AssociationRecord.Approval.allCases, &r, "site approval")
        let lastChecked = try date(&r)
        let nextCheck = try date(&r)
        let retryCount = try r.u32()
        var lastError: AssociationRecord.LastError?
        switch try r.u8() {
        case 0: lastError = nil
        case 1:
            let domain = try r.string16("error domain", max: limits.maxErrorDomainBytes)
            let code = try r.i64()
            let message = try r.string16("error message", max: limits.maxErrorMessageBytes)
            lastError = AssociationRecord.LastError(domain: domain, code: code, message: message)
        default: throw r.fail("bad error marker")
        }
        let source = try enumValue(try r.u8(), AssociationRecord.Source.allCases, &r, "source")
        var lastFile: AssociationRecord.FileInfo?
        switch try r.u8() {
        case 0: lastFile = nil
        case 1:
            let digestLength = Int(try r.u8())
            guard digestLength <= 64 else { throw r.fail("digest longer than 64 bytes") }
            let digest = Array(try r.take(digestLength))
            let size = try r.u64()
            let retrieved = try date(&r)
            lastFile = AssociationRecord.FileInfo(digest: digest, size: size, retrievedAt: retrieved)
        default: throw r.fail("bad file marker")
        }
        return AssociationRecord(
            service: service, appID: appID, host: host, port: portValue == 0 ? nil : portValue,
            isWildcard: isWildcard, modes: modes, userApproval: userApproval, siteApproval: siteApproval,
            lastChecked: lastChecked, nextCheck: nextCheck, retryCount: retryCount, lastError: lastError,
            source: source, lastFile: lastFile
        )
    }

    // MARK: Helpers

    static func milliseconds(_ date: Date) -> Int64 {
        min(max(date.millisecondsSince1970, -maxMilliseconds), maxMilliseconds)
    }

    private static func date(_ r: inout ByteReader) throws(SWCredError) -> Date {
        let ms = try r.i64()
        guard ms >= -maxMilliseconds, ms <= maxMilliseconds else { throw r.fail("a date is out of range") }
        return Date(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// Ids are 1-based positions in `allCases` (declaration order is fixed by format 1).
    private static func enumValue<T>(_ id: UInt8, _ all: [T], _ r: inout ByteReader, _ name: String)
        throws(SWCredError) -> T
    {
        guard id >= 1, Int(id) <= all.count else { throw r.fail("unknown \(name) id \(id)") }
        return all[Int(id) - 1]
    }

    private static func serviceID(_ value: AssociationRecord.Service) -> UInt8 {
        UInt8((AssociationRecord.Service.allCases.firstIndex(of: value) ?? 0) + 1)
    }

    private static func approvalID(_ value: AssociationRecord.Approval) -> UInt8 {
        UInt8((AssociationRecord.Approval.allCases.firstIndex(of: value) ?? 0) + 1)
    }

    private static func sourceID(_ value: AssociationRecord.Source) -> UInt8 {
        UInt8((AssociationRecord.Source.allCases.firstIndex(of: value) ?? 0) + 1)
    }
}
