import Foundation
import SWCredAssociation
import SWCredCore
import Testing

@Suite("Entitlement entries (section 2)")
struct EntitlementEntryTests {
    @Test("AD-2.2: the spec's examples parse to service, host, port, wildcard and modes")
    func specExamples() throws {
        let wildcard = EntitlementEntry.parse("applinks:*.Example.com")
        #expect(wildcard.valid)
        #expect(wildcard.domain == AssociatedDomain(service: .applinks, host: "example.com", wildcard: true))
        #expect(wildcard.domain?.aasaHost == "example.com")
        let port = EntitlementEntry.parse("webcredentials:example.com:8443")
        #expect(port.domain?.port == 8443)
        #expect(port.domain?.aasaHost == "example.com:8443")
        let modes = EntitlementEntry.parse("applinks:dev.example.com?mode=developer+managed")
        #expect(modes.domain?.modes == [.developer, .managed])
        #expect(modes.domain?.host == "dev.example.com")
    }

    @Test("AD-2.2 step 2: services compare case-insensitively; an unknown service is ignored with a warning")
    func services() {
        #expect(EntitlementEntry.parse("AppLinks:example.com").domain?.service == .applinks)
        let unknown = EntitlementEntry.parse("webcredential:example.com")
        #expect(!unknown.valid)
        #expect(unknown.diagnostics.contains { $0.severity == .warning && $0.message.contains("unknown service") })
        #expect(EntitlementEntry.parse("authsrv:login.example.com").valid)
        #expect(EntitlementEntry.parse("activitycontinuation:example.com").valid)
    }

