// The rules of spec/asset-links.md §1.8 that swcred cites (`DAL-F3`…`DAL-Q4`), in RuleID order:
// the ids of `swcred lint` findings on assetlinks.json files and of asset-links verdicts. For these
// entries the `apple` field tells what Google's Digital Asset Links API and an Android device do
// (`RuleEntry.platformHeading`); "DERIVED" marks behaviour read from AOSP code, not observed.

extension RuleBook {
    /// One `.lint` entry per lint id of an asset-links rule (`SWC203` for DAL-S3), sorted by id:
    /// the rule's own entry, titled as a finding of an assetlinks.json file.
    static let assetLinksLintRules: [RuleEntry] = RuleID.lintedAssetLinksRules.compactMap { rule -> RuleEntry? in
        guard let id = rule.lintID, let entry = assetLinksRules.first(where: { $0.id == rule.rawValue }) else {
            return nil
        }
        return RuleEntry(
            id, .lint, title: "assetlinks.json: \(entry.title) (\(rule.rawValue))", apple: entry.apple, why: entry.why,
            fix: entry.fix, example: entry.example)
    }.sorted { $0.id < $1.id }

    /// One `.rule` entry per `DAL-…` case of ``RuleID``, in case order.
    static let assetLinksRules: [RuleEntry] = [
        RuleEntry(
            .dalF1,
            title: "The statement list answers 200 directly; a redirect is an error",
            apple:
                "Google's API answers a redirect with ERROR_CODE_REDIRECT ('HTTP redirects (e.g, 301) are not allowed'); an AOSP verifier does not follow redirects (instanceFollowRedirects = false) and records 1029 (redirect) for the host. A www -> apex 301 at /.well-known is a common cause.",
            why:
                "swcred's live retrieval (verify --android-app --direct) never follows a redirect: both verdicts fail and the reason names the status and the Location.",
            fix: "Serve the file at https://<host>/.well-known/assetlinks.json itself, on every host the app names.",
            example:
                "curl -sI https://www.example.com/.well-known/assetlinks.json | head -n 1\nHTTP/2 301"
        ),
        RuleEntry(
            .dalF2,
            title: "The statement list is served as application/json",
            apple:
                "Google's API refuses another media type with ERROR_CODE_WRONG_CONTENT_TYPE; an Android device does not check the Content-Type; Android lint warns unless the header is exactly application/json.",
            why:
                "swcred's google verdict fails on another media type (parameters such as charset aside), its android verdict reads the body: the two are printed side by side.",
            fix: "Serve /.well-known/assetlinks.json with Content-Type: application/json.",
            example: "curl -sI https://example.com/.well-known/assetlinks.json | grep -i content-type"
        ),
        RuleEntry(
            .dalF3,
            title: "The statement list is at most 1 MiB",
            apple:
                "An AOSP verifier reads no statements from a response whose Content-Length is over 1 MiB (StatementRetriever.kt, UrlFetcher.kt); Google's API has ERROR_CODE_TOO_LARGE with an undocumented limit.",
            why:
                "swcred refuses a list over 1,048,576 bytes before reading it (malformedAssetLinks, exit 65), so hostile bodies cost nothing.",
            fix: "Keep assetlinks.json small: one statement per target, several fingerprints in one list.",
            example:
                "swcred lint --kind assetlinks assetlinks.json\nDAL-F3 error: the statement list is 1048577 bytes; the limit is 1048576"
        ),
        RuleEntry(
            .dalF5,
            title: "The statement list is JSON, not an HTML page",
            apple:
                "Neither verifier reads HTML; a single-page app's catch-all rewrite that answers /.well-known/assetlinks.json with index.html and 200 leaves the host unverified (pm get-app-links shows 1024).",
            why:
                "A body that is not JSON and starts with '<' is reported as this rule, with the rewrite hint, instead of a bare JSON error.",
            fix: "Exclude /.well-known/ from the rewrite and serve the JSON file as application/json.",
            example: "curl -s https://example.com/.well-known/assetlinks.json | head -c 15\n<!doctype html>"
        ),
        RuleEntry(
            .dalS1,
            title: "The top level is a non-empty array of strict JSON",
            apple:
                "Google's API reports '42', '\"foo\"', '[{', trailing commas ('not valid JSON') and a bare object ('expected a single array'); '[]' is an error 'No statements were found' (compatibility tests 2002–2010). AOSP parses with a strict JsonReader and beginArray().",
            why:
                "swcred reads the list with its strict JSON reader: no comments, trailing commas or byte-order mark (the byte-order mark is DERIVED: not in Google's suite). A list that does not read is malformedAssetLinks (exit 65).",
            fix: "Serve one JSON array of statements; check it with `python3 -m json.tool`.",
            example:
                "{\"relation\": [...], \"target\": {...}}      <- an object\n[{\"relation\": [...], \"target\": {...}}]    <- an array"
        ),
        RuleEntry(
            .dalS2,
            title: "Each element is a statement or an include",
            apple:
                "A statement has 'relation' (an array of strings) and 'target' (an object); an include has a string 'include' and no 'target' or 'relation' ('invalid field', test 2004); unknown fields are allowed (2005). Google skips an invalid element and reports it; an AOSP device skips an element only when 'relation' or 'target' is missing.",
            why:
                "swcred reports the element's path. It also reads relation_extensions: dynamic App Link components of the wrong shape are warnings under this id.",
            fix: "Write {\"relation\": [\"kind/detail\"], \"target\": {…}} or {\"include\": \"https://…\"}.",
            example: "[{\"include\": \"https://example.com/.well-known/assetlinks.json\"}]"
        ),
        RuleEntry(
            .dalS3,
            title: "A relation is kind/detail, each [a-z0-9_.]+",
            apple:
                "AOSP's Relation.java enforces ^[a-z0-9_.]+$ on both halves and splits on the first '/', so a/b/c is refused; Google's suite refuses upper case, blanks, '+', '!', '*', a missing or second '/', and empty halves (2106–2125). Unknown kinds and details are valid.",
            why:
                "A statement with an invalid relation is invalid as a whole: Google skips it, an Android 12+ device may fail the host on it (DAL-S7).",
            fix:
                "Use the relation strings as documented: delegate_permission/common.handle_all_urls, delegate_permission/common.get_login_creds.",
            example: "\"relation\": [\"delegate_permission/common.handle_all_urls\"]"
        ),
        RuleEntry(
            .dalS4,
            title: "The target namespace is web or android_app",
            apple:
                "Google's API, AOSP and the compatibility suite know only 'web' and 'android_app'; any other namespace (ios_app appears in an old spec) is 'unrecognized namespace' (test 2014).",
            why:
                "The element is invalid: Google skips it, an Android 12+ device may fail the whole host on it (DAL-S7).",
            fix: "List iOS apps in apple-app-site-association, not in assetlinks.json.",
            example:
                "{\"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"…\"]}"
        ),
        RuleEntry(
            .dalS5,
            title: "A web target's site is http(s)://host[:port], nothing more",
            apple:
                "Google's API refuses a path, query, fragment, login information or another scheme, and a lone trailing '/' ('cannot contain a path', test 2212); scheme and host compare without case and a trailing dot changes nothing (2204, 2205). An AOSP device accepts a path of exactly '/' (WebAsset.java).",
            why:
                "A site covers exactly one scheme, host and port, never subdomains. swcred reports the trailing '/' as a warning (the verifiers disagree) and a written default port as a warning.",
            fix: "Write the site as https://example.com, with the port only when it is not the default.",
            example: "\"site\": \"https://example.com/\"   -> \"site\": \"https://example.com\""
        ),
        RuleEntry(
            .dalS6,
            title: "An android_app target has a package name and SHA-256 fingerprints",
            apple:
                "Google's API needs a valid package_name and a non-empty array of fingerprints, each 32 upper-case hex octets joined by ':' (tests 2303–2314: lower case, a missing octet, non-hex and empty strings are 'malformed cert'). A device computes the app's fingerprints in upper case and compares them with the file's as strings.",
            why:
                "A lower-case or SHA-1 fingerprint never matches on either side; swcred names a 20-octet fingerprint as SHA-1.",
            fix:
                "Copy the SHA-256 fingerprint from `keytool -list -v` or the Play Console's App signing page (the key Play signs with, not only the upload key).",
            example:
                "\"sha256_cert_fingerprints\": [\"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5\"]"
        ),
        RuleEntry(
            .dalS7,
            title: "One malformed element may fail the whole list on an Android device",
            apple:
                "Google's API skips an invalid element and still links the rest (test 2003). An Android 12+ AOSP verifier skips an element only when 'relation' or 'target' is missing; any other malformed element throws, nothing catches it, and the host's verification fails (StatementParser.kt, DomainVerifier.kt; DERIVED from code, not observed on a device).",
            why:
                "swcred's android verdict fails the host on such an element and names it; lint warns with the element's index.",
            fix: "Fix or remove every invalid element, even one that concerns another app.",
            example:
                "[{…valid…}, {\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"ios_app\"}}]"
        ),
        RuleEntry(
            .dalS8,
            title: "A fingerprint or package name is a placeholder",
            apple:
                "Placeholders verify nothing: Google's documentation fingerprint 14:6D:E9:…:44:E5, AA:BB:CC:…, all-equal octets and REPLACE/YOUR text have all been shipped to production (asset-links.md §1.7).",
            why: "swcred warns; the statement is read, but it names no real signing key.",
            fix: "List the fingerprint of the certificate that signs the installed app.",
            example: "keytool -list -v -keystore release.jks | grep SHA256"
        ),
        RuleEntry(
            .dalS9,
            title: "Extra keys on web targets, repeated statements and fingerprints",
            apple:
                "Both verifiers ignore keys they do not know, so a web target carrying sha256_cert_fingerprints grants nothing to an app.",
            why:
                "swcred warns about keys a web target does not take, a statement that repeats an earlier one, a fingerprint listed twice, and a key repeated in one object.",
            fix: "Give the app its own android_app statement; remove the repeats.",
            example: "{\"namespace\": \"web\", \"site\": \"https://example.com\", \"sha256_cert_fingerprints\": null}"
        ),
        RuleEntry(
            .dalI1,
            title: "Includes of a secure source are https",
            apple:
                "Google's API refuses an http include in the fetch stack of an https site or an app ('Insecure URL in fetch stack of secure asset', tests 5006, 5007, 5009); an AOSP device fetches https only.",
            why: "swcred does not read such an include and reports it with ERROR_CODE_SECURE_ASSET_INCLUDES_INSECURE.",
            fix: "Serve the included list over https.",
            example: "{\"include\": \"https://example.com/.well-known/assetlinks.json\"}"
        ),
        RuleEntry(
            .dalI2,
            title: "Each include is fetched and read on its own",
            apple:
                "A broken include discards only itself: Google still links the statements around it (tests 5002, 5003). Only HTTP 200 counts; redirects are not followed.",
            why: "swcred reports the include's own problem with its URL and keeps the rest.",
            fix: "Fetch the include's URL yourself (`curl -i`) and fix what it answers.",
            example: "[{\"include\": \"https://example.com/missing.json\"}, {…statement…}]"
        ),
        RuleEntry(
            .dalI3,
            title: "Includes deeper than one level",
            apple:
                "Google's API resolves chains of includes; an AOSP device follows one level only (MAX_INCLUDE_LEVEL = 1 in the Java and Kotlin retrievers).",
            why:
                "swcred's google verdict follows the chain, its android verdict ignores the deeper include and says so.",
            fix: "Point the app's asset_statements or the site's list directly at the list that holds the statements.",
            example:
                "app -> https://a.example/list.json -> https://b.example/list.json   (the second hop is ignored on a device)"
        ),
        RuleEntry(
            .dalI4,
            title: "Include cycles",
            apple:
                "Google's API ends a loop with 'Fetch budget exhausted'; the statements read before still count (test 5005). The budget's size is undocumented.",
            why:
                "swcred cuts a cycle at the first repeat, names it, and stops after 10 includes (its own budget), with ERROR_CODE_FETCH_BUDGET_EXHAUSTED.",
            fix: "Remove the include that points back.",
            example: "a.json includes b.json, b.json includes a.json"
        ),
        RuleEntry(
            .dalQ1,
            title: "Whether a source grants a relation to a target, per verifier",
            apple:
                "Google's assetlinks:check and an Android device can answer differently for one file: trailing-slash sites, include depth, one malformed element.",
            why:
                "swcred answers as each verifier would (google, android) and gives the reason: the statement that grants it, the fingerprints the file lists instead, or the relation it lists instead.",
            fix: "Make both verdicts agree: fix what the android verdict's reason names first.",
            example:
                "google: linked - …/assetlinks.json element 0 grants …\nandroid: not linked - the list fails as a whole on an Android 12+ device: DAL-S7 …"
        ),
        RuleEntry(
            .dalQ2,
            title: "Every verifiable host of the app grants it handle_all_urls; on Android 11 and lower, all or none",
            apple:
                "A device verifies the hosts of intent filters with android:autoVerify=\"true\", action VIEW, categories DEFAULT and BROWSABLE and only http/https schemes, each at https://<host>/.well-known/assetlinks.json; a *. host is verified at its root. Android 12+ verifies each host on its own; Android 11 and lower verify all or nothing: one failing host disables App Links on every host.",
            why:
                "swcred verify --android-manifest reads the manifest's verifiable hosts, checks each one, and notes autoVerify filters a device will not verify and, when one host fails, that Android 11 and lower fail them all.",
            fix:
                "Serve assetlinks.json with the app's package and signing fingerprint on every verifiable host, or move a host that cannot be verified into a filter without autoVerify.",
            example:
                "<intent-filter android:autoVerify=\"true\"> … <data android:scheme=\"https\" android:host=\"example.com\"/>"
        ),
        RuleEntry(
            .dalQ4,
            title: "Passkeys from an Android app need both relations, and the RP accepts its apk-key-hash origins",
            apple:
                "The RP ID's assetlinks.json must list the app with handle_all_urls (and get_login_creds, per Credential Manager's prerequisites), else Google Play services fails with 'RP ID cannot be validated'. The app's clientDataJSON.origin is android:apk-key-hash:<base64url of the fingerprint's 32 octets, no padding>.",
            why:
                "swcred notes an android_app statement with one of the two relations, and computes the origins an RP server must accept, one per fingerprint; swcred passkey register|assert --android-app refuses the app (exit 12) unless the RP ID's file grants both, and prints those origins.",
            fix:
                "List both relations for the app, and add each android:apk-key-hash origin to the RP server's allowed origins.",
            example:
                "\"relation\": [\"delegate_permission/common.handle_all_urls\", \"delegate_permission/common.get_login_creds\"]"
        ),
        RuleEntry(
            .dalQ5,
            title: "The app's asset_statements string includes its sites' assetlinks.json",
            apple:
                "An app declares <meta-data android:name=\"asset_statements\" android:resource=\"@string/asset_statements\"/>; the string, after Android's resource unescaping (\\\" for a quote; an unescaped quote is dropped), is a JSON statement list, normally [{\"include\": \"https://site/.well-known/assetlinks.json\"}]. Android lint's CredManMissingDal checks that it exists and names a .well-known/assetlinks.json.",
            why:
                "swcred verify --android-manifest --android-strings unescapes the string as aapt2 does, parses it as a statement list, and reports a string that is not JSON, elements that are not includes, and includes that are not https or do not end in /.well-known/assetlinks.json.",
            fix:
                "Write the string with escaped quotes: [{\\\"include\\\": \\\"https://example.com/.well-known/assetlinks.json\\\"}].",
            example:
                "<string name=\"asset_statements\">[{\\\"include\\\": \\\"https://example.com/.well-known/assetlinks.json\\\"}]</string>"
        ),
        RuleEntry(
            .dalQ6,
            title: "The iOS and Android apps of one domain are trusted for the same things",
            apple:
                "iOS decides passwords and passkeys from webcredentials and links from applinks in apple-app-site-association; Android decides passwords from get_login_creds, links from handle_all_urls, and passkeys from both, in assetlinks.json. Nothing checks that the two files agree.",
            why:
                "swcred verify --entitlements … --android-app … prints a cross-platform table per host (passwords, links, passkeys for each platform's app) and one sentence per asymmetry.",
            fix: "List the Android app in assetlinks.json for the relations the iOS app has, or the other way round.",
            example:
                "iOS app ABCDE12345.com.example.tacoshop is trusted for passwords on tacos.example, Android app com.example.tacos is not"
        ),
    ]
}
