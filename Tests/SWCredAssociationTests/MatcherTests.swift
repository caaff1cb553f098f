import SWCredAssociation
import SWCredCore
import Testing

@Suite("applinks matching (section 7)")
struct MatcherTests {
    typealias T = TestSupport

    // MARK: Seeds

    /// The WWDC19 meal-ordering example (seed 000): order forms, tacos with cheese, coupons.
    static let wwdc19 = T.components(
        """
        [{"/": "/*/order/"},
         {"/": "/taco/*", "?": {"cheese": "?*"}},
         {"/": "/coupon/1???", "exclude": true},
         {"/": "/coupon/????"}]
        """)

    @Test(
        "Seed WWDC19: order forms, cheese on tacos, coupon codes starting with 1 stay in the browser",
        arguments: [
            ("https://example.com/burrito/order/", MatchOutcome.match),
            ("https://example.com/taco/order", .match),
            ("https://example.com/taco/tuesday?cheese=cheddar", .match),
            ("https://example.com/taco/tuesday", .noMatch),
            ("https://example.com/taco/tuesday?cheese=", .noMatch),
            ("https://example.com/coupon/1234", .exclude),
            ("https://example.com/coupon/2345", .match),
            ("https://example.com/coupon/123", .noMatch),
        ])
    func wwdc19Example(url: String, expected: MatchOutcome) throws {
        #expect(try T.outcome(Self.wwdc19, url) == expected)
    }

    @Test("Seed WWDC15: an exact path and a path prefix; other pages stay on the web")
    func wwdc15Paths() throws {
        let json =
            #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/wwdc/news/","/videos/wwdc/2015/*"]}]}}"#
        #expect(try T.outcome(json, "https://developer.apple.com/wwdc/news/") == .match)
        #expect(try T.outcome(json, "https://developer.apple.com/videos/wwdc/2015/?id=509") == .match)
        #expect(try T.outcome(json, "https://developer.apple.com/videos/wwdc/2015/509") == .match)
        #expect(try T.outcome(json, "https://developer.apple.com/videos/wwdc/2014/") == .noMatch)
        #expect(try T.outcome(json, "https://developer.apple.com/wwdc/") == .noMatch)
    }

    @Test("Seed archived guide / AD-7.14: NOT excludes, evaluation stops at the first positive or negative match")
    func archivedNotExample() throws {
        let json =
            #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/wwdc/news/","NOT /videos/wwdc/2010/*","/videos/wwdc/201?/*"]}]}}"#
        #expect(try T.outcome(json, "https://example.com/videos/wwdc/2010/x") == .exclude)
        #expect(try T.outcome(json, "https://example.com/videos/wwdc/2012/y") == .match)
        #expect(try T.outcome(json, "https://example.com/videos/wwdc/2009/z") == .noMatch)
        // Only the path is compared; query and fragment are ignored; case-sensitive.
        #expect(try T.outcome(json, "https://example.com/wwdc/news/?a=1#top") == .match)
        #expect(try T.outcome(json, "https://example.com/WWDC/news/") == .noMatch)
    }

    @Test("AD-7.14: \"*\" alone matches everything; legacy paths take no variables or defaults")
    func legacyStarAndNoVariables() throws {
        let star = #"{"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","paths":["*"]}]}}"#
        #expect(try T.outcome(star, "https://example.com/anything/at/all?x#y") == .match)
        let literal =
            #"{"applinks":{"defaults":{"caseSensitive":false},"substitutionVariables":{"v":["x"]},"details":[{"appID":"ABCDE12345.com.example.app","paths":["/$(v)","/Caps"]}]}}"#
        #expect(try T.outcome(literal, "https://example.com/x") == .noMatch)
        #expect(try T.outcome(literal, "https://example.com/$(v)") == .match)
        #expect(try T.outcome(literal, "https://example.com/caps") == .noMatch)
    }

