import SWCredCore
import Testing

/// ``Port``: 1–65535 in one place, and the one parser of port digits (issue 20).
@Suite("Port: the range and the digits parser")
struct PortTests {
    @Test("1 and 65535 are ports; 0, 65536 and negatives are not")
    func bounds() {
        #expect(Port(1)?.value == 1)
        #expect(Port(65535)?.value == 65535)
        #expect(Port(0) == nil)
        #expect(Port(65536) == nil)
        #expect(Port(-1) == nil)
        #expect(Port(Int.max) == nil)
        #expect(Port.isValid(443))
        #expect(!Port.isValid(0))
        #expect(Port.https.intValue == 443)
    }

    @Test(
        "Digits only, at most five of them",
        arguments: [
            ("1", 1), ("443", 443), ("08443", 8443), ("65535", 65535),
        ])
    func parses(text: String, value: Int) {
        #expect(Port(parsing: Substring(text))?.intValue == value)
        #expect(Port.number(parsing: Substring(text)) == value)
    }

    @Test(
        "Anything else is refused",
        arguments: [
            "", "0", "00000", "65536", "99999", "000001", "+443", "-1", " 443", "443 ", "4 3", "0x1F", "١٢", "443a",
        ])
    func refused(text: String) {
        #expect(Port(parsing: Substring(text)) == nil)
    }

    @Test("number(parsing:) accepts 0, for the call sites that read ':0' themselves")
    func zero() {
        #expect(Port.number(parsing: "0") == 0)
        #expect(Port.number(parsing: "00000") == 0)
        #expect(Port.number(parsing: "65536") == nil)
        #expect(Port.number(parsing: "") == nil)
        #expect(Port.number(utf8: Array("8080".utf8)) == 8080)
    }

    @Test("Ports order by number")
    func ordering() throws {
        let low = try #require(Port(80))
        let high = try #require(Port(8080))
        #expect(low < high)
        #expect(high.description == "8080")
    }

    @Test("The authority names a port other than 443, and no port for 443 or none")
    func authority() {
        #expect(Port.authority(host: "example.com", port: nil) == "example.com")
        #expect(Port.authority(host: "example.com", port: 443) == "example.com")
        #expect(Port.authority(host: "example.com", port: 8443) == "example.com:8443")
        #expect(Port.authority(host: "example.com", port: 80) == "example.com:80")
    }
}
