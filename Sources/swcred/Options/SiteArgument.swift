import ArgumentParser

/// The `DOMAIN` argument of `add`, `show` and `delete`: the site, `HOST` or `HOST:PORT`. Each of
/// them declares it as `@Argument(help: .site) var domain: String` and reads it with
/// ``SiteName/init(_:)`` (`invalidParameter`, 50). A plain argument rather than an option group
/// of its own: every group costs each command that uses it about a million instructions at start
/// (issue 22: a `Mirror` walk and five protocol-conformance look-ups, each a scan of every
/// conformance record in the binary).
extension ArgumentHelp {
    static let site: ArgumentHelp = "The site: HOST or HOST:PORT."
}
