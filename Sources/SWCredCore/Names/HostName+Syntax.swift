extension HostName {
    /// The rules of one kind of call site.
    ///
    /// Every syntax lowercases ASCII once and refuses non-ASCII and the empty name. The cases keep
    /// the sets each call site accepted before they shared this type; where they still differ,
    /// the case says so.
    ///
    /// | Syntax | Characters | Trailing dot | ≤ 253 bytes | Labels non-empty | Labels ≤ 63 |
    /// |---|---|---|---|---|---|
    /// | ``dnsName`` | letters, digits, `-` | one removed | yes | yes | no |
    /// | ``urlHost`` | letters, digits, `-`, `_` | one removed | yes | yes | no |
    /// | ``linkURLHost`` | letters, digits, `-`, `_` | one removed | no | no | no |
    /// | ``entitlement`` | letters, digits, `-` | refused | yes | yes | yes |
    /// | ``urlAuthority`` | URL host characters | kept | yes | no | no |
    public enum Syntax: Sendable, Hashable, CaseIterable {
        /// A DNS name to connect to: the host of an association-file retrieval (`swcred fetch`,
        /// `--resolve`). Letters, digits, `-` and `.`, so that nothing in it can change a URL's
        /// path or authority.
        case dnsName
        /// A URL host as the keychain stores a server: a site on the command line, an imported
        /// URL or server. As ``dnsName``, plus `_` (which URLs allow and some sites use).
        case urlHost
        /// The host of a universal-link URL as the matcher compares it (AD-7.1): as ``urlHost``,
        /// without the length and label checks. Such a host can only fail to match an entitlement,
        /// which is valid by ``entitlement`` rules, so the matcher does not refuse it.
        case linkURLHost
        /// A host written in an entitlement (AD-2.3) or a WebAuthn RP ID: letters, digits, `-`
        /// and `.`, no trailing dot, no empty label, labels of at most 63 bytes. The call sites add
        /// their own rules (wildcards, `localhost`, IP literals, the number of labels).
        case entitlement
        /// The host of `https://<fqdn>` as a URL parser gives it (SWC-6.4, `SWCDomain`): URL host
        /// characters, that is unreserved, sub-delimiters, `%`, and the brackets and `:` of an IP
        /// literal; no label checks and no trailing-dot removal. This is intended: the emulator reads
        /// the argument the way Apple's URL parsing does, and the entitlement check refuses
        /// what is not a host afterwards.
        case urlAuthority

        /// Whether one trailing dot is removed (otherwise a trailing dot is an empty label).
        @inlinable
        var removesTrailingDot: Bool {
            switch self {
            case .dnsName, .urlHost, .linkURLHost: true
            case .entitlement, .urlAuthority: false
            }
        }

        /// Whether the name is limited to ``HostName/maximumLength`` bytes.
        @inlinable
        var limitsLength: Bool { self != .linkURLHost }

        /// Whether labels are checked: none empty (no leading, trailing or double dot).
        @inlinable
        var checksLabels: Bool {
            switch self {
            case .dnsName, .urlHost, .entitlement: true
            case .linkURLHost, .urlAuthority: false
            }
        }

        /// Whether labels are limited to ``HostName/maximumLabelLength`` bytes.
        @inlinable
        var limitsLabels: Bool { self == .entitlement }

        /// The bytes a name may hold, as bits: bit `b` of `low` for byte `b` below 64, bit `b - 64`
        /// of `high` for bytes 64–127. Letters of both cases, digits, `-` and `.` everywhere; `_`
        /// in URL hosts; the sub-delimiters `~!$&'()+,;=`, `%`, `[`, `]` and `:` in URL authorities.
        @inlinable
        var allowedBytes: (low: UInt64, high: UInt64) {
            let letterDigitHyphenDot: (low: UInt64, high: UInt64) = (0x03FF_6000_0000_0000, 0x07FF_FFFE_07FF_FFFE)
            let underscore: UInt64 = 0x8000_0000
            switch self {
            case .dnsName, .entitlement:
                return letterDigitHyphenDot
            case .urlHost, .linkURLHost:
                return (letterDigitHyphenDot.low, letterDigitHyphenDot.high | underscore)
            case .urlAuthority:
                let subDelimiters: (low: UInt64, high: UInt64) = (0x2C00_1BF2_0000_0000, 0x4000_0000_2800_0000)
                return (
                    letterDigitHyphenDot.low | subDelimiters.low,
                    letterDigitHyphenDot.high | underscore | subDelimiters.high
                )
            }
        }

        /// Whether `byte` may appear in a name (letters of either case).
        ///
        /// - Parameter byte: Any byte.
        /// - Returns: Whether the syntax allows `byte`; never for bytes outside ASCII.
        @inlinable
        package func allows(_ byte: UInt8) -> Bool {
            byte < 0x80 && (byte < 64 ? allowedBytes.low >> byte : allowedBytes.high >> (byte & 63)) & 1 == 1
        }
    }
}
