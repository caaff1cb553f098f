import Foundation

/// Runs `verify_webauthn.py` (py_webauthn and python-fido2) on a response.
enum PythonVerifier {
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("verify_webauthn.py").path
    }

    /// Whether python3 and both libraries are importable (tests skip cleanly otherwise).
    static let available: Bool = (try? run(["check"], input: Data()).status) == 0

    struct Outcome {
        let status: Int32
        let stdout: Data
        let stderr: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: stdout)) as? [String: Any] ?? [:] }
    }

    static func run(_ arguments: [String], input: Data) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
    }
}
