import SWCredCore
import Testing

/// ``HostName``: the one host canonicaliser (issue 20), each syntax's accepted and refused sets.
@Suite("HostName: canonical host names")
struct HostNameTests {
    typealias Syntax = HostName.Syntax

    /// The error `text` gives under `syntax`, or `nil` when it parses.
    static func failure(_ text: String, _ syntax: Syntax) -> HostName.ParseError? {
        do throws(HostName.ParseError) {
            _ = try HostName(text, syntax: syntax)
            return nil
        } catch {
            return error
        }
    }

    static func label(_ length: Int) -> String { String(repeating: "a", count: length) }

    /// A name of exactly `length` bytes made of 63-byte labels (and a shorter last one).
    static func name(bytes length: Int) -> String {
        var labels: [String] = []
        var left = length
        while left > 0 {
            let take = min(63, left)
            labels.append(label(take))
            left -= take + 1
        }
        var text = labels.joined(separator: ".")
        // Pad the last label so the total is exact when the dots did not land on it.
        while text.utf8.count < length { text += "b" }
        return text
    }

    @Test("Uppercase is lowercased once, as ASCII; the text is otherwise kept", arguments: Syntax.allCases)
    func lowercases(syntax: Syntax) throws {
        #expect(try HostName("WWW.Example.COM", syntax: syntax).text == "www.example.com")
        #expect(try HostName("xn--BCHER-kva.example", syntax: syntax).text == "xn--bcher-kva.example")
        #expect(try HostName("a-1.b2", syntax: syntax).description == "a-1.b2")
    }

    @Test("Non-ASCII is refused, never mapped (the Kelvin sign does not become 'k')", arguments: Syntax.allCases)
    func nonASCII(syntax: Syntax) {
        #expect(Self.failure("bücher.example", syntax) == .notASCII)
        #expect(Self.failure("\u{212A}.example", syntax) == .notASCII)
        #expect(Self.failure("EXAMPLE.CO\u{0130}", syntax) == .notASCII)
    }

    @Test("The empty name is refused", arguments: Syntax.allCases)
    func empty(syntax: Syntax) {
        #expect(Self.failure("", syntax) == .empty)
    }

    @Test("One trailing dot is removed where the syntax removes it, refused or kept elsewhere")
    func trailingDot() throws {
        for syntax in [Syntax.dnsName, .urlHost, .linkURLHost] {
            #expect(try HostName("Example.com.", syntax: syntax).text == "example.com")
            #expect(Self.failure(".", syntax) == .empty)
        }
        #expect(Self.failure("example.com.", .entitlement) == .trailingDot)
        #expect(try HostName("example.com.", syntax: .urlAuthority).text == "example.com.")
        // Only one dot: a second is an empty label where labels are checked.
        #expect(Self.failure("example.com..", .dnsName) == .emptyLabel)
        #expect(Self.failure("example.com..", .urlHost) == .emptyLabel)
        #expect(try HostName("example.com..", syntax: .linkURLHost).text == "example.com.")
    }

    @Test("Empty labels: a leading dot and two dots in a row, where labels are checked")
    func emptyLabels() throws {
        for syntax in [Syntax.dnsName, .urlHost, .entitlement] {
            #expect(Self.failure(".example.com", syntax) == .leadingDot)
            #expect(Self.failure("a..b", syntax) == .emptyLabel)
        }
        for syntax in [Syntax.linkURLHost, .urlAuthority] {
            #expect(try HostName(".a", syntax: syntax).text == ".a")
            #expect(try HostName("a..b", syntax: syntax).text == "a..b")
        }
    }

    @Test("253 bytes is the longest name, except for universal-link URL hosts")
    func length() throws {
        let longest = Self.name(bytes: 253)
        #expect(longest.utf8.count == 253)
        let tooLong = Self.name(bytes: 254)
        for syntax in [Syntax.dnsName, .urlHost, .entitlement, .urlAuthority] {
            #expect(try HostName(longest, syntax: syntax).text == longest)
            #expect(Self.failure(tooLong, syntax) == .tooLong)
        }
        // The removed trailing dot does not count.
        #expect(try HostName(longest + ".", syntax: .dnsName).text == longest)
        #expect(try HostName(tooLong, syntax: .linkURLHost).text == tooLong)
    }