    @Test("AD-2.2 step 5: mode tokens in any order and case; Decision: unknown tokens and items are warnings")
    func modes() {
        #expect(
            EntitlementEntry.parse("applinks:a.example?mode=Managed+DEVELOPER").domain?.modes == [.developer, .managed])
        let unknown = EntitlementEntry.parse("applinks:a.example?mode=developer+turbo&x=1")
        #expect(unknown.valid)
        #expect(unknown.domain?.modes == [.developer])
        #expect(unknown.diagnostics.filter { $0.severity == .warning }.count == 2)
        let onlyUnknown = EntitlementEntry.parse("applinks:a.example?mode=turbo")
        #expect(onlyUnknown.domain?.modes == [])
    }

    @Test(
        "AD-2.3: invalid entries are reported as errors",
        arguments: [
            "example.com", "applinks:", "applinks:example.com/", "applinks:example.com/path", "applinks:example.com#x",
            "applinks:user@example.com", "applinks:example.com:0", "applinks:example.com:65536",
            "applinks:example.com:http",
            "applinks:café.example", "applinks:exa_mple.com", "applinks:com", "applinks:.example.com",
            "applinks:example..com", "applinks:example.com.", "applinks:*.com", "applinks:a.*.example.com",
            "applinks:localhost", "applinks:127.0.0.1", "applinks:[::1]", "appclips:*.example.com",
        ])
    func invalid(raw: String) {
        let entry = EntitlementEntry.parse(raw)
        #expect(!entry.valid)
        #expect(entry.diagnostics.contains { $0.severity == .error })
    }

    @Test("AD-2.3: localhost and IP literals are valid only in developer entries; the rest after *. must be valid")
    func developerOnlyHosts() {
        #expect(EntitlementEntry.parse("applinks:localhost?mode=developer").valid)
        #expect(EntitlementEntry.parse("webcredentials:127.0.0.1:8443?mode=developer").valid)
        #expect(EntitlementEntry.parse("applinks:[::1]:8443?mode=developer").valid)
        #expect(EntitlementEntry.parse("applinks:*.example.com").valid)
        #expect(EntitlementEntry.parse("applinks:xn--caf-dma.example").valid)
    }

    @Test("AD-2.3: a non-ASCII host gets the Punycode form as a suggestion")
    func punycodeSuggestion() {
        let entry = EntitlementEntry.parse("applinks:café.example")
        #expect(entry.diagnostics.contains { $0.message.contains("xn--caf-dma.example") })
    }

    @Test("AD-2.4: an applinks entry with a port stays valid with a warning")
    func applinksPort() {
        let entry = EntitlementEntry.parse("applinks:example.com:8080")
        #expect(entry.valid)
        #expect(entry.diagnostics.contains { $0.severity == .warning && $0.message.contains("port") })
    }

    @Test("AD-2.5: duplicates collapse; Decision: an active mode entry shadows the plain entry")
    func collapse() {
        let entitlements = Entitlements(
            applicationIdentifier: TestSupport.appID,
            associatedDomains: [
                "applinks:example.com", "applinks:EXAMPLE.com", "webcredentials:example.com",
                "webcredentials:example.com?mode=developer",
            ], developmentSigned: true)
        let off = EntitlementResolver.resolve(entitlements, device: DeviceSettings())
        #expect(off.map(\.active) == [true, false, true, false])
        let on = EntitlementResolver.resolve(entitlements, device: DeviceSettings(developerMode: true))
        #expect(on.map(\.active) == [true, false, false, true])
    }

    @Test("AD-2.6: developer entries need developer mode and a development-signed app; managed needs MDM")
    func modeGating() {
        func active(_ raw: String, signed: Bool, _ device: DeviceSettings) -> (Bool, [String]) {
            let e = Entitlements(
                applicationIdentifier: TestSupport.appID, associatedDomains: [raw], developmentSigned: signed)
            let r = EntitlementResolver.resolve(e, device: device)[0]
            return (r.active, r.diagnostics.map(\.message))
        }
        let dev = "applinks:dev.example.com?mode=developer"
        #expect(active(dev, signed: true, DeviceSettings()).0 == false)
        #expect(active(dev, signed: true, DeviceSettings()).1.contains { $0.contains("developer mode is disabled") })
        #expect(
            active(dev, signed: false, DeviceSettings(developerMode: true)).1.contains {
                $0.contains("bundle is not developer-signed")
            })
        #expect(active(dev, signed: true, DeviceSettings(developerMode: true)).0)
        let managed = "applinks:m.example.com?mode=managed"
        #expect(!active(managed, signed: false, DeviceSettings()).0)
        #expect(active(managed, signed: false, DeviceSettings(managedDevice: true)).0)
        let both = "applinks:b.example.com?mode=developer+managed"
        #expect(!active(both, signed: true, DeviceSettings(developerMode: true)).0)
        #expect(active(both, signed: true, DeviceSettings(developerMode: true, managedDevice: true)).0)
        // AD-2.6: mode entries carry the App Store reminder.
        #expect(EntitlementEntry.parse(dev).diagnostics.contains { $0.message.contains("App Store") })
    }

    @Test("AD-2.7: more than 30 entries is a warning, not a limit")
    func manyEntries() {
        let raw = (0..<31).map { "applinks:d\($0).example.com" }
        let entitlements = Entitlements(applicationIdentifier: TestSupport.appID, associatedDomains: raw)
        #expect(entitlements.entries.count == 31)
        #expect(entitlements.fileDiagnostics.contains { $0.severity == .warning })
        let thirty = Entitlements(applicationIdentifier: TestSupport.appID, associatedDomains: Array(raw.prefix(30)))
        #expect(thirty.fileDiagnostics.isEmpty)
    }
}

