// The rules of spec/associated-domains.md sections 2 to 8 (`AD-2.1`…`AD-8.5`), in id order:
// the ids cited in fetch, verify and match reports, in error messages and in the DocC catalogs.
// Each entry states what Apple's documentation (or, where the spec says so, observed device
// behaviour) does, and marks swcred's own choices as "swcred's decision".

extension RuleBook {
    /// One `.rule` entry per `AD-n.m` rule of the associated-domains specification, sorted by id.
    static let specificationRules: [RuleEntry] = [
        // MARK: - 2. The entitlement

        RuleEntry(
            .ad2_1,
            title: "The associated-domains entitlement is an array of strings",
            apple:
                "securityd reads `com.apple.developer.associated-domains` as an array of strings and gets nothing back when the value is not an array or one element has another type (Apple's Security source, server_entitlement_helpers.c).",
            why:
                "One wrong element disables every entry, so swcred treats the whole entitlement as absent and reports an error (lint SWC107).",
            fix: "Make the value an array and every element a string.",
            example:
                "<key>com.apple.developer.associated-domains</key>\n<array>\n  <string>webcredentials:example.com</string>\n  <string>applinks:example.com</string>\n</array>"
        ),
        RuleEntry(
            .ad2_2,
            title: "An entry is service:domain, with an optional port and mode",
            apple:
                "Apple's entitlement reference defines each entry as `<service>:<domain>`; the domain may carry a port and an alternate mode `?mode=<mode>` (Configuring an Associated Domain). The device compares the service case-insensitively and reads the rest as the authority and query of an https URL, lowercasing the host (decompiled swcd).",
            why:
                "A leading `*.` makes a wildcard entry; the mode is split on `+` and the tokens developer and managed are recognised in any order and case. Unknown services are ignored with a warning (SWC102). swcred's decision: unknown mode tokens and query items other than mode are ignored with a warning.",
            fix: "Write `service:host[:port][?mode=developer|managed|developer+managed]` with a known service.",
            example:
                "applinks:*.Example.com          -> applinks, host example.com, wildcard\nwebcredentials:example.com:8443 -> port 8443\napplinks:dev.example.com?mode=developer+managed"
        ),
        RuleEntry(
            .ad2_3,
            title: "An invalid entry is ignored",
            apple:
                "Apple's Supporting Associated Domains page: \"Don't include path and query components or a trailing slash\". Internationalised names must be written in Punycode (WWDC19 session 717); a wildcard is the leading `*.` (\"the period is required\", archived Universal Links guide), and App Clip entries cannot be wildcards (Configuring an Associated Domain).",
            why:
                "swcred checks the host is ASCII letters, digits, '-' and '.', has a dot and no empty label, that localhost and IP addresses appear only in `?mode=developer` entries, and that a port is 1-65535; invalid entries are reported as errors (SWC101). swcred's decision: a trailing dot is invalid, and no public-suffix list is used (`*.com` fails the one-dot rule).",
            fix:
                "Remove paths, slashes and schemes, write the host in lowercase ASCII or Punycode, and keep wildcards to a leading `*.`.",
            example:
                "applinks:example.com/shop      invalid: path\nappclips:*.example.com         invalid: wildcard\nwebcredentials:xn--bcher-kva.example   valid"
        ),
        RuleEntry(
            .ad2_4,
            title: "A port is part of the domain; applinks entries with a port never open URLs",
            apple:
                "TN3155: \"applinks:example.com:8080 ... will not open your app\". A port is part of the domain's identity and of the URL its file is fetched from.",
            why:
                "swcred keeps applinks entries with a port valid but warns (SWC105). For webcredentials the port takes part in the entitlement check against the domain the app passes.",
            fix:
                "Drop ports from applinks entries; keep them on webcredentials entries only when the site really uses that port.",
            example:
                "applinks:example.com:8080        never opens a URL\nwebcredentials:example.com:8443  matches \"example.com:8443\""
        ),
        RuleEntry(
            .ad2_5,
            title: "Entry order carries no meaning; duplicates collapse",
            apple: "WWDC19 session 717: \"The order of values in this array is ignored by the system\".",
            why:
                "Entries equal after normalisation are collapsed (lint SWC106). swcred's decision: when a plain entry and an active mode entry name the same service, host, port and wildcard, only the mode entry is used, because an association record has no mode and the developer asked for the direct route.",
            fix: "Remove duplicate entries; order them however reads best.",
            example:
                "\"applinks:example.com\", \"applinks:example.com?mode=developer\"\n-> in developer mode only the mode entry is used"
        ),
        RuleEntry(
            .ad2_6,
            title: "Mode entries apply only on devices that allow them",
            apple:
                "Configuring an Associated Domain: `developer` needs developer mode (Settings > Developer > Associated Domains Development) and a development-signed app, `managed` an MDM-managed device that allows direct downloads for the app, `developer+managed` both. An entry whose modes are not satisfied is skipped entirely (decompiled swcd).",
            why:
                "A skipped entry gets no record and no fallback to the CDN route; the diagnostic says \"developer mode is disabled\" or \"bundle is not developer-signed\". Mode entries must be removed before App Store submission (lint SWC103).",
            fix:
                "In swcred, pass --developer-mode with entitlements that carry get-task-allow = true, or --managed, to make mode entries active.",
            example: "swcred verify --entitlements Dev.entitlements --developer-mode --direct"
        ),
        RuleEntry(
            .ad2_7,
            title: "More than about 30 entries",
            apple:
                "Apple's archived Universal Links guide: \"Limit this list to no more than about 20 to 30 domains\". There is no hard limit.",
            why: "swcred warns above 30 entries (lint SWC104) and still uses them all.",
            fix: "Use a wildcard entry where one file can serve the subdomains, and drop unused domains.",
            example:
                "swcred lint --entitlements App.entitlements\nSWC104 warning com.apple.developer.associated-domains: 42 entries"
        ),

        // MARK: - 3. The apple-app-site-association file

        RuleEntry(
            .ad3_1,
            title: "The file is a JSON object keyed by service",
            apple:
                "The top level is an object whose keys are service names (WWDC19 session 717). Unknown top-level keys are ignored.",
            why: "A top level that is not an object is a parse failure (AD-4.9; lint SWC003).",
            fix: "Put every service section into one top-level object.",
            example:
                "{\n  \"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]},\n  \"applinks\": {\"details\": [...]}\n}"
        ),
        RuleEntry(
            .ad3_2,
            title: "webcredentials, appclips and activitycontinuation list apps",
            apple:
                "These sections are `{\"apps\": [\"<app ID>\", ...]}` (Apple's Supporting Associated Domains page, WWDC15 session 509); each string element is one app ID and other elements are ignored (decompiled swcd). \"The details dictionary only applies to the applinks service type\" (Supporting Associated Domains).",
            why:
                "The apps array is what the site says about the app for that service: it is the site's half of two-way trust (AD-6.2).",
            fix: "List each app ID as a string; a details key in these sections has no effect (SWC015).",
            example:
                "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\", \"FGHIJ67890.com.example.other\"]}}"
        ),
        RuleEntry(
            .ad3_3,
            title: "The applinks section: details, defaults, substitutionVariables",
            apple:
                "applinks holds details, defaults and substitutionVariables (Apple's applinks reference) and the legacy apps, which had to be present and empty for iOS 12 and earlier (WWDC19 session 717, archived guide). details is an array of detail objects; the WWDC15 dictionary keyed by app ID is \"obsolete\" (WWDC19 session 717) but Apple's swcutil still matches it.",
            why:
                "The content of applinks.apps is ignored (a non-empty value is a warning, SWC020). swcred matches the legacy dictionary too (SWC023); swcred's decision: its entries are evaluated in ascending code-point order of their keys, because JSON object order carries no meaning.",
            fix: "Use an array of detail objects with appIDs and components.",
            example:
                "\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/buy/*\"}]}]}"
        ),
        RuleEntry(
            .ad3_4,
            title: "Which apps a detail applies to: appIDs, else appID",
            apple:
                "A detail names its apps with appID (a string) or appIDs (an array) (Apple's applinks details reference). If appIDs is present the detail applies to its string elements only and appID is ignored, even when appIDs is empty (st-tech/universal-links-test, checked against swcutil).",
            why:
                "Otherwise a string appID gives one app; otherwise the detail applies to no app (SWC025). swcred's decision: an appIDs that is not an array counts as an empty list, still hides appID, and is reported as an error (SWC027).",
            fix: "Use appIDs, an array of strings, and drop appID unless you support iOS 12.",
            example: "{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [...]}"
        ),
        RuleEntry(
            .ad3_5,
            title: "components wins over paths",
            apple:
                "WWDC19 session 717: \"iOS 13, tvOS 13 and macOS 10.15 will ignore it if the components key is present\". TN3155: \"Please avoid mixing formats\".",
            why: "swcred ignores paths when components is present and warns about the mix (SWC028).",
            fix: "Keep paths only for iOS 12 and earlier, expressing the same rules as components.",
            example: "{\"appIDs\": [...], \"components\": [{\"/\": \"/buy/*\"}], \"paths\": [\"/buy/*\"]}"
        ),
        RuleEntry(
            .ad3_6,
            title: "Unknown keys are ignored at every level",
            apple:
                "Apple's swcutil treats a component holding only an unknown key, or an unknown nested object, as if the key were absent, and a misspelt casesensitive has no effect.",
            why:
                "A misspelling silently drops a setting, so swcred lint warns about keys close to a known one and notes the others (SWC010, SWC036).",
            fix: "Correct misspelt keys; remove keys nothing reads.",
            example: "{\"/\": \"/shop/*\", \"casesensitive\": false}   -> the rule stays case-sensitive"
        ),
        RuleEntry(
            .ad3_7,
            title: "Keys that need newer systems",
            apple:
                "appIDs and components need iOS 13 / macOS 10.15 (WWDC19 session 717); caseSensitive and substitutionVariables iOS 13.5 / macOS 10.15.6; defaults, percentEncoded and Unicode patterns iOS 14 / macOS 11 (Apple's applinks reference, WWDC20 session 10098).",
            why:
                "Older systems ignore those keys. These are validator hints only (lint SWC060); swcred's matcher honours every key.",
            fix: "Check the oldest system the app supports and keep appID and paths only if it is iOS 12 or earlier.",
            example: "applinks.details[0].appIDs: 'appIDs' needs iOS 13 / macOS 10.15; older systems ignore it"
        ),
        RuleEntry(
            .ad3_8,
            title: "Signed files are read, with a deprecation warning",
            apple:
                "A PKCS#7/CMS signed file was required only for iOS 8 (WWDC15 session 509, archived guide) and is deprecated (WWDC19 session 717); devices still parse signed JSON (decompiled swcd).",
            why:
                "swcred unwraps the SignedData and reads the JSON inside, with a warning in fetch reports and lint (SWC006). swcred's decision: the signature is not verified, since signing stopped being required in iOS 9.",
            fix: "Serve the plain JSON file as application/json.",
            example:
                "swcred fetch example.com\nAD-3.8 warning: the file is a signed CMS (PKCS#7) body: signing is deprecated since iOS 9; serve plain JSON"
        ),
        RuleEntry(
            .ad3_9,
            title: "UTF-8 JSON; byte-order mark and duplicate keys",
            apple: "The file is UTF-8 JSON. Apple says nothing about a byte-order mark or duplicate keys.",
            why:
                "swcred's decision: a leading UTF-8 byte-order mark is skipped with a warning (SWC004), and for duplicate object keys the last one wins, with a warning (SWC005). Fetch reports show both under AD-3.9.",
            fix: "Save the file as UTF-8 without BOM, with each key once per object.",
            example:
                "swcred fetch example.com\nAD-3.9 warning: the file starts with a UTF-8 byte-order mark, which was skipped"
        ),

        // MARK: - 4. Retrieval

        RuleEntry(
            .ad4_1,
            title: "Where the file is fetched from: CDN, direct and origin routes",
            apple:
                "Since iOS 14 / macOS 11 \"apps no longer send requests for apple-app-site-association files directly to your web server\" (Supporting Associated Domains): the device asks `https://app-site-association.cdn-apple.com/a/v1/<host>` with `Apple-Proxied-Domain-Name`, and a CDN answer 400-599 is fatal, `_SWCErrorDomain` 7 with the `Apple-Failure-Reason` and `Apple-Failure-Details` headers (decompiled swcd). Entries with an active mode fetch `https://<host>/.well-known/apple-app-site-association` only; for `*.example.com` the file comes from example.com (WWDC19 session 717, TN3155).",
            why:
                "swcred's decision for the origin route (plain entries read from the site itself, `--direct` or `--aasa-dir`): `.well-known` first, and the legacy root `/apple-app-site-association` only when `.well-known` answers 404, with a warning, because only a missing file means \"look in the old place\".",
            fix:
                "Serve the file at `/.well-known/apple-app-site-association` on the entry's host (the wildcard's root for `*.` entries). When the CDN refuses it, read `Apple-Failure-Reason` in the report.",
            example:
                "swcred fetch example.com --cdn\nswcred fetch example.com --direct\nswcred fetch dev.example.com --mode-entry"
        ),
        RuleEntry(
            .ad4_2,
            title: "HTTPS only",
            apple:
                "WWDC19 session 717: \"HTTP is not secure and cannot be used to validate an association\"; Supporting Associated Domains: \"You must host the file using https:// with a valid certificate\".",
            why:
                "swcred refuses any URL that is not https before connecting (NSURLErrorDomain -1022), including redirect targets and a configured CDN base URL.",
            fix: "Serve the file over https with a valid certificate.",
            example:
                "http://example.com/.well-known/apple-app-site-association\n-> refused (AD-4.2, NSURLErrorDomain -1022)"
        ),
        RuleEntry(
            .ad4_3,
            title: "The TLS chain must be trusted by the system roots and name the host",
            apple:
                "The chain is validated against the system trust store with host-name verification: \"Custom root certificates are not supported\" (WWDC19 session 717). The device allows user-installed roots only for developer-mode entries (decompiled swcd). Failures are NSURLErrorDomain -1202 (untrusted certificate) or -1200 (other TLS failure).",
            why:
                "Roots given with `--ca-file` count as user-installed: they are used for developer-mode entries and for an explicit `swcred fetch`, whose report then warns that it relies on a user-installed root.",
            fix:
                "Use a certificate from a publicly trusted CA that names the host, and serve the full chain; keep private roots for developer-mode testing.",
            example:
                "swcred fetch dev.example.test --mode-entry --ca-file dev-root.pem --resolve dev.example.test:443:127.0.0.1"
        ),
        RuleEntry(
            .ad4_4,
            title: "Redirects are not followed",
            apple:
                "Apple documents \"no redirects\" (Supporting Associated Domains) and calls 301/302 unsupported (TN3155); the device nevertheless follows https-to-https redirects on the direct route and refuses others (\"Denying redirect ... bad scheme\", decompiled swcd).",
            why:
                "swcred's decision: strict by default, so any 3xx fails (domain HTTP, code = status) and the report names the Location, because an apex-to-www 301 is a common silent failure. `--follow-redirects` models the device: https targets only, at most 5 hops (-1007 beyond), never on the CDN route.",
            fix:
                "Answer 200 at the exact URL; exempt the well-known path from apex-to-www and http-to-https redirect rules.",
            example:
                "curl -sI https://example.com/.well-known/apple-app-site-association\nHTTP/2 301\nlocation: https://www.example.com/.well-known/apple-app-site-association"
        ),
        RuleEntry(
            .ad4_5,
            title: "The file must be served with a 2xx status",
            apple:
                "A 2xx answer with a body is parsed; a direct-route 4xx is a failure in domain HTTP with the status as code (decompiled swcd). TN3155: 403 and 404 mean access was denied, and the file must be reachable from any IP address and any User-Agent.",
            why: "swcred's decision: a direct-route 5xx is treated like a 4xx. CDN errors are covered by AD-4.1.",
            fix:
                "Make the file public: no authentication, no IP or country blocking, no bot challenge for unknown user agents.",
            example:
                "swcred fetch example.com --direct\nAD-4.5 error: the server answered 403: access was denied or the file is missing"
        ),
        RuleEntry(
            .ad4_6,
            title: "At most 131072 bytes after content decoding",
            apple:
                "The device accepts at most 131072 bytes (0x20000) after content decoding and rejects a longer body as soon as byte 131073 arrives: NSURLErrorDomain -1103, \"Data exceeded maximum length of 131072 bytes.\" (decompiled swcd). The archived guide: \"no greater than 128 KB, regardless of whether the file is signed\".",
            why:
                "swcred refuses an announced Content-Length over the cap before reading, stops reading at byte 131073, and counts decoded bytes for gzip and deflate, so a compression bomb stops at the cap; a body that does not decode is -1016. Exactly 131072 bytes is accepted.",
            fix:
                "Shrink the file: appIDs lists, defaults and substitution variables instead of repeated rules (see SWC001).",
            example:
                "swcred fetch example.com\nAD-4.6 error: Data exceeded maximum length of 131072 bytes. (byte 131073 arrived; reading stopped there)"
        ),
        RuleEntry(
            .ad4_7,
            title: "Content-Type should be application/json",
            apple:
                "The device does not check the content type (decompiled swcd), but Apple's archived guide asks for application/json.",
            why:
                "swcred warns about any other type (application/pkcs7-mime is also accepted for a signed file), since validators check it; the file is still read.",
            fix: "Configure the server to send `Content-Type: application/json` for the file.",
            example: "location = /.well-known/apple-app-site-association {\n    default_type application/json;\n}"
        ),
        RuleEntry(
            .ad4_8,
            title: "The fetch session: no cookies or cache, bounded time",
            apple:
                "The device fetches in an ephemeral session, with no cookies, cache or stored credentials and no explicit timeout, so URL loading's 60-second default applies (decompiled swcd).",
            why:
                "swcred uses connect, read and total timeouts (10, 30 and 60 seconds by default); the total covers the body, so a server that drips bytes is stopped. Network failures carry NSURLErrorDomain codes: -1001 timed out, -1003 host not found, -1004 could not connect (also when a `--resolve` entry names another port).",
            fix:
                "Check DNS and that the host answers on port 443 quickly; for local test servers pass `--resolve HOST:PORT:ADDR` with the port actually fetched.",
            example: "swcred fetch example.test --direct --resolve example.test:443:127.0.0.1 --timeout 10"
        ),
        RuleEntry(
            .ad4_9,
            title: "A file that does not parse is a failure (NSCocoaErrorDomain 3840)",
            apple:
                "Invalid JSON, or a top level that is not an object, fails with NSCocoaErrorDomain 3840, as Foundation's JSON reader reports it.",
            why:
                "swcred parses strict JSON with a depth limit; the fetch report refuses the file under AD-4.9, lint reports SWC002 or SWC003, and reading such a file as input fails with malformedAASA (exit 65).",
            fix: "Validate the file with `swcred lint` before deploying it.",
            example:
                "swcred lint apple-app-site-association\nSWC002 error: the file is not valid JSON: ... (NSCocoaErrorDomain 3840)"
        ),

        // MARK: - 5. The association daemon model

        RuleEntry(
            .ad5_1,
            title: "One association record per service, app and domain",
            apple:
                "The device keeps one record per (service, app ID, domain), the domain being host, port, wildcard and modes (decompiled swcd). `swcutil show` labels its fields \"User Approval\", \"Site/Fmwk Approval\", \"Last Checked\", \"Next Check\", \"Error\" and \"Retries\" (TN3155).",
            why:
                "swcred stores the same fields: user and site approval (unspecified, approved or denied), last checked, next check, last error, retry count and, for applinks, the parsed rules.",
            fix: "Inspect the records with `swcred associations`.",
            example: "swcred associations --app-id ABCDE12345.com.example.app"
        ),
        RuleEntry(
            .ad5_2,
            title: "Records are created at install and reset on reinstall",
            apple:
                "Installing an app, or changing its entitlement, creates a record per active entry with both approvals unspecified. TN3155: \"To download a newer version of the AASA file, reinstall the app\"; `swcutil reset` deletes all records.",
            why: "swcred models the same lifecycle so that tests see what a device would.",
            fix:
                "Recreate an app's records with `swcred associations --entitlements FILE --reinstall`, or delete them with `--reset`.",
            example: "swcred associations --entitlements App.entitlements --reinstall --aasa-dir sites"
        ),
        RuleEntry(
            .ad5_3,
            title: "Site approval follows the last successful fetch",
            apple: "Apple does not publish the exact update step; TN3155 describes the Site/Fmwk Approval field.",
            why:
                "swcred's decision (the only rule consistent with TN3155): after a successful fetch and parse, site approval becomes approved if the file lists the app for the record's service, otherwise denied, and the error and retry count are cleared; after a failed fetch, approval is unchanged, the error is recorded and the retry count grows.",
            fix: "List the app in the file for that service, then refresh the record from a source.",
            example: "swcred associations --entitlements App.entitlements --aasa-dir sites --force"
        ),
        RuleEntry(
            .ad5_4,
            title: "User approval changes only through the user",
            apple:
                "\"Not Now\" in a Shared Web Credentials prompt sets user approval to denied; choosing a credential in the legacy picker sets it to approved. For applinks, iOS follows the user's latest choice between the app and the website (archived Universal Links guide).",
            why: "User approval changes what the interface does; it never creates or removes trust (AD-6.5).",
            fix: "Reset the user's choice by recreating the records (`swcred associations --reinstall`).",
            example: "swcred add example.com alice --password-stdin --entitlements App.entitlements --user not-now"
        ),
        RuleEntry(
            .ad5_5,
            title: "When records are checked again",
            apple:
                "Apple's documentation speaks of updates \"approximately once per week\" and of the CDN fetching \"within 24 hours\" (Supporting Associated Domains). The device's constants (decompiled swcd): after a success, or a failure once site approval is decided, about 5 days (428400 s plus up to 3600 s); after a failure while site approval is unspecified, 3 to 4 hours, doubled for each retry from the 8th on.",
            why:
                "swcred uses the device's constants, configurable. swcred's decision: the backed-off delay is capped at 30 days, since no cap is published.",
            fix: "To check a record before it is due, refresh with `--force`.",
            example: "swcred associations --entitlements App.entitlements --direct --force"
        ),
        RuleEntry(
            .ad5_6,
            title: "No hidden network access",
            apple:
                "A device refreshes association records in the background (Supporting Associated Domains: approximately once per week), and Apple's SecAddSharedWebCredential page says the system fetches the file when the function is called.",
            why:
                "swcred's decision: there is no background daemon. Records are refreshed only when a command is given a source (`--aasa-dir`, `--direct`, `--cdn`), skipping records not yet due unless forced; matching and credential operations use the stored state and never fetch, so tests are reproducible.",
            fix: "Pass a source to the command, or refresh first with `swcred associations`.",
            example: "swcred request example.com --entitlements App.entitlements --aasa-dir sites"
        ),

        // MARK: - 6. Two-way trust

        RuleEntry(
            .ad6_1,
            title: "Trust needs both sides: the entitlement and the site's file",
            apple:
                "An association holds when the app's entitlement names the domain and the domain's file names the app (Supporting Associated Domains, WWDC15 session 509, WWDC19 session 717).",
            why:
                "In swcred: an active entry of that service covers the host (section 8) and that entry's record has site approval approved (AD-5.3).",
            fix: "Check both sides with `swcred verify`; its reason names the side that is missing.",
            example: "swcred verify --entitlements App.entitlements --aasa-dir sites"
        ),
        RuleEntry(
            .ad6_2,
            title: "Where the file lists the app, per service",
            apple:
                "webcredentials: webcredentials.apps holds the app ID; applinks: a details entry applies to it; appclips: appclips.apps holds the clip's app ID (and the entry is no wildcard); activitycontinuation: activitycontinuation.apps holds it (Supporting Associated Domains).",
            why: "Each service reads its own section, so an app listed in one section is not listed for the others.",
            fix: "List the app in the section of every service its entitlement names.",
            example:
                "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]},\n \"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}]}}"
        ),
        RuleEntry(
            .ad6_3,
            title: "Services are independent",
            apple:
                "A webcredentials listing gives no applinks association and the reverse (Supporting Associated Domains). For a file with only webcredentials, Apple's swcutil reports the webcredentials association and no applinks match, so no URL opens the app.",
            why: "Each service has its own records and its own check.",
            fix:
                "Add an applinks section if URLs should open the app, and a webcredentials section for shared passwords.",
            example: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}   -> no URL opens the app"
        ),
        RuleEntry(
            .ad6_4,
            title: "App IDs compare exactly and case-sensitively",
            apple:
                "The file names \"the exact `<TeamID>.<bundleID>`\" (Supporting Associated Domains); the full `<prefix>.<bundle id>` string is compared.",
            why: "A different prefix, bundle ID or letter case is a different app (lint SWC014).",
            fix: "Copy the application-identifier exactly as the app is signed.",
            example: "\"ABCDE12345.com.example.App\" does not list ABCDE12345.com.example.app"
        ),
        RuleEntry(
            .ad6_5,
            title: "User approval never changes trust",
            apple:
                "The user's choices (\"Not Now\", opening a link in the browser) change what the interface does, not the association (AD-5.4).",
            why: "Two-way trust depends only on the entitlement and the site's file.",
            fix: "To stop an association, change the entitlement or the file, not the user's answer.",
            example:
                "swcred verify --entitlements App.entitlements --aasa-dir sites   # the same result after --user not-now"
        ),
        RuleEntry(
            .ad6_6,
            title: "Web browser apps cannot use applinks",
            apple: "TN3155: \"Apps registered as web browsers cannot use applinks\".",
            why:
                "For an app whose entitlements set `com.apple.developer.web-browser` to true, swcred reports its applinks associations as not trusted, with that reason; its other services are unaffected.",
            fix: "Do not rely on applinks in a browser app; its webcredentials and other services still work.",
            example: "<key>com.apple.developer.web-browser</key>\n<true/>"
        ),

