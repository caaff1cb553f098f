// A conformance to ArgumentParser's protocol is as public as the library type it extends.
public import ArgumentParser
import SWCredAssociation
import SWCredPasswords

/// `match --expect match|exclude|no_match`.
extension MatchOutcome: ExpressibleByArgument {}

/// `generate --style strong|legacy|classic`.
extension PasswordStyle: ExpressibleByArgument {}
