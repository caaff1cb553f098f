import ArgumentParser

extension SWCred {
    /// Every subcommand, in the order `swcred --help` lists them. Add new commands here.
    static let allSubcommands: [any ParsableCommand.Type] = [
        EntitlementsCommand.self,
        LintCommand.self,
        MatchCommand.self,
        VerifyCommand.self,
        FetchCommand.self,
        AssociationsCommand.self,
        InitCommand.self,
        AddCommand.self,
        RequestCommand.self,
        SettingsCommand.self,
        ListCommand.self,
        ShowCommand.self,
        DeleteCommand.self,
        RekeyCommand.self,
        GenerateCommand.self,
        BatchCommand.self,
        ExplainCommand.self,
        PasskeyCommand.self,
        ImportCommand.self,
        ExportCommand.self,
    ]
}