        // MARK: - 7. applinks URL matching

        RuleEntry(
            .ad7_1,
            title: "Which URLs can open an app: http(s), the same host, the default port",
            apple:
                "WWDC19 session 717: \"Universal links are HTTP or HTTPS URLs\". The URL host is compared case-insensitively with the host the rules belong to (Apple's swcutil); a URL for another host never matches.",
            why:
                "swcred's decision: a URL with an explicit port other than its scheme's default never matches, because applinks associations carry no port (AD-2.4); user info is ignored.",
            fix: "Link to the default port of the scheme.",
            example:
                "swcred match https://example.com:8443/buy/1 --aasa aasa.json\n-> no_match: a URL with a non-default port never opens an app (AD-7.1)"
        ),
        RuleEntry(
            .ad7_2,
            title: "Three outcomes: match, exclude, no_match",
            apple: "Apple's swcutil reports an excluded URL as a \"blocked match\", distinct from no match.",
            why:
                "swcred keeps exclude apart from no_match: an exclude stops the search, a no_match lets later details and the wildcard entry try (AD-7.3, AD-8.5).",
            fix: "Read the rule field of `swcred match` to see which rule decided.",
            example:
                "swcred match https://example.com/help --aasa aasa.json --format json\n{\"outcome\": \"exclude\", \"rule\": {\"detail\": 0, \"component\": 0, ...}}"
        ),
        RuleEntry(
            .ad7_3,
            title: "Rules are tried in order; the first match wins",
            apple:
                "\"The order of the dictionaries in the array determines the order the system follows when looking for a match\" (archived guide); \"The first match wins\" (Apple's components reference). A first matching rule with `\"exclude\": true` gives exclude, without trying later rules (swcutil).",
            why:
                "Details that do not apply to the app are skipped, and once a detail decides, later details are not consulted. swcred's decision: a detail in which no rule matches passes on to the next applicable one; if none decides, the outcome is no_match.",
            fix: "Put exclusions before the broader rules they carve out of.",
            example:
                "\"components\": [{\"/\": \"/buy/help\", \"exclude\": true}, {\"/\": \"/buy/*\"}]\n/buy/help -> exclude, /buy/42 -> match"
        ),
        RuleEntry(
            .ad7_4,
            title: "A component matches when every component it specifies matches",
            apple:
                "Keys `/`, `?`, `#`, exclude, caseSensitive, percentEncoded and comment (Apple's components reference). \"For a components dictionary to match a candidate URL, all the specified components must match\"; an unspecified one acts as `*` (WWDC19 session 717), and `{}` matches every URL. An absent query or fragment is the empty string: `*` and \"\" match it, `?*` does not (swcutil).",
            why:
                "Apple's own example: `{\"/\":\"abc\",\"?\":\"def\",\"#\":\"*\"}` matches https://www.example.com/abc?def but not .../abc.",
            fix: "Specify only the components that should restrict the match.",
            example: "{\"/\": \"/search\", \"?\": {\"q\": \"?*\"}}   matches /search?q=shoes, not /search"
        ),
        RuleEntry(
            .ad7_5,
            title: "defaults: component, then detail, then applinks, then built-in",
            apple:
                "Each of `/`, `?`, `#`, exclude, caseSensitive and percentEncoded comes from the component, else the detail's defaults, else applinks.defaults, else the built-in default (`*`, false, true, true) (Apple's defaults reference). Pattern keys and exclude in defaults are honoured: with applinks.defaults `{\"/\": \"/foo/*\"}`, a component `{\"#\": \"*\"}` rejects /bar (swcutil).",
            why:
                "swcred's decision: overriding is per key and replaces the whole value; a `?` dictionary is not merged with a less specific one.",
            fix: "Put shared settings such as caseSensitive in defaults, and override them per component where needed.",
            example: "\"applinks\": {\"defaults\": {\"caseSensitive\": false}, \"details\": [...]}"
        ),
        RuleEntry(
            .ad7_6,
            title: "Wildcards: `*` and `?`",
            apple:
                "`*` matches zero or more characters, crossing `/`; `?` matches exactly one character, so `?*` means one or more; the whole component must match, and there is no escape syntax (Apple's components reference, WWDC19 session 717; swcutil: `/buy/*` matches /buy/42/x).",
            why: "A pattern is anchored at both ends, so `/buy` alone does not match /buy/42.",
            fix: "Use `/*` at the end for a subtree and `?*` for \"at least one character\".",
            example: "{\"/\": \"/buy/?*\"}   matches /buy/42 and /buy/42/x, not /buy/"
        ),
        RuleEntry(
            .ad7_7,
            title: "Slashes at the start and end of paths",
            apple:
                "Not documented by Apple; observed on swcutil: a pattern's leading slash is optional, trailing slashes are insignificant on both sides, `/buy/*` also matches /buy (but not /buyer), `?` is never satisfied by padding, and `/` matches an empty path.",
            why:
                "swcred's decision (one procedure giving exactly these results): add a leading `/` and collapse leading slashes, treat an empty URL path as `/`, strip trailing slashes from both, match; if that fails and the pattern ends in `/*`, match again without the `/*`.",
            fix: "Write patterns with a leading slash; no need to list both /buy and /buy/.",
            example: "{\"/\": \"/buy/*\"}   matches /buy, /buy/ and /buy/42; not /buyer"
        ),
        RuleEntry(
            .ad7_8,
            title: "A string ? pattern matches the whole raw query",
            apple:
                "A string `?` pattern is matched against the whole query after `?`: `\"a=1\"` does not match ?a=1&b=2 (swcutil).",
            why: "The query is not split into items in this form, so item order and extra items matter.",
            fix: "Use a `?` dictionary to test single items, or end the string with `*`.",
            example: "{\"?\": \"a=1*\"}   matches ?a=1&b=2"
        ),
        RuleEntry(
            .ad7_9,
            title: "A ? dictionary matches query items by name",
            apple:
                "Items the dictionary does not name are ignored; missing items and items without a value count as the empty string; every instance of a named item must match (WWDC19 session 717; swcutil: `{\"id\": \"42\"}` does not match ?id=7&id=42). If any value is not a string, the whole dictionary is ignored (swcutil).",
            why:
                "Items are split on `&` and at the first `=`, and `+` is not a space. swcred's decision: names and values are compared as written when percentEncoded is true and percent-decoded when it is false. A non-string value is a lint error (SWC033).",
            fix: "Write every value as a string pattern.",
            example: "{\"?\": {\"ref\": \"?*\", \"flag\": \"\"}}   matches ?ref=mail&flag"
        ),
        RuleEntry(
            .ad7_10,
            title: "The # pattern matches the fragment",
            apple:
                "The `#` pattern is matched against the fragment without its `#`; an absent fragment is the empty string (Apple's components reference, swcutil).",
            why: "So `\"#\": \"?*\"` requires a fragment and `\"#\": \"\"` forbids one.",
            fix: "Leave `#` unspecified unless fragments matter.",
            example: "{\"/\": \"/docs/*\", \"#\": \"no_universal_links\", \"exclude\": true}"
        ),
        RuleEntry(
            .ad7_11,
            title: "Matching is case-sensitive unless caseSensitive is false",
            apple:
                "Matching is case-sensitive by default; with `\"caseSensitive\": false` pattern and value are both case-folded, built-in variables included (`$(upper)` accepts q) (swcutil; Apple's components reference).",
            why:
                "swcred's decision: query-item names are folded together with values, since Apple's behaviour there is unsettled.",
            fix: "Set `\"caseSensitive\": false` (iOS 13.5 and later) where URLs vary in case.",
            example: "{\"/\": \"/Shop/*\", \"caseSensitive\": false}   matches /shop/1 and /SHOP/1"
        ),
        RuleEntry(
            .ad7_12,
            title: "percentEncoded: compare as written, or decoded",
            apple:
                "With percentEncoded true (the default) the URL component is compared exactly as written: the path /a%20b matches the pattern `/a%20b` but not `/a b`, and hex case matters. With false the URL component is percent-decoded and the pattern used as written, so `/café/*` matches /caf%C3%A9/menu (Apple's applinks reference, WWDC20 session 10098, swcutil).",
            why:
                "Because URLs are ASCII, under true a `?` matches one byte of an escape (WWDC19 session 717). swcred's decision: under false, `?` matches one Unicode scalar, invalid escapes stay undecoded, and needless escapes such as %2c are not normalised.",
            fix:
                "Percent-encode patterns as they appear in URLs, or set `\"percentEncoded\": false` (iOS 14 and later) to write them decoded (lint SWC045).",
            example: "{\"/\": \"/café/*\", \"percentEncoded\": false}   matches /caf%C3%A9/menu"
        ),
        RuleEntry(
            .ad7_13,
            title: "Substitution variables",
            apple:
                "Variables are defined as `{\"name\": [\"value\", ...]}` in applinks.substitutionVariables and used as `$(name)` in any pattern; values may contain `*` and `?` but no variables. Built-ins: `$(alpha)`, `$(upper)`, `$(lower)`, `$(alnum)`, `$(digit)`, `$(xdigit)`, `$(region)` and `$(lang)` (Apple's substitutionVariables reference, WWDC20 session 10098). `$(region)` accepts GB and rejects UK (swcutil).",
            why:
                "swcred's decision: the ISO code lists are a snapshot of ICU's, for the same results on every platform; a custom variable named like a built-in is ignored (SWC038); an undefined variable makes its pattern never match (SWC037).",
            fix: "Define each variable you use, with plain string values.",
            example:
                "\"substitutionVariables\": {\"food\": [\"pizza\", \"tacos\"]}\n{\"/\": \"/$(lang)_$(region)/$(food)/\"}   matches /en_US/pizza/"
        ),
        RuleEntry(
            .ad7_14,
            title: "Legacy paths",
            apple:
                "paths is an array of strings evaluated in order, stopping at the first positive or negative match; a 'NOT ' prefix (with the space) excludes; only the path is compared, case-sensitively; `\"*\"` alone matches everything (archived guide, WWDC15 session 509).",
            why:
                "swcred's decision: the slash normalisation of AD-7.7 applies to legacy paths; defaults, caseSensitive, percentEncoded and substitution variables do not, since they arrived with components.",
            fix: "Move to components (lint SWC029); write exclusions as 'NOT /path' (SWC041).",
            example: "\"paths\": [\"NOT /help/*\", \"/buy/*\"]"
        ),
        RuleEntry(
            .ad7_15,
            title: "Rules with values of the wrong type",
            apple:
                "Apple does not document what a wrongly typed rule value does, apart from `?` dictionaries (AD-7.9).",
            why:
                "swcred's decision: a non-string `/` or `#` counts as unspecified; only the JSON value true makes exclude true; a non-Boolean caseSensitive or percentEncoded falls back to the inherited value; a components value that is not an array gives the detail no rules; a non-object component is skipped. Each is a lint error (SWC030-SWC035).",
            fix: "Use strings for patterns and true or false for flags.",
            example: "{\"/\": \"/help/*\", \"exclude\": \"true\"}   -> not excluded: write \"exclude\": true"
        ),

