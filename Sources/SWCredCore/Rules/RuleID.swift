/// A rule of the associated-domains specification (`AD-n.m`, `Documentation/spec/associated-domains.md`
/// sections 2 to 8) or of the asset-links specification (`DAL-S3`, `Documentation/spec/asset-links.md`
/// §1.8), as retrieval and trust reports, lint findings, diagnostics and error messages cite it.
///
/// The raw value is the id exactly as printed and as JSON carries it (`"AD-4.8"`); every case has
/// an entry in the rule book, which `swcred explain AD-4.8` prints. Code that cites a rule uses a
/// case, never the text, so an id that resolves nowhere cannot be written.
///
/// New rules add cases; switch over the cases you handle with a `default`.
///
/// ```swift
/// for diagnostic in report.diagnostics where diagnostic.rule == .ad4_8 {
///     print(diagnostic.message)  // AD-4.8: the time limits
/// }
/// ```
public enum RuleID: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    // MARK: 2. The entitlement

    /// AD-2.1: The associated-domains entitlement is an array of strings.
    case ad2_1 = "AD-2.1"
    /// AD-2.2: An entry is service:domain, with an optional port and mode.
    case ad2_2 = "AD-2.2"
    /// AD-2.3: An invalid entry is ignored.
    case ad2_3 = "AD-2.3"
    /// AD-2.4: A port is part of the domain; applinks entries with a port never open URLs.
    case ad2_4 = "AD-2.4"
    /// AD-2.5: Entry order carries no meaning; duplicates collapse.
    case ad2_5 = "AD-2.5"
    /// AD-2.6: Mode entries apply only on devices that allow them.
    case ad2_6 = "AD-2.6"
    /// AD-2.7: More than about 30 entries.
    case ad2_7 = "AD-2.7"

    // MARK: 3. The apple-app-site-association file

    /// AD-3.1: The file is a JSON object keyed by service.
    case ad3_1 = "AD-3.1"
    /// AD-3.2: webcredentials, appclips and activitycontinuation list apps.
    case ad3_2 = "AD-3.2"
    /// AD-3.3: The applinks section: details, defaults, substitutionVariables.
    case ad3_3 = "AD-3.3"
    /// AD-3.4: Which apps a detail applies to: appIDs, else appID.
    case ad3_4 = "AD-3.4"
    /// AD-3.5: components wins over paths.
    case ad3_5 = "AD-3.5"
    /// AD-3.6: Unknown keys are ignored at every level.
    case ad3_6 = "AD-3.6"
    /// AD-3.7: Keys that need newer systems.
    case ad3_7 = "AD-3.7"
    /// AD-3.8: Signed files are read, with a deprecation warning.
    case ad3_8 = "AD-3.8"
    /// AD-3.9: UTF-8 JSON; byte-order mark and duplicate keys.
    case ad3_9 = "AD-3.9"

    // MARK: 4. Retrieval

    /// AD-4.1: Where the file is fetched from: CDN, direct and origin routes.
    case ad4_1 = "AD-4.1"
    /// AD-4.2: HTTPS only.
    case ad4_2 = "AD-4.2"
    /// AD-4.3: The TLS chain must be trusted by the system roots and name the host.
    case ad4_3 = "AD-4.3"
    /// AD-4.4: Redirects are not followed.
    case ad4_4 = "AD-4.4"
    /// AD-4.5: The file must be served with a 2xx status.
    case ad4_5 = "AD-4.5"
    /// AD-4.6: At most 131072 bytes after content decoding.
    case ad4_6 = "AD-4.6"
    /// AD-4.7: Content-Type should be application/json.
    case ad4_7 = "AD-4.7"
    /// AD-4.8: The fetch session: no cookies or cache, bounded time.
    case ad4_8 = "AD-4.8"
    /// AD-4.9: A file that does not parse is a failure (NSCocoaErrorDomain 3840).
    case ad4_9 = "AD-4.9"

    // MARK: 5. The association daemon model

    /// AD-5.1: One association record per service, app and domain.
    case ad5_1 = "AD-5.1"
    /// AD-5.2: Records are created at install and reset on reinstall.
    case ad5_2 = "AD-5.2"
    /// AD-5.3: Site approval follows the last successful fetch.
    case ad5_3 = "AD-5.3"
    /// AD-5.4: User approval changes only through the user.
    case ad5_4 = "AD-5.4"
    /// AD-5.5: When records are checked again.
    case ad5_5 = "AD-5.5"
    /// AD-5.6: No hidden network access.
    case ad5_6 = "AD-5.6"

    // MARK: 6. Two-way trust

    /// AD-6.1: Trust needs both sides: the entitlement and the site's file.
    case ad6_1 = "AD-6.1"
    /// AD-6.2: Where the file lists the app, per service.
    case ad6_2 = "AD-6.2"
    /// AD-6.3: Services are independent.
    case ad6_3 = "AD-6.3"
    /// AD-6.4: App IDs compare exactly and case-sensitively.
    case ad6_4 = "AD-6.4"
    /// AD-6.5: User approval never changes trust.
    case ad6_5 = "AD-6.5"
    /// AD-6.6: Web browser apps cannot use applinks.
    case ad6_6 = "AD-6.6"

    // MARK: 7. applinks URL matching

    /// AD-7.1: Which URLs can open an app: http(s), the same host, the default port.
    case ad7_1 = "AD-7.1"
    /// AD-7.2: Three outcomes: match, exclude, no_match.
    case ad7_2 = "AD-7.2"
    /// AD-7.3: Rules are tried in order; the first match wins.
    case ad7_3 = "AD-7.3"
    /// AD-7.4: A component matches when every component it specifies matches.
    case ad7_4 = "AD-7.4"
    /// AD-7.5: defaults: component, then detail, then applinks, then built-in.
    case ad7_5 = "AD-7.5"
    /// AD-7.6: Wildcards: `*` and `?`.
    case ad7_6 = "AD-7.6"
    /// AD-7.7: Slashes at the start and end of paths.
    case ad7_7 = "AD-7.7"
    /// AD-7.8: A string ? pattern matches the whole raw query.
    case ad7_8 = "AD-7.8"
    /// AD-7.9: A ? dictionary matches query items by name.
    case ad7_9 = "AD-7.9"
    /// AD-7.10: The # pattern matches the fragment.
    case ad7_10 = "AD-7.10"
    /// AD-7.11: Matching is case-sensitive unless caseSensitive is false.
    case ad7_11 = "AD-7.11"
    /// AD-7.12: percentEncoded: compare as written, or decoded.
    case ad7_12 = "AD-7.12"
    /// AD-7.13: Substitution variables.
    case ad7_13 = "AD-7.13"
    /// AD-7.14: Legacy paths.
    case ad7_14 = "AD-7.14"
    /// AD-7.15: Rules with values of the wrong type.
    case ad7_15 = "AD-7.15"

    // MARK: 8. Domain lookup

    /// AD-8.1: An exact entry covers exactly its host.
    case ad8_1 = "AD-8.1"
    /// AD-8.2: A wildcard entry covers subdomains, never the domain itself.
    case ad8_2 = "AD-8.2"
    /// AD-8.3: The longest covering wildcard wins.
    case ad8_3 = "AD-8.3"
    /// AD-8.4: A wildcard entry uses its root domain's file.
    case ad8_4 = "AD-8.4"
    /// AD-8.5: An exact entry is tried before a wildcard.
    case ad8_5 = "AD-8.5"

    // MARK: Asset links (asset-links.md §1.8: Android Digital Asset Links)

    /// DAL-F1: The statement list answers 200 directly; a redirect is an error.
    case dalF1 = "DAL-F1"
    /// DAL-F2: The statement list is served as application/json (Google's API).
    case dalF2 = "DAL-F2"
    /// DAL-F3: The statement list is at most 1 MiB.
    case dalF3 = "DAL-F3"
    /// DAL-F5: The statement list is JSON, not an HTML page.
    case dalF5 = "DAL-F5"
    /// DAL-S1: The top level is a non-empty array of strict JSON.
    case dalS1 = "DAL-S1"
    /// DAL-S2: Each element is a statement (relation and target) or an include.
    case dalS2 = "DAL-S2"
    /// DAL-S3: A relation is kind/detail, each [a-z0-9_.]+.
    case dalS3 = "DAL-S3"
    /// DAL-S4: The target namespace is web or android_app.
    case dalS4 = "DAL-S4"
    /// DAL-S5: A web target's site is http(s)://host[:port], nothing more.
    case dalS5 = "DAL-S5"
    /// DAL-S6: An android_app target has a package name and SHA-256 fingerprints.
    case dalS6 = "DAL-S6"
    /// DAL-S7: One malformed element may fail the whole list on an Android device.
    case dalS7 = "DAL-S7"
    /// DAL-S8: Placeholder fingerprints and text.
    case dalS8 = "DAL-S8"
    /// DAL-S9: Extra keys on web targets, duplicate statements and fingerprints.
    case dalS9 = "DAL-S9"
    /// DAL-I1: Includes of a secure source are https.
    case dalI1 = "DAL-I1"
    /// DAL-I2: Each include is fetched and read on its own.
    case dalI2 = "DAL-I2"
    /// DAL-I3: Includes deeper than one level.
    case dalI3 = "DAL-I3"
    /// DAL-I4: Include cycles.
    case dalI4 = "DAL-I4"
    /// DAL-Q1: Whether a source grants a relation to a target, per verifier.
    case dalQ1 = "DAL-Q1"
    /// DAL-Q2: An app's verifiable hosts each grant it handle_all_urls; Android 11 and lower: all or none.
    case dalQ2 = "DAL-Q2"
    /// DAL-Q4: Passkeys from an Android app and its apk-key-hash origins.
    case dalQ4 = "DAL-Q4"
    /// DAL-Q5: The app's asset_statements string includes its sites' assetlinks.json.
    case dalQ5 = "DAL-Q5"
    /// DAL-Q6: The iOS and Android apps of one domain are trusted for the same things.
    case dalQ6 = "DAL-Q6"

    // MARK: Related origins (asset-links.md §2.4: WebAuthn Related Origin Requests)

    /// ROR-F1: /.well-known/webauthn answers 200, after https-only redirects.
    case rorF1 = "ROR-F1"
    /// ROR-F2: /.well-known/webauthn is served as application/json.
    case rorF2 = "ROR-F2"
    /// ROR-F3: /.well-known/webauthn is at most 256 KiB (64 KiB for WebKit).
    case rorF3 = "ROR-F3"
    /// ROR-S1: The top level is an object whose origins is an array of strings.
    case rorS1 = "ROR-S1"
    /// ROR-S2: Each entry is an https origin with a registrable domain.
    case rorS2 = "ROR-S2"
    /// ROR-L1: Entries after the fifth registrable origin label are dead.
    case rorL1 = "ROR-L1"
    /// ROR-L2: WebKit examines at most 100 valid entries.
    case rorL2 = "ROR-L2"
    /// ROR-L3: Entries on the RP ID or its subdomains are unnecessary.
    case rorL3 = "ROR-L3"
    /// ROR-Q1: Whether a caller origin may use an RP ID through its related origins.
    case rorQ1 = "ROR-Q1"

    /// The id as printed (`AD-4.8`).
    public var description: String { rawValue }
}