    @Test("Seed 003/004: path, fragment and query patterns together")
    func seedComponentExamples() throws {
        let dict = ##"{"/": "/path/*/filename", "#": "*fragment", "?": {"widget": "?*", "grommet": "please"}}"##
        #expect(try T.matches(dict, "https://example.com/path/a/b/filename?widget=1&grommet=please#myfragment"))
        #expect(try !T.matches(dict, "https://example.com/path/a/filename?widget=1&grommet=thanks#fragment"))
        #expect(try !T.matches(dict, "https://example.com/path/a/filename?widget=&grommet=please#fragment"))
        let string = ##"{"/": "/path/*/filename", "#": "*fragment", "?": "widget=?*"}"##
        #expect(try T.matches(string, "https://example.com/path/x/filename?widget=7#fragment"))
        #expect(try !T.matches(string, "https://example.com/path/x/filename?widget=#fragment"))
    }

    @Test("Seed WWDC19: country codes as ?? and locales as ??_??")
    func countryCodes() throws {
        #expect(try T.matches(#"{"/": "/??/shop/*"}"#, "https://example.com/fr/shop/1"))
        #expect(try !T.matches(#"{"/": "/??/shop/*"}"#, "https://example.com/fra/shop/1"))
        #expect(try T.matches(#"{"/": "/??_??/*"}"#, "https://example.com/en_US/home"))
    }

    // MARK: AD-7.1, 7.2, 7.3

    @Test("AD-7.1: http and https URLs are eligible; other schemes are rejected as input")
    func schemes() throws {
        #expect(try T.matches("{}", "http://example.com/a"))
        #expect(try T.matches("{}", "HTTPS://EXAMPLE.com/a"))
        #expect(throws: SWCredError(.invalidURL, "")) { try LinkURL("ftp://example.com/a") }
        #expect(throws: SWCredError(.invalidURL, "")) { try LinkURL("example.com/a") }
    }

    @Test("AD-7.12: a URL written with non-ASCII characters or spaces is compared in its percent-encoded form")
    func unescapedURLs() throws {
        let url = try LinkURL("https://example.com/café menu?q=é#ü")
        #expect(url.path == "/caf%C3%A9%20menu")
        #expect(url.query == "q=%C3%A9")
        #expect(url.fragment == "%C3%BC")
        #expect(try T.matches(#"{"/": "/caf%C3%A9*"}"#, "https://example.com/café"))
        #expect(try T.matches(#"{"/": "/café", "percentEncoded": false}"#, "https://example.com/café"))
        #expect(throws: SWCredError(.invalidURL, "")) { try LinkURL("https://exa mple.com/") }
        #expect(throws: SWCredError(.invalidURL, "")) { try LinkURL("https:///path") }
    }

    @Test("AD-7.1: a URL with a non-default port never matches; the default port and user info are ignored")
    func ports() throws {
        #expect(try !T.matches("{}", "https://example.com:8443/a"))
        #expect(try T.matches("{}", "https://example.com:443/a"))
        #expect(try T.matches("{}", "http://example.com:80/a"))
        #expect(try T.matches(#"{"/":"/a"}"#, "https://user:pw@example.com/a"))
    }

