import SWCredCore
import Testing

/// The bounded XML reader of Android resource files (`AndroidManifest.xml`, `strings.xml`).
@Suite("XMLElementReader: Android resource XML, bounded")
struct XMLElementReaderTests {
    static func read(_ text: String, limits: XMLElementReader.Limits = .init()) throws(SWCredError) -> MarkupElement {
        try XMLElementReader.read(Array(text.utf8), what: "test.xml", limits: limits)
    }

    static func failure(_ text: String, limits: XMLElementReader.Limits = .init()) -> SWCredError? {
        do {
            _ = try read(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("DAL-Q2: elements, attributes in order, text, CDATA, comments, the declaration and references are read")
    func wellFormed() throws {
        let root = try Self.read(
            """
            \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
            <!-- head -->
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package='com.example.app'>
              <application><?pi skipped?>
                <meta-data android:name="a&amp;b" android:value="&#x41;&#66;&lt;&quot;&apos;"/>
                <string>x &gt; y<![CDATA[ <raw> & ]]>z</string>
              </application>
            </manifest>
            <!-- tail -->
            """)
        #expect(root.name == "manifest")
        #expect(root.attributes.map(\.name) == ["xmlns:android", "package"])
        #expect(root[attribute: "package"] == "com.example.app")
        let application = try #require(root.children(named: "application").first)
        let meta = try #require(application.children(named: "meta-data").first)
        #expect(meta[attribute: "android:name"] == "a&b")
        #expect(meta[attribute: "android:value"] == "AB<\"'")
        #expect(application.children(named: "string").first?.text == "x > y <raw> & z")
    }

    @Test(
        "DAL-Q2: malformed documents are malformedInput (65) naming the problem",
        arguments: [
            ("<a><b></a>", "closes"), ("<a>", "ends inside"), ("<a/><b/>", "after the root"), ("text", "no root"),
            ("<a x='1' x='2'/>", "twice"), ("<a x=1/>", "not quoted"), ("<a>&bogus;</a>", "entity"),
            ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "DOCTYPE"), ("<a><!-- open</a>", "unterminated comment"),
            ("<a x='<'/>", "'<'"), ("<a>&#0;</a>", "entity"), ("</a>", "without a start tag"),
        ])
    func malformed(text: String, expected: String) {
        let error = Self.failure(text)
        #expect(error?.code.kind == .malformedInput)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error")")
    }

    @Test("DAL-Q2: depth, element, attribute and size limits end the read with a named error, never a trap")
    func limits() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(Self.failure(deep)?.message.contains("deeper than 64") == true)
        var few = XMLElementReader.Limits()
        few.maximumElements = 10
        #expect(Self.failure("<r>" + String(repeating: "<e/>", count: 11) + "</r>", limits: few)?.message
            .contains("more than 10 elements") == true)
        few.maximumAttributes = 2
        #expect(Self.failure("<r a='1' b='2' c='3'/>", limits: few)?.message.contains("more than 2 attributes") == true)
        few.maximumBytes = 8
        #expect(Self.failure("<root></root>", limits: few)?.message.contains("the limit is 8") == true)
    }

    @Test("DAL-Q2: a compiled binary manifest (from an APK) and UTF-16 are refused by name")
    func binary() {
        let axml: [UInt8] = [0x03, 0x00, 0x08, 0x00, 0x10, 0x00, 0x00, 0x00]
        do {
            _ = try XMLElementReader.read(axml, what: "AndroidManifest.xml")
            Issue.record("a binary manifest was read")
        } catch {
            #expect(error.code.kind == .malformedInput)
            #expect(error.message.contains("compiled binary XML"))
        }
        #expect(Self.failure("\u{0}<\u{0}a\u{0}/\u{0}>") != nil)
    }
}
