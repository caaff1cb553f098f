/// The browser-test documents `passkey export --to` writes and `passkey import --from` reads
/// (cli.md "Browser tests").
package enum PasskeyTransferFormat: String, Sendable, CaseIterable {
    /// Playwright's storage state (1.61 and later): `{"cookies":[],"origins":[],"credentials":[…]}`,
    /// binary members base64url without padding, `privateKey` PKCS#8 and `publicKey` SPKI DER.
    case playwright
    /// A JSON array of Chrome DevTools Protocol `WebAuthn.Credential` objects, binary members
    /// standard base64 with padding.
    case cdp
}
