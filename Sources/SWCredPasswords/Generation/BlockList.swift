package import SWCredCore
import FoundationEssentials

/// Substrings a generated password must not contain (PW-3.5), compared case-insensitively.
///
/// **Decision** (PW-3.5): there is no block list by default, since Apple's offensive-substring list
/// is not public. A candidate containing a listed substring is regenerated whole, which keeps the
/// output uniform over the remaining set; the reported entropy is then an upper bound.
package struct BlockList: Sendable, Hashable {
    /// The lower-cased substrings, without empty ones.
    package let substrings: [String]

    /// Regeneration attempts before giving up with `infeasible`.
    static let maximumAttempts = 10_000
    /// The default size limit of a block-list file.
    static let defaultMaximumSize = 1024 * 1024

    /// A list of substrings; empty strings are ignored.
    package init(_ substrings: [String]) {
        self.substrings = substrings.map { $0.lowercased() }.filter { !$0.isEmpty }
    }

    /// Reads one substring per line (surrounding white space trimmed, empty lines ignored).
    /// - Throws: `fileNotFound`, `limitExceeded`, `ioFailure`, `malformedInput` when not UTF-8.
    package init(contentsOfFile path: String, maximumSize: Int = defaultMaximumSize) throws(SWCredError) {
        let data = try QuirksFile.read(path, maximumSize: maximumSize)
        guard let text = String(data: data, encoding: .utf8) else {
            throw SWCredError(.malformedInput, "the block list \(path) is not UTF-8 text")
        }
        self.init(text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() })
    }

    /// Whether the list is empty.
    package var isEmpty: Bool { substrings.isEmpty }

    /// Whether `password` contains a listed substring, ignoring case.
    package func blocks(_ password: String) -> Bool {
        let lowered = password.lowercased()
        return substrings.contains { lowered.contains($0) }
    }
}

extension PreparedGenerator {
    /// Generates one password that contains no substring of `blockList` (PW-3.5).
    ///
    /// A blocked candidate is regenerated whole; with a non-empty list the result's
    /// ``GeneratedPassword/entropyIsUpperBound`` is `true` and a warning says so.
    /// - Throws: `infeasible` after ``BlockList/maximumAttempts`` blocked candidates in a row; what
    ///   `source` throws.
    package func next<R: RandomSource>(using source: inout R, blockList: BlockList) throws(SWCredError)
        -> GeneratedPassword
    {
        guard !blockList.isEmpty else { return try next(using: &source) }
        for _ in 0..<BlockList.maximumAttempts {
            var generated = try next(using: &source)
            if !blockList.blocks(generated.password) {
                generated.entropyIsUpperBound = true
                generated.warnings.append(
                    "a block list is in force: \(GeneratedPassword.formatBits(generated.entropyBits)) bits is an upper bound"
                )
                return generated
            }
        }
        throw SWCredError(
            .infeasible,
            "the block list rejected \(BlockList.maximumAttempts) candidates in a row; nothing was generated")
    }
}
