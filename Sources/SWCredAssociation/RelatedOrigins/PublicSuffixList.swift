import SWCredCore
import Synchronization

/// The Public Suffix List (https://publicsuffix.org), read from a data file, not a hand list:
/// Debian's `publicsuffix` package installs it at ``defaultPath``; `SWCRED_PUBLIC_SUFFIX_LIST`
/// names another copy (``path(environment:)``). Used to find the registrable domain of a host,
/// and so its registrable origin label, for WebAuthn related origins (asset-links.md §2.1, ROR-L1).
///
/// Both sections are read (ICANN and private domains, as Chrome's `INCLUDE_PRIVATE_REGISTRIES`
/// and libpsl do), with `*.` wildcards and `!` exceptions (the prevailing rule: an exception,
/// else the rule with most labels, else the implicit `*`). Rules written in Unicode are compared
/// in their A-label form, since every host swcred compares is already canonical ASCII.
///
/// The file is read once per path, when a related-origin check first needs it, so that no
/// `swcred` start pays for it (issue #22's start-up budget).
///
/// ```swift
/// let list = try PublicSuffixList.load(path: PublicSuffixList.defaultPath)
/// list.registrableDomain(of: "www.example.co.uk")  // "example.co.uk"
/// ```
package struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    package static let defaultPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// The environment variable that names another copy of the list.
    package static let environmentVariable = "SWCRED_PUBLIC_SUFFIX_LIST"
    /// The largest list read (the 2023 list is 246 KB).
    package static let maximumBytes = 4 << 20
    /// The most rules read.
    package static let maximumRules = 100_000

    /// Normal rules (`co.uk`).
    private var rules: Set<String> = []
    /// Wildcard rules, without their `*.` (`ck` for `*.ck`).
    private var wildcards: Set<String> = []
    /// Exception rules, without their `!` (`www.ck`).
    private var exceptions: Set<String> = []
    /// How many rules were read from the ICANN section and from the private section.
    package private(set) var icannRules = 0
    package private(set) var privateRules = 0

    /// Reads a list in the publicsuffix.org format: one rule per line (its first word), `//`
    /// comments, `===BEGIN PRIVATE DOMAINS===` marking the private section.
    ///
    /// - Throws: `malformedInput` when the data is too large, not UTF-8, holds too many rules or
    ///   a rule that has no A-label form, or holds no rule at all.
    package init(parsing bytes: [UInt8]) throws(SWCredError) {
        guard bytes.count <= Self.maximumBytes else {
            throw SWCredError(.malformedInput, "the Public Suffix List is over \(Self.maximumBytes) bytes")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw SWCredError(.malformedInput, "the Public Suffix List is not UTF-8")
        }
        // Read on bytes: the list has about 10,000 rules and 6,000 comment lines, and only a
        // rule written in Unicode needs a String of its own (its A-label form).
        var inPrivateSection = false
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            if line.last == 0x0D { line = line.dropLast() }
            guard let wordStart = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            let wordEnd = line[wordStart...].firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) ?? line.endIndex
            var rule = line[wordStart..<wordEnd]
            if rule.starts(with: [0x2F, 0x2F]) {
                let comment = String(decoding: line, as: UTF8.self)
                if comment.contains("===BEGIN PRIVATE DOMAINS===") { inPrivateSection = true }
                if comment.contains("===END PRIVATE DOMAINS===") { inPrivateSection = false }
                continue
            }
            guard icannRules + privateRules < Self.maximumRules else {
                throw SWCredError(.malformedInput, "the Public Suffix List has over \(Self.maximumRules) rules")
            }
            let exception = rule.first == UInt8(ascii: "!")
            if exception { rule = rule.dropFirst() }
            let wildcard = !exception && rule.starts(with: [0x2A, 0x2E])
            if wildcard { rule = rule.dropFirst(2) }
            let dot = UInt8(ascii: ".")
            guard !rule.isEmpty, rule.first != dot, rule.last != dot,
                !zip(rule, rule.dropFirst()).contains(where: { $0 == dot && $1 == dot }),
                let ascii = Self.aLabelForm(rule)
            else {
                throw SWCredError(.malformedInput, "the Public Suffix List has a bad rule on line \(lineNumber)")
            }
            if exception {
                exceptions.insert(ascii)
            } else if wildcard {
                wildcards.insert(ascii)
            } else {
                rules.insert(ascii)
            }
            if inPrivateSection { privateRules += 1 } else { icannRules += 1 }
        }
        guard icannRules + privateRules > 0 else {
            throw SWCredError(.malformedInput, "the Public Suffix List holds no rules")
        }
    }

    /// A rule's A-label form: lowercased ASCII, or `xn--` labels for Unicode ones.
    private static func aLabelForm(_ rule: ArraySlice<UInt8>) -> String? {
        if rule.allSatisfy({ $0 < 0x80 }) { return HostName.lowercasedASCII(String(decoding: rule, as: UTF8.self)) }
        return Punycode.asciiHost(String(decoding: rule, as: UTF8.self))
    }

    /// The public suffix of a canonical (lowercase ASCII) host: the prevailing rule's labels, or
    /// the last label under the implicit `*` rule.
    package func publicSuffix(of host: String) -> Substring {
        let host = Substring(host)
        var starts: [Substring.Index] = [host.startIndex]
        var index = host.startIndex
        while let dot = host[index...].firstIndex(of: ".") {
            index = host.index(after: dot)
            starts.append(index)
        }
        // An exception wins over every other rule: its public suffix drops its first label.
        for (position, start) in starts.enumerated() where exceptions.contains(String(host[start...])) {
            return position + 1 < starts.count ? host[starts[position + 1]...] : host[host.endIndex...]
        }
        // Otherwise the longest matching rule: the first one met from the left.
        for (position, start) in starts.enumerated() {
            let suffix = host[start...]
            if rules.contains(String(suffix)) { return suffix }
            if position + 1 < starts.count, wildcards.contains(String(host[starts[position + 1]...])) { return suffix }
        }
        return starts.last.map { host[$0...] } ?? host
    }

    /// The registrable domain (eTLD+1) of a canonical host, or `nil` when the host is itself a
    /// public suffix (`com`, `github.io`) or empty.
    package func registrableDomain(of host: String) -> String? {
        // A canonical host has no trailing dot; one would give an empty suffix, and no domain.
        let suffix = publicSuffix(of: host)
        guard suffix.startIndex > host.startIndex, !suffix.isEmpty else { return nil }
        // The label before the suffix, and the dot between them.
        let beforeDot = host.index(before: suffix.startIndex)
        let labelStart = host[..<beforeDot].lastIndex(of: ".").map { host.index(after: $0) } ?? host.startIndex
        return String(host[labelStart...])
    }

    /// The registrable origin label of a host (the first label of its registrable domain,
    /// asset-links.md §2.1), or `nil` when the host has no registrable domain.
    package func registrableLabel(of host: String) -> String? {
        guard let domain = registrableDomain(of: host) else { return nil }
        return domain.split(separator: ".", maxSplits: 1).first.map(String.init)
    }

    /// Whether a canonical host is a public suffix (it has no registrable domain).
    package func isPublicSuffix(_ host: String) -> Bool { publicSuffix(of: host) == host[...] }
}

extension PublicSuffixList {
    /// The list's path: `SWCRED_PUBLIC_SUFFIX_LIST` when set and not empty, else ``defaultPath``.
    package static func path(environment: [String: String]) -> String {
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        return defaultPath
    }

    private static let loaded = Mutex<[String: PublicSuffixList]>([:])

    /// The list at `path`, read on first use and kept for the life of the program.
    ///
    /// - Throws: `fileNotFound` when the file cannot be read (the message names the Debian
    ///   package and the environment variable), `malformedInput` when it is not a list.
    package static func load(path: String) throws(SWCredError) -> PublicSuffixList {
        if let list = loaded.withLock({ $0[path] }) { return list }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, upTo: maximumBytes + 1)
        } catch {
            throw SWCredError(
                .fileNotFound,
                "cannot read the Public Suffix List at \(path) (\(error)): install Debian's publicsuffix package "
                    + "or set \(environmentVariable) to a copy of public_suffix_list.dat")
        }
        let list = try PublicSuffixList(parsing: bytes)
        loaded.withLock { $0[path] = list }
        return list
    }
}
