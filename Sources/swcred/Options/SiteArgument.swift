import ArgumentParser

/// The `DOMAIN` argument of `add`, `show` and `delete` (`HOST` or `HOST:PORT`): each declares
/// `@Argument(help: .site) var domain: String` and reads it with ``SiteName/init(_:)`` (50). Not an
/// option group: each group costs a command about a million instructions at start (issue 22).
extension ArgumentHelp {
    static let site: ArgumentHelp = "The site: HOST or HOST:PORT."
}