    @Test("AD-7.2/AD-7.3: the first matching rule decides; an exclude does not fall through to later rules")
    func firstMatchWins() throws {
        let json = T.components(#"[{"/": "/a/*", "exclude": true}, {"/": "/a/b"}]"#)
        #expect(try T.outcome(json, "https://example.com/a/b") == .exclude)
        let reversed = T.components(#"[{"/": "/a/b"}, {"/": "/a/*", "exclude": true}]"#)
        #expect(try T.outcome(reversed, "https://example.com/a/b") == .match)
        #expect(try T.outcome(reversed, "https://example.com/a/c") == .exclude)
        #expect(try T.outcome(reversed, "https://example.com/z") == .noMatch)
    }

    @Test("AD-7.3: details are scanned in order, skipping other apps; an entry with no matching rule passes on")
    func detailOrder() throws {
        let json = """
            {"applinks":{"details":[
              {"appIDs":["OTHER12345.com.other"], "components":[{"/":"/x", "exclude": true}]},
              {"appIDs":["ABCDE12345.com.example.app"], "components":[{"/":"/y"}]},
              {"appIDs":["ABCDE12345.com.example.app"], "components":[{"/":"/x", "exclude": true}, {"/":"/y", "exclude": true}]}
            ]}}
            """
        #expect(try T.outcome(json, "https://example.com/x") == .exclude)
        #expect(try T.outcome(json, "https://example.com/y") == .match)
        let result = try ReferenceApplinksMatcher(file: T.file(json)).match(LinkURL("https://example.com/x"), appID: T.appID)
        #expect(result.rule?.detail == 2)
        #expect(result.rule?.component == 0)
        #expect(result.rule?.key == "components")
        // Without an app ID, the first app in file order whose rules decide.
        let any = try ReferenceApplinksMatcher(file: T.file(json)).match(LinkURL("https://example.com/x"), appID: nil)
        #expect(any.appID == "OTHER12345.com.other")
        #expect(any.outcome == .exclude)
    }

    // MARK: AD-7.4, 7.5

    @Test("AD-7.4: all specified components must match; unspecified ones act as *; {} matches everything")
    func componentsAllMustMatch() throws {
        let apple = ##"{"/":"abc","?":"def","#":"*"}"##
        #expect(try T.matches(apple, "https://www.example.com/abc?def"))
        #expect(try !T.matches(apple, "https://www.example.com/abc"))
        #expect(try T.matches("{}", "https://example.com/"))
        #expect(try T.matches("{}", "https://example.com"))
        #expect(try T.matches(#"{"comment": "ignored", "/": "/c"}"#, "https://example.com/c"))
    }

    @Test("AD-7.4: an absent query or fragment is the empty string: * and \"\" match it, ?* does not")
    func absentComponentsAreEmpty() throws {
        #expect(try T.matches(#"{"?": "*"}"#, "https://example.com/a"))
        #expect(try T.matches(#"{"?": ""}"#, "https://example.com/a"))
        #expect(try !T.matches(#"{"?": "?*"}"#, "https://example.com/a"))
        #expect(try T.matches(##"{"#": ""}"##, "https://example.com/a"))
        #expect(try !T.matches(##"{"#": "?*"}"##, "https://example.com/a"))
    }

    @Test("AD-7.5: pattern keys and exclude in defaults are honoured; overriding is per key")
    func defaultsHierarchy() throws {
        let pathDefault = T.components(##"[{"#": "*"}]"##, extra: #""defaults": {"/": "/foo/*"}"#)
        #expect(try T.outcome(pathDefault, "https://example.com/bar") == .noMatch)
        #expect(try T.outcome(pathDefault, "https://example.com/foo/1") == .match)
        let excludeDefault = T.components(#"[{"/": "/a"}]"#, extra: #""defaults": {"exclude": true}"#)
        #expect(try T.outcome(excludeDefault, "https://example.com/a") == .exclude)
        // The detail's defaults beat applinks.defaults; the component beats both.
        let layered = T.components(
            #"[{"/": "/A"}, {"/": "/b", "caseSensitive": true}]"#,
            extra: #""defaults": {"caseSensitive": true}"#,
            detailExtra: #""defaults": {"caseSensitive": false}"#)
        #expect(try T.outcome(layered, "https://example.com/a") == .match)
        #expect(try T.outcome(layered, "https://example.com/B") == .noMatch)
        // A component's own exclude: false overrides a default exclude: true.
        let override = T.components(#"[{"/": "/a", "exclude": false}]"#, extra: #""defaults": {"exclude": true}"#)
        #expect(try T.outcome(override, "https://example.com/a") == .match)
    }

    @Test("AD-7.5 Decision: a ? dictionary replaces a less specific one; it is not merged")
    func queryDefaultsNotMerged() throws {
        let json = T.components(#"[{"?": {"b": "2"}}]"#, extra: #""defaults": {"?": {"a": "1"}}"#)
        #expect(try T.outcome(json, "https://example.com/x?a=9&b=2") == .match)
    }

    // MARK: AD-7.6, 7.7

    @Test("AD-7.6: * crosses /, ? is exactly one character, ?* is one or more, the whole component must match")
    func wildcards() throws {
        #expect(try T.matches(#"{"/": "/buy/*"}"#, "https://example.com/buy/42/x"))
        #expect(try T.matches(#"{"/": "/id/???"}"#, "https://example.com/id/481"))
        #expect(try !T.matches(#"{"/": "/id/???"}"#, "https://example.com/id/4812"))
        #expect(try T.matches(#"{"/": "/p/?*"}"#, "https://example.com/p/1"))
        #expect(try !T.matches(#"{"/": "/p/?*"}"#, "https://example.com/p/"))
        #expect(try !T.matches(#"{"/": "/abc"}"#, "https://example.com/abcd"))
    }

    @Test(
        "AD-7.7: path slash normalisation reproduces the swcutil probes",
        arguments: [
            ("abc", "/abc", true), ("//abc", "/abc", true), ("abc", "/abcd", false), ("abc", "/xabc", false),
            ("/buy", "/buy/", true), ("/buy/", "/buy", true), ("/buy/", "/buy//", true),
            ("/buy/*", "/buy", true), ("/buy/*", "/buyer", false), ("/buy/*", "/bu", false),
            ("/a/*/c", "/a/c", false), ("/id/????", "/id/481", false), ("/", "", true), ("/", "/x", false),
        ])
    func pathSlashes(pattern: String, path: String, expected: Bool) throws {
        #expect(try T.matches(#"{"/": "\#(pattern)"}"#, "https://example.com\(path)") == expected)
    }

    // MARK: AD-7.8 – 7.10

    @Test("AD-7.8: a query string matches the whole raw query")
    func queryString() throws {
        #expect(try !T.matches(#"{"?": "a=1"}"#, "https://example.com/?a=1&b=2"))
        #expect(try T.matches(#"{"?": "a=1*"}"#, "https://example.com/?a=1&b=2"))
    }

    @Test("AD-7.9: query dictionaries: absent and valueless items are empty; every instance must match")
    func queryDictionary() throws {
        #expect(try T.matches(#"{"?": {"b": "*"}}"#, "https://example.com/?a=1"))
        #expect(try T.matches(#"{"?": {"flag": ""}}"#, "https://example.com/?flag"))
        #expect(try !T.matches(#"{"?": {"id": "42"}}"#, "https://example.com/?id=7&id=42"))
        #expect(try T.matches(#"{"?": {"id": "7"}}"#, "https://example.com/?id=7&id=7"))
        #expect(try T.matches(#"{"?": {"q": "a+b"}}"#, "https://example.com/?q=a+b"))
        #expect(try T.matches(#"{"?": {"k": "x=y"}}"#, "https://example.com/?k=x=y"))
    }

    @Test("AD-7.9: a query dictionary with a non-string value is ignored as a whole")
    func queryDictionaryIllTyped() throws {
        #expect(try T.matches(#"{"?": {"a": "1", "flag": true}}"#, "https://example.com/?a=2"))
        #expect(try T.matches(#"{"?": {"a": 1}}"#, "https://example.com/?a=2"))
    }

    @Test("AD-7.10: the fragment is matched without #")
    func fragment() throws {
        #expect(try T.matches(##"{"#": "top"}"##, "https://example.com/a#top"))
        #expect(try !T.matches(##"{"#": "#top"}"##, "https://example.com/a#top"))
    }

    // MARK: AD-7.11, 7.12

    @Test("AD-7.11: case-sensitive by default; caseSensitive false folds patterns, values, names and built-ins")
    func caseSensitivity() throws {
        #expect(try !T.matches(#"{"/": "/Shop"}"#, "https://example.com/shop"))
        #expect(try T.matches(#"{"/": "/Shop", "caseSensitive": false}"#, "https://example.com/sHOP"))
        #expect(try T.matches(#"{"/": "/$(upper)", "caseSensitive": false}"#, "https://example.com/q"))
        #expect(try !T.matches(#"{"/": "/$(upper)"}"#, "https://example.com/q"))
        #expect(try T.matches(#"{"?": {"ID": "X"}, "caseSensitive": false}"#, "https://example.com/?id=x"))
        #expect(try !T.matches(#"{"?": {"ID": "X"}}"#, "https://example.com/?id=X"))
    }

    @Test("AD-7.12: percentEncoded true compares as written; false decodes the URL and uses the pattern as written")
    func percentEncoded() throws {
        #expect(try T.matches(#"{"/": "/a%20b"}"#, "https://example.com/a%20b"))
        #expect(try !T.matches(#"{"/": "/a b"}"#, "https://example.com/a%20b"))
        #expect(try !T.matches(#"{"/": "/a/b"}"#, "https://example.com/a%2Fb"))
        #expect(try !T.matches(#"{"/": "/caf%C3%A9"}"#, "https://example.com/caf%c3%a9"))
        #expect(try !T.matches(#"{"/": "/caf?"}"#, "https://example.com/caf%C3%A9"))
        #expect(try T.matches(#"{"/": "/a b", "percentEncoded": false}"#, "https://example.com/a%20b"))
        #expect(try T.matches(#"{"/": "/café/*", "percentEncoded": false}"#, "https://example.com/caf%C3%A9/menu"))
        #expect(try !T.matches(#"{"/": "/a%20b", "percentEncoded": false}"#, "https://example.com/a%20b"))
        #expect(try T.matches(#"{"/": "/a/b", "percentEncoded": false}"#, "https://example.com/a%2Fb"))
        // Decision: under false, ? is one Unicode scalar; invalid escapes stay undecoded.
        #expect(try T.matches(#"{"/": "/caf?", "percentEncoded": false}"#, "https://example.com/caf%C3%A9"))
        #expect(try T.matches(#"{"/": "/100%zz", "percentEncoded": false}"#, "https://example.com/100%zz"))
        #expect(try T.matches(#"{"?": {"q": "a b"}, "percentEncoded": false}"#, "https://example.com/?q=a%20b"))
    }

    // MARK: AD-7.13

    @Test("AD-7.13: substitution variables match any one of their values, in any pattern string")
    func substitutionVariables() throws {
        let extra = #""substitutionVariables": {"food": ["pizza", "taco*"], "Bad Name!": ["x"]}"#
        #expect(
            try T.matches(#"{"/": "/$(lang)_$(region)/$(food)/"}"#, "https://example.com/en_US/pizza/", extra: extra))
        #expect(try T.matches(#"{"/": "/$(food)"}"#, "https://example.com/tacos", extra: extra))
        #expect(try !T.matches(#"{"/": "/$(food)"}"#, "https://example.com/burger", extra: extra))
        #expect(try !T.matches(#"{"/": "/$(food)"}"#, "https://example.com/$(food)", extra: extra))
        #expect(try T.matches(#"{"?": {"dish": "$(food)"}}"#, "https://example.com/?dish=pizza", extra: extra))
        #expect(try T.matches(##"{"#": "$(food)"}"##, "https://example.com/#pizza", extra: extra))
        #expect(try T.matches(#"{"/": "/$(Bad Name!)"}"#, "https://example.com/x", extra: extra))
    }

    @Test("AD-7.13: $(region) accepts GB and rejects UK; built-in classes match one character")
    func builtIns() throws {
        #expect(try T.matches(#"{"/": "/$(region)"}"#, "https://example.com/GB"))
        #expect(try !T.matches(#"{"/": "/$(region)"}"#, "https://example.com/UK"))
        #expect(try T.matches(#"{"/": "/$(lang)"}"#, "https://example.com/fr"))
        #expect(try !T.matches(#"{"/": "/$(lang)"}"#, "https://example.com/xx"))
        #expect(
            try T.matches(
                #"{"/": "/$(digit)$(digit)$(xdigit)$(alpha)$(alnum)$(lower)$(upper)"}"#,
                "https://example.com/12fZ9aQ"))
        #expect(try !T.matches(#"{"/": "/$(digit)"}"#, "https://example.com/12"))
        #expect(try !T.matches(#"{"/": "/$(xdigit)"}"#, "https://example.com/g"))
    }

    @Test("AD-7.13 Decision: an undefined variable never matches; a custom variable named like a built-in is ignored")
    func variableDecisions() throws {
        #expect(try !T.matches(#"{"/": "/$(nope)*"}"#, "https://example.com/anything"))
        let shadow = #""substitutionVariables": {"digit": ["abc"]}"#
        #expect(try T.matches(#"{"/": "/$(digit)"}"#, "https://example.com/7", extra: shadow))
        #expect(try !T.matches(#"{"/": "/$(digit)"}"#, "https://example.com/abc", extra: shadow))
    }

    // MARK: AD-7.15, AD-3.x applied to matching

    @Test("AD-7.15: ill-typed rules: non-string / is unspecified, only true excludes, bad caseSensitive inherits")
    func illTyped() throws {
        #expect(try T.matches(#"{"/": 5}"#, "https://example.com/anything"))
        #expect(try T.outcome(T.components(#"[{"/": "/a", "exclude": "true"}]"#), "https://example.com/a") == .match)
        #expect(try T.outcome(T.components(#"[{"/": "/a", "exclude": 1}]"#), "https://example.com/a") == .match)
        #expect(try !T.matches(#"{"/": "/A", "caseSensitive": "no"}"#, "https://example.com/a"))
        #expect(try T.outcome(T.components(#"{"/": "/a"}"#), "https://example.com/a") == .noMatch)
        #expect(try T.outcome(T.components(#"["/a", {"/": "/a"}]"#), "https://example.com/a") == .match)
    }

    @Test("AD-3.5: paths is ignored when components is present")
    func componentsBeatPaths() throws {
        let json =
            #"{"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","paths":["*"],"components":[{"/":"/only"}]}]}}"#
        #expect(try T.outcome(json, "https://example.com/other") == .noMatch)
        #expect(try T.outcome(json, "https://example.com/only") == .match)
    }

    @Test("AD-3.4: appIDs shadows appID, even when empty")
    func appIDsShadowAppID() throws {
        let json = #"{"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","appIDs":[],"components":[{}]}]}}"#
        #expect(try T.outcome(json, "https://example.com/a") == .noMatch)
        let notArray =
            #"{"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","appIDs":"ABCDE12345.com.example.app","components":[{}]}]}}"#
        #expect(try T.outcome(notArray, "https://example.com/a") == .noMatch)
    }

    @Test("AD-3.3: the legacy details dictionary is matched, keys in code-point order")
    func legacyDetailsDictionary() throws {
        let json =
            #"{"applinks":{"apps":[],"details":{"ZZZZZ12345.com.z":{"paths":["*"]},"ABCDE12345.com.example.app":{"paths":["NOT /private/*","*"]}}}}"#
        #expect(try T.outcome(json, "https://example.com/private/x") == .exclude)
        #expect(try T.outcome(json, "https://example.com/public") == .match)
        let any = try ReferenceApplinksMatcher(file: T.file(json)).match(LinkURL("https://example.com/private/x"), appID: nil)
        #expect(any.appID == "ABCDE12345.com.example.app")
        #expect(any.rule?.detail == 0)
        #expect(any.rule?.key == "paths")
    }

    @Test("AD-3.6: unknown keys are ignored; a misspelled casesensitive has no effect")
    func unknownKeys() throws {
        #expect(try T.matches(#"{"frobnicate": {"x": 1}}"#, "https://example.com/a"))
        #expect(try !T.matches(#"{"/": "/A", "casesensitive": false}"#, "https://example.com/a"))
    }

    @Test("AD-6.3: a file with only webcredentials never matches a URL")
    func webcredentialsOnly() throws {
        let json = #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#
        #expect(try T.outcome(json, "https://example.com/") == .noMatch)
    }

    // MARK: Linear time

    @Test("AD-7.6: an adversarial pattern against a long URL finishes with the right answer (no backtracking blow-up)")
    func adversarialPattern() throws {
        let long = "https://example.com/" + String(repeating: "a", count: 20_000)
        #expect(try !T.matches(#"{"/": "*a*a*a*a*a*b"}"#, long))
        #expect(try T.matches(#"{"/": "*a*a*a*a*a*b"}"#, long + "b"))
        let pattern = WildcardPattern("*a*a*a*a*a*a*a*a*a*a*b")
        #expect(!pattern.matches(String(repeating: "a", count: 20_000)))
    }
}
