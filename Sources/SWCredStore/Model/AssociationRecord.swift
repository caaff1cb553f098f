package import FoundationEssentials

/// One association record of the emulated association daemon (spec/store.md §2.3): the state of
/// one (service, app identifier, domain) triple.
///
/// The store compares keys exactly; matching a request against records (wildcards, ports,
/// app-identifier prefixes) belongs to the association layer. Dates are kept at millisecond
/// precision; `Date.distantPast` and `Date.distantFuture` are representable.
public struct AssociationRecord: Sendable, Hashable, Codable {
    /// The associated-domains service.
    public enum Service: String, Sendable, Hashable, Codable, CaseIterable {
        /// `webcredentials`.
        case webcredentials
        /// `applinks`.
        case applinks
        /// `activitycontinuation`.
        case activitycontinuation
        /// `appclips`.
        case appclips
        /// `authsrv`.
        case authsrv
    }

    /// An entitlement mode (`?mode=`).
    package enum Mode: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        /// `?mode=developer`.
        case developer
        /// `?mode=managed`.
        case managed

        package static func < (lhs: Mode, rhs: Mode) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A user or site approval state.
    public enum Approval: String, Sendable, Hashable, Codable, CaseIterable {
        /// Not decided yet.
        case unspecified
        /// Approved.
        case approved
        /// Denied.
        case denied
    }

    /// Where the record's decision came from.
    package enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// From a downloaded association file.
        case downloaded
        /// Built in.
        case builtIn
        /// Set by hand (`swcred` maintenance).
        case manual
    }

    /// The last error of a check.
    package struct LastError: Sendable, Hashable, Codable {
        /// The error domain.
        package var domain: String
        /// The integer code.
        package var code: Int64
        /// A message of at most 1,024 UTF-8 bytes.
        package var message: String

        /// Creates an error record.
        package init(domain: String, code: Int64, message: String) {
            self.domain = domain
            self.code = code
            self.message = message
        }
    }

    /// What was last retrieved for the domain (optional; explains decisions).
    package struct FileInfo: Sendable, Hashable, Codable {
        /// A digest of the file (for example SHA-256), at most 64 bytes.
        package var digest: [UInt8]
        /// The file size in bytes.
        package var size: UInt64
        /// When it was retrieved.
        package var retrievedAt: Date

        /// Creates file information.
        package init(digest: [UInt8], size: UInt64, retrievedAt: Date) {
            self.digest = digest
            self.size = size
            self.retrievedAt = retrievedAt
        }
    }

    /// The record key: service, app identifier, host, port and wildcard flag.
    public struct Key: Sendable, Hashable, Codable {
        /// The service.
        public var service: Service
        /// `<TeamID>.<bundle id>`, exactly as given.
        public var appID: String
        /// The lowercased host, without the `*.` prefix.
        public var host: String
        /// The port (1–65535), or `nil`.
        public var port: UInt16?
        /// Whether the domain was given as `*.host`.
        public var isWildcard: Bool

        /// Creates a key.
        public init(service: Service, appID: String, host: String, port: UInt16? = nil, isWildcard: Bool = false) {
            self.service = service
            self.appID = appID
            self.host = host
            self.port = port
            self.isWildcard = isWildcard
        }

        // Exact bytes, not Unicode canonical equivalence.
        public static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.service == rhs.service && lhs.port == rhs.port && lhs.isWildcard == rhs.isWildcard
                && ExactBytes.equal(lhs.appID, rhs.appID) && ExactBytes.equal(lhs.host, rhs.host)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(service)
            hasher.combine(port)
            hasher.combine(isWildcard)
            ExactBytes.hash(appID, into: &hasher)
            ExactBytes.hash(host, into: &hasher)
        }
    }

    /// The service (stored lowercased by its raw value).
    package var service: Service
    /// `<TeamID>.<bundle id>`, exactly as given.
    package var appID: String
    /// The lowercased host (no `*.` prefix; see ``isWildcard``).
    package var host: String
    /// The port (1–65535), or `nil`.
    package var port: UInt16?
    /// Whether the domain was given as `*.host`.
    package var isWildcard: Bool
    /// The entitlement's modes.
    package var modes: Set<Mode>
    /// The user's approval.
    package var userApproval: Approval
    /// The site's approval (from its association file).
    package var siteApproval: Approval
    /// When the domain was last checked.
    package var lastChecked: Date
    /// When it is due for the next check.
    package var nextCheck: Date
    /// Consecutive failed checks.
    package var retryCount: UInt32
    /// The last check's error, if it failed.
    package var lastError: LastError?
    /// Where the decision came from.
    package var source: Source
    /// What was last retrieved, if recorded.
    package var lastFile: FileInfo?

    /// Creates a record.
    package init(
        service: Service,
        appID: String,
        host: String,
        port: UInt16? = nil,
        isWildcard: Bool = false,
        modes: Set<Mode> = [],
        userApproval: Approval = .unspecified,
        siteApproval: Approval = .unspecified,
        lastChecked: Date = .distantPast,
        nextCheck: Date = .distantPast,
        retryCount: UInt32 = 0,
        lastError: LastError? = nil,
        source: Source = .downloaded,
        lastFile: FileInfo? = nil
    ) {
        self.service = service
        self.appID = appID
        self.host = host
        self.port = port
        self.isWildcard = isWildcard
        self.modes = modes
        self.userApproval = userApproval
        self.siteApproval = siteApproval
        self.lastChecked = lastChecked
        self.nextCheck = nextCheck
        self.retryCount = retryCount
        self.lastError = lastError
        self.source = source
        self.lastFile = lastFile
    }

    /// This record's key.
    package var key: Key { Key(service: service, appID: appID, host: host, port: port, isWildcard: isWildcard) }
}
