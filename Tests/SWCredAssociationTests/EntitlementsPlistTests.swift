import Foundation
import SWCredAssociation
import SWCredCore
import Testing

/// Entitlements plists go through SWCredCore's own `PropertyListReader` (issue 28): no decoder the
/// project does not own sees the file's bytes, and a malformed file is `malformedEntitlements`
/// (exit 65) with a message that says what is wrong without quoting the file.
@Suite("Entitlements plists through swcred's own reader (issue 28)")
struct EntitlementsPlistTests {
    static let crasher = Data(
        base64Encoded:
            "YnBsaXN0MDDSAQIDBF8QFmFwcGxpY2F0aW9uLWlkZW50aWZpZSZvEF9ybWMuYXBwbGUuZGV2ZWxvcGVyLmFzc29jaWF0ZWQt"
            + "ZG+TnpaRjKDv3UtMTU5PMTM1Nzk7Y29tLmV4YW1wbGUubmV3c6EFXxAXYXBwbGlua2w6c2VnYWN5LmV4YW1wbGUIDSZPbW8A"
            + "AAAAAAABAQAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAiQ==")

    static func error(_ bytes: [UInt8]) -> SWCredError? {
        do {
            _ = try Entitlements.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("issue 28: the 175-byte binary plist that trapped FoundationEssentials is malformedEntitlements")
    func crasher() throws {
        let bytes = [UInt8](try #require(Self.crasher))
        #expect(bytes.count == 175)
        let error = try #require(Self.error(bytes))
        #expect(error.code == .malformedEntitlements)
        #expect(error.message.hasPrefix("the entitlements file is not a valid binary property list: "))
        #expect(error.message.contains("UTF-16 string runs past"))
        // Nothing of the file's contents is quoted.
        #expect(!error.message.contains("KLMNO") && !error.message.contains("example"))
    }

    @Test("a repeated key, a UTF-16 XML file, a binary cycle and an unknown element are malformedEntitlements")
    func refusals() throws {
        let repeated = """
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>ABCDE12345.com.a</string>
            <key>application-identifier</key><string>ZZZZZ12345.com.b</string>
            </dict></plist>
            """
        let duplicate = try #require(Self.error(Array(repeated.utf8)))
        #expect(duplicate.code == .malformedEntitlements)
        #expect(duplicate.message.contains("duplicate key \"application-identifier\""))

        let utf16: [UInt8] = [0xFF, 0xFE] + "<plist/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(Self.error(utf16)?.message.contains("only UTF-8") == true)

        // Object 0 is a dictionary whose one value is object 0.
        var cycle = Array("bplist00".utf8) + [0xD1, 0x01, 0x00, 0x51, 0x6B, 0x08, 0x0B]
        cycle += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8)
        cycle += [0, 0, 0, 0, 0, 0, 0, 13]
        #expect(Self.error(cycle)?.message.contains("contains itself") == true)

        let unknown = "<plist><dict><key>a</key><set/></dict></plist>"
        #expect(Self.error(Array(unknown.utf8))?.code == .malformedEntitlements)
    }

    @Test("an XML entitlements file with entities, comments and CDATA reads like Apple's writer's output")
    func xmlForms() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <!-- the app -->
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.<![CDATA[app]]></string>
                <key>com.apple.developer.associated-domains</key>
                <array>
                    <string>applinks:example.com?mode=developer&#43;managed</string>
                </array>
                <key>get-task-allow</key>
                <true></true>
            </dict>
            </plist>
            """
        let parsed = try Entitlements.parse(Array(text.utf8))
        #expect(parsed.applicationIdentifier == "ABCDE12345.com.example.app")
        #expect(parsed.entries.map(\.raw) == ["applinks:example.com?mode=developer+managed"])
        #expect(parsed.developmentSigned)
    }
}
