// The findings of `swcred verify --app` on a signed app (issue 31), APP-1…APP-14, in id order:
// SWCredArtifacts' SignedAppFinding.Kind. Sources: Apple's TN3125 (Inside Code Signing:
// Provisioning Profiles) and TN3126 (Inside Code Signing: Hashes), and the associated-domains
// rules they meet (AD-2.1, AD-2.6). Kind `.lint`: a finding about an input, as lint ids are.

extension RuleBook {
    /// The `.lint` entries APP-1…APP-14, sorted by number.
    static let signedAppRules: [RuleEntry] = [
        RuleEntry(
            "APP-1", .lint,
            title: "The source entitlements and the signed ones differ",
            apple:
                "The device enforces the entitlements in the code signature, never the .entitlements file of the project. Xcode adds application-identifier and the team identifier when it signs, and an export with another profile, a per-configuration CODE_SIGN_ENTITLEMENTS or a re-signing script can drop or change com.apple.developer.associated-domains on the way (TN3125).",
            why:
                "verify --app --entitlements FILE compares the two: entries in the source that are not signed, entries signed that are not in the source, and a differing application-identifier. The verdict is the signed app's; this warning says why it differs from what the source promises.",
            fix:
                "Sign with the entitlements file of the configuration you ship (check CODE_SIGN_ENTITLEMENTS for Release) and export with a profile that carries the Associated Domains capability; then compare again.",
            example:
                "swcred verify --app TacoShop.ipa --entitlements TacoShop.entitlements --aasa-dir sites\nAPP-1 warning: ... not signed: applinks:tacos.example"
        ),
        RuleEntry(
            "APP-2", .lint,
            title: "The signed app has no associated domains",
            apple:
                "Without a signed com.apple.developer.associated-domains array of strings the app has no associated domain: no webcredentials, applinks or appclips association is made, whatever the files list (AD-2.1).",
            why:
                "An app re-signed or exported without the entitlement is trusted by nothing; verify --app reports this as an error, so the verdict is not trusted even though no row failed.",
            fix:
                "Enable the Associated Domains capability for the App ID, list the domains in the entitlements file, and sign (or re-sign) with a profile that allows them.",
            example:
                "swcred entitlements TacoShop-resigned.ipa\nno associated-domains entries"
        ),
        RuleEntry(
            "APP-3", .lint,
            title: "The profile does not allow the signed associated domains",
            apple:
                "At install the device checks every signed entitlement against the embedded profile's Entitlements (TN3125): com.apple.developer.associated-domains must be allowed there, as \"*\" or as a list holding each signed entry. An app signed with entitlements its profile does not allow does not install (the entitlements are not valid for the profile).",
            why:
                "A profile made before the Associated Domains capability was enabled for the App ID, or a profile of another App ID, lacks the key. swcred reads the embedded profile's allowlist (its CMS signature is not verified) and reports every signed entry it does not cover as an error.",
            fix:
                "Enable Associated Domains for the App ID in the developer account, regenerate and download the profile, and sign again.",
            example:
                "swcred verify --app TacoShop-profile-denies.ipa --aasa-dir sites\nAPP-3 error: the profile does not allow Associated Domains ..."
        ),
        RuleEntry(
            "APP-4", .lint,
            title: "The profile does not cover the signed application identifier",
            apple:
                "A profile's application-identifier is the App ID it provisions: an explicit TEAM.bundle, or a wildcard (TEAM.* or TEAM.com.example.*) whose trailing * stands for any rest. The signed application-identifier must match it (TN3125).",
            why:
                "An app signed with a profile of another App ID does not install. swcred matches the profile's value as the device does: * alone matches any identifier, a trailing * any continuation, otherwise the two are equal.",
            fix: "Sign with a profile for this App ID (or a wildcard profile that covers it, where no capability needs an explicit App ID).",
            example: "profile ABCDE12345.com.example.other, signed ABCDE12345.com.example.tacoshop"
        ),
        RuleEntry(
            "APP-5", .lint,
            title: "The app's names differ: bundle identifier, CodeDirectory identifier, App ID",
            apple:
                "The application-identifier is the App ID prefix, a dot and the bundle identifier; the device refuses an app whose Info.plist CFBundleIdentifier is not the application-identifier's bundle part. codesign writes the bundle identifier as the CodeDirectory's identifier (TN3126).",
            why:
                "A bundle renamed after signing, or signed with another target's entitlements, carries names that disagree; each is printed where it was read.",
            fix: "Keep PRODUCT_BUNDLE_IDENTIFIER, the App ID of the profile and the signing identity's target the same, and sign after the last change to Info.plist.",
            example: "CFBundleIdentifier is com.example.tacoshop, the application-identifier's bundle part is com.example.taco"
        ),
        RuleEntry(
            "APP-6", .lint,
            title: "The teams differ: CodeDirectory, signed team identifier, profile",
            apple:
                "The CodeDirectory records the signing certificate's team, the signed com.apple.developer.team-identifier names the team, and the profile's TeamIdentifier is the team that owns the App ID (TN3125, TN3126). A device requires them to agree.",
            why: "An app signed by one team with another team's profile does not install; the three values are printed.",
            fix: "Sign with a certificate of the team that owns the profile and the App ID.",
            example: "the CodeDirectory's team is ZZZZZ99999, the profile's TeamIdentifier is ABCDE12345"
        ),
        RuleEntry(
            "APP-7", .lint,
            title: "The App ID prefix is not the Team ID",
            apple:
                "Apps created before 2011 may keep a legacy App ID prefix that is not the Team ID. The association files must list the signed application-identifier, prefix included: the device compares it as written.",
            why:
                "Files generated from the Team ID list TEAMID.bundle, which does not match an app whose prefix differs. This is a note: swcred checks the files against the signed identifier already, so the rows show whether they list it.",
            fix: "List PREFIX.bundle (the signed application-identifier) in webcredentials.apps and applinks.details.",
            example: "App ID prefix 9ZYX8WV7UT, Team ID ABCDE12345: list 9ZYX8WV7UT.com.example.tacoshop"
        ),
        RuleEntry(
            "APP-8", .lint,
            title: "?mode=developer entries in a distribution-signed app",
            apple:
                "?mode=developer entries apply only to development-signed apps (get-task-allow) on a device with Associated Domains Development on (AD-2.6); App Store, ad hoc and enterprise builds ignore them.",
            why: "A domain that works in development through a developer-mode entry silently stops working in the shipped app.",
            fix: "Add the entry without ?mode=developer (and serve the file from that host), or keep it only in the Debug entitlements.",
            example: "applinks:staging.tacos.example?mode=developer in an ad hoc build"
        ),
        RuleEntry(
            "APP-9", .lint,
            title: "The profile has expired or is not valid yet",
            apple:
                "A device stops launching a development, ad hoc or enterprise app whose embedded profile is past its ExpirationDate (TN3125); a CreationDate in the future means the signing machine's clock was wrong.",
            why:
                "An expired profile explains an app that no longer opens, links and credentials included. swcred checks the dates at the time it runs (tests inject the clock).",
            fix: "Regenerate the profile and sign again; re-sign shipped ad hoc builds before the profile expires.",
            example: "APP-9 error: the profile expired on 2025-01-01T00:00:00Z"
        ),
        RuleEntry(
            "APP-10", .lint,
            title: "The profile belongs to a personal team",
            apple:
                "Personal (free) teams cannot use the Associated Domains capability; their profiles are made by Xcode (LocalProvision) and expire after 7 days.",
            why:
                "An app signed with a personal team's profile gets no associated domains on a device; an error when it signs any, else a warning. swcred reads the team name only to test its \"(Personal Team)\" suffix, and never prints it.",
            fix: "Sign with a team of the Apple Developer Program.",
            example: "APP-10 error: the profile belongs to a personal team ..."
        ),
        RuleEntry(
            "APP-11", .lint,
            title: "A signed value was not expanded",
            apple:
                "Xcode expands build settings such as $(AppIdentifierPrefix) and $(TeamIdentifierPrefix) when it signs; a profile's wildcard application-identifier (TEAM.*) is replaced by the app's own. A signed value that still holds $(...), or an application-identifier with *, is used literally by the device.",
            why:
                "Entitlements copied from a profile or written by a re-signing script keep the unexpanded text: the app ID then matches no association file.",
            fix: "Sign with Xcode or codesign --entitlements from a file whose values are expanded (ABCDE12345.com.example.tacoshop).",
            example: "application-identifier = $(AppIdentifierPrefix)com.example.tacoshop"
        ),
        RuleEntry(
            "APP-12", .lint,
            title: "The XML and DER entitlements blobs disagree",
            apple:
                "A signature carries the entitlements twice: as an XML property list (slot 5) and, since iOS 15, as DER (slot 7), which the device enforces (TN3126).",
            why:
                "A tool that edits one blob only leaves two different sets; swcred reads the DER blob, as the device does, and reports the difference as an error.",
            fix: "Re-sign with a current codesign, which writes both blobs from the same entitlements.",
            example: "APP-12 error: the XML and DER entitlements blobs hold different entitlements"
        ),
        RuleEntry(
            "APP-13", .lint,
            title: "The entitlements are not sealed, or the executable is not signed",
            apple:
                "The CodeDirectory seals the entitlements blobs with their hashes in special slots -5 (XML) and -7 (DER) (TN3126); the device refuses entitlements whose hash does not match, and an unsigned executable has none.",
            why: "Entitlements edited after signing are not what was signed: a device rejects the app.",
            fix: "Sign again after every change to the bundle or its entitlements.",
            example: "APP-13 error: the entitlements are not sealed by the CodeDirectory: ..."
        ),
        RuleEntry(
            "APP-14", .lint,
            title: "No embedded provisioning profile",
            apple:
                "Development, ad hoc and enterprise apps carry embedded.mobileprovision (embedded.provisionprofile on macOS), which the device checks; an App Store download carries none, as Apple re-signs it.",
            why:
                "Without a profile swcred cannot check the allowlist (APP-3, APP-4), the team (APP-6) or the dates (APP-9); this note says so.",
            fix: "Check the .ipa that is distributed (an export with its profile), or the build with its embedded profile.",
            example: "APP-14 note: no embedded provisioning profile ..."
        ),
    ]
}
