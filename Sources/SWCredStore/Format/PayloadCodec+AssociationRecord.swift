import FoundationEssentials
import SWCredCore

/// The association records' part of the payload encoding (payload schema 1, `spec/store.md` §2.3).
extension PayloadCodec {
    static func encode(_ record: AssociationRecord, into w: inout ByteWriter) {
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

    static func decodeRecord(_ r: inout ByteReader, limits: StoreLimits) throws(SWCredError)
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

    static func serviceID(_ value: AssociationRecord.Service) -> UInt8 {
        UInt8((AssociationRecord.Service.allCases.firstIndex(of: value) ?? 0) + 1)
    }

    static func approvalID(_ value: AssociationRecord.Approval) -> UInt8 {
        UInt8((AssociationRecord.Approval.allCases.firstIndex(of: value) ?? 0) + 1)
    }

    static func sourceID(_ value: AssociationRecord.Source) -> UInt8 {
        UInt8((AssociationRecord.Source.allCases.firstIndex(of: value) ?? 0) + 1)
    }
}
