import Foundation
import SWCredCore
import SWCredPasskeys
import SWCredStore

extension FuzzHarness {
    /// WebAuthn options JSON: the JSON reader, both option forms (as a browser and as an app),
    /// and, for creation options that read, a registration and an assertion in memory.
    ///
    /// Promises: no trap; bytes the JSON reader refuses are refused by both forms with
    /// `malformedInput` (65); accepted options respect every limit (challenge 16–1024 bytes,
    /// user.id 1–64, at most 64 descriptors); every failure is a passkey failure with exit 50 or
    /// `malformedInput`; a registration's response names the credential it stored.
    public static func passkeyOptions(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let jsonOK = (try? WebAuthnJSON.parse(bytes)) != nil
        for asApp in [false, true] {
            do {
                let options = try PublicKeyCredentialCreationOptions(json: bytes, asApp: asApp)
                if !jsonOK { problems.append("creation options read from bytes the JSON reader refuses") }
                if !PasskeyLimits.challengeBytes.contains(options.challenge.count) { problems.append("challenge size") }
                if !(1...64).contains(options.userID.count) { problems.append("user.id size") }
                if options.excludeCredentials.count > PasskeyLimits.maxDescriptors { problems.append("descriptor count") }
                if !asApp { problems += ceremony(options) }
            } catch {
                problems += expectedFailure(error, jsonOK: jsonOK, form: "creation")
            }
            do {
                let options = try PublicKeyCredentialRequestOptions(json: bytes, asApp: asApp)
                if !jsonOK { problems.append("request options read from bytes the JSON reader refuses") }
                if !PasskeyLimits.challengeBytes.contains(options.challenge.count) { problems.append("challenge size") }
                if options.allowCredentials.count > PasskeyLimits.maxDescriptors { problems.append("descriptor count") }
            } catch {
                problems += expectedFailure(error, jsonOK: jsonOK, form: "request")
            }
        }
        return problems
    }

    private static func expectedFailure(_ error: SWCredError, jsonOK: Bool, form: String) -> [String] {
        if !jsonOK {
            return error.code == .malformedInput ? [] : ["\(form): unreadable JSON gave \(error.code.name), not malformedInput"]
        }
        guard let failure = PasskeyFailure(error), [.invalidOptions, .notSupported, .originNotAllowed].contains(failure) else {
            return ["\(form): readable JSON gave \(error.code.name)"]
        }
        return []
    }

    /// Registers as the browser page `https://<rp.id or example.com>` and signs in with the result.
    private static func ceremony(_ options: PublicKeyCredentialCreationOptions) -> [String] {
        guard let origin = try? RelyingPartyID.Origin(parsing: "https://" + (options.rpID ?? "example.com")) else { return [] }
        var contents = StoreContents(creationDate: Date(timeIntervalSince1970: 0))
        do {
            let response = try PasskeyAuthenticator.register(
                options, caller: .browser(origin), responder: PasskeyUser(cancels: false), in: &contents, at: Date(timeIntervalSince1970: 1))
            guard contents.passkeys.count == 1, contents.passkeys.first.map({ Base64URL.encode($0.credentialID) }) == response.id
            else { return ["the registration stored something else than it answered"] }
            let request = try PublicKeyCredentialRequestOptions(
                json: Array(#"{"challenge":"\#(Base64URL.encode(options.challenge))"}"#.utf8))
            let assertion = try PasskeyAuthenticator.authenticate(
                request, caller: .browser(origin), responder: PasskeyUser(cancels: false), in: &contents, at: Date(timeIntervalSince1970: 2))
            return assertion.id == response.id ? [] : ["the assertion used another credential"]
        } catch {
            // notSupported (no ES256) and originNotAllowed (localhost-like RP IDs) are fine here.
            return PasskeyFailure(error) == nil ? ["registration failed with \(error.code.name)"] : []
        }
    }
}
