import Foundation
import SWCredCore
import Testing

/// Python's plistlib as an independent oracle: it writes a few hundred random plists in both
/// formats (`Support/plist_oracle.py`) with a description of the tree it reads back from each,
/// and swcred's reader must read the same tree. Skipped where `python3` is missing.
@Suite("PropertyListReader agrees with Python's plistlib")
struct PropertyListOracleTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/plist_oracle.py")

    /// The `python3` on `PATH`, when it has `plistlib`.
    static let python: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
            guard FileManager.default.isExecutableFile(atPath: candidate.path) else { continue }
            return (try? run(candidate, ["-c", "import plistlib, json, struct"])) == 0 ? candidate : nil
        }
        return nil
    }()

    static func run(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(
        "300 random plists per format, nested, with non-BMP text, 64-bit edge integers, reals, data, dates and UIDs",
        .enabled(if: python != nil, "python3 with plistlib is not installed"))
    func randomPlists() throws {
        let python = try #require(Self.python)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swcred-plist-oracle-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 300
        #expect(try Self.run(python, [Self.script.path, directory.path, "\(count)", "28"]) == 0)
        var compared = 0
        for number in 0..<count {
            for format in ["xml", "binary"] {
                let stem = directory.appendingPathComponent(String(format: "%04d.%@", number, format))
                let bytes = try [UInt8](Data(contentsOf: stem.appendingPathExtension("plist")))
                let description = try [UInt8](Data(contentsOf: stem.appendingPathExtension("json")))
                let expected = try Self.expected(try JSONReader(limits: .depthOnly(64)).read(description).value)
                let value: PropertyListValue
                do {
                    value = try PropertyListReader().read(bytes)
                } catch {
                    Issue.record("\(stem.lastPathComponent): \(error)")
                    continue
                }
                #expect(value == expected, "\(stem.lastPathComponent)")
                #expect(PropertyListReader.format(of: bytes) == (format == "xml" ? .xml : .binary))
                compared += 1
            }
        }
        #expect(compared == 2 * count)
    }

    struct BadDescription: Error {}

    /// The value a description names (see `plist_oracle.py`).
    static func expected(_ json: JSONValue) throws -> PropertyListValue {
        guard let object = json.objectValue, object.count == 1, let member = object.members.first else {
            throw BadDescription()
        }
        let value = member.value
        switch member.key {
        case "s": return .string(try value.stringValue.unwrapped())
        case "b": return .bool(try value.boolValue.unwrapped())
        case "i":
            let text = try value.stringValue.unwrapped()
            if let signed = Int64(text) { return .integer(signed) }
            return .unsignedInteger(try UInt64(text).unwrapped())
        case "r": return .real(Double(bitPattern: try UInt64(try value.stringValue.unwrapped(), radix: 16).unwrapped()))
        case "d": return .date(Double(try Int64(try value.stringValue.unwrapped()).unwrapped()))
        case "uid": return .uid(try UInt64(try value.stringValue.unwrapped()).unwrapped())
        case "data":
            let hex = Array(try value.stringValue.unwrapped().utf8)
            return .data(
                try stride(from: 0, to: hex.count, by: 2).map { index in
                    try UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16).unwrapped()
                })
        case "a": return .array(try value.arrayValue.unwrapped().map(expected))
        case "dict":
            return .dictionary(
                PropertyListDictionary(
                    try value.arrayValue.unwrapped().map { pair in
                        guard let pair = pair.arrayValue, pair.count == 2, let key = pair[0].stringValue else {
                            throw BadDescription()
                        }
                        return PropertyListDictionary.Entry(key: key, value: try expected(pair[1]))
                    }))
        default: throw BadDescription()
        }
    }
}

extension Optional {
    fileprivate func unwrapped() throws -> Wrapped {
        guard let self else { throw PropertyListOracleTests.BadDescription() }
        return self
    }
}
