/// The password-export formats `swcred import` reads (cli.md "swcred import").
///
/// CSV formats are recognised by their header row (`auto`); each names the columns it reads. Column
/// names are compared exactly (case matters: Safari writes `URL`, Chrome `url`, 1Password `Url`).
///
/// | format | header written by the exporter | columns read |
/// | --- | --- | --- |
/// | `safari` | `Title,URL,Username,Password,Notes,OTPAuth` | `URL`, `Username`, `Password` |
/// | `chrome` | `name,url,username,password,note` (older: without `note`) | `url`, `username`, `password` |
/// | `firefox` | `url,username,password,httpRealm,formActionOrigin,guid,timeCreated,timeLastUsed,timePasswordChanged` | `url`, `username`, `password` |
/// | `bitwarden` | `folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp` (organisation exports: `collections` instead of `folder,favorite`) | `type`, `login_uri`, `login_username`, `login_password` |
/// | `1password` | `Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes` (1Password 8; 1Password 7 wrote `Website` for `Url`) | `Url` or `Website`, `Username`, `Password` |
/// | `jsonl` | none: one `{"server","account","password","port"}` object per line (``CredentialExportFormat/jsonl``) | all four, `protocol` when present |
///
/// Detection order (the first that fits wins): JSON lines (the first non-blank byte is `{`),
/// Firefox (`httpRealm` and `guid`), Bitwarden (`login_uri`, `login_password`, `type`), 1Password
/// (`Title`, `Username`, `Password` and `Url` or `Website`, or `URL` beside one of 1Password's own
/// `Favorite`, `Archived`, `Tags`), Safari (`Title`, `URL`, `Username`, `Password`), Chrome (`name`,
/// `url`, `username`, `password`). Other columns are ignored.
package enum CredentialFileFormat: String, Sendable, CaseIterable, Hashable {
    case safari, chrome, firefox, bitwarden
    case onePassword = "1password"
    case jsonl

    /// The columns a CSV format needs: URL, user name, password (and for Bitwarden the type).
    struct Columns {
        var url: Int
        var username: Int
        var password: Int
        var type: Int?
    }

    /// This format's columns in `header`, or `nil` when the header does not fit.
    func columns(in header: [String]) -> Columns? {
        func index(_ name: String) -> Int? { header.firstIndex(of: name) }
        switch self {
        case .safari:
            guard index("Title") != nil, let u = index("URL"), let n = index("Username"), let p = index("Password")
            else { return nil }
            return Columns(url: u, username: n, password: p)
        case .chrome:
            guard index("name") != nil, let u = index("url"), let n = index("username"), let p = index("password")
            else { return nil }
            return Columns(url: u, username: n, password: p)
        case .firefox:
            guard index("httpRealm") != nil, index("guid") != nil, let u = index("url"), let n = index("username"),
                let p = index("password")
            else { return nil }
            return Columns(url: u, username: n, password: p)
        case .bitwarden:
            guard let t = index("type"), let u = index("login_uri"), let n = index("login_username"),
                let p = index("login_password")
            else { return nil }
            return Columns(url: u, username: n, password: p, type: t)
        case .onePassword:
            guard index("Title") != nil, let n = index("Username"), let p = index("Password") else { return nil }
            if let u = index("Url") ?? index("Website") { return Columns(url: u, username: n, password: p) }
            if let u = index("URL"), index("Favorite") != nil || index("Archived") != nil || index("Tags") != nil {
                return Columns(url: u, username: n, password: p)
            }
            return nil
        case .jsonl:
            return nil
        }
    }

    /// The header a format is recognised by, for messages.
    var expectedHeader: String {
        switch self {
        case .safari: return "Title,URL,Username,Password,Notes,OTPAuth"
        case .chrome: return "name,url,username,password,note"
        case .firefox:
            return "url,username,password,httpRealm,formActionOrigin,guid,timeCreated,timeLastUsed,timePasswordChanged"
        case .bitwarden:
            return "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp"
        case .onePassword: return "Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes"
        case .jsonl: return "{\"server\",\"account\",\"password\",\"port\"} objects, one per line"
        }
    }

    /// The CSV formats in detection order.
    static let detectionOrder: [CredentialFileFormat] = [.firefox, .bitwarden, .onePassword, .safari, .chrome]
}
