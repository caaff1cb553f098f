package import SWCredCore
import SWCredSodium
#if canImport(Glibc)
    import Glibc
#endif

/// The formats `swcred export` writes (cli.md "swcred export").
package enum CredentialExportFormat: String, Sendable, CaseIterable, Hashable {
    /// One `{"schema":"swcred/1","server","account","password","port"}` object per line (`port` is
    /// null for "unspecified"; `protocol` is added for `http` items), read back losslessly by
    /// `import`. Keys are sorted.
    case jsonl
    /// Safari's CSV: `Title,URL,Username,Password,Notes,OTPAuth`.
    case safari
    /// Chrome's CSV: `name,url,username,password,note`.
    case chrome
}

/// Encodes password items as an export file.
///
/// The output holds passwords: the caller wipes it (``Sodium/memzero(_:)``) after writing it.
/// Passwords are written byte for byte; none passes through `JSONEncoder` or a `String`.
package enum CredentialExport {
    /// The password items of `items` (negative entries are never exported), encoded.
    ///
    /// CSV fields are quoted when they hold a comma, a quote, CR or LF (RFC 4180), with quotes
    /// doubled; lines end with CRLF as RFC 4180 says (the importer reads LF too). The URL is
    /// `https://host[:port]/` (`http://` for items of protocol `http`).
    ///
    /// - Throws: `malformedInput` (65) when a password, account or server is not valid UTF-8
    ///   (JSON and the CSV exports are text), naming the server only.
    package static func encode(_ items: [InternetPasswordItem], as format: CredentialExportFormat) throws(SWCredError)
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(items.count * 96)
        switch format {
        case .jsonl: break
        case .safari: out += Array("Title,URL,Username,Password,Notes,OTPAuth\r\n".utf8)
        case .chrome: out += Array("name,url,username,password,note\r\n".utf8)
        }
        for item in items where !item.isNegative {
            guard let secret = item.secret else { continue }
            guard String(validating: secret, as: UTF8.self) != nil else {
                Sodium.memzero(&out)
                throw SWCredError(
                    .malformedInput,
                    "the password saved for \(item.server) is not valid UTF-8 and cannot be written as text")
            }
            let site = ImportedSite(host: item.server, port: item.port, protocolCode: item.protocolCode)
            switch format {
            case .jsonl:
                // Sorted keys: account, password, port, [protocol,] schema, server.
                out += Array("{\"account\":".utf8)
                appendJSONString(item.account.utf8, to: &out)
                out += Array(",\"password\":".utf8)
                appendJSONString(secret, to: &out)
                out += Array((item.port == 0 ? ",\"port\":null" : ",\"port\":\(item.port)").utf8)
                if item.protocolCode != "htps" {
                    out += Array(",\"protocol\":".utf8)
                    appendJSONString(item.protocolCode.utf8, to: &out)
                }
                out += Array(",\"schema\":\"swcred/1\",\"server\":".utf8)
                appendJSONString(item.server.utf8, to: &out)
                out += [UInt8(ascii: "}"), UInt8(ascii: "\n")]
            case .safari:
                let title = item.label.isEmpty ? item.server : item.label
                appendCSV(
                    [Array(title.utf8), Array(site.url.utf8), Array(item.account.utf8), secret, [], []], to: &out)
            case .chrome:
                appendCSV(
                    [Array(item.server.utf8), Array(site.url.utf8), Array(item.account.utf8), secret, []], to: &out)
            }
        }
        return out
    }

    /// RFC 8259 §7: quote, escape `"` and `\`, and control characters as `\uXXXX` (or the short forms).
    static func appendJSONString(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): out += [0x5C, 0x22]
            case UInt8(ascii: "\\"): out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x00..<0x20, 0x7F:
                out += Array("\\u00".utf8)
                out += [hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// One CSV record (RFC 4180 §2.6–2.7), ended by CRLF.
    static func appendCSV(_ fields: [[UInt8]], to out: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let needsQuotes = field.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            if needsQuotes {
                out.append(0x22)
                for b in field {
                    if b == 0x22 { out.append(0x22) }
                    out.append(b)
                }
                out.append(0x22)
            } else {
                out += field
            }
        }
        out += [0x0D, 0x0A]
    }
}

extension CredentialExport {
    /// Writes an export to a new file created with mode 0600.
    ///
    /// Without `replace` the file must not exist (`O_EXCL`). With `replace`, an existing regular
    /// file is reused: its mode is set to 0600 *before* it is truncated and written, so the
    /// passwords are never readable by others. A symbolic link is never followed (`O_NOFOLLOW`).
    /// - Throws: `outputExists` (74) when the file exists without `replace`; `ioFailure` naming
    ///   the step.
    package static func write(_ bytes: [UInt8], toFile path: String, replace: Bool) throws(SWCredError) {
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW
        if !replace { flags |= O_EXCL }
        let fd = Glibc.open(path, flags, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST {
                throw SWCredError(.outputExists, "\(path) already exists; give --force to replace it")
            }
            if code == ELOOP { throw SWCredError(.ioFailure, "export: \(path) is a symbolic link; not followed") }
            throw POSIX.ioFailure("export: open", errno: code, path: path)
        }
        var closed = false
        defer { if !closed { POSIX.closeQuietly(fd) } }
        let info = try POSIX.fstat(fd, step: "export: stat")
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SWCredError(.ioFailure, "export: \(path) is not a regular file")
        }
        try POSIX.fchmod(fd, 0o600, step: "export: chmod")
        guard ftruncate(fd, 0) == 0 else { throw POSIX.ioFailure("export: truncate", errno: errno, path: path) }
        try POSIX.writeAll(fd, bytes, step: "export: write")
        try POSIX.fsync(fd, step: "export: fsync")
        closed = true
        try POSIX.close(fd, step: "export: close")
    }
}
