import SWCredCore
import SwiftASN1

/// The two encodings of a signature's entitlements, read into the same property-list value.
///
/// The XML blob goes through SWCredCore's bounded ``PropertyListReader``. The DER blob is
/// Apple's DER property list, read with swift-asn1:
///
/// ```
/// Entitlements ::= [APPLICATION 16] SEQUENCE { version INTEGER (1), dictionary Dictionary }
/// Dictionary   ::= [CONTEXT 16] SET OF SEQUENCE { key UTF8String, value Value }
/// Value        ::= BOOLEAN | INTEGER | UTF8String | SEQUENCE OF Value | Dictionary
/// ```
enum SignedEntitlements {
    /// Reads the XML blob's payload; its top level must be a dictionary.
    static func readXML(_ payload: [UInt8], limits: ArtifactLimits, name: String) throws(SWCredError)
        -> PropertyListDictionary
    {
        let reader = PropertyListReader(
            limits: PropertyListReader.Limits(maxBytes: limits.maximumEntitlementsBytes, maxDepth: limits.maximumDepth))
        let value: PropertyListValue
        do {
            value = try reader.read(payload)
        } catch {
            throw SWCredError(.malformedArtifact, "\(name): the XML entitlements are not a property list: \(error)")
        }
        guard case .dictionary(let dictionary) = value else {
            throw SWCredError(.malformedArtifact, "\(name): the XML entitlements' top level is \(value.typeName)")
        }
        return dictionary
    }

    /// Reads the DER blob's payload (`[APPLICATION 16] { 1, [CONTEXT 16] { … } }`).
    static func readDER(_ payload: [UInt8], limits: ArtifactLimits, name: String) throws(SWCredError)
        -> PropertyListDictionary
    {
        do {
            // DER.parse refuses trailing bytes, indefinite lengths and non-minimal encodings.
            let root = try DER.parse(payload)
            guard root.identifier == ASN1Identifier(tagWithNumber: 16, tagClass: .application),
                case .constructed(let children) = root.content
            else { throw Problem("the top level is not [APPLICATION 16]") }
            var iterator = children.makeIterator()
            guard let versionNode = iterator.next(), let dictionaryNode = iterator.next(), iterator.next() == nil
            else { throw Problem("[APPLICATION 16] does not hold a version and a dictionary") }
            let version = try Int(derEncoded: versionNode)
            guard version == 1 else { throw Problem("version \(version), not 1") }
            return try dictionary(dictionaryNode, depth: 1, limits: limits)
        } catch let problem as Problem {
            throw SWCredError(.malformedArtifact, "\(name): the DER entitlements are malformed: \(problem.message)")
        } catch {
            throw SWCredError(.malformedArtifact, "\(name): the DER entitlements are not DER: \(error)")
        }
    }

    /// Whether two dictionaries hold the same keys and values, whatever their order.
    static func same(_ lhs: PropertyListDictionary, _ rhs: PropertyListDictionary) -> Bool {
        normalized(.dictionary(lhs)) == normalized(.dictionary(rhs))
    }

    private static func normalized(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            let entries = dictionary.entries.sorted { $0.key < $1.key }
                .map { PropertyListDictionary.Entry(key: $0.key, value: normalized($0.value)) }
            return .dictionary(PropertyListDictionary(entries))
        case .array(let elements): return .array(elements.map(normalized))
        case .unsignedInteger(let unsigned): return Int64(exactly: unsigned).map { .integer($0) } ?? value
        default: return value
        }
    }

    private struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static let dictionaryTag = ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)

    private static func dictionary(_ node: ASN1Node, depth: Int, limits: ArtifactLimits) throws
        -> PropertyListDictionary
    {
        guard node.identifier == dictionaryTag, case .constructed(let entries) = node.content else {
            throw Problem("a dictionary is not [CONTEXT 16]")
        }
        var result = PropertyListDictionary()
        var seen: Set<String> = []
        for entry in entries {
            guard entry.identifier == .sequence, case .constructed(let pair) = entry.content else {
                throw Problem("a dictionary entry is not a SEQUENCE")
            }
            var iterator = pair.makeIterator()
            guard let keyNode = iterator.next(), let valueNode = iterator.next(), iterator.next() == nil else {
                throw Problem("a dictionary entry is not a key and a value")
            }
            let key = try utf8(keyNode)
            guard seen.insert(key).inserted else { throw Problem("the key \"\(key)\" is repeated") }
            result.entries.append(.init(key: key, value: try value(valueNode, depth: depth, limits: limits)))
        }
        return result
    }

    private static func value(_ node: ASN1Node, depth: Int, limits: ArtifactLimits) throws -> PropertyListValue {
        switch node.identifier {
        case .boolean: return .bool(try Bool(derEncoded: node))
        case .integer: return .integer(try Int64(derEncoded: node))
        case .utf8String: return .string(try utf8(node))
        case .sequence, dictionaryTag:
            guard depth < limits.maximumDepth else { throw Problem("nested deeper than \(limits.maximumDepth)") }
            if node.identifier == dictionaryTag {
                return .dictionary(try dictionary(node, depth: depth + 1, limits: limits))
            }
            guard case .constructed(let elements) = node.content else { throw Problem("an array is not constructed") }
            var array: [PropertyListValue] = []
            for element in elements { array.append(try value(element, depth: depth + 1, limits: limits)) }
            return .array(array)
        default:
            throw Problem("a value of type \(node.identifier), which entitlements do not use")
        }
    }

    private static func utf8(_ node: ASN1Node) throws -> String {
        guard node.identifier == .utf8String, case .primitive(let bytes) = node.content else {
            throw Problem("a string is not a UTF8String")
        }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw Problem("a string is not UTF-8") }
        return string
    }
}
