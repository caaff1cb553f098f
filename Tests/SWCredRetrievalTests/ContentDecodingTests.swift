import Foundation
import SWCredAssociation
import SWCredCore
import SWCredRetrieval
import SWCredTLSTestServer
import Testing

/// Debian's gzip(1) (package gzip, priority required).
private let gzipPath = "/bin/gzip"

/// Compressed bodies (AD-4.6: the cap applies after content decoding). The compressed bytes come
/// from Debian's `gzip` at test time; a zlib ("deflate") body is the same deflate stream with a
/// zlib header and an Adler-32 trailer.
@Suite(
    "Content decoding: gzip and deflate bodies",
    .enabled(if: FileManager.default.isExecutableFile(atPath: gzipPath), "gzip is missing"))
struct ContentDecodingTests {
    static let cap = 131_072

    /// `bytes` compressed by gzip(1), without a name or time stamp in the header.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzipPath)
        process.arguments = ["-c", "-n", "-9"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(bytes))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// The zlib format (HTTP's "deflate"): header 78 DA, gzip's deflate stream, Adler-32.
    static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        let gz = try gzip(bytes)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return [0x78, 0xDA] + gz[10..<(gz.count - 8)]
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    static func encoded(_ body: [UInt8], as encoding: String) -> TestRoute {
        TestRoute(headers: [("Content-Type", "application/json"), ("Content-Encoding", encoding)], body: body)
    }

    /// A JSON association file of exactly `size` bytes.
    static func file(size: Int) -> [UInt8] {
        let head = Array(#"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"pad":""#.utf8)
        let tail = Array(#""}"#.utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: size - head.count - tail.count) + tail
    }

    @Test(
        "AD-4.6: a gzip or deflate body is decoded, parsed and counted after decoding; the request asks for both",
        arguments: ["gzip", "deflate"])
    func decodes(encoding: String) async throws {
        let plain = Self.file(size: 20_000)
        let body = encoding == "gzip" ? try Self.gzip(plain) : try Self.zlib(plain)
        #expect(body.count < 1_000)
        let (result, requests) = try await fetchOnce(routes: [wellKnown: Self.encoded(body, as: encoding)])
        #expect(result.report.accepted, "\(result.report)")
        #expect(result.body == plain)
        #expect(result.report.bytes == plain.count)
        #expect(result.report.diagnostics.contains { $0.message.contains("Content-Encoding \(encoding) decoded") })
        #expect(requests.first?.headers["accept-encoding"] == "gzip, deflate")
        var parsing = result
        #expect(parsing.parse() != nil)
    }

    @Test("AD-4.6: exactly 131072 decoded bytes are accepted; one more is refused (-1103) however small the transfer")
    func capAfterDecoding() async throws {
        let atCap = try Self.gzip(Self.file(size: Self.cap))
        let (accepted, _) = try await fetchOnce(routes: [wellKnown: Self.encoded(atCap, as: "gzip")])
        #expect(accepted.report.accepted, "\(accepted.report)")
        #expect(accepted.report.bytes == Self.cap)

        let over = try Self.gzip(Self.file(size: Self.cap + 1))
        #expect(over.count < 1_000)
        let (refused, _) = try await fetchOnce(routes: [wellKnown: Self.encoded(over, as: "gzip")])
        #expect(!refused.report.accepted)
        #expect(refused.report.failure?.code == -1103)
        #expect(refused.report.failure?.message.hasPrefix("Data exceeded maximum length of 131072 bytes.") == true)
        #expect(refused.body == nil)
    }

    @Test("AD-4.6: a compression bomb (64 MiB of zeros in 64 KiB of gzip) stops at the cap")
    func bomb() async throws {
        let bomb = try Self.gzip([UInt8](repeating: 0, count: 64 << 20))
        #expect(bomb.count < 100_000)
        let (result, _) = try await fetchOnce(routes: [wellKnown: Self.encoded(bomb, as: "gzip")])
        #expect(!result.report.accepted)
        #expect(result.report.failure?.code == -1103)
    }

    @Test("a body that is not what its Content-Encoding says is -1016 (cannot decode), not a parse error")
    func undecodable() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: Self.encoded(Array(goodAASA.utf8), as: "gzip")])
        #expect(!result.report.accepted)
        #expect(result.report.failure?.code == -1016, "\(String(describing: result.report.failure))")
        #expect(result.report.failure?.rule == .ad4_6)
    }

    @Test("a coding that was not asked for (br) is a warning; the bytes are used as received")
    func unaskedCoding() async throws {
        let (result, _) = try await fetchOnce(routes: [wellKnown: Self.encoded(Array(goodAASA.utf8), as: "br")])
        #expect(result.report.accepted)
        #expect(result.body == Array(goodAASA.utf8))
        #expect(
            result.report.diagnostics.contains {
                $0.severity == .warning && $0.message.contains("Content-Encoding 'br'")
            })
    }
}
