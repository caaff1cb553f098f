// The lint ids added after running swcred over real files (issue 21), SWC111…SWC119, in id order.
// SWC117 is raised by `swcred lint --entitlements`; the others by `swcred lint` on an AASA file.

extension RuleBook {
    /// The `.lint` entries SWC111…SWC119, sorted by id.
    static let realFileLintRules: [RuleEntry] = [
        RuleEntry(
            "SWC111", .lint,
            title: "A component matches every URL because its only keys are unknown",
            apple:
                "Unknown keys are ignored at every level; Apple's swcutil treats a component holding only an unknown key as if the key were absent (AD-3.6). A component without \"/\", \"?\" and \"#\" is {}, which matches every URL (AD-7.4).",
            why:
                "Real files write a path as a key ({\"/account/*\": \"*\"}) or swap key and value ({\"*\": \"/promo\"}). The component then opens every URL in the app (or, with \"exclude\": true, blocks every URL), unless defaults set a pattern. Reported as a warning at the component; the unknown keys also get SWC036. {}, {\"exclude\": true} and a comment-only component are written on purpose and are not flagged.",
            fix: "Put the path pattern under the \"/\" key, the query under \"?\" and the fragment under \"#\".",
            example: "{\"/account/*\": \"*\"}   ->   {\"/\": \"/account/*\"}"
        ),
        RuleEntry(
            "SWC112", .lint,
            title: "A service or a section key is in the wrong place",
            apple:
                "Services are top-level keys of the file (WWDC19 session 717; AD-3.1); details only applies to applinks (\"The details dictionary only applies to the applinks service type\", Apple's Supporting Associated Domains page; AD-3.2). Anything else is an unknown key and is ignored (AD-3.6).",
            why:
                "webcredentials nested inside applinks (or inside a detail) is ignored, so Shared Web Credentials are not associated; an appclips or webcredentials section holding a details list and no app in apps associates nothing; apps, details or components at the top level are ignored. Reported as a warning at the misplaced key.",
            fix: "Move each service to the top level, list its apps in its apps array, and keep details under applinks.",
            example:
                "{\"applinks\": {\"details\": [...], \"webcredentials\": {\"apps\": [...]}}}\n-> {\"applinks\": {\"details\": [...]}, \"webcredentials\": {\"apps\": [...]}}"
        ),
        RuleEntry(
            "SWC113", .lint,
            title: "A service's apps array is empty",
            apple:
                "webcredentials, appclips and activitycontinuation trust exactly the app IDs in their apps array (AD-3.2, AD-6.2); applinks.apps is different: it is legacy and ignored (AD-3.3, SWC020).",
            why:
                "An empty apps array lists no app, so no app is trusted for that service; it is usually a template that was never filled in. Reported as a warning.",
            fix: "List the app IDs, or remove the section if the service is not used.",
            example: "\"webcredentials\": {\"apps\": []}   ->   \"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}"
        ),
        RuleEntry(
            "SWC114", .lint,
            title: "A rule is never reached because an earlier rule takes every URL it could match",
            apple:
                "Within a detail, rules are tried in order and \"The first match wins\" (Apple's applinks components reference; AD-7.3, AD-7.14); an earlier rule that matches a URL decides it, even when a later exclude or NOT rule names it.",
            why:
                "A catch-all (\"*\", \"/*\", {}) or a prefix rule (\"/account/*\") before an exclude or NOT rule makes the exclusion dead, so the URLs it names open the app (in one real file, the OAuth callback meant to stay in the browser). The finding names both rules and their JSON paths (path and related). A warning when the two rules disagree (one excludes, one opens), a note when the later rule is merely redundant. Only provable cases are reported: the earlier rule's query and fragment are unspecified or \"*\", and its path is a catch-all or a literal prefix followed by one \"*\" that the later path starts with. Across details: a detail whose every app already has an earlier detail with a catch-all rule is never consulted (a detail that decides ends the search), reported at the later detail.",
            fix: "Put exclusions before the rules they carve out of; a catch-all belongs at the end.",
            example:
                "\"components\": [{\"/\": \"*\"}, {\"/\": \"/oauth/*\", \"exclude\": true}]\n-> \"components\": [{\"/\": \"/oauth/*\", \"exclude\": true}, {\"/\": \"*\"}]"
        ),
        RuleEntry(
            "SWC115", .lint,
            title: "A legacy path tries to match the query",
            apple:
                "In paths, \"?\" matches exactly one character and only the URL's path is compared; the query and fragment are ignored (archived Universal Links guide; AD-7.6, AD-7.14).",
            why:
                "\"/join?*\" needs at least one more character in the path after /join, so /join?code=1 does not match it; \"NOT /welcome.html?user=*\" never excludes /welcome.html, which then opens the app. Raised only when \"?\" is followed by something that looks like a query (\"?*\", not right after \"/\", or \"?name=\"); any other \"?\" is taken as the one-character wildcard it is. Reported as a warning.",
            fix:
                "Write the path alone (\"/join\"), or move to components and test the query there: {\"/\": \"/join\", \"?\": {\"code\": \"*\"}}.",
            example: "\"paths\": [\"/join?*\"]   ->   \"paths\": [\"/join\"]"
        ),
        RuleEntry(
            "SWC116", .lint,
            title: "A whole URL is written where a path pattern belongs",
            apple:
                "Path patterns (components' \"/\" and legacy paths) are compared with the URL's path only; the host comes from the entitlement and the file's location (AD-7.4, AD-7.14).",
            why:
                "A URL path never holds \"https://host\", so the pattern matches nothing; as a NOT path or an exclude rule, it excludes nothing and the URLs it names open the app. Reported as a warning.",
            fix: "Write only the path: \"NOT /login/*\".",
            example: "\"NOT https://app.example.com/login/*\"   ->   \"NOT /login/*\""
        ),
        RuleEntry(
            "SWC117", .lint,
            title: "An entitlement uses an unexpanded Xcode build setting",
            apple:
                "Xcode replaces build settings such as $(APP_CLIP_DOMAIN) or $(AppIdentifierPrefix) in a source .entitlements file when it signs the app; the signed app carries the expanded values.",
            why:
                "swcred cannot check an entry or an application-identifier that still holds $(NAME) or ${NAME}: it is not a bad host, its value is unknown. `swcred lint --entitlements` reports it as a warning, and `swcred entitlements` marks the entry valid: false with this id. With --build-setting NAME=VALUE, lint expands it as Xcode does and checks the result.",
            fix: "Pass the value: swcred lint --entitlements App.entitlements --build-setting APP_CLIP_DOMAIN=clip.example.com",
            example: "<string>appclips:$(APP_CLIP_DOMAIN)</string>"
        ),
        RuleEntry(
            "SWC118", .lint,
            title: "The file is UTF-16 or UTF-32, not UTF-8",
            apple:
                "Apple asks for UTF-8 JSON, but the device reads the file with Foundation's JSON reader, which also accepts UTF-16 and UTF-32, with or without a byte-order mark (AD-3.9).",
            why:
                "swcred's decision (AD-3.9, Decisions.md): the file is read as a device reads it, transcoded to UTF-8 before parsing, so verify and match give the device's verdict. Whether Apple's CDN stores and serves such a file unchanged is untested, and most other tools refuse it. Reported as a warning (verify and match carry it as a diagnostic).",
            fix: "Save the file as UTF-8 without BOM, for example with `iconv -f UTF-16 -t UTF-8`.",
            example: "head -c 4 apple-app-site-association | od -An -tx1\n ff fe 7b 00"
        ),
        RuleEntry(
            "SWC119", .lint,
            title: "An app ID has a placeholder team prefix",
            apple:
                "App IDs are compared as exact, case-sensitive strings with the app's application-identifier (AD-6.4); ABCDE12345 is the example prefix of Apple's documentation.",
            why:
                "Real files ship ABCDE12345., XXXXXXXXXX. or YOURTEAMID. copied from documentation or a template: well-formed, so SWC014 does not fire, but no real app has that prefix, so nothing is associated. A warning for template words (YOURTEAMID, anything containing TEAMID, ABCDEFGHIJ, 1234567890, 0123456789) and one character repeated ten times; a note for ABCDE12345, Apple's documentation example, which swcred's own test vectors and sample sites use as an ordinary app ID.",
            fix: "Use the prefix of the app's application-identifier (the team ID shown in the developer account, or the app's own prefix).",
            example: "\"apps\": [\"XXXXXXXXXX.com.example.app\"]"
        ),
    ]
}
