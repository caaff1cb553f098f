import SWCredAssociation
import Testing

@Suite("Punycode (RFC 3492)")
struct PunycodeTests {
    /// RFC 3492 §7.1 sample strings (A)–(G), (L) and (S).
    static let samples: [(String, String)] = [
        (
            "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
            "egbpdaj6bu4bxfgehfvwxn"
        ),
        ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
        ("\u{4ED6}\u{5011}\u{7232}\u{4EC0}\u{9EBD}\u{4E0D}\u{8AAA}\u{4E2D}\u{6587}", "ihqwctvzc91f659drss3x8bo0yb"),
        ("Pro\u{010D}prost\u{011B}nemluv\u{00ED}\u{010D}esky", "Proprostnemluvesky-uyb24dma41a"),
        ("למההםפשוטלאמדבריםעברית", "4dbcagdahymbxekheh6e0a7fei0b"),
        ("यहलोगहिन्दीक्योंनहींबोलसकतेहैं", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"),
        ("なぜみんな日本語を話してくれないのか", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
        ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
        ("-> $1.00 <-", "-> $1.00 <--"),
    ]

    @Test("RFC 3492 §7.1 sample strings encode to the published Punycode", arguments: samples)
    func rfcSamples(input: String, expected: String) {
        #expect(Punycode.encode(input) == expected)
    }

    @Test("AD-2.3: IDN hosts become A-labels label by label")
    func asciiHost() {
        #expect(Punycode.asciiHost("bücher.example") == "xn--bcher-kva.example")
        #expect(Punycode.asciiHost("例え.テスト") == "xn--r8jz45g.xn--zckzah")
        #expect(Punycode.asciiHost("WWW.Example.COM") == "www.example.com")
    }

    @Test("Over-long input is refused instead of looping")
    func overLong() {
        #expect(Punycode.encode(String(repeating: "é", count: 300)) == nil)
    }
}
