public import SWCredCore
import SWCredStore

extension SharedWebCredentials {
    /// Builds the API from `SWCRED_*` environment variables, for code that calls the Apple-shaped
    /// functions without configuring a context (`SWCredSecurity`).
    ///
    /// | variable | meaning |
    /// | --- | --- |
    /// | `SWCRED_ENTITLEMENTS` | the app's entitlements file (plist or JSON) |
    /// | `SWCRED_APP_ID` | the app identifier (overrides the file's `application-identifier`) |
    /// | `SWCRED_STORE`, `SWCRED_KEY_FILE` | the keychain file and its key file (the CLI's defaults when unset); created on first use |
    /// | `SWCRED_PROFILE` | `legacy` (default) or `current` |
    /// | `SWCRED_USER` | the answer to `ADD`/`UPDATE`/`DELETE`: `allow` (default), `not-now`, `cancel` |
    /// | `SWCRED_PICK` | the picker: `first` (default), `cancel`, or an account name |
    /// | `SWCRED_SIMULATOR` | `1`: simulator mode |
    ///
    /// Only key-file stores are reachable this way (a passphrase cannot come from the environment).
    /// - Throws: `missingEntitlement` when neither `SWCRED_ENTITLEMENTS` nor `SWCRED_APP_ID` is set;
    ///   `invalidParameter` for an unknown profile or answer; the entitlements file's and the
    ///   store's errors.
    public static func fromEnvironment(_ environment: [String: String]) throws(SWCredError) -> SharedWebCredentials {
        let appID = environment["SWCRED_APP_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let app: SWCApp
        if let path = environment["SWCRED_ENTITLEMENTS"], !path.isEmpty {
            app = try SWCApp.load(entitlementsPath: path, appID: appID)
        } else if let appID {
            app = SWCApp(appID: appID, associatedDomains: [])
        } else {
            throw SWCredError(
                .missingEntitlement, "Missing application-identifier entitlement (set SWCRED_APP_ID or SWCRED_ENTITLEMENTS)")
        }
        var configuration = SWCConfiguration()
        if let raw = environment["SWCRED_PROFILE"], !raw.isEmpty {
            guard let profile = SWCProfile(rawValue: raw) else {
                throw SWCredError(.invalidParameter, "SWCRED_PROFILE must be legacy or current, not \(raw)")
            }
            configuration.profile = profile
        }
        configuration.simulator = environment["SWCRED_SIMULATOR"] == "1"
        let confirmation = try SWCPromptAnswer(userOption: environment["SWCRED_USER"] ?? "allow")
        let pick = SWCPolicyResponder.PickPolicy(pickOption: environment["SWCRED_PICK"] ?? "first")
        let storePath = try StorePaths.storePath(environment: environment)
        let keyPath = try StorePaths.keyFilePath(environment: environment)
        let options = StoreOptions(stateDirectory: try StorePaths.stateDirectory(environment: environment))
        let store = try KeychainStore.openOrCreate(at: storePath, keySource: .keyFile(path: keyPath), options: options).store
        return SharedWebCredentials(
            backend: StoreBackend(store: store), app: app,
            responder: SWCPolicyResponder(confirmation: confirmation, pick: pick), configuration: configuration)
    }
}

extension SWCPromptAnswer {
    /// Parses the CLI's `--user` values: `allow`, `not-now`, `cancel`.
    /// - Throws: `invalidParameter` for anything else.
    public init(userOption: String) throws(SWCredError) {
        switch userOption {
        case "allow": self = .allow
        case "not-now", "notNow", "never": self = .notNow
        case "cancel": self = .cancel
        default:
            throw SWCredError(.invalidParameter, "the user's answer must be allow, not-now or cancel, not \(userOption)")
        }
    }
}

extension SWCPolicyResponder.PickPolicy {
    /// Parses the CLI's `--pick` values: `first`, `cancel`, or an account name.
    public init(pickOption: String) {
        switch pickOption {
        case "first": self = .first
        case "cancel": self = .cancel
        default: self = .account(pickOption)
        }
    }
}