    @Test("63-byte labels: the limit of entitlement hosts and RP IDs")
    func labelLength() throws {
        let longest = Self.label(63) + ".example"
        let tooLong = Self.label(64) + ".example"
        #expect(try HostName(longest, syntax: .entitlement).text == longest)
        #expect(Self.failure(tooLong, .entitlement) == .labelTooLong)
        for syntax in [Syntax.dnsName, .urlHost, .linkURLHost, .urlAuthority] {
            #expect(try HostName(tooLong, syntax: syntax).text == tooLong)
        }
    }

    @Test("Characters: `_` in URL hosts only; URL sub-delimiters in URL authorities only")
    func characters() throws {
        #expect(Self.failure("a_b.example", .dnsName) == .character(UInt8(ascii: "_")))
        #expect(Self.failure("a_b.example", .entitlement) == .character(UInt8(ascii: "_")))
        for syntax in [Syntax.urlHost, .linkURLHost, .urlAuthority] {
            #expect(try HostName("A_b.example", syntax: syntax).text == "a_b.example")
        }
        for byte in "~!$&'()+,;=%[]:".utf8 {
            let text = "a" + String(decoding: [byte], as: UTF8.self) + "b"
            #expect(try HostName(text, syntax: .urlAuthority).text == text)
            for syntax in [Syntax.dnsName, .urlHost, .linkURLHost, .entitlement] {
                #expect(Self.failure(text, syntax) == .character(byte), "\(text) \(syntax)")
            }
        }
        for byte in "*/?#@ \"<>\\^`{|}\u{7F}\u{01}".utf8 {
            let text = "a" + String(decoding: [byte], as: UTF8.self) + "b"
            for syntax in Syntax.allCases {
                #expect(Self.failure(text, syntax) == .character(byte), "\(text) \(syntax)")
            }
        }
    }

    @Test("Problems are reported in the declared order")
    func order() {
        #expect(Self.failure("Ü..", .entitlement) == .notASCII)
        #expect(Self.failure(Self.name(bytes: 300) + "!.", .entitlement) == .tooLong)
        #expect(Self.failure(".a!.", .entitlement) == .trailingDot)
        #expect(Self.failure(".a!", .entitlement) == .leadingDot)
        #expect(Self.failure("a..b!", .entitlement) == .character(UInt8(ascii: "!")))
        #expect(Self.failure(Self.label(64) + "..b", .entitlement) == .emptyLabel)
    }

    @Test("The byte entry point agrees with the string one")
    func bytes() throws {
        for text in ["Example.COM.", "a_b", "", "a..b", "bücher", Self.label(64) + ".x"] {
            for syntax in Syntax.allCases {
                let fromBytes = try? HostName(utf8: Array(text.utf8), syntax: syntax)
                let fromText = try? HostName(text, syntax: syntax)
                #expect(fromBytes == fromText, "\(text) \(syntax)")
            }
        }
    }

    @Test("conforms(to:) checks a parsed name against another syntax without rewriting it")
    func conforms() throws {
        let entitlement = try HostName("Example.com", syntax: .entitlement)
        #expect(entitlement.conforms(to: .dnsName))
        #expect(entitlement.conforms(to: .urlHost))
        let underscore = try HostName("a_b.example", syntax: .urlHost)
        #expect(!underscore.conforms(to: .dnsName))
        let doubled = try HostName("a..b", syntax: .linkURLHost)
        #expect(!doubled.conforms(to: .urlHost))
    }

    @Test("Lookup keys and lowercasing: ASCII only, nothing checked")
    func lookupKeys() {
        #expect(HostName.lowercasedASCII("ÄBc.Example") == "Äbc.example")
        #expect(HostName.lookupKey("Example.COM.") == "example.com")
        #expect(HostName.lookupKey("*.Example.com..") == "*.example.com.")
        #expect(HostName.lookupKey("") == "")
    }

    @Test("Names order and compare by their canonical text")
    func ordering() throws {
        let a = try HostName("A.example", syntax: .dnsName)
        let b = try HostName("b.example.", syntax: .dnsName)
        let sameAsA = try HostName("a.EXAMPLE.", syntax: .urlHost)
        let sameAsB = try HostName("B.example", syntax: .entitlement)
        #expect(a < b)
        #expect(!(b < a))
        #expect(a == sameAsA)
        #expect(Set([a, b, sameAsA, sameAsB]).count == 2)
        // The syntax is recorded, and is not part of the identity.
        #expect(a.syntax == .dnsName)
        #expect(sameAsA.syntax == .urlHost)
        #expect(sameAsB.syntax == .entitlement)
    }
}
