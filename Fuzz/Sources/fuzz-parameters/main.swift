import FuzzDriver
#if canImport(Glibc)
import Glibc
#endif

// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer's own `main` is
// not linked in: hand libFuzzer the command line and the harness here.
var argumentCount = CommandLine.argc
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { data, size in
    guard let data else { return 0 }
    return fuzzParameters(data, size)
})
