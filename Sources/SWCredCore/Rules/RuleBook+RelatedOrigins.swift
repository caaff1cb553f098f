// The rules of spec/asset-links.md §2.4 that swcred cites (`ROR-F1`…`ROR-Q1`), in RuleID order:
// the ids of `swcred lint` findings on /.well-known/webauthn files and of related-origin
// decisions in passkey ceremonies. For these entries the `apple` field tells what browsers do
// (`RuleEntry.platformHeading`): the WebAuthn spec, Chrome, Firefox and WebKit.

extension RuleBook {
    /// One `.lint` entry per lint id of a related-origins rule (`SWC251` for ROR-L1), sorted by id.
    static let relatedOriginsLintRules: [RuleEntry] = RuleID.lintedRelatedOriginsRules.compactMap {
        rule -> RuleEntry? in
        guard let id = rule.lintID, let entry = relatedOriginsRules.first(where: { $0.id == rule.rawValue }) else {
            return nil
        }
        return RuleEntry(
            id, .lint, title: "webauthn: \(entry.title) (\(rule.rawValue))", apple: entry.apple, why: entry.why,
            fix: entry.fix, example: entry.example)
    }.sorted { $0.id < $1.id }

    /// One `.rule` entry per `ROR-…` case of ``RuleID``, in case order.
    static let relatedOriginsRules: [RuleEntry] = [
        RuleEntry(
            .rorF1,
            title: "/.well-known/webauthn answers 200, after https-only redirects",
            apple:
                "The WebAuthn spec fetches https://<rpId>/.well-known/webauthn without credentials or referrer and requires every redirect to use https (w3c/webauthn#2186); Firefox and WebKit check each hop, Chrome follows redirects. A failed fetch or a status other than 200 is a SecurityError.",
            why:
                "swcred fetches the file live (--direct) following at most 5 https redirects, each reported; a redirect to http, an error status or a network failure refuses the related origin (passkeyOriginNotAllowed, exit 50).",
            fix: "Serve the file at https://<rpId>/.well-known/webauthn itself, with status 200.",
            example: "curl -sI https://example.com/.well-known/webauthn | head -n 1\nHTTP/2 200"
        ),
        RuleEntry(
            .rorF2,
            title: "/.well-known/webauthn is served as application/json",
            apple:
                "Chrome compares the parsed MIME type with application/json (parameters allowed; else kWrongContentType), WebKit compares it ignoring case, Firefox accepts any header that contains application/json.",
            why:
                "swcred requires the media type application/json, parameters aside (Chrome's reading), so that a file it accepts works in every client.",
            fix: "Serve /.well-known/webauthn with Content-Type: application/json.",
            example: "curl -sI https://example.com/.well-known/webauthn | grep -i content-type"
        ),
        RuleEntry(
            .rorF3,
            title: "/.well-known/webauthn is at most 256 KiB (64 KiB for WebKit)",
            apple:
                "Chrome reads at most 262,144 bytes (kRpIdMaxBodyBytes); WebKit's well-known fetch stops at 65,536 bytes; Firefox sets no limit in the code read.",
            why:
                "swcred refuses a body over 256 KiB while reading it and warns over 64 KiB, where Safari already fails.",
            fix: "Keep the file small: it needs at most a handful of origins (five labels, ROR-L1).",
            example: "swcred lint --kind webauthn webauthn\nSWC263 ROR-F3 warning: the file is 70000 bytes; WebKit reads at most 65536"
        ),
        RuleEntry(
            .rorS1,
            title: "The top level is an object whose origins is an array of strings",
            apple:
                "The spec, Firefox and WebKit reject the whole document when it is not an object with an 'origins' array of strings; Chrome reports a parse error only when its iteration reaches a non-string entry, so a match earlier in the list still wins there.",
            why:
                "swcred follows the spec: any non-string entry fails the document, for every caller (the stricter clients' verdict).",
            fix: "Serve {\"origins\": [\"https://example.de\", \"https://example.fr\"]}.",
            example: "{\"origins\": \"https://example.de\"}     <- a string\n{\"origins\": [\"https://example.de\"]}   <- an array"
        ),
        RuleEntry(
            .rorS2,
            title: "Each entry is an https origin with a registrable domain",
            apple:
                "Clients skip an entry the URL parser refuses, one without an effective domain, and one whose registrable origin label is empty (https://com); an http or scheme-less entry never matches a secure caller. Clients compare origins, so a path is ignored.",
            why:
                "swcred reports each such entry as dead (an error for an entry no caller can match, a warning for a path, query or fragment) and skips it as the clients do.",
            fix: "Write bare https origins: https://example.de, https://shop.example.fr:8443.",
            example: "\"example.de\"          <- no scheme: never matches\n\"https://example.de\"  <- an origin"
        ),
        RuleEntry(
            .rorL1,
            title: "Entries after the fifth registrable origin label are dead",
            apple:
                "Chrome, Firefox and WebKit count the distinct registrable origin labels (the first label of the registrable domain under the Public Suffix List: example.co.uk and www.example.de are both 'example') in file order and ignore an entry that would add a sixth (kMaxLabels = 5, maxRegistrableOriginLabels = 5).",
            why:
                "swcred counts labels with the Public Suffix List (Debian's publicsuffix data, or SWCRED_PUBLIC_SUFFIX_LIST) and lists every entry after the limit that introduces a new label: no shipping client matches it.",
            fix: "Keep at most five distinct labels; put the origins that matter first, or use one RP ID per brand.",
            example:
                "{\"origins\": [\"https://a.com\", \"https://b.com\", \"https://c.com\", \"https://d.com\", \"https://e.com\", \"https://f.com\"]}\n<- https://f.com is dead (a sixth label)"
        ),
        RuleEntry(
            .rorL2,
            title: "WebKit examines at most 100 valid entries",
            apple: "WebKit's RelatedOriginsValidator stops after maxCandidates = 100 valid entries.",
            why: "swcred warns about each valid entry after the hundredth: Safari never reaches it.",
            fix: "List fewer origins: with five labels, a hundred entries are rarely needed.",
            example: "{\"origins\": [ … 101 entries … ]}"
        ),
        RuleEntry(
            .rorL3,
            title: "Entries on the RP ID or its subdomains are unnecessary",
            apple:
                "Clients consult the file only when the RP ID is not the caller's host or a registrable suffix of it, so an origin on the RP ID or under it never needs it; passkeys.dev says not to list them.",
            why: "swcred notes such entries (with --host RPID): they may use up one of the five labels.",
            fix: "Remove origins on the RP ID itself and its subdomains.",
            example: "swcred lint --kind webauthn --host example.com webauthn\n<- https://login.example.com is unnecessary"
        ),
        RuleEntry(
            .rorQ1,
            title: "A caller origin may use an RP ID through its related origins",
            apple:
                "When rp.id is not the caller's host or a registrable suffix of it, Chrome 128+ and Safari 18+ read the RP ID's /.well-known/webauthn and allow the ceremony when an entry, within the first five labels, is the caller's origin; otherwise a SecurityError.",
            why:
                "swcred passkey register|assert --origin does the same with the file from --aasa-dir DIR/<rpId>/.well-known/webauthn or --direct: no match, a missing or malformed file and a failed fetch are passkeyOriginNotAllowed (SecurityError, exit 50) with the reason.",
            fix: "List the caller's origin in the RP ID's /.well-known/webauthn, within the first five labels.",
            example:
                "swcred passkey register options.json --origin https://shop.example.de --aasa-dir sites\n<- sites/shop.example.com/.well-known/webauthn lists https://shop.example.de"
        ),
    ]
}