@Suite("Entitlement hosts are parsed once (issue 20)")
struct EntitlementHostNameTests {
    @Test("A valid entry keeps its host as an entitlement HostName, outside its identity and its JSON")
    func keepsTheParsedName() throws {
        let entry = EntitlementEntry.parse("webcredentials:*.Example.COM:8443")
        let domain = try #require(entry.domain)
        #expect(domain.hostName?.text == "example.com")
        #expect(domain.hostName?.syntax == .entitlement)
        #expect(domain == AssociatedDomain(service: .webcredentials, host: "example.com", port: 8443, wildcard: true))
        let json = String(decoding: try JSONEncoder().encode(domain), as: UTF8.self)
        #expect(!json.contains("hostName"))
        let request = AssociationFileRequest(host: domain.host, port: domain.port, hostName: domain.hostName)
        #expect(request == AssociationFileRequest(host: "example.com", port: 8443))
        #expect(Set([request, AssociationFileRequest(host: "example.com", port: 8443)]).count == 1)
    }

    @Test("Invalid entries and IP literals carry no parsed name")
    func noNameWhenNotAHostName() throws {
        #expect(EntitlementEntry.parse("applinks:example..com").domain?.hostName == nil)
        #expect(EntitlementEntry.parse("applinks:[::1]?mode=developer").domain?.hostName == nil)
    }
}

@Suite("Entitlements files")
struct EntitlementsFileTests {
    static var dictionary: [String: Any] {
        [
            "application-identifier": "ABCDE12345.com.example.app",
            "get-task-allow": true,
            "com.apple.developer.associated-domains": ["applinks:example.com", "webcredentials:example.com"],
        ]
    }

