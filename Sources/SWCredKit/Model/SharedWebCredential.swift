/// One credential returned by a request (SWC-7.1): `srvr`, `acct`, `spwd` and, in `legacy` only,
/// `port`. `description` never shows the password.
public struct SharedWebCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `srvr` (`kSecAttrServer`): the item's server (`legacy`) or the requested domain string
    /// (`current`).
    public var server: String
    /// `acct` (`kSecAttrAccount`).
    public var account: String
    /// `spwd` (`kSecSharedPassword`).
    public var password: String
    /// `port` (`kSecAttrPort`): the stored port in `legacy` when set (443 included); never in `current`.
    public var port: Int?

    /// Creates a credential.
    public init(server: String, account: String, password: String, port: Int? = nil) {
        self.server = server
        self.account = account
        self.password = password
        self.port = port
    }

    /// The credential as Apple's dictionary: keys `srvr`, `acct`, `spwd` and `port` when set.
    package var dictionary: [String: any Sendable] {
        var result: [String: any Sendable] = ["srvr": server, "acct": account, "spwd": password]
        if let port { result["port"] = port }
        return result
    }

    public var description: String {
        "SharedWebCredential(server: \(server), account: \(account), password: <redacted>\(port.map { ", port: \($0)" } ?? ""))"
    }

    public var debugDescription: String { description }
}
