// The error codes of SWCredError (the JSON "code" of an error, spec/cli.md "Exit codes"), in
// id order. Each title names the exit status and, where Apple defines one, the Apple status the
// error bridges to (spec/shared-web-credentials.md, spec/store.md section 12).

extension RuleBook {
    /// One `.error` entry per `SWCredError.Code` name declared in the sources, sorted by name.
    static let errorCodes: [RuleEntry] = [
        RuleEntry(
            "authenticationFailed", .error,
            title: "An authentication tag did not verify (exit 21)",
            apple: "Apple's keychain has no public status for this; it is an internal libsodium result.",
            why:
                "An XChaCha20-Poly1305 tag or a MAC did not verify, or the ciphertext was shorter than its tag. The store reports this as corruptPayload or wrongKey, so only direct callers of the AEAD see this code.",
            fix: "Treat the data as corrupt or the key as wrong; never use plaintext from a failed decryption.",
            example: "swcred list; echo $?\n21   # the store reports the failed tag as corruptPayload or wrongKey"
        ),
        RuleEntry(
            "autoFillDisabled", .error,
            title: "Password AutoFill is disabled (exit 14, errSecBadReq -909)",
            apple:
                "SecAddSharedWebCredential and the legacy SecRequestSharedWebCredential fail with errSecBadReq (-909) when Password AutoFill is off, before any other check (Apple's Security source, SecItemServer.c).",
            why: "The emulated device's AutoFill setting is off, so swcred answers as the device would.",
            fix: "Turn AutoFill on in the emulated device's settings.",
            example: "swcred settings --autofill on"
        ),
        RuleEntry(
            "busy", .error,
            title: "The store is busy: the write lock was not acquired in time (exit 22)",
            apple: "No Apple equivalent: securityd serialises keychain writes itself.",
            why:
                "Every write takes an exclusive lock on the store's lock file and waits up to the lock timeout; another writer held it longer. No change was made.",
            fix: "Retry, or wait longer with --lock-timeout; check for a stuck process holding the lock.",
            example: "swcred add example.com alice --password-stdin --lock-timeout 30 < pw.txt"
        ),
        RuleEntry(
            "canceled", .error,
            title: "The user declined or canceled (exit 13, ASAuthorizationError.canceled 1001)",
            apple:
                "In the current request path (iOS 16 and later) a canceled picker, or a picker with nothing to offer, completes with an empty array and ASAuthorizationError 1001 in com.apple.AuthenticationServices.AuthorizationError. A declined add completes with no error at all (Apple's Security source).",
            why:
                "Exit 13 tells a script the truth even when Apple's completion reports success: the add was declined (\"Not Now\" or cancel), or the picker was canceled.",
            fix:
                "Answer the prompt (in scripts, --user allow or --pick first|ACCOUNT), or handle 13 as \"the user said no\".",
            example: "swcred request example.com --entitlements App.entitlements --pick cancel; echo $?\n13"
        ),
        RuleEntry(
            "conflict", .error,
            title: "The store changed under a held lock (exit 26)",
            apple: "No Apple equivalent.",
            why:
                "The file's generation changed while the lock was held (a writer ignored the lock), or a prepared change named a generation that is no longer current. The write was abandoned and the file left as it was.",
            fix: "Retry the command; find the program that writes the store without taking its lock.",
            example: "swcred add example.com alice --password-stdin < pw.txt   # retry after exit 26"
        ),
        RuleEntry(
            "corruptHeader", .error,
            title: "The store's header is damaged (exit 21)",
            apple:
                "Apple reports a damaged keychain as errSecInvalidKeychain; swcred's decision: a specific code, since the header has its own checksum.",
            why:
                "The header is shorter than its version requires, or its checksum does not match. Nothing was decrypted.",
            fix: "Restore the store from a copy you keep; swcred keeps no backup file of its own.",
            example: "swcred list --format json; echo $?\n21"
        ),
        RuleEntry(
            "corruptPayload", .error,
            title: "The store's encrypted payload is damaged (exit 21)",
            apple: "No Apple status applies; Apple would report a damaged keychain as errSecInvalidKeychain.",
            why:
                "The payload length does not match, the AEAD tag does not verify, or the decrypted data does not decode (including field sizes over their limits). No plaintext is used.",
            fix:
                "Restore the store from a copy you keep; the header verified, so the payload itself was altered or damaged.",
            example: "swcred list --format json; echo $?\n21"
        ),
        RuleEntry(
            "cryptoUnavailable", .error,
            title: "libsodium failed (exit 1)",
            apple: "No Apple equivalent.",
            why:
                "sodium_init failed, or a libsodium call failed where it should not (for example crypto_pwhash could not run).",
            fix: "Check the installed libsodium (1.0.18 or later) and the process limits; report a bug if it persists.",
            example: "apt-get install libsodium23"
        ),
        RuleEntry(
            "duplicateItem", .error,
            title: "Duplicate item (exit 45, errSecDuplicateItem -25299)",
            apple:
                "SecItemAdd returns errSecDuplicateItem when an item with the same primary key exists (Apple's errSecDuplicateItem page). SecAddSharedWebCredential returns it, \"Item already exists for this server\", when the user chose never to save passwords for the host.",
            why:
                "An add or update would duplicate a uniqueness key (server, account, port, protocol and the other key attributes), or a \"Passwords not saved\" entry blocks the host. Exit 45, as security(1) uses.",
            fix: "Update instead (-U/--update), delete the existing item, or remove the \"Passwords not saved\" entry.",
            example: "swcred add example.com alice --password-stdin -U < pw.txt"
        ),
        RuleEntry(
            "fetchFailed", .error,
            title: "An association file fetch failed in the network (exit 69)",
            apple:
                "The device records the failure in the association record's Error field with an NSURLErrorDomain code: -1202 untrusted certificate, -1200 other TLS failure, -1001 timed out, -1003 host not found, -1004 could not connect (AD-4.3, AD-4.8).",
            why: "The connection, TLS trust or timing failed; the message names the rule and Apple's code.",
            fix:
                "Check DNS, the certificate chain and that the host answers on 443; for local servers pass --resolve and --ca-file.",
            example: "swcred fetch example.com --direct --format json"
        ),
        RuleEntry(
            "fetchRefused", .error,
            title: "An association file fetch was refused by a retrieval rule (exit 69)",
            apple:
                "The device refuses http URLs (AD-4.2), redirects (AD-4.4), error statuses (domain HTTP, or `_SWCErrorDomain` 7 from the CDN; AD-4.5, AD-4.1) and bodies over 131072 bytes (NSURLErrorDomain -1103, AD-4.6).",
            why: "The server answered, but not as Apple requires; the message names the rule, the domain and the code.",
            fix: "Fix the server as the cited rule says (`swcred explain AD-4.4`, ...), then fetch again.",
            example:
                "swcred fetch example.com\nAD-4.4 error: the server answered 301 (redirect) to 'https://www.example.com/...'"
        ),
        RuleEntry(
            "fileNotFound", .error,
            title: "An input file is missing or unreadable (exit 66)",
            apple: "No Apple status: this concerns swcred's own input files.",
            why:
                "A file named on the command line (entitlements, AASA, CA file, quirks, secret file) or a descriptor given with --passphrase-fd could not be opened.",
            fix: "Check the path and its permissions.",
            example: "swcred lint ./missing.json; echo $?\n66"
        ),
        RuleEntry(
            "infeasible", .error,
            title: "No password satisfies the rules (exit 65)",
            apple:
                "Apple does not document what its generator does with rules nothing can satisfy. swcred's decision: fail with this code rather than return a nearly compliant password; exit 65 because the rules are input data.",
            why:
                "The rules leave no valid password: for example more required sets than maxlength allows (swcred never drops a rule-given set), or a required set that is empty once the space character is removed from the generation alphabet.",
            fix: "Relax the rules: allow the required characters, raise maxlength, or drop a conflicting requirement.",
            example:
                "swcred generate --rules \"required: upper; required: lower; required: digit; maxlength: 2;\"; echo $?\n65"
        ),
        RuleEntry(
            "insecurePermissions", .error,
            title: "A key file, secret file or store folder is open to others (exit 28)",
            apple: "No Apple equivalent: the Apple keychain is protected by the operating system.",
            why:
                "A key file, secret file or store directory is readable or writable by group or others, or owned by another user, so its secret cannot be trusted.",
            fix: "Make it private to you: chmod 600 for files, 700 for the store's folder, owned by you.",
            example: "chmod 600 ~/.config/swcred/keychain.key && chmod 700 ~/.local/share/swcred"
        ),
        RuleEntry(
            "interactionNotAllowed", .error,
            title: "Interaction required but not allowed (exit 29, errSecInteractionNotAllowed -25308)",
            apple:
                "Keychain calls return errSecInteractionNotAllowed (-25308) when key material is unavailable and the user may not be asked.",
            why:
                "A passphrase or password is needed, no non-interactive source was given, and there is no terminal to ask on; swcred never prompts without one.",
            fix: "Give the secret through --password-stdin, --passphrase-file or --passphrase-fd (never on argv).",
            example: "swcred add example.com alice --password-stdin < pw.txt"
        ),
        RuleEntry(
            "internalError", .error,
            title: "An unexpected internal error (exit 1)",
            apple:
                "No Apple status; Apple's Shared Web Credentials calls report internal failures as errSecInternal -26276 (see secInternal).",
            why:
                "An invariant swcred relies on did not hold. Exit 1 outside `swcred match`, where 1 means \"not a match\".",
            fix: "Report a bug with the command line and the message (it contains no secrets).",
            example: "swcred --version   # include it, the command line and the message in the bug report"
        ),
        RuleEntry(
            "invalidAndroidApp", .error,
            title: "An Android app given as PKG=FP is not one (exit 64)",
            apple:
                "Digital Asset Links names an app by its package name and the SHA-256 fingerprints of its signing certificates, as 32 upper-case hex octets joined by ':' (asset-links.md §1.1).",
            why:
                "The value has no '=', the package name is not Java package syntax, a fingerprint is not 32 hex octets (a 20-octet SHA-1 fingerprint is named as such), or there are more than 16. Lower case and the colon-less form apksigner prints are accepted and normalised.",
            fix: "Pass --android-app com.example.app=AA:BB:…, with the SHA-256 fingerprint from `keytool -list -v` or the Play Console.",
            example: "swcred verify --android-app com.example.app=14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5 --host example.com"
        ),
        RuleEntry(
            "invalidKeyFile", .error,
            title: "The key file is missing, not a regular file, or the wrong length (exit 66)",
            apple: "No Apple equivalent.",
            why:
                "The key file must be a regular file of exactly 32 bytes; a symbolic link is refused, and an existing key file is never overwritten.",
            fix: "Point --key-file (or SWCRED_KEY_FILE) at the store's key file, or restore it from your backup.",
            example: "swcred list --key-file ~/.config/swcred/keychain.key   # the default location"
        ),
        RuleEntry(
            "invalidParameter", .error,
            title: "Invalid parameter (exit 50, errSecParam -50)",
            apple:
                "SecAddSharedWebCredential and SecRequestSharedWebCredential return errSecParam (-50) for a missing or empty domain or account (\"fqdn or account was not of type CFString, or not provided\", \"No domain provided\"), and on platforms without Shared Web Credentials.",
            why:
                "An argument or attribute is malformed: empty server or account, a field over its size limit, a bad four-character code, a passphrase outside 1-4096 bytes.",
            fix: "Correct the argument the message names.",
            example:
                "swcred add example.com \"$(printf 'a%.0s' $(seq 600))\" --password-stdin < pw.txt   # account over 512 bytes"
        ),
        RuleEntry(
            "invalidURL", .error,
            title: "The URL is not an absolute http(s) URL (exit 64)",
            apple: "Universal links are HTTP or HTTPS URLs (WWDC19 session 717; AD-7.1).",
            why:
                "`swcred match` needs an absolute http or https URL with a host. In a --urls list the line is reported and the run goes on (exit 65 at the end).",
            fix: "Pass the full URL, scheme included.",
            example: "swcred match https://example.com/buy/1 --aasa aasa.json"
        ),
        RuleEntry(
            "ioFailure", .error,
            title: "An I/O system call failed (exit 74, errSecIO -36)",
            apple:
                "Apple's keychain reports I/O errors as errSecIO (-36); swcred uses errSecDskFull (-34) for ENOSPC and EDQUOT and errSecWrPerm (-61) for EACCES, EPERM and EROFS.",
            why:
                "A read, write, fsync, rename or lock call failed; the message names the step and the errno. A failed write leaves the old store byte-for-byte untouched.",
            fix: "Fix the cause the errno names (disk full, read-only file system, permissions), then retry.",
            example:
                "swcred: error: write failed (/home/me/.local/share/swcred/keychain.swcred.tmp): errno 28 (No space left on device) [ioFailure]"
        ),
        RuleEntry(
            "itemNotFound", .error,
            title: "Item not found (exit 44, errSecItemNotFound -25300)",
            apple:
                "SecItemCopyMatching, SecItemUpdate and SecItemDelete return errSecItemNotFound when nothing matches. The legacy SecRequestSharedWebCredential returns it, with no credentials, when no saved password is found for the domain.",
            why: "The query, update or delete matched no item. Exit 44, as security(1) uses.",
            fix: "Check the domain, account and port with `swcred list`.",
            example: "swcred show example.com bob; echo $?\n44"
        ),
        RuleEntry(
            "limitExceeded", .error,
            title: "A limit was exceeded (exit 27, errSecDataTooLarge -25302)",
            apple: "Apple's keychain reports data that is too large as errSecDataTooLarge (-25302).",
            why:
                "A size or count limit was reached: store size, item count, association records, a CA or quirks file too large. Limits are checked before anything is written, so the store is unchanged.",
            fix: "Remove items you no longer need, or split the input; the message names the limit and the value.",
            example: "swcred import big-export.csv; echo $?\n27"
        ),
        RuleEntry(
            "malformedAASA", .error,
            title: "An apple-app-site-association file could not be parsed (exit 65)",
            apple:
                "A device records a file that does not parse as NSCocoaErrorDomain 3840 (AD-4.9) and one over 131072 bytes as NSURLErrorDomain -1103 (AD-4.6).",
            why:
                "The file is not valid JSON, its top level is not an object, it nests too deeply, or it is too large. The message names Apple's error.",
            fix: "Run `swcred lint` on the file and fix what it reports.",
            example: "swcred lint apple-app-site-association"
        ),
        RuleEntry(
            "malformedAssetLinks", .error,
            title: "An assetlinks.json statement list could not be read (exit 65)",
            apple:
                "Google's API reports such a list as ERROR_CODE_MALFORMED_CONTENT or ERROR_CODE_TOO_LARGE, and an Android device reads no statements from it (asset-links.md DAL-S1, DAL-F3).",
            why:
                "The body is larger than 1 MiB, is not strict JSON (a byte-order mark, comments and trailing commas included), nests too deeply, or its top level is not an array. The message names the rule.",
            fix: "Run `swcred lint --kind assetlinks` on the file and fix what it reports.",
            example: "swcred lint --kind assetlinks assetlinks.json"
        ),
        RuleEntry(
            "malformedArtifact", .error,
            title: "A signed artifact could not be read (exit 65)",
            apple:
                "A device refuses to install or launch code whose Mach-O headers or code signature do not parse; it never reads entitlements from such a binary.",
            why:
                "The Mach-O file, one of its slices, its LC_CODE_SIGNATURE data or a blob of the signature (SuperBlob, CodeDirectory, XML or DER entitlements) is truncated, points outside its container, overflows, or is over a size or count limit. The message names the structure and the offset.",
            fix:
                "Check that the file is the app's executable as built and signed (not stripped or truncated in transit), or pass the .entitlements file instead.",
            example: "swcred entitlements Payload/TacoShop.app/TacoShop"
        ),
        RuleEntry(
            "malformedEntitlements", .error,
            title: "An entitlements file could not be parsed (exit 65)",
            apple: "Xcode and codesign read entitlements as a property list whose top level is a dictionary.",
            why:
                "The file is neither a property list (XML or binary) nor a JSON object, or it is too large or too deep.",
            fix:
                "Use the app's .entitlements file, or extract the signed entitlements with `codesign -d --entitlements :- MyApp.app`.",
            example: "swcred entitlements App.entitlements"
        ),
        RuleEntry(
            "malformedInput", .error,
            title: "Malformed input data (exit 65)",
            apple: "No Apple status: this concerns swcred's own inputs.",
            why:
                "An input is not in the expected form: a CA file without a PEM certificate, a block list that is not UTF-8, an import row that is invalid (its line and column are named, never its password).",
            fix: "Fix the input the message names.",
            example: "swcred fetch example.com --ca-file not-a-cert.txt; echo $?\n65"
        ),
        RuleEntry(
            "malformedQuirks", .error,
            title: "A quirks file could not be loaded (exit 65)",
            apple: "Apple's password-manager-resources quirks files follow the JSON schemas in that repository.",
            why:
                "The file does not decode, or a key has the wrong type; the message names the file and the offending key. Unknown keys inside an entry are only warnings.",
            fix: "Use the file from apple/password-manager-resources, or fix the key named in the message.",
            example: "swcred generate --domain example.com --quirks password-rules.json"
        ),
        RuleEntry(
            "malformedRules", .error,
            title: "A Password Rules string lost content while parsing (exit 65)",
            apple: "Apple's Password Rules parser is lenient: it drops what it cannot read and goes on.",
            why:
                "swcred's strict entry points refuse rules that lost content instead of silently generating from what was left; the message names what was lost. The lenient parser returns warnings instead.",
            fix: "Correct the rules; check them against the Password Rules syntax (properties separated by ';').",
            example: "swcred generate --rules \"minlength: 12; required: lower; required: digit;\""
        ),
        RuleEntry(
            "malformedSitemap", .error,
            title: "A sitemap or sitemap index given to match --sitemap cannot be read (exit 65)",
            apple:
                "Apple does not read sitemaps; this is swcred's link audit. Search engines read the sitemaps.org format: a <urlset> of <url><loc> entries, or a <sitemapindex> of <sitemap><loc> entries.",
            why:
                "swcred reads only the markup a sitemap uses, in bounded pieces: a document type declaration is refused so that an entity bomb is never expanded, and a <loc> or a tag past its size cap, a binary file or a file that is not a sitemap stops the run with a clear error rather than a hang.",
            fix:
                "Serve the sitemap as plain XML in the sitemaps.org format without a DOCTYPE; split files over 50 000 URLs or 50 MB with a sitemap index; or pass a plain list of URLs with --urls.",
            example: "swcred match --sitemap Fixtures/sitemaps/tacos-index.xml --aasa-dir Fixtures/sites"
        ),
        RuleEntry(
            "missingEntitlement", .error,
            title: "Missing entitlement (exit 11, errSecMissingEntitlement -34018)",
            apple:
                "SecAddSharedWebCredential and SecRequestSharedWebCredential fail with errSecMissingEntitlement (-34018): \"Missing application-identifier entitlement\", or `\"<host> not found in com.apple.developer.associated-domains entitlement\"` (Apple's Security source).",
            why:
                "The app has no application-identifier, or no webcredentials entry of its entitlement covers the domain (and port) asked for.",
            fix:
                "Add `webcredentials:<domain>` (with the port, if the call gives one) to the entitlement, and pass --app-id or an entitlements file with application-identifier.",
            example: "swcred lint --entitlements App.entitlements"
        ),
        RuleEntry(
            "notAStore", .error,
            title: "The file is not a swcred store (exit 21, errSecInvalidKeychain -25295)",
            apple: "Apple's keychain reports a file that is not a keychain as errSecInvalidKeychain (-25295).",
            why: "The file is too short or does not start with the store's magic value.",
            fix: "Check --store (or SWCRED_STORE) points at a keychain.swcred file.",
            example: "swcred list --store ~/.local/share/swcred/keychain.swcred"
        ),
        RuleEntry(
            "outputExists", .error,
            title: "The export file already exists (exit 74)",
            apple:
                "Apple's Passwords app asks before it replaces a file it exports to; it never overwrites one silently.",
            why:
                "An export holds every saved password in the clear. swcred creates the file with O_EXCL and mode 0600 so that it never replaces, or writes through a link to, a file someone else may read.",
            fix:
                "Choose a new path, remove the old export, or pass --force to replace it (the file is set to 0600 before it is truncated).",
            example: "swcred export --to chrome -o passwords.csv --force"
        ),
        RuleEntry(
            "parametersOutOfBounds", .error,
            title: "The store's KDF parameters or payload length are out of bounds (exit 21)",
            apple: "No Apple equivalent.",
            why:
                "The header asks for KDF work outside the caps (opslimit 1-10, memlimit 8 KiB-1 GiB) or a payload longer than allowed; it is refused before the KDF runs, so a crafted file cannot exhaust memory or time.",
            fix: "Treat the file as corrupt or hostile; restore it from a backup.",
            example: "swcred list --store suspicious.swcred; echo $?\n21"
        ),
        RuleEntry(
            "passkeyCanceled", .error,
            title: "Passkey: the user canceled (exit 13, NotAllowedError; ASAuthorizationError 1001 for an app)",
            apple:
                "When the user dismisses the passkey sheet, an app's ASAuthorizationController delegate receives ASAuthorizationError.canceled (1001); a web page's navigator.credentials call rejects with NotAllowedError.",
            why:
                "WebAuthn does not tell a page whether the user canceled or no credential existed, so both are NotAllowedError.",
            fix:
                "Nothing to fix: the simulated user answered cancel (--user cancel or --pick cancel). Use --user allow to complete the ceremony.",
            example: "swcred passkey register options.json --user cancel --entitlements App.entitlements --aasa-dir sites"
        ),
        RuleEntry(
            "passkeyExcludedCredential", .error,
            title: "Passkey: a credential in excludeCredentials is already saved (exit 45, InvalidStateError; ASAuthorizationError 1006 for an app)",
            apple:
                "WebAuthn's create() fails with InvalidStateError when the authenticator already holds one of the excludeCredentials; since iOS 18 an app receives ASAuthorizationError.matchedExcludedCredential (1006).",
            why:
                "excludeCredentials lets a server avoid registering a second passkey for the same account on the same authenticator; nothing is created.",
            fix:
                "The account already has a passkey here: sign in with it (passkey assert), or delete it (swcred passkey delete RPID CREDENTIAL_ID) before registering again.",
            example: "swcred passkey list --format json"
        ),
        RuleEntry(
            "passkeyInvalidOptions", .error,
            title: "Passkey: the options are missing a member, of the wrong type or out of range (exit 50, TypeError)",
            apple:
                "A browser's navigator.credentials.create() or get() throws TypeError when the options dictionary does not match the WebAuthn IDL (a missing challenge, user or rp, a wrong type).",
            why:
                "The options are the server's PublicKeyCredentialCreationOptionsJSON or RequestOptionsJSON; a malformed one would make the ceremony meaningless, so nothing is created.",
            fix:
                "Send the WebAuthn Level 3 JSON forms: base64url strings without padding for challenge, user.id and credential ids; a challenge of 16 to 1024 bytes.",
            example: "{\"challenge\":\"AAECAwQFBgcICQoLDA0ODw\",\"rpId\":\"tacos.example\"}"
        ),
        RuleEntry(
            "passkeyNoCredentials", .error,
            title: "Passkey: no saved passkey matches the assertion (exit 44, NotAllowedError; ASAuthorizationError 1001 for an app)",
            apple:
                "With no matching passkey for the RP ID (or none in allowCredentials), the platform shows no sheet and the request ends like a cancel: NotAllowedError for a page, ASAuthorizationError.canceled for an app.",
            why:
                "WebAuthn hides from a page whether a credential exists, so the failure looks like a cancel.",
            fix:
                "Register a passkey first (swcred passkey register), or check the rpId and allowCredentials of the request options.",
            example: "swcred passkey list tacos.example"
        ),
        RuleEntry(
            "passkeyNotAssociated", .error,
            title: "Passkey: the app is not associated with the RP ID (exit 11, SecurityError; ASAuthorizationError 1004)",
            apple:
                "An app may use passkeys for an RP ID only when its com.apple.developer.associated-domains entitlement has an active webcredentials entry for that domain; otherwise the request fails with ASAuthorizationError.failed (1004), \"Application with identifier … is not associated with domain …\".",
            why:
                "The webcredentials association is the app's proof that the site trusts it with the site's credentials, passwords and passkeys alike.",
            fix:
                "Add webcredentials:<rp id> to the app's entitlement (mind ?mode=developer entries, which apply only in developer mode), and list the app under webcredentials.apps in the domain's apple-app-site-association.",
            example: "swcred verify --entitlements App.entitlements --aasa-dir sites --service webcredentials"
        ),
        RuleEntry(
            "passkeyNotSupported", .error,
            title: "Passkey: no supported algorithm in pubKeyCredParams (exit 50, NotSupportedError)",
            apple:
                "Apple's platform authenticator makes ES256 (COSE -7, P-256) keys only; create() with no -7 among pubKeyCredParams fails with NotSupportedError.",
            why:
                "An authenticator must not create a key the relying party cannot verify.",
            fix:
                "Include {\"type\":\"public-key\",\"alg\":-7} in pubKeyCredParams.",
            example: "\"pubKeyCredParams\":[{\"type\":\"public-key\",\"alg\":-7},{\"type\":\"public-key\",\"alg\":-257}]"
        ),
        RuleEntry(
            "passkeyOriginNotAllowed", .error,
            title: "Passkey: the browser origin may not use the RP ID (exit 50, SecurityError)",
            apple:
                "A browser refuses a WebAuthn call with SecurityError when the RP ID is neither the origin's host nor a registrable suffix of it, or when the origin is not https (localhost excepted).",
            why:
                "An RP ID scopes credentials to a site; letting another origin use it would let one site sign in as another.",
            fix:
                "Call from an https origin whose host is the RP ID or a subdomain of it (login.tacos.example may use tacos.example), and never use a public suffix as the RP ID.",
            example: "swcred passkey register options.json --origin https://login.tacos.example"
        ),
        RuleEntry(
            "passkeySiteNotApproved", .error,
            title: "Passkey: the site has not approved the app (exit 12, SecurityError; ASAuthorizationError 1004)",
            apple:
                "The entitlement names the domain, but the association record is not approved: the domain's apple-app-site-association does not list the app under webcredentials.apps, or it could not be fetched. The request fails like a missing association.",
            why:
                "The site's file is the other half of the two-way trust; without it any app could claim any domain.",
            fix:
                "List the app ID (<TeamID>.<bundle id>) under webcredentials.apps in the file served at https://<domain>/.well-known/apple-app-site-association, then refresh the records (pass --aasa-dir, --direct or --cdn).",
            example: "{\"webcredentials\":{\"apps\":[\"ABCDE12345.com.example.tacoshop\"]}}"
        ),
        RuleEntry(
            "resourceExhausted", .error,
            title: "Out of memory or another resource (exit 71, errSecAllocate -108)",
            apple: "Apple's keychain reports allocation failures as errSecAllocate (-108).",
            why: "The KDF or a guarded allocation (sodium_malloc) could not get memory.",
            fix:
                "Free memory, raise the process limits (ulimit -v, RLIMIT_MEMLOCK), or create the store with a lighter KDF preset.",
            example: "ulimit -l; ulimit -v"
        ),
        RuleEntry(
            "rollbackDetected", .error,
            title: "The store is older than one already seen (exit 23)",
            apple: "No Apple equivalent.",
            why:
                "The store has rollback protection on (swcred init --rollback-protection, or swcred settings --rollback-protection on; it is off by default) and its generation is below the high-water mark this user account recorded in $XDG_STATE_HOME/swcred/, so an older copy was restored or re-synced; reads and writes are refused to avoid resurrecting deleted or changed passwords.",
            fix:
                "Find the newer copy. To accept this older copy on purpose, save to it once with --allow-rollback (swcred settings --allow-rollback does that without changing anything else; the counter continues above the mark); --allow-rollback on a read only reads it, with a warning. For stores that are copied and restored on purpose (test fixtures), turn the protection off: swcred settings --rollback-protection off --allow-rollback.",
            example: "swcred settings --allow-rollback\nswcred settings --rollback-protection off --allow-rollback"
        ),
        RuleEntry(
            "secInternal", .error,
            title: "An internal keychain failure (exit 1, errSecInternal -26276)",
            apple:
                "Shared Web Credentials calls report any other store or internal failure as errSecInternal (-26276).",
            why:
                "A store operation under add or request failed; the store's own error is the underlying error and is shown with it.",
            fix: "Look at the underlying error (for example busy or wrongKey) and fix that.",
            example:
                "swcred add example.com alice --password-stdin --entitlements App.entitlements --format json < pw.txt"
        ),
        RuleEntry(
            "siteNotApproved", .error,
            title: "The site has not approved the app (exit 12, errSecAuthFailed -25293)",
            apple:
                "SecAddSharedWebCredential fails with errSecAuthFailed (-25293), `\"<host>\" failed to approve \"<app ID>\"`, when the site's file does not list the app; the legacy request gives the same error for items the site has not approved (Apple's Security source).",
            why:
                "The association record's site approval is not approved: the domain's file does not list the app under webcredentials, or it was never fetched.",
            fix: "List the app ID in webcredentials.apps of the domain's file, then refresh the record from a source.",
            example: "swcred verify --entitlements App.entitlements --aasa-dir sites --service webcredentials"
        ),
        RuleEntry(
            "storeExists", .error,
            title: "A store already exists (exit 24, errSecDuplicateKeychain -25296)",
            apple: "Creating a keychain where one exists returns errSecDuplicateKeychain (-25296).",
            why: "`swcred init` never replaces an existing store unless asked.",
            fix: "Use the existing store, choose another --store path, or pass --force to init.",
            example: "swcred init --store ~/test/keychain.swcred"
        ),
        RuleEntry(
            "storeNotFound", .error,
            title: "No store where one is required (exit 66, errSecNoSuchKeychain -25294)",
            apple: "Opening a keychain that does not exist returns errSecNoSuchKeychain (-25294).",
            why: "The command reads the store, and there is no file at the store path.",
            fix:
                "Check --store (or SWCRED_STORE), or create the store with `swcred init` (the first write creates it too).",
            example: "swcred init"
        ),
        RuleEntry(
            "unimplemented", .error,
            title: "Not supported on this platform (exit 1, errSecUnimplemented -4)",
            apple:
                "SecAddSharedWebCredential returns errSecUnimplemented (-4), \"SecAddSharedWebCredentialSync not supported on this platform\", on macOS and Mac Catalyst (Apple's Security source).",
            why:
                "The library's emulated platform is macos; the command line has no platform switch, so it meets this code only through the library.",
            fix: "Emulate platform ios to add shared web credentials.",
            example:
                "SharedWebCredentials(backend: store, app: app, responder: responder, configuration: SWCConfiguration(platform: .ios))"
        ),
        RuleEntry(
            "unsupportedFormat", .error,
            title: "Unsupported store format or version (exit 25, errSecInvalidKeychain -25295)",
            apple: "Apple's keychain reports a keychain it cannot read as errSecInvalidKeychain (-25295).",
            why:
                "The header names a format version, key source, algorithm or payload schema this swcred does not know, typically a store written by a newer version.",
            fix: "Use the swcred version that wrote the store, or a newer one.",
            example: "swcred --version"
        ),
        RuleEntry(
            "usage", .error,
            title: "Command-line usage error (exit 64)",
            apple: "No Apple status: this concerns swcred's command line.",
            why:
                "An option is unknown, missing, out of range or would take a secret on argv (the message never repeats the value).",
            fix: "Check `swcred help COMMAND`.",
            example: "swcred help add"
        ),
        RuleEntry(
            "wrongKey", .error,
            title: "Wrong key or passphrase (exit 20, errSecAuthFailed -25293)",
            apple: "Apple's keychain reports a wrong password for a keychain as errSecAuthFailed (-25293).",
            why:
                "The header's MAC does not verify with the given key file or passphrase, the key source is not the store's, or the store was rekeyed since it was opened; the message says which. Shared Web Credentials calls never pass this on as -25293, so that code keeps meaning \"site not approved\".",
            fix: "Give the right key file or passphrase; after a rekey elsewhere, run the command again.",
            example: "swcred list --passphrase-file ~/.secrets/swcred-pass"
        ),
    ]
}
