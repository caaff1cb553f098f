package import SWCredCore

extension GeneratedPassword {
    /// A generated password as `swcred generate --format json` prints it, one JSON line each
    /// (cli.md): `{"password","entropyBits","rules","style","secret","count","entropyIsUpperBound"}`.
    package struct Document: Encodable, Sendable {
        package let password: String
        /// H in bits, rounded to two decimals (PW-6.1).
        package let entropyBits: Double
        /// The rules in force, `null` without rules.
        @ExplicitNull package var rules: String?
        package let style: String
        /// `false` for the deterministic test source (PW-1.1).
        package let secret: Bool
        /// |V|, the number of passwords the style and rules allow, in decimal.
        package let count: String
        /// `true` when a block list made ``entropyBits`` an upper bound (PW-3.5).
        package let entropyIsUpperBound: Bool

        /// The document of `generated`.
        package init(_ generated: GeneratedPassword) {
            password = generated.password
            entropyBits = (generated.entropyBits * 100).rounded() / 100
            rules = generated.rules?.description
            style = generated.style.rawValue
            secret = generated.isSecret
            count = generated.outputCount.description
            entropyIsUpperBound = generated.entropyIsUpperBound
        }
    }
}
