import ArgumentParser
import SWCredAssociation
import SWCredCore

/// `swcred lint FILE [--host HOST]`: validates an apple-app-site-association file, an
/// `assetlinks.json` statement list or a `/.well-known/webauthn` file (related origins; `--host`
/// names its RP ID), told apart by content or `--kind` (`spec/cli.md`); with
/// `--entitlements`, FILE is an entitlements file instead, and `--build-setting NAME=VALUE`
/// expands `$(NAME)` in it as Xcode does. Exit 0 without errors, 65 with errors.
struct LintCommand: FormatOptionsSubcommand {
    static let configuration = CommandConfiguration.swcred(
        "lint", abstract: "Validate an apple-app-site-association, assetlinks.json or webauthn file.")

    /// Files larger than this are not read at all (the lint reports anything over 131072 bytes).
    static let readLimit = 4 << 20

    @Argument(
        help: ArgumentHelp("The apple-app-site-association, assetlinks.json or webauthn file.", valueName: "file"))
    var file: String

    /// What a site file is (cli.md: detected by content, or `--kind`).
    enum Kind: String, ExpressibleByArgument, Sendable {
        case aasa, assetlinks, webauthn
    }

    @Option(
        help: ArgumentHelp(
            "What FILE is: aasa, assetlinks or webauthn (default: told by its content).", valueName: "kind"))
    var kind: Kind?

    @Option(help: ArgumentHelp("The host the file is served for (a webauthn file's RP ID).", valueName: "host"))
    var host: String?

    @Flag(help: "FILE is an entitlements file: lint its associated-domains entries.")
    var entitlements = false

    @Option(
        help: ArgumentHelp(
            "With --entitlements: expand $(NAME) as Xcode does (repeatable).", valueName: "NAME=VALUE"))
    var buildSetting: [String] = []

    @OptionGroup var formatOptions: FormatOptions

    func validate() throws {
        if kind != nil, entitlements {
            throw ValidationError("--kind names a site file; --entitlements lints an entitlements file")
        }
        if !buildSetting.isEmpty, !entitlements {
            throw ValidationError("--build-setting applies to entitlements files: add --entitlements")
        }
        for assignment in buildSetting where BuildSettings.parseAssignment(assignment) == nil {
            throw ValidationError("--build-setting '\(assignment)' is not NAME=VALUE")
        }
    }

    /// The `--build-setting` values; a later NAME wins, as on Xcode's command line.
    var buildSettings: BuildSettings {
        var values: [String: String] = [:]
        for assignment in buildSetting {
            if let (name, value) = BuildSettings.parseAssignment(assignment) { values[name] = value }
        }
        return BuildSettings(values)
    }

    struct Output: Encodable {
        let file: String
        @ExplicitNull var host: String?
        let valid: Bool
        let errors: Int
        let warnings: Int
        let notes: Int
        let findings: [LintFinding]
    }

    func execute(_ console: Console) async throws -> ExitStatus {
        let findings: [LintFinding]
        if entitlements {
            findings = EntitlementsLinter().lint(try Entitlements.load(path: file), buildSettings: buildSettings)
        } else {
            let tooLarge: SWCredError.Code =
                switch kind {
                case .assetlinks: .malformedAssetLinks
                case .webauthn: .malformedInput
                case .aasa, nil: .malformedAASA
                }
            let bytes = try FileInput.read(path: file, maximumBytes: Self.readLimit, tooLarge: tooLarge)
            let detected =
                kind
                ?? (AssetLinksLinter.looksLikeStatementList(bytes)
                    ? .assetlinks : (RelatedOriginsDocument.looksLikeRelatedOrigins(bytes) ? .webauthn : .aasa))
            switch detected {
            case .assetlinks: findings = AssetLinksLinter().lint(bytes)
            case .aasa: findings = AssociationLinter().lint(bytes, host: host)
            case .webauthn:
                // Counting labels needs the Public Suffix List: missing, it is fileNotFound (66).
                let list = try PublicSuffixList.load(
                    path: PublicSuffixList.path(environment: CommandContext.current.environment))
                findings = RelatedOriginsLinter(publicSuffixes: list).lint(
                    bytes, rpID: host.map { HostName.lowercasedASCII($0) })
            }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let notes = findings.count - errors - warnings
        let output = Output(
            file: file, host: host, valid: errors == 0, errors: errors, warnings: warnings, notes: notes,
            findings: findings)
        console.emit(output) {
            for finding in findings {
                console.out("\(finding)")
                console.out("    help: \(finding.help) (swcred explain \(finding.id))")
            }
            console.out(
                "\(file): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), "
                    + "\(notes) note\(notes == 1 ? "" : "s")")
        }
        return errors == 0 ? .success : .invalidInput
    }
}