        // MARK: - 8. Domain lookup

        RuleEntry(
            .ad8_1,
            title: "An exact entry covers exactly its host",
            apple:
                "example.com and www.example.com are distinct and need separate entries and files (WWDC15 session 509, archived guide).",
            why: "Hosts compare case-insensitively, and nothing else is implied: no `www.` and no subdomains.",
            fix: "Add an entry (and serve a file) for each host, or use a wildcard entry.",
            example: "\"applinks:example.com\", \"applinks:www.example.com\""
        ),
        RuleEntry(
            .ad8_2,
            title: "A wildcard entry covers subdomains, never the domain itself",
            apple:
                "`*.D` covers every host ending in `.D`, at any depth: \"`*.mywebsite.com` does not match `mywebsite.com`\" (archived guide).",
            why: "A site that needs both the apex and its subdomains needs two entries.",
            fix: "Add the apex as its own entry beside the wildcard.",
            example: "\"applinks:*.example.com\", \"applinks:example.com\""
        ),
        RuleEntry(
            .ad8_3,
            title: "The longest covering wildcard wins",
            apple:
                "With `*.mywebsite.com` and `*.users.mywebsite.com`, emily.users.mywebsite.com uses the latter (archived guide).",
            why: "Only one wildcard entry is consulted for a host: the most specific.",
            fix: "Make sure the most specific wildcard's root serves the rules for its subdomains.",
            example:
                "\"applinks:*.example.com\", \"applinks:*.users.example.com\"\nemily.users.example.com -> *.users.example.com"
        ),
        RuleEntry(
            .ad8_4,
            title: "A wildcard entry uses its root domain's file",
            apple:
                "For `*.example.com` the system visits example.com (WWDC19 session 717, TN3155); an exact entry uses its own host's file.",
            why: "One file at the root serves every covered subdomain.",
            fix: "Serve the file at the root domain of each wildcard entry.",
            example: "applinks:*.example.com -> https://example.com/.well-known/apple-app-site-association"
        ),
        RuleEntry(
            .ad8_5,
            title: "An exact entry is tried before a wildcard",
            apple:
                "\"Exact domains have higher priority during universal links look up than wildcard domains ... Patterns from the parent domain will only be matched if no match was found at the fully qualified subdomain.\" (WWDC19 session 717)",
            why:
                "swcred evaluates the exact entry's record first and the longest covering wildcard (with the root's file) only on no_match or when the exact entry is absent or not associated. swcred's decision: an exclude at the exact host is final, and only one wildcard entry is consulted.",
            fix:
                "Keep the rules of a subdomain in its own file when it has an exact entry; rely on the root's file only for what the subdomain does not decide.",
            example:
                "entries applinks:www.example.com and applinks:*.example.com\nhttps://www.example.com/promo: no rule in www's file, example.com matches /promo* -> match"
        ),
    ]
}
