import FoundationEssentials
import SWCredCore

/// File reading, the one JSON reader and error shaping shared by the quirks loaders.
///
/// **Decision (quirks JSON):** the quirks files are read with swcred's one strict reader
/// (``JSONReader``), as every other JSON input is: a repeated key in one object is refused as
/// `malformedQuirks`, naming the key (Foundation's decoder kept one of the two silently, so which
/// rule applied depended on the decoder). Apple's published files repeat no key. The file's size
/// is bounded before reading (`maximumSize`); nesting is limited to 16 levels (the files use 3).
enum QuirksFile {
    /// Reads at most `maximumSize` bytes, refusing a larger file before buffering it.
    static func read(_ path: String, maximumSize: Int) throws(SWCredError) -> Data {
        let data: Data
        do {
            data = Data(try FileBytes.read(path: path, upTo: maximumSize + 1))
        } catch {
            switch error.step {
            case .open: throw SWCredError(.fileNotFound, "cannot open the quirks file \(path)")
            case .read:
                throw SWCredError(
                    .ioFailure, "reading the quirks file \(path) failed: \(error.foundationDescription)")
            }
        }
        guard data.count <= maximumSize else {
            throw SWCredError(.limitExceeded, "the quirks file \(path) is larger than \(maximumSize) bytes")
        }
        return data
    }

    /// The document's top-level value, or `malformedQuirks` naming the file, the place and the
    /// reader's reason.
    static func document(_ data: Data, name: String, expected: String) throws(SWCredError) -> Value {
        let reader = JSONReader(limits: .depthOnly(16), duplicateKeys: .refuse)
        do {
            return Value(try reader.read(Array(data)).value, name: name, expected: expected)
        } catch {
            let path = error.components.map { component -> PathStep in
                switch component {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                }
            }
            throw malformed(name, at: path, "it is not valid JSON: \(error.message)", expected: expected)
        }
    }

    /// One step of the place a message names: `"a.com"` or `[3]`.
    enum PathStep {
        case key(String)
        case index(Int)
    }

    /// A value of the document with what a message about it needs: the file's name and the
    /// document's expected shape.
    struct Value {
        let value: JSONValue?
        let name: String
        let expected: String

        init(_ value: JSONValue?, name: String, expected: String) {
            self.value = value
            self.name = name
            self.expected = expected
        }

        func object(at path: [PathStep]) throws(SWCredError) -> JSONObject {
            guard let object = value?.objectValue else { throw mismatch("an object", at: path) }
            return object
        }

        func array(at path: [PathStep]) throws(SWCredError) -> [JSONValue] {
            guard let array = value?.arrayValue else { throw mismatch("an array", at: path) }
            return array
        }

        func string(at path: [PathStep]) throws(SWCredError) -> String {
            guard let string = value?.stringValue else { throw mismatch("a string", at: path) }
            return string
        }

        /// `nil` when absent or `null`, as an optional property is.
        func optionalBool(at path: [PathStep]) throws(SWCredError) -> Bool? {
            guard let value, value != .null else { return nil }
            guard let bool = value.boolValue else { throw mismatch("a Boolean", at: path) }
            return bool
        }

        /// `nil` when absent or `null`; otherwise an array of strings.
        func optionalStrings(at path: [PathStep]) throws(SWCredError) -> [String]? {
            guard let value, value != .null else { return nil }
            guard let array = value.arrayValue else { throw mismatch("an array of strings", at: path) }
            var strings: [String] = []
            for (index, element) in array.enumerated() {
                guard let string = element.stringValue else {
                    throw Value(element, name: name, expected: expected).mismatch("a string", at: path + [.index(index)])
                }
                strings.append(string)
            }
            return strings
        }

        private func mismatch(_ wanted: String, at path: [PathStep]) -> SWCredError {
            let detail = value.map { "expected \(wanted), found \($0.typeName)" } ?? "the key is missing"
            return malformed(name, at: path, detail, expected: expected)
        }
    }

    /// A `malformedQuirks` error naming the file and the place (`"a.com"."password-rules"`, `[2]."to"`).
    static func malformed(_ name: String, at path: [PathStep], _ detail: String, expected: String) -> SWCredError {
        let place = path.map { step in
            switch step {
            case .key(let key): "\"\(key)\""
            case .index(let index): "[\(index)]"
            }
        }.joined(separator: ".")
        let location = place.isEmpty ? "" : " at \(place)"
        return SWCredError(
            .malformedQuirks, "the quirks file \(name) is malformed\(location): \(detail) (expected \(expected))")
    }
}
