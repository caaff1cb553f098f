package import FoundationEssentials
package import SWCredStore
package import SWCredCore

/// An association record as `swcred associations` shows it: JSON fields, and `swcutil show`'s
/// labels in text (AD-5.1: "User Approval", "Site/Fmwk Approval", "Last Checked", "Next Check",
/// "Error", "Retries"). Every field is encoded, `null` included.
package struct AssociationRecordView: Sendable, Hashable, Codable {
    /// The record's error.
    package struct ErrorView: Sendable, Hashable, Codable {
        /// The error domain.
        package var domain: String
        /// The code.
        package var code: Int64
        /// The message.
        package var message: String
    }

    /// The service.
    package var service: String
    /// The app ID.
    package var appID: String
    /// The domain as written in an entitlement (`*.host:port?mode=…`).
    package var domain: String
    /// The host (no `*.`).
    package var host: String
    /// The port, if any.
    @ExplicitNull package var port: Int?
    /// Whether the entry is a wildcard.
    package var wildcard: Bool
    /// The modes, sorted.
    package var modes: [String]
    /// `unspecified`, `approved` or `denied`.
    package var userApproval: String
    /// `unspecified`, `approved` or `denied`.
    package var siteApproval: String
    /// When last checked; nil for never.
    @ExplicitNull package var lastChecked: Date?
    /// When next due; nil for never.
    @ExplicitNull package var nextCheck: Date?
    /// The last error, if any.
    @ExplicitNull package var error: ErrorView?
    /// Consecutive failed checks.
    package var retries: UInt32
    /// `downloaded`, `builtIn` or `manual`.
    package var source: String

    /// A view of `record`.
    package init(_ record: AssociationRecord) {
        service = record.service.rawValue
        appID = record.appID
        host = record.host
        port = record.port.map(Int.init)
        wildcard = record.isWildcard
        modes = record.modes.sorted().map(\.rawValue)
        var domain = (record.isWildcard ? "*." : "") + record.host
        if let port = record.port { domain += ":\(port)" }
        if !modes.isEmpty { domain += "?mode=" + modes.joined(separator: "+") }
        self.domain = domain
        userApproval = record.userApproval.rawValue
        siteApproval = record.siteApproval.rawValue
        lastChecked = record.lastChecked == .distantPast ? nil : record.lastChecked
        nextCheck = record.nextCheck == .distantFuture ? nil : record.nextCheck
        error = record.lastError.map { ErrorView(domain: $0.domain, code: $0.code, message: $0.message) }
        retries = record.retryCount
        source = record.source.rawValue
    }

    /// The record in `swcutil show`'s layout: one `Label: value` line per field and a rule.
    package var swcutilText: String {
        func line(_ label: String, _ value: String) -> String {
            label.padded(toLength: 20) + value
        }
        let lines = [
            line("Service:", service),
            line("App ID:", appID),
            line("Domain:", domain),
            line("User Approval:", userApproval),
            line("Site/Fmwk Approval:", siteApproval),
            line("Flags:", modes.joined(separator: ", ")),
            line("Last Checked:", lastChecked.map(Self.iso8601) ?? "never"),
            line("Next Check:", nextCheck.map(Self.iso8601) ?? "never"),
            line("Error:", error.map { "\($0.domain) \($0.code): \($0.message)" } ?? "none"),
            line("Retries:", String(retries)),
            String(repeating: "-", count: 80),
        ]
        return lines.joined(separator: "\n")
    }

    /// `2023-11-14T22:13:20Z`, as Foundation's `ISO8601DateFormatter` wrote it: UTC, whole
    /// seconds, after rounding to the nearest millisecond (so `…:20.9995` is `…:21`), which
    /// `ISO8601FormatStyle` alone does not do (it cuts).
    static func iso8601(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: milliseconds / 1000).formatted(.iso8601)
    }
}