    @Test("XML plist, binary plist and JSON entitlements read the same")
    func formats() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.dictionary, format: .xml, options: 0)
        let binary = try PropertyListSerialization.data(fromPropertyList: Self.dictionary, format: .binary, options: 0)
        let json = Data(
            #"{"application-identifier":"ABCDE12345.com.example.app","get-task-allow":true,"com.apple.developer.associated-domains":["applinks:example.com","webcredentials:example.com"]}"#
                .utf8)
        for data in [xml, binary, json] {
            let parsed = try Entitlements.parse([UInt8](data))
            #expect(parsed.applicationIdentifier == "ABCDE12345.com.example.app")
            #expect(parsed.developmentSigned)
            #expect(parsed.entries.map(\.raw) == ["applinks:example.com", "webcredentials:example.com"])
        }
    }

    @Test("AD-2.1: a non-array value or a non-string element makes the whole entitlement absent, with an error")
    func arrayOfStrings() throws {
        var withNumber = Self.dictionary
        withNumber["com.apple.developer.associated-domains"] = ["applinks:example.com", 7]
        let xml = try PropertyListSerialization.data(fromPropertyList: withNumber, format: .xml, options: 0)
        let parsed = try Entitlements.parse([UInt8](xml))
        #expect(parsed.entries.isEmpty)
        #expect(parsed.associatedDomainsProblem != nil)
        #expect(parsed.fileDiagnostics.contains { $0.severity == .error })
        let string = try Entitlements.parse(
            Array(#"{"com.apple.developer.associated-domains":"applinks:example.com"}"#.utf8))
        #expect(string.entries.isEmpty)
        #expect(string.associatedDomainsProblem != nil)
    }

    /// Every kind of property-list value, written by Foundation's `PropertyListSerialization`
    /// and read by swcred's `PropertyListDecoder` path, names the same type in the AD-2.1
    /// problem (the reader moved from Foundation to `FoundationEssentials`, issue 22).
    @Test("AD-2.1: each plist value type, XML and binary, is told apart as before")
    func plistValueTypes() throws {
        let values: [(String, Any)] = [
            ("a number", 7), ("a number", 2.5), ("a number", -3), ("a Boolean", true), ("a Boolean", false),
            ("data", Data([1, 2])), ("a date", Date(timeIntervalSince1970: 1_700_000_000)),
            ("an array", ["x"]), ("a dictionary", ["k": "v"]),
        ]
        for (expected, value) in values {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            var dictionary = Self.dictionary
            dictionary["com.apple.developer.associated-domains"] = ["applinks:example.com", value]
            let bytes = try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
            let parsed = try Entitlements.parse([UInt8](bytes))
            #expect(parsed.entries.isEmpty)
            #expect(
                parsed.associatedDomainsProblem
                    == "com.apple.developer.associated-domains[1] is \(expected), not a string; the whole entitlement is ignored")
            #expect(parsed.applicationIdentifier == "ABCDE12345.com.example.app")
            #expect(parsed.developmentSigned)

            dictionary["com.apple.developer.associated-domains"] = value
            let whole = try Entitlements.parse(
                [UInt8](try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)))
            if expected != "an array" {
                #expect(
                    whole.associatedDomainsProblem
                        == "com.apple.developer.associated-domains is \(expected), not an array of strings; the whole entitlement is ignored")
            }
        }
        }
    }

    @Test("Plist Booleans: only <true/> sets get-task-allow and web-browser; strings and numbers do not")
    func plistBooleans() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            for (value, expected) in [(true as Any, true), (false as Any, false), ("true" as Any, false), (1 as Any, false)] {
                let dictionary: [String: Any] = ["get-task-allow": value, "com.apple.developer.web-browser": value]
                let bytes = try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
                let parsed = try Entitlements.parse([UInt8](bytes))
                #expect(parsed.developmentSigned == expected)
                #expect(parsed.webBrowser == expected)
            }
        }
    }

    @Test("Malformed, oversized and too deep files fail with malformedEntitlements (exit 65)")
    func malformed() throws {
        let code = SWCredError(.malformedEntitlements, "")
        #expect(throws: code) { try Entitlements.parse(Array("<plist><dict><key>a</key>".utf8)) }
        #expect(throws: code) { try Entitlements.parse(Array("[1,2]".utf8)) }
        #expect(throws: code) { try Entitlements.parse(Array("{\"a\":".utf8)) }
        var small = Entitlements.Limits()
        small.maximumBytes = 10
        #expect(throws: code) {
            try Entitlements.parse(Array("{\"application-identifier\":\"x\"}".utf8), limits: small)
        }
        let deepXML =
            "<plist>" + String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40) + "</plist>"
        #expect(throws: code) { try Entitlements.parse(Array(deepXML.utf8)) }
        let deepJSON = "{\"a\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(throws: code) { try Entitlements.parse(Array(deepJSON.utf8)) }
        var nested: Any = ["x"]
        for _ in 0..<40 { nested = [nested] }
        let deepBinary = try PropertyListSerialization.data(
            fromPropertyList: ["a": nested], format: .binary, options: 0)
        #expect(throws: code) { try Entitlements.parse([UInt8](deepBinary)) }
        #expect(throws: code) { try Entitlements.parse(Array("bplist00garbage-garbage-garbage-garbage-garbage".utf8)) }
    }

    @Test("A missing file is fileNotFound (exit 66)")
    func missing() {
        #expect(throws: SWCredError(.fileNotFound, "")) { try Entitlements.load(path: "/nonexistent/x.entitlements") }
    }

    @Test("Web-browser apps are recognised (AD-6.6)")
    func webBrowser() throws {
        let parsed = try Entitlements.parse(Array(#"{"com.apple.developer.web-browser":true}"#.utf8))
        #expect(parsed.webBrowser)
    }

    @Test("AppIdentity takes --app-id over application-identifier and needs one of them")
    func identity() throws {
        let entitlements = try Entitlements.parse(Array(#"{"application-identifier":"ABCDE12345.com.a"}"#.utf8))
        #expect(try AppIdentity(entitlements: entitlements).appID == "ABCDE12345.com.a")
        #expect(try AppIdentity(appID: "ZZZZZ12345.com.b", entitlements: entitlements).appID == "ZZZZZ12345.com.b")
        #expect(throws: SWCredError(.usage, "")) {
            try AppIdentity(entitlements: Entitlements(applicationIdentifier: nil, associatedDomains: []))
        }
    }
}
