import SWCredCore
import Testing
@testable import SWCredStore

/// ``SiteName``: `HOST` or `HOST:PORT` as a person names a site (store.md §2.1: the server is the
/// lowercased host; no port is port 0 when adding and any port when looking up).
@Suite("Site names: HOST or HOST:PORT")
struct SiteNameTests {
    @Test(
        "store.md §2.1: the host is canonicalised and an optional port is kept",
        arguments: [
            ("Tacos.Example", "tacos.example", nil),
            ("tacos.example.", "tacos.example", nil),
            ("tacos.example:8443", "tacos.example", 8443),
            ("xn--bcher-kva.example:1", "xn--bcher-kva.example", 1),
            ("my_host.example:65535", "my_host.example", 65535),
        ] as [(String, String, UInt16?)])
    func accepted(text: String, host: String, port: UInt16?) throws {
        let site = try SiteName(text)
        #expect(site.host == host)
        #expect(site.port == port)
        #expect(site.display == (port.map { "\(host):\($0)" } ?? host))
    }

    @Test(
        "store.md §2.1: a scheme, path, user info, IPv6 literal, bad port or bad host is invalidParameter",
        arguments: [
            "https://tacos.example", "tacos.example/login", "alice@tacos.example", "[::1]:443",
            "tacos.example:0", "tacos.example:65536", "tacos.example:", "tacos.example:x",
            "", "bücher.example", "a..example", "tacos example", String(repeating: "a", count: 254),
        ])
    func refused(text: String) {
        #expect(throws: SWCredError(.invalidParameter, "")) { try SiteName(text) }
    }
}
