import SWCredCore

extension CredentialFile.Parser {
    /// swcred's own JSON lines (`export --format jsonl`): one object per line,
    /// `{"schema"?, "server", "account"?, "password", "port"?, "protocol"?}`; unknown keys are
    /// ignored, blank lines skipped.
    mutating func readJSONLines(
        _ bytes: UnsafeRawBufferPointer, from start: Int, arena: UnsafeMutableRawBufferPointer
    ) throws(SWCredError) {
        try UTF8Check.validate(bytes, from: start)
        var lineStart = start
        var number = 0
        while lineStart < bytes.count {
            number += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            var contentEnd = lineEnd
            if contentEnd > lineStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<contentEnd])
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard slice.count <= limits.maxJSONLineBytes else {
                throw SWCredError(
                    .limitExceeded, "line \(number): the line is longer than \(limits.maxJSONLineBytes) bytes")
            }
            rows += 1
            guard rows <= limits.csv.maxRecords else {
                throw SWCredError(.limitExceeded, "more than \(limits.csv.maxRecords) lines")
            }
            try collectingRowError { (parser: inout Self) throws(SWCredError) in
                try parser.readJSONLine(slice, number: number, arena: arena)
            }
        }
        try throwRowErrors()
    }

    /// One line, read by the strict reader with duplicate keys refused: a key given twice would
    /// leave which password (or server) is meant to the reader's whim.
    mutating func readJSONLine(
        _ slice: UnsafeRawBufferPointer, number: Int, arena: UnsafeMutableRawBufferPointer
    ) throws(SWCredError) {
        // Messages name only the key at fault, never a value (which may be a password).
        func fail(_ key: String, _ reason: String) -> SWCredError {
            SWCredError(.malformedInput, "line \(number), column 1 (\(key)): \(reason)")
        }
        let reader = JSONReader(
            limits: .init(maxBytes: limits.maxJSONLineBytes, maxStringBytes: limits.maxJSONLineBytes),
            duplicateKeys: .refuse)
        // A line may start with a UTF-8 byte-order mark, which Foundation's reader skipped.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let json = slice.starts(with: bom) ? UnsafeRawBufferPointer(rebasing: slice[3...]) : slice
        let value: JSONValue
        do throws(JSONReader.Failure) {
            value = try reader.read(json).value
        } catch {
            if case .duplicateKey(let key) = error.kind {
                throw fail(error.path, "\"\(key)\" appears more than once")
            }
            throw SWCredError(.malformedInput, "line \(number), column 1: the line is not a JSON object")
        }
        guard let object = value.objectValue else {
            throw SWCredError(.malformedInput, "line \(number), column 1: the line is not a JSON object")
        }
        let line = try JSONLine(object, fail: fail)
        if let schema = line.schema, schema != "swcred/1" {
            throw fail("schema", "the schema must be \"swcred/1\"")
        }
        guard let server = line.server else { throw fail("server", "\"server\" is missing") }
        let account = line.account ?? ""
        let portValue = line.port ?? 0  // 0 or null: no port; anything else must be a Port
        guard let port: UInt16 = portValue == 0 ? 0 : Port(portValue)?.value else {
            throw fail("port", "\"port\" must be an integer from 0 to 65535 or null")
        }
        let protocolCode = line.protocolCode ?? "htps"
        guard protocolCode == "htps" || protocolCode == "http" else {
            throw fail("protocol", "\"protocol\" must be \"htps\" or \"http\"")
        }
        let site: ImportedSite
        switch ImportedSite.parseHost(server, port: port, protocolCode: protocolCode) {
        case .site(let found): site = found
        case .notWeb, .invalid:
            throw fail("server", "\"server\" must be a host name (letters, digits, '-', '_', '.')")
        }
        try checkAccount(account, at: "line \(number), column 1")
        guard let password = line.password else { throw fail("password", "\"password\" is missing") }
        let count = password.utf8.count
        let range = try store(count: count, at: "line \(number), column 1", arena: arena) { out in
            var copy = password
            return copy.withUTF8 { utf8 in
                out.copyMemory(from: UnsafeRawBufferPointer(utf8))
                return utf8.count
            }
        }
        credentials.append(ImportedCredential(line: number, site: site, account: account, secret: range))
    }
}

/// The members of one JSON line that import reads (unknown keys are ignored). `null` is the same
/// as absent; a member of another type is an error naming its key, checked in this order.
private struct JSONLine {
    var schema: String?
    var server: String?
    var account: String?
    var password: String?
    var port: Int?
    var protocolCode: String?

    init(_ object: JSONObject, fail: (String, String) -> SWCredError) throws(SWCredError) {
        func wrongType(_ key: String) -> SWCredError { fail(key, "\"\(key)\" has the wrong type") }
        schema = try object.optionalMember("schema", \.stringValue, mismatch: wrongType)
        server = try object.optionalMember("server", \.stringValue, mismatch: wrongType)
        account = try object.optionalMember("account", \.stringValue, mismatch: wrongType)
        password = try object.optionalMember("password", \.stringValue, mismatch: wrongType)
        if let number = try object.optionalMember("port", \.numberValue, mismatch: wrongType) {
            guard let integer = Int(exactly: number) else { throw fail("port", "\"port\" has a value out of range") }
            port = integer
        }
        protocolCode = try object.optionalMember("protocol", \.stringValue, mismatch: wrongType)
    }
}
