public import SWCredCore

/// RP ID and origin rules (WebAuthn Level 3 §5.1.3 step 8, §5.1.4.1 step 7; HTML "is a registrable
/// domain suffix of or is equal to").
public enum RelyingPartyID {
    /// Public suffixes swcred knows, beyond "every single-label name" (PK-6 Decision: swcred ships
    /// no copy of the Public Suffix List; this short list covers the suffixes tests and common
    /// hosting use, and any single label is treated as a public suffix).
    static let knownPublicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.jp", "ne.jp", "or.jp",
        "co.nz", "com.br", "com.cn", "com.mx", "co.in", "co.za", "com.tr", "com.tw", "com.hk", "com.sg",
        "github.io", "gitlab.io", "herokuapp.com", "vercel.app", "netlify.app", "pages.dev", "workers.dev",
        "appspot.com", "web.app", "firebaseapp.com", "azurewebsites.net", "cloudfront.net", "blogspot.com",
        "s3.amazonaws.com", "fly.dev", "onrender.com", "glitch.me", "ngrok.io", "ngrok-free.app",
    ]

    /// The RP ID in canonical form (ASCII lowercase), or `nil` when it is not a valid domain: an
    /// entitlement ``HostName`` (ASCII letters, digits, `-` and `.`, 1–253 bytes, no empty label,
    /// no label over 63 bytes, no trailing dot) whose labels neither begin nor end with `-`, and
    /// not an IPv4 literal. `localhost` is valid.
    package static func canonical(_ rpID: some StringProtocol) -> String? {
        guard let lower = try? HostName(rpID, syntax: .entitlement).text else { return nil }
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ $0.first != "-" && $0.last != "-" }) else { return nil }
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) { return nil }
        if labels.last?.allSatisfy(\.isNumber) == true { return nil }
        return lower
    }

    /// Whether `domain` is a public suffix (a single label other than `localhost`, or a known suffix).
    static func isPublicSuffix(_ domain: String) -> Bool {
        if domain == "localhost" { return false }
        return !domain.contains(".") || knownPublicSuffixes.contains(domain)
    }

    /// Whether `rpID` is `host` or a registrable domain suffix of it.
    package static func isValid(_ rpID: String, forHost host: String) -> Bool {
        if rpID == host { return true }
        guard host.hasSuffix("." + rpID), !isPublicSuffix(rpID) else { return false }
        return true
    }

    /// A browser caller's origin: `https://host[:port]`, or `http://localhost[:port]`.
    public struct Origin: Sendable, Hashable, CustomStringConvertible {
        /// `https` or `http`.
        public let scheme: String
        /// The lowercased host.
        public let host: String
        /// The port when not the scheme's default.
        public let port: Int?

        /// The serialised origin (the `origin` of clientDataJSON).
        public var description: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }

        /// Parses an origin.
        /// - Throws: `passkeyOriginNotAllowed` (SecurityError) for anything but a secure origin.
        public init(parsing text: String) throws(SWCredError) {
            let failure = { (why: String) in PasskeyFailure.originNotAllowed.error("the origin \(text.prefix(200)) \(why)", asApp: false) }
            guard text.utf8.count <= 300 else { throw failure("is too long") }
            guard let schemeEnd = text.firstRange(of: "://") else { throw failure("is not an https origin") }
            let scheme = HostName.lowercasedASCII(text[..<schemeEnd.lowerBound])
            guard scheme == "https" || scheme == "http" else { throw failure("is not an https origin") }
            let rest = text[schemeEnd.upperBound...]
            var authority = rest
            if authority.hasSuffix("/") { authority = authority.dropLast() }
            guard !authority.contains(where: { "/?#@[]".contains($0) }) else { throw failure("is not a bare origin") }
            var hostPart = authority
            var port: Int?
            // No '[' gets here, so the split cannot fail.
            if let split = try? HostPort.split(authority), let digits = split.port {
                guard let value = Port(parsing: digits) else { throw failure("has a bad port") }
                port = value.intValue
                hostPart = split.host
            }
            guard let host = RelyingPartyID.canonical(hostPart) else { throw failure("has no valid domain host") }
            guard scheme == "https" || host == "localhost" else {
                throw failure("is not secure (http is allowed only for localhost)")
            }
            if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { port = nil }
            self.scheme = scheme
            self.host = host
            self.port = port
        }
    }
}
