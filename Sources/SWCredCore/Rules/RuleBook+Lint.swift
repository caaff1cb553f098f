// The lint ids of `swcred lint` (AssociationLinter, `SWC001`…`SWC060`) and of
// `swcred lint --entitlements` (EntitlementsLinter, `SWC101`…`SWC110`), in id order; the ids
// added for issue 21 (SWC111…SWC119) are in RuleBook+LintRealFiles.swift.
// Each entry follows what the linter does: when it raises the id, with which severity, and
// what the matcher then does with the input (spec/associated-domains.md).

extension RuleBook {
    /// One `.lint` entry per id of `LintRule` and `EntitlementsLinter.Rule`, sorted by id.
    static let lintRules: [RuleEntry] = [
        // MARK: - The file as a whole (SWC001…SWC007)

        RuleEntry(
            "SWC001", .lint,
            title: "The file is larger than 128 KB",
            apple:
                "Apple's archived Universal Links guide says the uncompressed file \"must be no greater than 128 KB, regardless of whether the file is signed\". A device stops reading at byte 131073 and records NSURLErrorDomain -1103 (AD-4.6).",
            why:
                "A file over the cap is never parsed, so none of its associations hold. swcred lint reports an error and checks nothing else.",
            fix:
                "Bring the file to at most 131072 bytes: list several apps in one detail with appIDs, share rules through defaults and substitution variables, and drop rules nobody uses.",
            example:
                "swcred lint apple-app-site-association\nSWC001 error: the file is 140211 bytes; devices reject files over 131072 bytes"
        ),
        RuleEntry(
            "SWC002", .lint,
            title: "The file is not valid JSON",
            apple:
                "The device reads the file with Foundation's JSON reader; a file that does not parse gives no association and is recorded as NSCocoaErrorDomain 3840 (AD-4.9).",
            why:
                "The file must be strict JSON in UTF-8: no comments, trailing commas, single quotes or invalid UTF-8 (UTF-16 and UTF-32 files are read as a device reads them, SWC118). swcred also refuses nesting deeper than 64 levels. Reported as an error.",
            fix:
                "Fix the syntax at the position the message names; a strict parser such as `python3 -m json.tool FILE` shows the same problems.",
            example: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\",]}}   <- trailing comma"
        ),
        RuleEntry(
            "SWC003", .lint,
            title: "The top level is not an object",
            apple:
                "The file is a JSON object whose keys are service names (WWDC19 session 717). A top level of any other type is a parse failure, NSCocoaErrorDomain 3840 (AD-3.1, AD-4.9).",
            why:
                "An array or a string at the top level names no service, so the file associates nothing. Reported as an error.",
            fix: "Put every service section into one top-level object.",
            example:
                "[{\"webcredentials\": {...}}]\n-> {\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}"
        ),
        RuleEntry(
            "SWC004", .lint,
            title: "The file starts with a UTF-8 byte-order mark",
            apple: "Apple asks for UTF-8 JSON and says nothing about a byte-order mark.",
            why:
                "swcred's decision (AD-3.9): the mark is skipped and the file is read, with a warning. RFC 8259 forbids adding a byte-order mark to networked JSON and only allows parsers to ignore it, so other readers may reject the file.",
            fix: "Save the file as UTF-8 without BOM (most editors call it \"UTF-8\", not \"UTF-8 with BOM\").",
            example: "head -c 3 apple-app-site-association | od -An -tx1\n ef bb bf"
        ),
        RuleEntry(
            "SWC005", .lint,
            title: "A key appears more than once in one object",
            apple: "Apple does not document what happens to duplicate keys in the file.",
            why:
                "swcred's decision (AD-3.9): the last one wins, with a warning. RFC 8259 says names in an object should be unique, and readers differ in which duplicate they keep, so tools may disagree about the file.",
            fix: "Keep one copy of the key, merging what the earlier one held into it.",
            example: "{\"applinks\": {\"details\": [...]}, \"applinks\": {\"details\": []}}"
        ),
        RuleEntry(
            "SWC006", .lint,
            title: "The file is signed (PKCS#7), which is deprecated",
            apple:
                "A signed file was required only for iOS 8 (WWDC15 session 509, archived Universal Links guide); WWDC19 session 717 calls signing deprecated. Devices still unwrap the signed JSON (AD-3.8).",
            why:
                "swcred unwraps the CMS SignedData body and reads the JSON inside, with a warning. swcred's decision: the signature is not checked, since signing stopped being required in iOS 9.",
            fix: "Serve the plain JSON file, as application/json.",
            example:
                "openssl cms -verify -noverify -inform DER -in signed.aasa -out apple-app-site-association"
        ),
        RuleEntry(
            "SWC007", .lint,
            title: "The file is empty",
            apple:
                "An empty body holds no JSON object, so it can give no association; a body that does not parse is a failure (AD-4.9).",
            why:
                "An empty file usually means the server answers 200 for a file that was never deployed. Reported as an error.",
            fix: "Serve the association file's JSON object at the well-known path.",
            example: "curl -s https://example.com/.well-known/apple-app-site-association | wc -c\n0"
        ),

        // MARK: - Services (SWC010…SWC016)

        RuleEntry(
            "SWC010", .lint,
            title: "Unknown top-level key",
            apple:
                "Unknown top-level keys are ignored (AD-3.1). The known services are applinks, webcredentials, appclips and activitycontinuation (Apple's Supporting Associated Domains page), plus authsrv.",
            why:
                "A misspelt service name silently turns the service off. A warning when the key is close to a known service (same letters in another case, or up to two edits away), a note otherwise.",
            fix: "Correct the spelling, or remove the key unless another consumer of the file needs it.",
            example:
                "{\"webcredential\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}\n-> did you mean 'webcredentials'?"
        ),
        RuleEntry(
            "SWC011", .lint,
            title: "A service section or a defaults value is not an object",
            apple:
                "webcredentials, appclips and activitycontinuation are `{\"apps\": [...]}` objects (Apple's Supporting Associated Domains page); applinks is an object holding details, and defaults is a dictionary (Apple's applinks reference).",
            why:
                "A section of another type lists no app, so the service associates nothing; a defaults value that is not an object is ignored. Reported as an error.",
            fix: "Write the section (or defaults) as a JSON object.",
            example:
                "\"webcredentials\": [\"ABCDE12345.com.example.app\"]\n-> \"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}"
        ),
        RuleEntry(
            "SWC012", .lint,
            title: "A service has no apps array",
            apple:
                "webcredentials, appclips and activitycontinuation list their apps as `{\"apps\": [\"<app ID>\", ...]}` (Apple's Supporting Associated Domains page, WWDC15 session 509; AD-3.2).",
            why:
                "Raised when apps is missing or is not an array: the section then lists no app, and no app is trusted for that service. Reported as an error.",
            fix: "Add an apps array of app ID strings to the section.",
            example: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}"
        ),
        RuleEntry(
            "SWC013", .lint,
            title: "An app ID is not a string",
            apple:
                "Each string element of apps is one app ID and non-string elements are ignored (AD-3.2); a detail's appID is a string (Apple's applinks details reference).",
            why:
                "The value is skipped; for a detail's appID, the detail then applies to no app (AD-3.4). Reported as an error.",
            fix: "Write every app ID as a JSON string.",
            example: "\"apps\": [ABCDE12345.com.example.app]   ->   \"apps\": [\"ABCDE12345.com.example.app\"]"
        ),
        RuleEntry(
            "SWC014", .lint,
            title: "An app ID is not shaped like `<prefix>.<bundle id>`",
            apple:
                "Apple's Supporting Associated Domains page asks for \"the exact `<TeamID>.<bundleID>`\", and app IDs are compared as exact, case-sensitive strings (AD-6.4). The prefix is the application-identifier's, which may differ from the team ID (WWDC19 session 717).",
            why:
                "A misshapen ID can never equal an app's application-identifier, so it trusts no app. swcred's check: 10 upper-case letters or digits, a dot, then a bundle ID of letters, digits, '.' and '-'; the message names the part that is wrong (an '_' is blamed on the bundle ID, not on the prefix). Reported as an error.",
            fix:
                "Copy the application-identifier the app is signed with (for example from `codesign -d --entitlements - MyApp.app`).",
            example: "\"apps\": [\"com.example.app\"]   ->   \"apps\": [\"ABCDE12345.com.example.app\"]"
        ),
        RuleEntry(
            "SWC015", .lint,
            title: "details is ignored outside applinks",
            apple:
                "Apple's Supporting Associated Domains page: \"The details dictionary only applies to the applinks service type\" (AD-3.2).",
            why:
                "A details key in webcredentials, appclips or activitycontinuation has no effect. Reported as a note when the section's apps lists apps; when apps is empty or missing, the section associates nothing and SWC112 (a warning) is reported instead.",
            fix: "Move the rules into applinks.details, and list the apps of this service in its apps array.",
            example: "{\"webcredentials\": {\"details\": [...]}}"
        ),
        RuleEntry(
            "SWC016", .lint,
            title: "The file names no service",
            apple:
                "Unknown top-level keys are ignored (AD-3.1), so a file without applinks, webcredentials, appclips, activitycontinuation or authsrv associates nothing.",
            why: "Such a file is usually a placeholder or a misspelt one. Reported as an error.",
            fix: "Add the section for each service the app uses.",
            example: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}"
        ),

        // MARK: - applinks (SWC020…SWC046)

        RuleEntry(
            "SWC020", .lint,
            title: "applinks.apps is not an empty array",
            apple:
                "applinks.apps had to be present and empty for iOS 12 and earlier and may be omitted from iOS 13 (WWDC19 session 717, archived Universal Links guide); its content is ignored (AD-3.3).",
            why:
                "App IDs listed there do nothing; they were probably meant for a detail's appIDs. A value that is not an array is ignored too. Reported as a warning.",
            fix: "Use `\"apps\": []` if you support iOS 12, otherwise remove the key; list apps in `details[].appIDs`.",
            example:
                "\"applinks\": {\"apps\": [], \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}]}"
        ),
        RuleEntry(
            "SWC021", .lint,
            title: "applinks.apps is a legacy key (reserved)",
            apple:
                "The apps key of applinks was needed, empty, only for iOS 12 and earlier; iOS 13 and later do not need it (WWDC19 session 717; AD-3.3).",
            why:
                "The id is reserved for this hint and swcred lint does not raise it at present; a non-empty or ill-typed applinks.apps is reported as SWC020.",
            fix: "Keep `\"apps\": []` only while you support iOS 12 or earlier.",
            example: "\"applinks\": {\"apps\": [], \"details\": [...]}"
        ),
        RuleEntry(
            "SWC022", .lint,
            title: "applinks has no details array",
            apple:
                "applinks.details is an array of detail objects (WWDC19 session 717; AD-3.3). Without it no URL opens the app.",
            why:
                "Raised when details is missing, or is neither an array nor the legacy dictionary. Reported as an error.",
            fix: "Add a details array with one object per group of apps.",
            example:
                "\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}]}"
        ),
        RuleEntry(
            "SWC023", .lint,
            title: "details is the obsolete dictionary keyed by app ID",
            apple:
                "The WWDC15 form of details, a dictionary keyed by app ID, is called \"obsolete\" in WWDC19 session 717, but Apple's swcutil still matches it (AD-3.3).",
            why:
                "swcred still matches it; swcred's decision: its entries are evaluated in ascending code-point order of their keys, because JSON object order carries no meaning. Reported as a warning.",
            fix: "Use an array of detail objects, each with appIDs and components.",
            example:
                "\"details\": {\"ABCDE12345.com.example.app\": {\"paths\": [\"*\"]}}\n-> \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"*\"}]}]"
        ),
        RuleEntry(
            "SWC024", .lint,
            title: "A detail is not an object",
            apple:
                "Each element of applinks.details is a dictionary with appIDs, components and defaults (Apple's applinks details reference).",
            why: "The element is skipped, so its apps get no rules from it. Reported as an error.",
            fix: "Write each detail as an object.",
            example:
                "\"details\": [\"ABCDE12345.com.example.app\"]\n-> \"details\": [{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}]"
        ),
        RuleEntry(
            "SWC025", .lint,
            title: "A detail names no app",
            apple:
                "If appIDs is present, the detail applies to its string elements only, even when it is empty; otherwise a string appID gives one app; otherwise the detail applies to no app (AD-3.4).",
            why:
                "An error when the detail has neither appID nor appIDs, a warning when appIDs is an empty array: in both cases its rules open no app.",
            fix: "List the app IDs the rules are for.",
            example: "{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/buy/*\"}]}"
        ),
        RuleEntry(
            "SWC026", .lint,
            title: "appID is ignored because appIDs is present",
            apple:
                "When a detail has appIDs, appID is ignored, even if appIDs is empty (AD-3.4; st-tech/universal-links-test, checked against Apple's swcutil).",
            why: "The app named only in appID gets no rules from this detail. Reported as a warning.",
            fix: "Move the app ID into appIDs and remove appID.",
            example:
                "{\"appID\": \"ABCDE12345.com.example.app\", \"appIDs\": [\"FGHIJ67890.com.example.other\"]}\n-> {\"appIDs\": [\"ABCDE12345.com.example.app\", \"FGHIJ67890.com.example.other\"]}"
        ),
        RuleEntry(
            "SWC027", .lint,
            title: "appIDs is not an array",
            apple: "appIDs is an array of app ID strings (Apple's applinks details reference, iOS 13 and later).",
            why:
                "swcred's decision (AD-3.4): an appIDs of another type counts as an empty list and still hides appID, so the detail applies to no app. Reported as an error.",
            fix: "Write appIDs as an array of strings, even for a single app.",
            example: "\"appIDs\": \"ABCDE12345.com.example.app\"   ->   \"appIDs\": [\"ABCDE12345.com.example.app\"]"
        ),
        RuleEntry(
            "SWC028", .lint,
            title: "paths is ignored because components is present",
            apple:
                "WWDC19 session 717: \"iOS 13, tvOS 13 and macOS 10.15 will ignore it if the components key is present\"; TN3155 asks to \"avoid mixing formats\" (AD-3.5).",
            why:
                "On current systems only components count, so rules kept in paths do nothing there while older systems still use them. Reported as a warning.",
            fix: "Keep paths only if you support iOS 12, and make it express the same rules as components.",
            example: "{\"appIDs\": [...], \"components\": [{\"/\": \"/buy/*\"}], \"paths\": [\"/buy/*\"]}"
        ),
        RuleEntry(
            "SWC029", .lint,
            title: "paths is the pre-iOS 13 format",
            apple:
                "components replaced paths in iOS 13 / macOS 10.15 (WWDC19 session 717); paths is still read when components is absent (archived Universal Links guide; AD-7.14).",
            why:
                "paths has no query or fragment rules, defaults, caseSensitive, percentEncoded or substitution variables. Reported as a note.",
            fix: "Rewrite the rules as components (a 'NOT ' path becomes a component with \"exclude\": true).",
            example:
                "\"paths\": [\"NOT /help/*\", \"/buy/*\"]\n-> \"components\": [{\"/\": \"/help/*\", \"exclude\": true}, {\"/\": \"/buy/*\"}]"
        ),
        RuleEntry(
            "SWC030", .lint,
            title: "components is not an array",
            apple: "components is an array of component dictionaries (Apple's applinks components reference).",
            why:
                "swcred's decision (AD-7.15): a components value that is not an array gives the detail no rules, so no URL matches it. Reported as an error.",
            fix: "Write components as an array of objects.",
            example: "\"components\": {\"/\": \"/*\"}   ->   \"components\": [{\"/\": \"/*\"}]"
        ),
        RuleEntry(
            "SWC031", .lint,
            title: "A component is not an object",
            apple:
                "Each element of components is a dictionary of /, ?, #, exclude, caseSensitive, percentEncoded and comment (Apple's applinks components reference).",
            why:
                "swcred's decision (AD-7.15): a non-object component is skipped and the next one is tried. Reported as an error.",
            fix: "Write the component as an object.",
            example: "\"components\": [\"/buy/*\"]   ->   \"components\": [{\"/\": \"/buy/*\"}]"
        ),
        RuleEntry(
            "SWC032", .lint,
            title: "A '/' or '#' pattern is not a string",
            apple:
                "The path and fragment patterns are strings (Apple's applinks components reference); Apple does not say what a value of another type does.",
            why:
                "swcred's decision (AD-7.15, by analogy with AD-7.9): the key is treated as unspecified, i.e. as `\"*\"`, which widens the rule to every path or fragment. Reported as an error.",
            fix: "Write the pattern as a string.",
            example: "{\"/\": 42}   ->   {\"/\": \"/42\"}"
        ),
        RuleEntry(
            "SWC033", .lint,
            title: "A '?' value is not a string or a dictionary of strings",
            apple:
                "If any value of a '?' dictionary is not a string, the whole dictionary is ignored and the query is unspecified: Apple's swcutil matches {\"a\": \"1\", \"flag\": true} against ?a=2 (AD-7.9).",
            why:
                "The rule then matches every query, which is rarely what was meant. Raised for each non-string value of the dictionary, and for a '?' that is neither a string nor a dictionary. Reported as an error.",
            fix: "Write every query value as a string pattern (`\"*\"`, `\"?*\"`, `\"1\"`, `\"\"`).",
            example: "\"?\": {\"flag\": true}   ->   \"?\": {\"flag\": \"\"}"
        ),
        RuleEntry(
            "SWC034", .lint,
            title: "exclude is not a Boolean",
            apple: "exclude is a Boolean (Apple's applinks components reference).",
            why:
                "swcred's decision (AD-7.15): only the JSON value true excludes, so \"exclude\": \"true\" or 1 does not, and the URLs it meant to block open the app. Reported as an error.",
            fix: "Write \"exclude\": true.",
            example: "{\"/\": \"/help/*\", \"exclude\": \"true\"}   ->   {\"/\": \"/help/*\", \"exclude\": true}"
        ),
        RuleEntry(
            "SWC035", .lint,
            title: "caseSensitive or percentEncoded is not a Boolean",
            apple:
                "caseSensitive and percentEncoded are Booleans, each true by default (Apple's applinks components and defaults references; AD-7.5).",
            why:
                "swcred's decision (AD-7.15): a non-Boolean value is ignored and the inherited value is used. Reported as an error.",
            fix: "Write true or false without quotes.",
            example:
                "{\"/\": \"/Shop/*\", \"caseSensitive\": \"false\"}   ->   {\"/\": \"/Shop/*\", \"caseSensitive\": false}"
        ),
        RuleEntry(
            "SWC036", .lint,
            title: "Unknown key",
            apple:
                "Unknown keys are ignored at every level; Apple's swcutil gives a misspelt casesensitive no effect (AD-3.6).",
            why:
                "A misspelt key silently drops the setting it was meant to make. A warning when the key is close to a known one (another case, or up to two edits away), a note otherwise.",
            fix: "Correct the spelling, or remove the key.",
            example: "{\"/\": \"/shop/*\", \"casesensitive\": false}   -> did you mean 'caseSensitive'?"
        ),
        RuleEntry(
            "SWC037", .lint,
            title: "A substitution variable is not defined",
            apple:
                "Patterns may use $(name) for a variable of applinks.substitutionVariables or a built-in: $(alpha), $(upper), $(lower), $(alnum), $(digit), $(xdigit), $(region), $(lang) (Apple's substitutionVariables reference; AD-7.13).",
            why:
                "swcred's decision (AD-7.13): a pattern that uses an undefined variable never matches. Reported as an error.",
            fix: "Define the variable in applinks.substitutionVariables, or fix its name (names are case-sensitive).",
            example:
                "\"substitutionVariables\": {\"food\": [\"pizza\", \"tacos\"]}\n\"components\": [{\"/\": \"/$(lang)_$(region)/$(food)/\"}]"
        ),
        RuleEntry(
            "SWC038", .lint,
            title: "A substitution variable has the name of a built-in",
            apple:
                "Apple documents the built-in variables alpha, upper, lower, alnum, digit, xdigit, region and lang (AD-7.13), and not what redefining one does.",
            why:
                "swcred's decision (AD-7.13): a custom variable named like a built-in is ignored, and the built-in is used. Reported as a warning.",
            fix: "Rename the variable and the places that use it.",
            example: "\"substitutionVariables\": {\"region\": [\"eu\", \"us\"]}   ->   {\"market\": [\"eu\", \"us\"]}"
        ),
        RuleEntry(
            "SWC039", .lint,
            title: "substitutionVariables is malformed",
            apple:
                "substitutionVariables is `{\"name\": [\"value\", ...]}`; names may contain any character except '$', '(' and ')', and values may contain `*` and `?` but not other variables (Apple's substitutionVariables reference; AD-7.13).",
            why:
                "Raised when the section is not an object, a name is empty or contains '$', '(' or ')', a value list is not an array, a value is not a string, or a value uses another variable. Such parts are ignored. Reported as an error.",
            fix: "Write each variable as a name mapped to an array of plain strings; expand nested variables by hand.",
            example:
                "\"substitutionVariables\": {\"food\": [\"pizza\", \"taco?\"], \"section\": [\"menu\", \"order/*\"]}"
        ),
        RuleEntry(
            "SWC040", .lint,
            title: "paths is not an array of strings",
            apple: "The legacy paths key is an array of path strings (archived Universal Links guide; AD-7.14).",
            why:
                "A paths value that is not an array gives the detail no legacy rules; a non-string element is skipped. Reported as an error.",
            fix: "Write paths as an array of strings, or move to components.",
            example: "\"paths\": \"/buy/*\"   ->   \"paths\": [\"/buy/*\"]"
        ),
        RuleEntry(
            "SWC041", .lint,
            title: "A path looks like an exclusion but is not written 'NOT '",
            apple:
                "In legacy paths only the prefix 'NOT ' (upper case, followed by a space) marks an exclusion (archived Universal Links guide; AD-7.14).",
            why:
                "'not /help', 'Not /help' or 'NOT/help' are plain patterns, not exclusions, so the pages they meant to exclude still open the app. Reported as a warning.",
            fix: "Write 'NOT /path', or use a component with \"exclude\": true.",
            example: "\"paths\": [\"not /help/*\", \"*\"]   ->   \"paths\": [\"NOT /help/*\", \"*\"]"
        ),
        RuleEntry(
            "SWC045", .lint,
            title: "A pattern has spaces or non-ASCII characters that a URL never contains",
            apple:
                "With percentEncoded true (the default) the URL component is compared exactly as written, and URLs are ASCII: \"a Unicode character may be represented by more than one ASCII character\" (WWDC19 session 717; AD-7.12). percentEncoded false needs iOS 14 / macOS 11.",
            why:
                "Such a path or fragment pattern, or such a legacy path, can never match. For a value of a '?' dictionary it is a risk, not a certainty: whether the device compares decoded query values is an open question (AD-7.9); swcred compares them as written, so the value never matches in swcred and may not match on a device. For a component or defaults object it is raised unless that object sets \"percentEncoded\": false. Reported as a warning.",
            fix:
                "Percent-encode the characters as they appear in URLs, or set \"percentEncoded\": false on the component.",
            example:
                "{\"/\": \"/café/*\"}   ->   {\"/\": \"/caf%C3%A9/*\"}   or   {\"/\": \"/café/*\", \"percentEncoded\": false}"
        ),
        RuleEntry(
            "SWC046", .lint,
            title: "A detail has no rules",
            apple:
                "A URL opens the app only when a rule of an applicable detail matches it (AD-7.3); an entry in which no rule matches passes on to the next one.",
            why:
                "Raised when components is an empty array, or when a detail has neither components nor paths: no URL matches it. Reported as a warning.",
            fix: "Add at least one component, for example `{\"/\": \"/*\"}`.",
            example: "{\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}"
        ),

        // MARK: - The host (SWC050)

        RuleEntry(
            "SWC050", .lint,
            title: "The host given with --host is not a valid ASCII host",
            apple:
                "Internationalised domain names must be written in Punycode (WWDC19 session 717); a host is ASCII letters, digits, '-' and '.', with at least one dot (AD-2.3).",
            why:
                "A non-ASCII or malformed host can be neither an entitlement entry nor a retrieval URL. Reported as an error.",
            fix: "Pass the Punycode form of the host, and use the same form in entitlements and URLs.",
            example: "swcred lint apple-app-site-association --host bücher.example\n-> use 'xn--bcher-kva.example'"
        ),

        // MARK: - Availability (SWC060)

        RuleEntry(
            "SWC060", .lint,
            title: "The key needs a newer system",
            apple:
                "appIDs and components need iOS 13 / macOS 10.15; caseSensitive and substitutionVariables iOS 13.5 / macOS 10.15.6; defaults, percentEncoded and Unicode patterns iOS 14 / macOS 11 (WWDC19 session 717, WWDC20 session 10098, Apple's applinks reference; AD-3.7).",
            why:
                "Older systems ignore the key, so the rules behave differently there. A note, printed for every such key.",
            fix: "Check the systems your app supports; keep appID and paths as well only if you support iOS 12.",
            example: "applinks.defaults: 'defaults' needs iOS 14 / macOS 11; older systems ignore it"
        ),

        // MARK: - Entitlements (SWC101…SWC110)

        RuleEntry(
            "SWC101", .lint,
            title: "An associated-domains entry is invalid",
            apple:
                "Each entry is `<service>:<fully qualified domain>[:port][?mode=<mode>]` (Apple's entitlement reference and Configuring an Associated Domain page); Apple's Supporting Associated Domains page says \"Don't include path and query components or a trailing slash\". An invalid entry is ignored (AD-2.2, AD-2.3).",
            why:
                "Raised for an entry with no ':', an empty or non-ASCII host, a path, trailing slash or dot, a port outside 1-65535, a bad wildcard (only a leading `*.`, not over a top-level domain, none for appclips), or localhost or an IP address outside a ?mode=developer entry. Reported as an error. An entry that holds an Xcode build setting ($(NAME)) is SWC117 instead.",
            fix: "Write `service:host[:port][?mode=developer|managed]` with the host in lowercase ASCII or Punycode.",
            example: "\"applinks:https://example.com/\"   ->   \"applinks:example.com\""
        ),
        RuleEntry(
            "SWC102", .lint,
            title: "An entry names an unknown service",
            apple:
                "The known services are webcredentials, applinks, activitycontinuation and appclips, plus authsrv (Apple's Supporting Associated Domains and Configuring an Associated Domain pages); services compare case-insensitively. An entry of an unknown service is ignored (AD-2.2).",
            why:
                "A misspelt service silently drops the association. Reported as a warning, with the nearest known service when there is one.",
            fix: "Correct the service name.",
            example: "\"webcredential:example.com\"   -> did you mean 'webcredentials'?"
        ),
        RuleEntry(
            "SWC103", .lint,
            title: "An entry uses ?mode=developer or ?mode=managed",
            apple:
                "Apple's Configuring an Associated Domain page describes alternate modes: developer needs developer mode and a development-signed app, managed an MDM-managed device; entries whose mode is not satisfied are skipped entirely (AD-2.6). Mode entries must be removed before App Store submission.",
            why:
                "Mode entries take the direct route instead of Apple's CDN (AD-4.1) and apply only on developer-mode or managed devices, so they are development or enterprise settings. Reported as a warning.",
            fix:
                "Remove ?mode= entries from the entitlements of App Store builds (for example with a separate release .entitlements file).",
            example: "\"applinks:dev.example.com?mode=developer\""
        ),
        RuleEntry(
            "SWC104", .lint,
            title: "More than 30 associated domains",
            apple:
                "Apple's archived Universal Links guide: \"Limit this list to no more than about 20 to 30 domains\". There is no hard limit (AD-2.7).",
            why: "Every entry is a separate association that the device checks and rechecks. Reported as a warning.",
            fix:
                "Cover subdomains with a wildcard entry (`*.example.com`) where one file can serve them, and drop unused domains.",
            example: "\"applinks:*.example.com\" instead of \"applinks:a.example.com\", \"applinks:b.example.com\", ..."
        ),
        RuleEntry(
            "SWC105", .lint,
            title: "An applinks entry with a port never opens a URL",
            apple: "TN3155: \"applinks:example.com:8080 ... will not open your app\" (AD-2.4).",
            why:
                "The entry is well-formed but can never work for universal links; ports do work for webcredentials. Reported as a warning.",
            fix: "Drop the port; universal links use the scheme's default port.",
            example: "\"applinks:example.com:8080\"   ->   \"applinks:example.com\""
        ),
        RuleEntry(
            "SWC106", .lint,
            title: "An entry repeats an earlier one",
            apple:
                "The order of entries carries no meaning (WWDC19 session 717), and entries equal after normalisation are collapsed (AD-2.5).",
            why:
                "Entries that differ only in case, or in the order of their mode tokens, name the same association. Reported as a warning.",
            fix: "Remove the duplicate.",
            example: "\"webcredentials:Example.com\", \"webcredentials:example.com\""
        ),
        RuleEntry(
            "SWC107", .lint,
            title: "com.apple.developer.associated-domains is not an array of strings",
            apple:
                "securityd reads the entitlement as an array of strings and gets nothing back when the value is not an array or one element has another type (Apple's Security source; AD-2.1).",
            why:
                "The whole entitlement is then treated as absent: no entry at all. Reported as an error, and the entries are not checked further.",
            fix: "Make the value an array of strings.",
            example:
                "<key>com.apple.developer.associated-domains</key>\n<array><string>webcredentials:example.com</string></array>"
        ),
        RuleEntry(
            "SWC108", .lint,
            title: "The entitlements have no application-identifier",
            apple:
                "An app is identified by its application-identifier entitlement, `<prefix>.<bundle id>` (archived Universal Links guide). Without one, SecAddSharedWebCredential fails with errSecMissingEntitlement -34018.",
            why:
                "A source .entitlements file never has one: Xcode adds application-identifier when it signs the app, so its absence says the file is a source file, not that it is wrong. Reported as a note; swcred cannot tell which app the entries are for unless --app-id names it.",
            fix: "Pass --app-id, or lint the entitlements of the signed app, which carry application-identifier.",
            example:
                "swcred verify --entitlements App.entitlements --app-id ABCDE12345.com.example.app --aasa-dir sites"
        ),
        RuleEntry(
            "SWC109", .lint,
            title: "The application-identifier is not shaped like `<prefix>.<bundle id>`",
            apple:
                "App IDs are compared as exact, case-sensitive strings of the form `<prefix>.<bundle id>` (Apple's Supporting Associated Domains page; AD-6.4).",
            why:
                "swcred's check: 10 upper-case letters or digits, a dot, then a bundle ID of letters, digits, '.' and '-'. A misshapen ID can never appear in a site's file. Reported as an error.",
            fix: "Use the application-identifier the app is signed with.",
            example: "<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>"
        ),
        RuleEntry(
            "SWC110", .lint,
            title: "The entitlements have no associated domains",
            apple:
                "Without entries in com.apple.developer.associated-domains the app has no associated domain, so no two-way trust can hold (AD-6.1).",
            why:
                "Shared Web Credentials, universal links and the other services all need an entry. Reported as a note.",
            fix: "Add an entry for each service and domain the app uses.",
            example:
                "<key>com.apple.developer.associated-domains</key>\n<array><string>webcredentials:example.com</string></array>"
        ),
    ]
}
