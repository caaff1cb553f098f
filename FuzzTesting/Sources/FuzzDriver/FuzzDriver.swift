// The libFuzzer entry point shared by every fuzz target.
//
// SwiftPM links an executable with `--defsym main=<Target>_main`, so each target's `main.swift`
// registers its body and hands control to libFuzzer through `LLVMFuzzerRunDriver`.

import Foundation

/// What one fuzz target does with one input. It must never trap on any input: a trap, a
/// timeout or a leak is a finding.
public typealias FuzzBody = @Sendable (Data) -> Void

nonisolated(unsafe) private var registeredBody: FuzzBody?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let body = registeredBody else { return 0 }
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    body(data)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments, calling `body` for each input. Never returns.
public func runFuzzer(_ body: @escaping FuzzBody) -> Never {
    registeredBody = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, { fuzzTestOneInput($0, $1) }))
}
