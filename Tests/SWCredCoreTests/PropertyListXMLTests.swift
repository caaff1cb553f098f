import SWCredCore
import Testing

@Suite("PropertyListReader: XML plists (plist 1.0)")
struct PropertyListXMLTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    static func read(_ text: String, limits: PropertyListReader.Limits = .init()) throws(PropertyListReader.Failure)
        -> PropertyListValue
    {
        try PropertyListReader(limits: limits).read(Array(text.utf8))
    }

    /// `<plist version="1.0">` around `body`, after the usual header.
    static func plist(_ body: String) -> String { header + "<plist version=\"1.0\">\n" + body + "\n</plist>\n" }

    static func failure(_ bytes: [UInt8], limits: PropertyListReader.Limits = .init()) -> PropertyListReader.Failure? {
        do {
            _ = try PropertyListReader(limits: limits).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ text: String, limits: PropertyListReader.Limits = .init()) -> PropertyListReader.Failure? {
        failure(Array(text.utf8), limits: limits)
    }

    @Test("every DTD element reads, keys in document order")
    func everyElement() throws {
        let value = try Self.read(
            Self.plist(
                """
                <dict>
                    <key>s</key><string>text</string>
                    <key>t</key><true/>
                    <key>f</key><false/>
                    <key>i</key><integer>-42</integer>
                    <key>u</key><integer>18446744073709551615</integer>
                    <key>x</key><integer>0x1F</integer>
                    <key>r</key><real>2.5e-3</real>
                    <key>d</key><date>2001-01-02T00:00:01Z</date>
                    <key>b</key><data>
                        AAH/
                    </data>
                    <key>a</key><array><string/><dict/><array/></array>
                </dict>
                """))
        let expected = PropertyListValue.dictionary(
            PropertyListDictionary([
                .init(key: "s", value: .string("text")), .init(key: "t", value: .bool(true)),
                .init(key: "f", value: .bool(false)), .init(key: "i", value: .integer(-42)),
                .init(key: "u", value: .unsignedInteger(.max)), .init(key: "x", value: .integer(31)),
                .init(key: "r", value: .real(0.0025)), .init(key: "d", value: .date(86_401)),
                .init(key: "b", value: .data([0, 1, 0xFF])),
                .init(key: "a", value: .array([.string(""), .dictionary(PropertyListDictionary()), .array([])])),
            ]))
        #expect(value == expected)
        #expect(PropertyListReader.format(of: Array(Self.plist("<true/>").utf8)) == .xml)
    }

    @Test("entities, character references, CDATA and comments in text; CR LF becomes LF")
    func text() throws {
        let body =
            "<string>&lt;a&gt; &amp; &quot;&apos; &#65;&#x1F600;&#xe9; "
            + "<![CDATA[<b>&amp;]]> x<!-- c -->y\r\nz\rw</string>"
        #expect(try Self.read(Self.plist(body)) == .string("<a> & \"' A😀é <b>&amp; xy\nz\nw"))
        #expect(try Self.read(Self.plist("<string>&#13;</string>")) == .string("\r"))
        #expect(try Self.read(Self.plist("<string>é€😀</string>")) == .string("é€😀"))
        #expect(try Self.read(Self.plist("<string>  spaced  </string>")) == .string("  spaced  "))
    }

    @Test("the prolog: no header, a UTF-8 byte-order mark, comments and white space around, <true></true>")
    func prolog() throws {
        #expect(try Self.read("<plist><true/></plist>") == .bool(true))
        #expect(
            try PropertyListReader().read([0xEF, 0xBB, 0xBF] + Array("<plist><false/></plist>".utf8)) == .bool(false))
        // The declaration only at the very start.
        #expect(Self.failure("<!-- a -->\n<?xml version='1.0'?>\n<plist><true/></plist>")?.kind == .unsupported)
        #expect(
            try Self.read(
                "<?xml version='1.0' encoding='utf-8'?><!--x--><plist>\n<!--y--><true></true><!--z--></plist>"
                    + "\n<!--w-->\n"
            ) == .bool(true))
        #expect(try Self.read("<plist ><array ><integer> 7 </integer></array ></plist >") == .array([.integer(7)]))
        #expect(try Self.read("<!DOCTYPE plist><plist><true/></plist>") == .bool(true))
        #expect(try Self.read("<!DOCTYPE plist SYSTEM 'file.dtd' ><plist><true/></plist>") == .bool(true))
        #expect(try Self.read("<plist><string>]]&gt; ]> ]</string></plist>") == .string("]]> ]> ]"))
    }

    @Test(
        "malformed XML is a named syntax error",
        arguments: [
            "", "   ", "plist", "<plist>", "<plist></plist>", "<plist/>", "<plist><true/><true/></plist>",
            "<plist><dict><key>a</key></dict></plist>", "<plist><dict><string>a</string></dict></plist>",
            "<plist><dict><key>a</key><true/>", "<plist><array><true/></dict></plist>",
            "<plist><string>a<b/></string></plist>", "<plist><string>unterminated</plist>",
            "<plist><true/></plist>trailing", "<plist><true/></plist><plist/>", "<plist>text<true/></plist>",
            "<plist><key>k</key></plist>", "<plist><plist><true/></plist></plist>", "<dict></dict>",
            "<plist><true>x</true></plist>", "<plist><integer></integer></plist>",
            "<plist><integer>1.5</integer></plist>",
            "<plist><integer>12a</integer></plist>", "<plist><integer>-</integer></plist>",
            "<plist><real>1.2.3</real></plist>", "<plist><real>e5</real></plist>", "<plist><real>0x10</real></plist>",
            "<plist><date>2024-02-30T00:00:00Z</date></plist>", "<plist><date>2024-01-01T00:00:00</date></plist>",
            "<plist><date>2024-01-01 00:00:00Z</date></plist>", "<plist><date>2023-02-29T00:00:00Z</date></plist>",
            "<plist><data>AAH</data></plist>", "<plist><data>A=AA</data></plist>",
            "<plist><data>AA==AA==</data></plist>",
            "<plist><data>AA*=</data></plist>", "<plist><string>&lt</string></plist>",
            "<plist><string>&#;</string></plist>",
            "<plist><string a='1'>x</string></plist>", "<plist><true/ ></plist>", "<plist x=1><true/></plist>",
            "<plist x='1' x='2'><true/></plist>", "<plist><!-- unterminated <true/></plist>",
            "<plist><string><![CDATA[x</string></plist>", "<!DOCTYPE plist <plist><true/></plist>",
            "<!DOCTYPE a><!DOCTYPE b><plist><true/></plist>", "<plist><![CDATA[x]]></plist>",
            // Found by comparing with Python's plistlib (expat) over the fuzz corpus.
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\"><plist><true/></plist>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST é//EN\" \"x\"><plist><true/></plist>",
            "<!DOCTYPE plist SYSTEM><plist><true/></plist>", "<!DOCTYPEplist><plist><true/></plist>",
            "<!DOCTYPE plist junk><plist><true/></plist>", "<!DOCTYPE plist SYSTEM 'x' junk><plist><true/></plist>",
            "<plist><string>a]]>b</string></plist>", "<plist><data>AA@A</data></plist>",
        ])
    func syntax(text: String) {
        let failure = Self.failure(text)
        #expect(failure?.kind == .syntax, "\(failure.map(String.init(describing:)) ?? "read")")
    }

    @Test(
        "what the reader does not read is refused by name",
        arguments: [
            "<plist><set/></plist>", "<plist><foo>1</foo></plist>", "<plist><string>&nbsp;</string></plist>",
            "<!DOCTYPE plist [<!ENTITY a 'b'>]><plist><string>&a;</string></plist>",
            "<?xml version='1.0' encoding='UTF-16'?><plist><true/></plist>",
            "<?xml version='1.0' encoding='ISO-8859-1'?><plist><true/></plist>",
            "<plist><?pi x?><true/></plist>", "<?pi?><plist><true/></plist>",
            "<plist><integer>18446744073709551616</integer></plist>",
            "<plist><integer>-9223372036854775809</integer></plist>",
        ])
    func unsupported(text: String) {
        let failure = Self.failure(text)
        #expect(failure?.kind == .unsupported, "\(failure.map(String.init(describing:)) ?? "read")")
    }

    @Test("only UTF-8: UTF-16 input, invalid UTF-8, control characters and bad character references are refused")
    func encodings() {
        let utf16: [UInt8] = [0xFE, 0xFF] + "<plist/>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(Self.failure(utf16)?.kind == .unsupported)
        #expect(Self.failure([0x3C, 0x00, 0x70, 0x00])?.kind == .unsupported)
        #expect(
            Self.failure(Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8))?.kind
                == .encoding)
        #expect(
            Self.failure(Array("<plist><string>".utf8) + [0xED, 0xA0, 0x80] + Array("</string></plist>".utf8))?.kind
                == .encoding)
        for bad in [
            "\u{1}", "&#0;", "&#1;", "&#xD800;", "&#xFFFE;", "&#x110000;", "&#99999999;", "\u{FFFF}", "\u{FFFE}",
        ] {
            #expect(Self.failure("<plist><string>\(bad)</string></plist>")?.kind == .encoding, "\(bad)")
        }
        // Anywhere, not only in text: a comment, the DOCTYPE, an attribute.
        #expect(Self.failure("<!-- \u{1} --><plist><true/></plist>")?.kind == .encoding)
        #expect(Self.failure("<!DOCTYPE plist SYSTEM '\u{8}'><plist><true/></plist>")?.kind == .encoding)
        #expect(Self.failure("<plist version='\u{1F}'><true/></plist>")?.kind == .encoding)
    }

    @Test("integers, reals and dates at their edges")
    func scalars() throws {
        func value(_ element: String) throws -> PropertyListValue { try Self.read("<plist>\(element)</plist>") }
        #expect(try value("<integer>-9223372036854775808</integer>") == .integer(.min))
        #expect(try value("<integer>9223372036854775807</integer>") == .integer(.max))
        #expect(try value("<integer>9223372036854775808</integer>") == .unsignedInteger(1 << 63))
        #expect(try value("<integer>+5</integer>") == .integer(5))
        #expect(try value("<integer>0XfF</integer>") == .integer(255))
        #expect(try value("<real>-0.5</real>") == .real(-0.5))
        #expect(try value("<real>1e300</real>") == .real(1e300))
        #expect(try value("<real>.5</real>") == .real(0.5))
        #expect(try value("<real>+infinity</real>") == .real(.infinity))
        #expect(try value("<real>-inf</real>") == .real(-.infinity))
        #expect(try value("<real>nan</real>").typeName == "a number")
        #expect(try value("<date>2001-01-01T00:00:00Z</date>") == .date(0))
        #expect(try value("<date>2000-12-31T23:59:59Z</date>") == .date(-1))
        #expect(try value("<date>2000-02-29T00:00:00Z</date>") == .date(-(307 * 86_400)))
        #expect(try value("<data></data>") == .data([]))
        #expect(try value("<data>QQ==</data>") == .data([0x41]))
        #expect(try value("<data>QUI=</data>") == .data([0x41, 0x42]))
    }

    @Test("limits: depth, values, elements, string bytes, input bytes; exactly the limit reads")
    func limits() {
        func nested(_ depth: Int) -> String {
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
                + "</plist>"
        }
        #expect(Self.failure(nested(8), limits: .init(maxDepth: 8)) == nil)
        #expect(Self.failure(nested(9), limits: .init(maxDepth: 8))?.kind == .limitExceeded)
        #expect(Self.failure(nested(50_000))?.kind == .limitExceeded)
        let three = "<plist><array><true/><true/></array></plist>"
        #expect(Self.failure(three, limits: .init(maxValues: 3)) == nil)
        #expect(Self.failure(three, limits: .init(maxValues: 2))?.kind == .limitExceeded)
        #expect(Self.failure(three, limits: .init(maxElements: 2)) == nil)
        #expect(Self.failure(three, limits: .init(maxElements: 1))?.kind == .limitExceeded)
        #expect(Self.failure("<plist><string>&amp;&amp;</string></plist>", limits: .init(maxStringBytes: 2)) == nil)
        #expect(
            Self.failure("<plist><string>&amp;&amp;a</string></plist>", limits: .init(maxStringBytes: 2))?.kind
                == .limitExceeded)
        #expect(
            Self.failure("<plist><dict><key>abc</key><true/></dict></plist>", limits: .init(maxStringBytes: 2))?.kind
                == .limitExceeded)
        #expect(Self.failure(three, limits: .init(maxBytes: three.utf8.count)) == nil)
        #expect(Self.failure(three, limits: .init(maxBytes: three.utf8.count - 1))?.kind == .inputTooLarge)
    }

    @Test("a repeated key is refused, in any position")
    func duplicateKeys() {
        let repeated = "<plist><dict><key>a</key><true/><key>b</key><true/><key>a</key><false/></dict></plist>"
        #expect(Self.failure(repeated)?.kind == .duplicateKey("a"))
        // Entities do not hide a repeat.
        let hidden = "<plist><dict><key>&#97;</key><true/><key>a</key><false/></dict></plist>"
        #expect(Self.failure(hidden)?.kind == .duplicateKey("a"))
    }

    @Test("every truncation of a valid XML plist is a named error")
    func truncations() {
        let text = Array(
            Self.plist(
                "<dict><key>k</key><array><string>a&amp;b</string><integer>1</integer><data>AA==</data></array></dict>"
            ).utf8)
        #expect(Self.failure(text) == nil)
        for length in 0..<text.count {
            let cut = Array(text.prefix(length))
            // Cutting only the final newline leaves a complete document.
            if length == text.count - 1 { continue }
            #expect(Self.failure(cut) != nil, "prefix of \(length) bytes")
        }
    }
}
