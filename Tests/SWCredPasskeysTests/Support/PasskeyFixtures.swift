import Foundation
import SWCredCore
import SWCredKit
import SWCredStore
@testable import SWCredPasskeys

/// Options documents, callers and contents for the passkey tests.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_760_000_000)
    static let appID = "ABCDE12345.com.example.shop"
    static let challenge: [UInt8] = (0..<32).map { UInt8($0 &* 7 &+ 3) }
    static let userID: [UInt8] = Array("user-0001".utf8)

    static func creationJSON(
        rpID: String? = "example.com", challenge: [UInt8] = challenge, algs: [Int] = [-7, -257],
        exclude: [[UInt8]] = [], userID: [UInt8] = userID, userName: String = "alice@example.com",
        extra: String = ""
    ) -> [UInt8] {
        let rp = rpID.map { #"{"id":"\#($0)","name":"Example"}"# } ?? #"{"name":"Example"}"#
        let params = algs.map { #"{"type":"public-key","alg":\#($0)}"# }.joined(separator: ",")
        let excluded = exclude.map { #"{"type":"public-key","id":"\#(Base64URL.encode($0))"}"# }.joined(separator: ",")
        return Array(
            """
            {"rp":\(rp),"user":{"id":"\(Base64URL.encode(userID))","name":"\(userName)","displayName":"Alice"},\
            "challenge":"\(Base64URL.encode(challenge))","pubKeyCredParams":[\(params)],"timeout":60000,\
            "excludeCredentials":[\(excluded)],"authenticatorSelection":{"residentKey":"required",\
            "userVerification":"preferred"},"attestation":"none"\(extra)}
            """.utf8)
    }

    static func requestJSON(rpID: String? = "example.com", challenge: [UInt8] = challenge, allow: [[UInt8]] = []) -> [UInt8] {
        let rp = rpID.map { #","rpId":"\#($0)""# } ?? ""
        let allowed = allow.map { #"{"type":"public-key","id":"\#(Base64URL.encode($0))"}"# }.joined(separator: ",")
        return Array(
            #"{"challenge":"\#(Base64URL.encode(challenge))"\#(rp),"allowCredentials":[\#(allowed)],"userVerification":"preferred"}"#
                .utf8)
    }

    static func browser(_ origin: String = "https://example.com") throws -> PasskeyCaller {
        .browser(try RelyingPartyID.Origin(parsing: origin))
    }

    static func app(_ domains: [String] = ["webcredentials:example.com"], developmentSigned: Bool = false) -> PasskeyCaller {
        .app(SWCApp(appID: appID, associatedDomains: domains, developmentSigned: developmentSigned), device: SWCDeviceSettings())
    }

    /// Contents with an approved `webcredentials` record for each host.
    static func contents(approved hosts: [String] = ["example.com"], approval: AssociationRecord.Approval = .approved)
        throws -> StoreContents
    {
        var contents = StoreContents(creationDate: now)
        for host in hosts {
            try contents.upsertAssociationRecord(
                AssociationRecord(service: .webcredentials, appID: appID, host: host, siteApproval: approval, source: .downloaded))
        }
        return contents
    }

    static let allow = PasskeyUser(cancels: false)
    static let cancel = PasskeyUser(cancels: true)
}
