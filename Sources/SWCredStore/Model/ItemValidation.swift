import SWCredCore

/// Input checks for items and association records (spec/store.md §2, §9).
enum ItemValidation {
    /// Checks every attribute of an item against the format rules and the limits.
    /// - Throws: `invalidParameter` naming the attribute, the limit and the size (never a value).
    static func validate(_ item: InternetPasswordItem, limits: StoreLimits) throws(SWCredError) {
        try check("server", item.server, min: 1, max: limits.maxServerBytes)
        try check("account", item.account, max: limits.maxAccountBytes)
        try fourCharacterCode("protocol", item.protocolCode)
        try fourCharacterCode("authenticationType", item.authenticationType)
        try fourCharacterCode("creator", item.creator)
        try check("path", item.path, max: limits.maxPathBytes)
        try check("securityDomain", item.securityDomain, max: limits.maxSecurityDomainBytes)
        try check("label", item.label, max: limits.maxLabelBytes)
        try check("comment", item.comment, max: limits.maxCommentBytes)
        try check("accessGroup", item.accessGroup, max: limits.maxAccessGroupBytes)
        if item.isNegative, item.secret != nil {
            throw SWCredError(.invalidParameter, "a negative entry cannot carry a secret")
        }
        if let secret = item.secret, secret.count > limits.maxSecretBytes {
            throw SWCredError(
                .invalidParameter,
                "the secret is \(secret.count) bytes; the limit is \(limits.maxSecretBytes)"
            )
        }
    }

    /// Checks an association record.
    static func validate(_ record: AssociationRecord, limits: StoreLimits) throws(SWCredError) {
        try check("appID", record.appID, min: 1, max: limits.maxAppIDBytes)
        try check("host", record.host, min: 1, max: limits.maxHostBytes)
        if record.port == 0 {
            throw SWCredError(.invalidParameter, "an association record's port must be 1–65535")
        }
        if let error = record.lastError {
            try check("lastError.domain", error.domain, max: limits.maxErrorDomainBytes)
            try check("lastError.message", error.message, max: limits.maxErrorMessageBytes)
        }
        if let file = record.lastFile, file.digest.count > 64 {
            throw SWCredError(.invalidParameter, "an association file digest is at most 64 bytes")
        }
    }

    private static func check(_ name: String, _ value: String, min: Int = 0, max: Int) throws(SWCredError) {
        let count = value.utf8.count
        guard count >= min else {
            throw SWCredError(.invalidParameter, "\(name) must not be empty")
        }
        guard count <= max else {
            throw SWCredError(.invalidParameter, "\(name) is \(count) bytes; the limit is \(max)")
        }
    }

    /// Empty ("not set") or exactly four printable ASCII characters.
    static func isFourCharacterCode(_ value: String) -> Bool {
        let bytes = value.utf8
        return bytes.isEmpty || (bytes.count == 4 && bytes.allSatisfy { (0x20...0x7E).contains($0) })
    }

    private static func fourCharacterCode(_ name: String, _ value: String) throws(SWCredError) {
        guard isFourCharacterCode(value) else {
            throw SWCredError(.invalidParameter, "\(name) must be four ASCII characters or empty")
        }
    }
}
